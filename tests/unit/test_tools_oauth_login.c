/* Unit tests of tools/oauth/login.c as a running server uses it (a login
 * while a call waits, docs/oauth.md): the redirect URI is the server's own
 * /oauth/callback (no loopback listener), the redirect's query is handed in
 * (tools_oauth_login_expects, tools_oauth_login_redirect): only the login's
 * own state is taken, once; a registration made for that redirect URI is
 * kept (written off the loop) and reused by the next login (read off the
 * loop). The authorization server is tests/fixtures/servers/oauth-protected.mjs
 * (its /authorize approves at once and redirects); the "browser" is curl,
 * which reports the redirect without following it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/oauth/login.h"
#include "tools/oauth/tokens.h"
#include "tools/server_config.h"
#include "tools/state/store.h"
#include "support/node_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#define FIXTURE  "tests/fixtures/servers/oauth-protected.mjs"
#define CALLBACK "https://codemode.example/oauth/callback"

static struct node_server fixture;
static char dir[64], db_path[128], url[96];
static struct tools_oauth_config cfg;
static struct tools_server_config srv;

struct seen {
    char *authorize_url;
    char *query; /* of the redirect the "browser" got */
    const char *page;
    int done, ok;
    char message[512];
    int wrong_state_taken, taken_twice;
    const char *bad_query; /* handed in instead of the real one, when set */
    struct tools_oauth_login *l;
};

/* The browser: GET url, report where the authorization server redirects. */
static char *redirect_of(const char *u)
{
    char cmd[4096], line[4096];
    snprintf(cmd, sizeof cmd, "curl -s -o /dev/null -w '%%{redirect_url}' '%s'", u);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *got = fgets(line, sizeof line, p) ? strdup(line) : NULL;
    pclose(p);
    return got;
}

static void on_authorize(void *ud, const char *u)
{
    struct seen *s = ud;
    s->authorize_url = strdup(u);
    char *to = redirect_of(u);
    assert_non_null(to);
    assert_true(strncmp(to, CALLBACK "?", strlen(CALLBACK) + 1) == 0);
    s->query = strdup(strchr(to, '?') + 1);
    free(to);
    s->wrong_state_taken = tools_oauth_login_expects(s->l, "code=x&state=not-this-login");
    if (s->bad_query) {
        s->page = tools_oauth_login_redirect(s->l, s->bad_query);
        return;
    }
    assert_true(tools_oauth_login_expects(s->l, s->query));
    s->page = tools_oauth_login_redirect(s->l, s->query);
    s->taken_twice = tools_oauth_login_expects(s->l, s->query); /* a state is good once */
}

static void on_done(void *ud, int ok, const char *message)
{
    struct seen *s = ud;
    s->done = 1;
    s->ok = ok;
    snprintf(s->message, sizeof s->message, "%s", message ? message : "");
}

static const struct tools_oauth_login_events events = {on_authorize, on_done};

static void run_login(uv_loop_t *loop, struct seen *s)
{
    s->l = tools_oauth_login_start_at(loop, &srv, CALLBACK, NULL, &events, s);
    assert_non_null(s->l);
    while (!s->done)
        uv_run(loop, UV_RUN_ONCE);
    tools_oauth_login_free(s->l);
    uv_run(loop, UV_RUN_DEFAULT); /* its handles and store operations end */
}

static void free_seen(struct seen *s)
{
    free(s->authorize_url);
    free(s->query);
}

/* The fixture's count of dynamic registrations. */
static int registrations(void)
{
    char cmd[256], line[1024];
    snprintf(cmd, sizeof cmd, "curl -s http://127.0.0.1:%d/log", fixture.port);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int n = -1;
    if (fgets(line, sizeof line, p)) {
        const char *r = strstr(line, "\"registrations\":");
        n = r ? atoi(r + strlen("\"registrations\":")) : -1;
    }
    pclose(p);
    return n;
}

static void test_public_callback(void **state)
{
    (void) state;
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    run_login(&loop, &s);
    assert_true(s.ok);
    assert_non_null(strstr(s.message, "logged in to notes"));
    assert_non_null(
        strstr(s.authorize_url, "redirect_uri=https%3A%2F%2Fcodemode.example%2Foauth%2Fcallback"));
    assert_non_null(strstr(s.authorize_url, "code_challenge_method=S256"));
    assert_false(s.wrong_state_taken);
    assert_false(s.taken_twice);
    assert_non_null(strstr(s.page, "Logged in"));
    assert_int_equal(registrations(), 1);

    /* the tokens are in the store */
    struct tools_state *st = tools_oauth_store_new(&cfg);
    char err[TOOLS_STATE_ERR_MAX], *key = tools_oauth_token_key(url);
    int64_t v;
    cJSON *row = tools_oauth_row_read(st, key, &v, err);
    assert_non_null(row);
    assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(row, "access_token")));
    cJSON_Delete(row);
    free(key);
    tools_state_free(st);

    /* the next login reuses the registration kept for this redirect URI */
    struct seen again = {0};
    run_login(&loop, &again);
    assert_true(again.ok);
    assert_int_equal(registrations(), 1);
    free_seen(&s);
    free_seen(&again);
    assert_int_equal(uv_loop_close(&loop), 0);
}

static void test_state_mismatch(void **state)
{
    (void) state;
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {.bad_query = "code=abc&state=forged"};
    run_login(&loop, &s);
    assert_false(s.ok);
    assert_non_null(strstr(s.message, "server notes: the authorization response's state"));
    assert_non_null(strstr(s.page, "Refused"));
    free_seen(&s);
    assert_int_equal(uv_loop_close(&loop), 0);
}

static int setup(void **st)
{
    (void) st;
    snprintf(dir, sizeof dir, "/tmp/test_oauth_login_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(db_path, sizeof db_path, "%s/state.db", dir);
    const char *argv[] = {"node", FIXTURE, NULL};
    assert_int_equal(node_server_start(&fixture, 0, argv, 20000), 0);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/mcp", fixture.port);
    cfg = (struct tools_oauth_config){.store_path = db_path, .send_resource = 1};
    srv = (struct tools_server_config){
        .name = "notes", .url = url, .transport = TOOLS_TRANSPORT_HTTP, .oauth = &cfg};
    return 0;
}

static int teardown(void **st)
{
    (void) st;
    node_server_stop(&fixture);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_public_callback),
        cmocka_unit_test(test_state_mismatch),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
