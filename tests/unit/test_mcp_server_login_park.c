/* Unit tests of mcp-server/execute/login_park.c, the login asker of
 * 2026-07-28 (stateless) executions, with the execution and park.c
 * replaced by stubs (the request each execution answers, its clock pauses,
 * the parks asked for): no wait without elicitation.url in the request's
 * capabilities or when the clock cannot be paused; the question parks the
 * request and becomes one URL-mode elicitation among that execution's
 * inputRequests; answers that are not elicitation results are named and
 * nothing is answered; accept hands the login on (no longer asked), decline
 * and cancel say which, answers for other executions or keys are ignored;
 * the end of a wait resumes the clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/execute/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- stubs of execute.c and park.c ----------------------------------------------------------- */

struct mcp_execution {
    struct mcp_request *req;
    int paused; /* pauses minus resumes */
    int pause_fails;
};

static struct {
    int parks;
    struct mcp_request *parked;
    uint64_t expire_ms;
} stub;

struct mcp_request *mcp_execute_request(const struct mcp_execution *e)
{
    return e->req;
}

int mcp_execute_pause(struct mcp_execution *e, int on)
{
    if (on && e->pause_fails)
        return -1;
    e->paused += on ? 1 : -1;
    return 0;
}

void mcp_park_ask(struct mcp_request *r, uint64_t expire_ms)
{
    stub.parks++;
    stub.parked = r;
    stub.expire_ms = expire_ms;
}

/* --- the answers the login (tools/login_wait.c) gets -------------------------------------- */

struct answers {
    int n, accepted;
    char why[128];
    struct tools_login_asker *la; /* set: a refusal ends the wait, as login_wait.c does */
    void *handle;
};

static void answer(void *ud, int accepted, const char *why)
{
    struct answers *a = ud;
    a->n++;
    a->accepted = accepted;
    snprintf(a->why, sizeof a->why, "%s", why ? why : "");
    if (!accepted && a->la)
        a->la->end(a->la->self, a->handle, 0);
}

/* --- fixture ------------------------------------------------------------------------------- */

static struct mcp_server server;
static struct mcp_request req1, req2;
static struct mcp_execution ex1, ex2;

static int setup(void **state)
{
    (void) state;
    memset(&server, 0, sizeof server);
    memset(&stub, 0, sizeof stub);
    memset(&req1, 0, sizeof req1);
    memset(&req2, 0, sizeof req2);
    req1.server = req2.server = &server;
    req1.can_elicit_url = req2.can_elicit_url = 1;
    ex1 = (struct mcp_execution){.req = &req1};
    ex2 = (struct mcp_execution){.req = &req2};
    return 0;
}

static const char *only_key(const cJSON *reqs)
{
    assert_non_null(reqs);
    assert_non_null(reqs->child);
    assert_null(reqs->child->next);
    return reqs->child->string;
}

static cJSON *parse(const char *text)
{
    cJSON *j = cJSON_Parse(text);
    assert_non_null(j);
    return j;
}

/* --- tests --------------------------------------------------------------------------------- */

static void test_no_wait_without_url_mode_or_room(void **state)
{
    (void) state;
    struct tools_login_asker la = mcp_login_park_asker(&ex1);
    req1.can_elicit_url = 0;
    req1.can_elicit = 1; /* form mode only */
    assert_null(la.wait(la.self, "notes"));
    req1.can_elicit_url = 1;
    ex1.pause_fails = 1;
    assert_null(la.wait(la.self, "notes"));
    assert_int_equal(ex1.paused, 0);
    assert_null(server.login_parks);
    assert_null(mcp_login_park__input_requests(&server, &ex1, NULL));
}

