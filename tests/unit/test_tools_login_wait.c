/* Unit tests of tools/login_wait.c: calls to a remote server that needs a
 * login wait for one login per server, through the execution's login
 * asker (here a fake that records what it was asked and answers on a later
 * turn, as mcp-server's does): one person asked for two calls, the waits
 * ended (completed) and both calls sent again once the tokens are stored;
 * a decline fails both with ToolAuthError and is not asked again in the
 * same execution; nobody logging in within the bound fails the call; the
 * asker's call cancelled before an answer hands the
 * question to the next waiting call; no asker, no wait. The server is
 * tests/fixtures/servers/oauth-protected.mjs (its /authorize approves at
 * once); the "browser" is a curl in the background that follows the
 * redirect to the login's loopback listener. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/gate/gate.h"
#include "tools/registry_internal.h"
#include "tools/oauth/tokens.h"
#include "tools/policy/policy.h"
#include "tools/server_config.h"
#include "tools/state/store.h"
#include "common/json.h"
#include "common/next_turn.h"
#include "support/loop_wait.h"
#include "support/node_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIXTURE "tests/fixtures/servers/oauth-protected.mjs"

static uv_loop_t loop;
static struct node_server fixture;
static char dir[64], db_path[128], url[96];
static struct tools_oauth_config cfg;
static struct tools_server_config servers[1];
static struct tools_registry *registry;

/* --- the fake login asker --------------------------------------------------------------- */

enum answer_mode { ANSWER_ACCEPT, ANSWER_DECLINE, ANSWER_NEVER };

struct handle {
    int asked, ended, completed;
    struct next_turn_item turn;
    void (*answer)(void *ud, int accepted, const char *why);
    void *ud;
    char *url;
};

static struct {
    enum answer_mode mode;
    int waits, asks, ends, completed;
    struct next_turn queue;
    struct handle *last_asked;
} asker;

static void browse(const char *u)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "curl -s -L -o /dev/null '%s' &", u);
    assert_int_equal(system(cmd), 0);
}

static void fake_answer(struct next_turn_item *it)
{
    struct handle *h = (struct handle *) ((char *) it - offsetof(struct handle, turn));
    if (asker.mode == ANSWER_ACCEPT) {
        browse(h->url); /* the person follows the link */
        h->answer(h->ud, 1, NULL);
    } else {
        h->answer(h->ud, 0, "the person declined");
    }
}

static void *fake_wait(void *self, const char *server)
{
    (void) self;
    assert_string_equal(server, "notes");
    asker.waits++;
    return calloc(1, sizeof(struct handle));
}

static void fake_ask(void *self, void *handle, const char *server, const char *u,
                     void (*answer)(void *, int, const char *), void *ud)
{
    struct handle *h = handle;
    (void) self;
    assert_string_equal(server, "notes");
    asker.asks++;
    asker.last_asked = h;
    h->asked = 1;
    h->answer = answer;
    h->ud = ud;
    h->url = strdup(u);
    if (asker.mode != ANSWER_NEVER)
        next_turn_push(&asker.queue, &h->turn, fake_answer);
}

static void fake_end(void *self, void *handle, int completed)
{
    struct handle *h = handle;
    (void) self;
    asker.ends++;
    asker.completed += completed;
    next_turn_cancel(&asker.queue, &h->turn);
    if (asker.last_asked == h)
        asker.last_asked = NULL;
    free(h->url);
    free(h);
}

static const struct tools_login_asker login_asker = {fake_wait, fake_ask, fake_end, NULL, NULL};

static void reset_asker(enum answer_mode mode)
{
    asker.mode = mode;
    asker.waits = asker.asks = asker.ends = asker.completed = 0;
}

/* --- calls ------------------------------------------------------------------------------ */

struct reply {
    int done, ok;
    cJSON *value;
};

static void on_reply(void *ud, int ok, const char *json, size_t len)
{
    struct reply *r = ud;
    r->done = 1;
    r->ok = ok;
    r->value = json_parse(json, len);
}

static int both_replied(void *arg)
{
    struct reply *r = arg;
    return r[0].done && r[1].done;
}