static void test_the_question_parks_and_is_an_input_request(void **state)
{
    (void) state;
    struct tools_login_asker la = mcp_login_park_asker(&ex1);
    struct answers a = {0};
    void *h = la.wait(la.self, "notes");
    assert_non_null(h);
    assert_int_equal(ex1.paused, 1);
    assert_null(mcp_login_park__input_requests(&server, &ex1, NULL)); /* not asked yet */
    la.ask(la.self, h, "notes", "https://as.example/authorize?state=x", answer, &a);
    assert_int_equal(stub.parks, 1);
    assert_ptr_equal(stub.parked, &req1);
    assert_true(stub.expire_ms >= 10 * 60 * 1000); /* at least as long as a login waits */
    assert_int_equal(a.n, 0);                      /* nothing answered inside ask */

    cJSON *reqs = mcp_login_park__input_requests(&server, &ex1, NULL);
    const char *key = only_key(reqs);
    assert_int_equal(strncmp(key, "login-", 6), 0);
    const cJSON *one = reqs->child;
    assert_string_equal(cJSON_GetObjectItem(one, "method")->valuestring, "elicitation/create");
    const cJSON *p = cJSON_GetObjectItem(one, "params");
    assert_string_equal(cJSON_GetObjectItem(p, "mode")->valuestring, "url");
    assert_string_equal(cJSON_GetObjectItem(p, "url")->valuestring,
                        "https://as.example/authorize?state=x");
    const char *id = cJSON_GetObjectItem(p, "elicitationId")->valuestring;
    assert_int_equal(strlen(id), 32);
    assert_int_equal(strspn(id, "0123456789abcdef"), 32);
    assert_non_null(strstr(cJSON_GetObjectItem(p, "message")->valuestring, "\"notes\" needs you"));
    /* appended to what is asked already (approvals), and not to another execution's */
    cJSON *with = mcp_login_park__input_requests(&server, &ex1, parse("{\"approval-1\":{}}"));
    assert_non_null(cJSON_GetObjectItem(with, "approval-1"));
    assert_non_null(cJSON_GetObjectItem(with, key));
    assert_null(mcp_login_park__input_requests(&server, &ex2, NULL));
    cJSON_Delete(with);
    cJSON_Delete(reqs);

    la.end(la.self, h, 0);
    assert_int_equal(ex1.paused, 0);
    assert_null(server.login_parks);
    assert_int_equal(a.n, 0);
}

static void test_malformed_answers_are_named(void **state)
{
    (void) state;
    struct tools_login_asker la = mcp_login_park_asker(&ex1);
    struct answers a = {0};
    void *h = la.wait(la.self, "notes");
    la.ask(la.self, h, "notes", "https://as.example/a", answer, &a);
    cJSON *reqs = mcp_login_park__input_requests(&server, &ex1, NULL);
    char key[32], text[160], msg[400];
    snprintf(key, sizeof key, "%s", only_key(reqs));
    cJSON_Delete(reqs);
    const char *bad[] = {"\"accept\"",        "{}",   "{\"action\":\"maybe\"}",
                         "{\"action\":true}", "null", "[]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "{\"%s\":%s}", key, bad[i]);
        cJSON *resp = parse(text);
        const char *why = mcp_login_park__check_inputs(&server, &ex1, resp, msg, sizeof msg);
        assert_non_null(why);
        char want[80];
        snprintf(want, sizeof want, "inputResponses[\"%s\"] answers a login", key);
        assert_non_null(strstr(why, want));
        assert_non_null(strstr(why, "retry with the same requestState"));
        cJSON_Delete(resp);
    }
    /* valid answers, other keys, another execution's view, nothing: no complaint */
    const char *fine[] = {"{\"%s\":{\"action\":\"accept\"}}", "{\"%s\":{\"action\":\"decline\"}}",
                          "{\"%s\":{\"action\":\"cancel\",\"content\":{}}}",
                          "{\"other-%s\":\"junk\"}"};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        snprintf(text, sizeof text, fine[i], key);
        cJSON *resp = parse(text);
        assert_null(mcp_login_park__check_inputs(&server, &ex1, resp, msg, sizeof msg));
        cJSON_Delete(resp);
    }
    snprintf(text, sizeof text, "{\"%s\":\"junk\"}", key);
    cJSON *resp = parse(text);
    assert_null(mcp_login_park__check_inputs(&server, &ex2, resp, msg, sizeof msg));
    cJSON_Delete(resp);
    assert_null(mcp_login_park__check_inputs(&server, &ex1, NULL, msg, sizeof msg));
    assert_int_equal(a.n, 0);
    la.end(la.self, h, 0);
}