static const char *error_name(const struct reply *r)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r->value, "name"));
}

static const char *error_message(const struct reply *r)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r->value, "message"));
}

static struct tools_exec *new_exec(const struct tools_login_asker *la)
{
    struct tools_exec_options o = {.execution_id = "e", .principal = "p", .login = la};
    return tools_exec_new(registry, &o);
}

static void free_replies(struct reply *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(r[i].value);
}

/* --- cases ------------------------------------------------------------------------------- */

static void test_no_asker(void **state)
{
    (void) state;
    reset_asker(ANSWER_ACCEPT);
    struct tools_exec *x = new_exec(NULL);
    struct reply r[2] = {0};
    r[1].done = 1;
    tools_exec_call(x, "tool", "notes.whoami", NULL, on_reply, &r[0]);
    assert_true(loop_run_while_not(&loop, both_replied, r, 10000));
    assert_false(r[0].ok);
    assert_string_equal(error_name(&r[0]), "ToolAuthError");
    assert_non_null(strstr(error_message(&r[0]), "run: mcp-codemode login notes"));
    assert_int_equal(asker.waits, 0);
    free_replies(r, 1);
    tools_exec_free(x);
}

static void test_declined(void **state)
{
    (void) state;
    reset_asker(ANSWER_DECLINE);
    struct tools_exec *x = new_exec(&login_asker);
    struct reply r[2] = {0};
    tools_exec_call(x, "tool", "notes.whoami", NULL, on_reply, &r[0]);
    tools_exec_call(x, "tool", "notes.whoami", NULL, on_reply, &r[1]);
    assert_true(loop_run_while_not(&loop, both_replied, r, 15000));
    for (int i = 0; i < 2; i++) {
        assert_false(r[i].ok);
        assert_string_equal(error_name(&r[i]), "ToolAuthError");
        assert_non_null(strstr(error_message(&r[i]), "the person declined"));
        assert_non_null(strstr(error_message(&r[i]), "run: mcp-codemode login notes"));
    }
    assert_int_equal(asker.waits, 2);
    assert_int_equal(asker.asks, 1); /* one login for both */
    assert_int_equal(asker.ends, 2);
    assert_int_equal(asker.completed, 0);
    free_replies(r, 2);
    /* refused in this execution: not asked again */
    struct reply again[2] = {0};
    again[1].done = 1;
    tools_exec_call(x, "tool", "notes.whoami", NULL, on_reply, &again[0]);
    assert_true(loop_run_while_not(&loop, both_replied, again, 10000));
    assert_string_equal(error_name(&again[0]), "ToolAuthError");
    assert_int_equal(asker.asks, 1);
    free_replies(again, 1);
    tools_exec_free(x);
}

static int someone_asked(void *arg)
{
    (void) arg;
    return asker.last_asked != NULL;
}

static void test_asker_leaves(void **state)
{
    (void) state;
    reset_asker(ANSWER_NEVER);
    struct tools_exec *x = new_exec(&login_asker);
    struct reply r[2] = {0};
    struct tools_call *first = tools_exec_call(x, "tool", "notes.whoami", NULL, on_reply, &r[0]);
    tools_exec_call(x, "tool", "notes.whoami", NULL, on_reply, &r[1]);
    assert_true(loop_run_while_not(&loop, someone_asked, NULL, 15000));
    assert_int_equal(asker.asks, 1);
    tools_call_cancel(first); /* its program ended before the person answered */
    r[0].done = 1;
    assert_int_equal(asker.ends, 1);
    assert_int_equal(asker.asks, 2); /* the next waiting call's person */
    assert_non_null(asker.last_asked);
    /* that one accepts: the login completes, the call goes on */
    asker.mode = ANSWER_ACCEPT;
    next_turn_push(&asker.queue, &asker.last_asked->turn, fake_answer);
    assert_true(loop_run_while_not(&loop, both_replied, r, 20000));
    assert_true(r[1].ok);
    assert_string_equal(cJSON_GetStringValue(r[1].value), "you are in");
    assert_int_equal(asker.ends, 2);
    assert_int_equal(asker.completed, 1);
    free_replies(r, 2);
    tools_exec_free(x);
}

/* Nobody logs in: after the bound, ToolAuthError saying so, and the
 * unanswered question is cancelled (the wait ends, not completed). */
static void test_bound(void **state)
{
    (void) state;
    reset_asker(ANSWER_NEVER);
    registry->login_wait_ms = 300;
    struct tools_exec *x = new_exec(&login_asker);
    struct reply r[2] = {0};
    r[1].done = 1;
    tools_exec_call(x, "tool", "notes.whoami", NULL, on_reply, &r[0]);
    assert_true(loop_run_while_not(&loop, both_replied, r, 10000));
    registry->login_wait_ms = 0;
    assert_false(r[0].ok);
    assert_string_equal(error_name(&r[0]), "ToolAuthError");
    assert_non_null(strstr(error_message(&r[0]), "nobody logged in within 300 ms"));
    assert_int_equal(asker.asks, 1);
    assert_int_equal(asker.ends, 1);
    assert_int_equal(asker.completed, 0);
    free_replies(r, 1);
    tools_exec_free(x);
}

/* After the login: the server is connected with the stored tokens, a call
 * waits for nobody. */
static void test_logged_in_no_wait(void **state)
{
    (void) state;
    reset_asker(ANSWER_ACCEPT);
    struct tools_exec *x = new_exec(&login_asker);
    struct reply r[2] = {0};
    r[1].done = 1;
    tools_exec_call(x, "tool", "notes.whoami", NULL, on_reply, &r[0]);
    assert_true(loop_run_while_not(&loop, both_replied, r, 10000));
    assert_true(r[0].ok);
    assert_string_equal(cJSON_GetStringValue(r[0].value), "you are in");
    assert_int_equal(asker.waits, 0);
    free_replies(r, 1);
    tools_exec_free(x);
}

/* --- fixture ------------------------------------------------------------------------------ */

static int catalog_has_whoami(void *arg)
{
    (void) arg;
    char *c = tools_registry_catalog(registry);
    int yes = strstr(c, "whoami") != NULL;
    free(c);
    return yes;
}

static int setup(void **st)
{
    (void) st;
    snprintf(dir, sizeof dir, "/tmp/test_login_wait_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(db_path, sizeof db_path, "%s/state.db", dir);
    const char *argv[] = {"node", FIXTURE, NULL};
    assert_int_equal(node_server_start(&fixture, 0, argv, 20000), 0);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/mcp", fixture.port);
    cfg = (struct tools_oauth_config){.store_path = db_path, .send_resource = 1};
    servers[0] = (struct tools_server_config){
        .name = "notes", .url = url, .transport = TOOLS_TRANSPORT_HTTP, .oauth = &cfg};
    /* the tools it listed before: declared while it needs a login */
    struct tools_state *s = tools_oauth_store_new(&cfg);
    char err[TOOLS_STATE_ERR_MAX], *key = tools_oauth_token_key(url);
    int64_t v;
    assert_int_equal(
        tools_state_oauth_put(s, "tools", key,
                              "[{\"name\":\"whoami\",\"description\":\"who\",\"inputSchema\":"
                              "{\"type\":\"object\"}}]",
                              -1, &v, err),
        0);
    free(key);
    tools_state_free(s);
    uv_loop_init(&loop);
    next_turn_init(&loop, &asker.queue);
    struct tools_registry_options ro = {.servers = servers, .nservers = 1};
    registry = tools_registry_new(&loop, &ro);
    assert_true(loop_run_while_not(&loop, catalog_has_whoami, NULL, 20000));
    return 0;
}

static int teardown(void **st)
{
    (void) st;
    loop_wait_abort();
    tools_registry_free(registry);
    next_turn_close(&asker.queue, NULL);
    while (uv_run(&loop, UV_RUN_DEFAULT))
        ;
    assert_int_equal(uv_loop_close(&loop), 0);
    node_server_stop(&fixture);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_asker),
        cmocka_unit_test(test_declined),
        cmocka_unit_test(test_bound),
        cmocka_unit_test(test_asker_leaves),
        cmocka_unit_test(test_logged_in_no_wait),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