static void test_accept_then_the_login_completes(void **state)
{
    (void) state;
    struct tools_login_asker la = mcp_login_park_asker(&ex1);
    struct answers a = {0};
    void *h = la.wait(la.self, "notes");
    la.ask(la.self, h, "notes", "https://as.example/a", answer, &a);
    cJSON *reqs = mcp_login_park__input_requests(&server, &ex1, NULL);
    char text[96];
    snprintf(text, sizeof text, "{\"%s\":{\"action\":\"accept\"}}", only_key(reqs));
    cJSON_Delete(reqs);
    cJSON *resp = parse(text);
    mcp_login_park__answer_inputs(&server, &ex2, resp); /* another execution's retry */
    assert_int_equal(a.n, 0);
    mcp_login_park__answer_inputs(&server, &ex1, resp);
    assert_int_equal(a.n, 1);
    assert_int_equal(a.accepted, 1);
    assert_string_equal(a.why, "");
    assert_null(mcp_login_park__input_requests(&server, &ex1, NULL)); /* not asked again */
    mcp_login_park__answer_inputs(&server, &ex1, resp);               /* a second answer: ignored */
    assert_int_equal(a.n, 1);
    cJSON_Delete(resp);
    assert_int_equal(ex1.paused, 1); /* the clock stays stopped until the login ends */
    la.end(la.self, h, 1);
    assert_int_equal(ex1.paused, 0);
    assert_null(server.login_parks);
}

static void test_decline_and_cancel_say_which(void **state)
{
    (void) state;
    const char *actions[] = {"decline", "cancel"};
    const char *whys[] = {"the person declined", "the person cancelled"};
    for (int i = 0; i < 2; i++) {
        struct tools_login_asker la = mcp_login_park_asker(&ex1);
        struct tools_login_asker la2 = mcp_login_park_asker(&ex2);
        struct answers a = {0}, other = {0};
        void *h = la.wait(la.self, "notes");
        void *h2 = la2.wait(la2.self, "other"); /* another execution's login, asked too */
        la2.ask(la2.self, h2, "other", "https://as.example/b", answer, &other);
        a.la = &la;
        a.handle = h;
        la.ask(la.self, h, "notes", "https://as.example/a", answer, &a);
        cJSON *reqs = mcp_login_park__input_requests(&server, &ex1, NULL);
        char text[96];
        snprintf(text, sizeof text, "{\"%s\":{\"action\":\"%s\"}}", only_key(reqs), actions[i]);
        cJSON_Delete(reqs);
        cJSON *resp = parse(text);
        mcp_login_park__answer_inputs(&server, &ex1, resp); /* the answer ends the wait */
        cJSON_Delete(resp);
        assert_int_equal(a.n, 1);
        assert_int_equal(a.accepted, 0);
        assert_string_equal(a.why, whys[i]);
        assert_int_equal(ex1.paused, 0);
        assert_int_equal(other.n, 0);
        cJSON *still = mcp_login_park__input_requests(&server, &ex2, NULL);
        assert_non_null(still);
        cJSON_Delete(still);
        la2.end(la2.self, h2, 0);
        assert_null(server.login_parks);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_no_wait_without_url_mode_or_room, setup),
        cmocka_unit_test_setup(test_the_question_parks_and_is_an_input_request, setup),
        cmocka_unit_test_setup(test_malformed_answers_are_named, setup),
        cmocka_unit_test_setup(test_accept_then_the_login_completes, setup),
        cmocka_unit_test_setup(test_decline_and_cancel_say_which, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
