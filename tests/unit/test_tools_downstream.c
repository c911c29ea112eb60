/* Unit tests of one downstream stdio connection (tools/downstream/) on a
 * real libuv loop against real child processes: the misbehaving fixture
 * server (tests/fixtures/servers/misbehaving.mjs: crash mid-call, hang,
 * garbage on stdout, 20 MB results, list_changed, pagination, tasks, both
 * protocol eras) and the pinned reference servers (server-everything,
 * server-filesystem, server-memory; `cd tests && npm ci` installs them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/downstream/downstream.h"
#include "mcp-server/config/config.h"
#include "common/alloc.h"
#include "common/log.h"
#include "support/loop_wait.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIXTURE    "tests/fixtures/servers/misbehaving.mjs"
#define EVERYTHING "tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
#define FILESYSTEM "tests/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
#define MEMORY     "tests/node_modules/@modelcontextprotocol/server-memory/dist/index.js"

static uv_loop_t loop;
static char root[PATH_MAX];

/* --- harness ---------------------------------------------------------------------------------- */

/* Moves to the repository root (the tests name files relative to it). */
static void go_to_root(void)
{
    char path[PATH_MAX];
    if (access(FIXTURE, R_OK) != 0) {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        if (n > 0) {
            path[n] = '\0';
            for (int up = 0; up < 4; up++) {
                char *slash = strrchr(path, '/');
                if (slash == NULL)
                    break;
                *slash = '\0';
                if (chdir(path) == 0 && access(FIXTURE, R_OK) == 0)
                    break;
            }
        }
    }
    if (getcwd(root, sizeof root) == NULL || access(FIXTURE, R_OK) != 0) {
        fprintf(stderr, "test_tools_downstream: run from the repository root\n");
        exit(1);
    }
}

static int need_npm(void)
{
    if (access(EVERYTHING, R_OK) == 0 && access(FILESYSTEM, R_OK) == 0 && access(MEMORY, R_OK) == 0)
        return 0;
    fail_msg("the pinned npm servers are missing: run `cd tests && npm ci` first");
    return -1;
}

/* The loop waits of loop_wait.h, on this file's loop. */
static int run_until(volatile int *flag, uint64_t ms)
{
    return loop_run_until(&loop, flag, ms);
}

static void run_for(uint64_t ms)
{
    loop_run_for(&loop, ms);
}

static int setup(void **state)
{
    (void) state;
    assert_int_equal(uv_loop_init(&loop), 0);
    return 0;
}

/* --- one server under test -------------------------------------------------------------------- */

struct server {
    struct tools_server_config cfg;
    char *argv[16];
    struct tools_downstream *d;
    int ready, failed, restarting, tools_changed, states;
};

/* Servers still running, stopped by the teardown when a test failed early. */
static struct server *live[16];

static void track(struct server *s)
{
    for (int i = 0; i < 16; i++)
        if (live[i] == NULL) {
            live[i] = s;
            return;
        }
    fail_msg("too many servers");
}

/* Set while the teardown stops servers a failed test left running: their
 * callbacks' data is gone with the test's stack. */
static int tearing_down;

static void on_state(void *ud, struct tools_downstream *d)
{
    struct server *s = ud;
    if (tearing_down)
        return;
    struct tools_downstream_status st;
    tools_downstream_status(d, &st);
    s->states++;
    s->ready = st.state == TOOLS_DOWNSTREAM_READY;
    s->failed = st.state == TOOLS_DOWNSTREAM_FAILED;
    if (st.state == TOOLS_DOWNSTREAM_RESTARTING)
        s->restarting++;
}

static void on_tools(void *ud, struct tools_downstream *d)
{
    struct server *s = ud;
    (void) d;
    if (tearing_down)
        return;
    s->tools_changed++;
}

static const struct tools_downstream_events events = {on_state, on_tools};

static struct tools_downstream_options fast_options(void)
{
    struct tools_downstream_options o = {0};
    o.backoff_initial_ms = 200;
    o.backoff_max_ms = 2000;
    o.close_grace_ms = 300;
    o.request_timeout_ms = 5000;
    o.probe_timeout_ms = 10000; /* node may start slowly on a busy machine */
    o.client_version = "test";
    o.stderr_level = -1; /* server stderr at debug: quiet tests */
    return o;
}

/* Starts `command args...` (NULL-terminated) as server `name`. */
static void start_opts(struct server *s, const char *name, const struct tools_downstream_options *o,
                       const char *command, ...)
{
    memset(s, 0, sizeof *s);
    va_list ap;
    va_start(ap, command);
    int n = 0;
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL && n < 15)
        s->argv[n++] = (char *) a;
    va_end(ap);
    s->argv[n] = NULL;
    s->cfg.name = (char *) name;
    s->cfg.transport = TOOLS_TRANSPORT_STDIO;
    s->cfg.command = (char *) command;
    s->cfg.args = s->argv;
    s->d = tools_downstream_new(&loop, &s->cfg, o, &events, s);
    track(s);
}

/* Starts s as configured in s->cfg. */
static void start_cfg(struct server *s)
{
    struct tools_downstream_options o = fast_options();
    s->d = tools_downstream_new(&loop, &s->cfg, &o, &events, s);
    track(s);
}

#define start(s, name, ...)                                                                        \
    do {                                                                                           \
        struct tools_downstream_options o_ = fast_options();                                       \
        start_opts(s, name, &o_, __VA_ARGS__, NULL);                                               \
    } while (0)

static void stop(struct server *s)
{
    for (int i = 0; i < 16; i++)
        if (live[i] == s)
            live[i] = NULL;
    tools_downstream_free(s->d);
    s->d = NULL;
}

static const char *protocol(struct server *s)
{
    struct tools_downstream_status st;
    tools_downstream_status(s->d, &st);
    return st.protocol_version ? st.protocol_version : "(none)";
}

static const cJSON *tool_named(struct server *s, const char *name)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, tools_downstream_tools(s->d))
    {
        if (strcmp(cJSON_GetObjectItem(t, "name")->valuestring, name) == 0)
            return t;
    }
    return NULL;
}

/* After a failed assertion, handles the test could not close. */
static void close_left_over(uv_handle_t *h, void *arg)
{
    (void) arg;
    if (!uv_is_closing(h))
        uv_close(h, NULL);
}

static int teardown(void **state)
{
    (void) state;
    tearing_down = 1;
    loop_wait_abort();
    for (int i = 0; i < 16; i++)
        if (live[i])
            stop(live[i]);
    tearing_down = 0;
    if (getenv("DOWNSTREAM_TEST_LOG"))
        uv_print_all_handles(&loop, stderr);
    uv_run(&loop, UV_RUN_DEFAULT);
    if (uv_loop_close(&loop) != 0) {
        uv_walk(&loop, close_left_over, NULL);
        uv_run(&loop, UV_RUN_DEFAULT);
        assert_int_equal(uv_loop_close(&loop), 0);
        fail_msg("handles were left open");
    }
    return 0;
}

/* --- calls ------------------------------------------------------------------------------------ */

struct reply {
    int done;
    enum tools_downstream_outcome outcome;
    char *message;
    cJSON *result;
    int code;
    uint64_t elapsed;
};

static void on_reply(void *ud, const struct tools_downstream_reply *r)
{
    struct reply *rep = ud;
    if (tearing_down)
        return;
    assert_int_equal(rep->done, 0);
    rep->done = 1;
    rep->outcome = r->outcome;
    rep->message = r->message ? xstrdup(r->message) : NULL;
    rep->result = r->result ? cJSON_Duplicate(r->result, 1) : NULL;
    rep->code = r->code;
    rep->elapsed = r->elapsed_ms;
}

static void reply_free(struct reply *r)
{
    free(r->message);
    cJSON_Delete(r->result);
    memset(r, 0, sizeof *r);
}

static struct tools_downstream_call *call_json(struct server *s, const char *tool, const char *args,
                                               uint64_t timeout, struct reply *r)
{
    cJSON *a = args ? cJSON_Parse(args) : NULL;
    memset(r, 0, sizeof *r);
    struct tools_downstream_call *c = tools_downstream_call(s->d, tool, a, timeout, on_reply, r);
    cJSON_Delete(a);
    return c;
}

/* A call the server cannot take now: answered on the loop's next turn,
 * never inside the call. */
static void call_refused(struct server *s, const char *tool, const char *args, struct reply *r)
{
    struct tools_downstream_call *c = call_json(s, tool, args, 1000, r);
    assert_non_null(c);
    assert_false(r->done);
    uv_run(&loop, UV_RUN_NOWAIT);
    assert_true(r->done);
}

/* The text of the first content item of a result. */
static const char *result_text(const struct reply *r)
{
    const cJSON *content = cJSON_GetObjectItem(r->result, "content");
    const cJSON *first = cJSON_GetArrayItem(content, 0);
    const cJSON *text = cJSON_GetObjectItem(first, "text");
    return cJSON_IsString(text) ? text->valuestring : "";
}

/* Calls and waits; asserts a result arrived. */
static void call_ok(struct server *s, const char *tool, const char *args, struct reply *r)
{
    call_json(s, tool, args, 10000, r);
    assert_true(run_until(&r->done, 15000));
    if (r->outcome != TOOLS_DOWNSTREAM_RESULT)
        fail_msg("%s: %s", tool, r->message);
}

static void wait_ready(struct server *s, uint64_t ms)
{
    if (!run_until(&s->ready, ms)) {
        struct tools_downstream_status st;
        tools_downstream_status(s->d, &st);
        fail_msg("%s not ready: %s (%s)", tools_downstream_name(s->d),
                 tools_downstream_state_name(st.state), st.reason ? st.reason : "");
    }
}

static void assert_contains(const char *hay, const char *needle)
{
    if (hay == NULL || strstr(hay, needle) == NULL)
        fail_msg("\"%s\" does not contain \"%s\"", hay ? hay : "(null)", needle);
}

/* ============================================================================================== */
/* The fixture server: connection and negotiation */
/* ============================================================================================== */

static void test_connect_legacy(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "misbehaving", "node", FIXTURE);
    struct tools_downstream_status st;
    tools_downstream_status(s.d, &st);
    assert_int_equal(st.state, TOOLS_DOWNSTREAM_CONNECTING);
    assert_int_equal(s.states, 0); /* nothing happens inside tools_downstream_new */
    wait_ready(&s, 10000);
    tools_downstream_status(s.d, &st);
    assert_string_equal(st.protocol_version, "2025-11-25");
    assert_string_equal(st.server_name, "misbehaving");
    assert_string_equal(st.server_version, "1.2.3");
    assert_string_equal(st.instructions, "test server");
    assert_int_equal(st.attempts, 1);
    assert_true(st.pid > 0);
    assert_int_equal(s.tools_changed, 1);
    /* 12 tools, one of which (needs_task) runs only as a task: left out. */
    assert_int_equal(cJSON_GetArraySize(tools_downstream_tools(s.d)), 11);
    assert_null(tool_named(&s, "needs_task"));
    assert_non_null(tool_named(&s, "echo"));
    const cJSON *ex = tools_downstream_excluded(s.d);
    assert_int_equal(cJSON_GetArraySize(ex), 1);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(ex, 0), "name")->valuestring,
                        "needs_task");
    struct reply r;
    call_refused(&s, "needs_task", "{}", &r);
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_RPC_ERROR);
    assert_contains(r.message, "runs only as a task");
    reply_free(&r);
    call_ok(&s, "add", "{\"a\":2,\"b\":40}", &r);
    assert_string_equal(result_text(&r), "42");
    assert_int_equal(
        cJSON_GetObjectItem(cJSON_GetObjectItem(r.result, "structuredContent"), "sum")->valueint,
        42);
    reply_free(&r);
    stop(&s);
}

static void test_connect_modern(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "modern", "node", FIXTURE, "--modern");
    wait_ready(&s, 10000);
    assert_string_equal(protocol(&s), "2026-07-28");
    struct tools_downstream_status st;
    tools_downstream_status(s.d, &st);
    assert_string_equal(st.server_version, "9.9.9");
    struct reply r;
    call_ok(&s, "echo", "{\"text\":\"hi\"}", &r); /* the server insists on _meta */
    assert_string_equal(result_text(&r), "{\"text\":\"hi\"}");
    reply_free(&r);
    /* input_required with only a requestState: retried with the state. */
    call_ok(&s, "input_once", NULL, &r);
    assert_string_equal(result_text(&r), "got the state back");
    reply_free(&r);
    /* list_changed arrives on the subscriptions/listen stream. */
    int before = s.tools_changed;
    call_ok(&s, "change_tools", NULL, &r);
    reply_free(&r);
    while (s.tools_changed == before && run_until(&s.tools_changed, 100) == before)
        ;
    assert_true(s.tools_changed > before);
    assert_non_null(tool_named(&s, "added_1"));
    stop(&s);
}

static void test_discover_fallbacks(void **state)
{
    (void) state;
    struct tools_downstream_options o = fast_options();
    o.probe_timeout_ms = 300;
    static struct server silent, exits, unsupported;
    start_opts(&silent, "silent", &o, "node", FIXTURE, "--discover", "silent", NULL);
    start_opts(&exits, "exits", &o, "node", FIXTURE, "--discover", "exit", NULL);
    start_opts(&unsupported, "unsupported", &o, "node", FIXTURE, "--discover", "unsupported", NULL);
    wait_ready(&silent, 10000);
    wait_ready(&exits, 10000);
    wait_ready(&unsupported, 10000);
    struct tools_downstream_status st;
    tools_downstream_status(silent.d, &st);
    assert_string_equal(st.protocol_version, "2025-11-25");
    assert_true(st.connect_ms >= 300); /* waited for the probe */
    tools_downstream_status(exits.d, &st);
    assert_int_equal(st.attempts, 2); /* died of the probe; the second attempt skips it */
    assert_string_equal(st.protocol_version, "2025-11-25");
    tools_downstream_status(unsupported.d, &st);
    assert_int_equal(st.attempts, 1);
    assert_string_equal(st.protocol_version, "2025-11-25");
    stop(&silent);
    stop(&exits);
    stop(&unsupported);
}

static void test_no_common_version(void **state)
{
    (void) state;
    static struct server modern_only, old;
    start(&modern_only, "future", "node", FIXTURE, "--discover", "unsupported-only");
    start(&old, "old", "node", FIXTURE, "--protocol", "1999-01-01");
    assert_true(run_until(&modern_only.failed, 10000));
    assert_true(run_until(&old.failed, 10000));
    struct tools_downstream_status st;
    tools_downstream_status(modern_only.d, &st);
    assert_contains(st.reason, "[\"2099-01-01\"]");
    tools_downstream_status(old.d, &st);
    assert_contains(st.reason, "\"1999-01-01\", which mcp-codemode does not speak");
    struct reply r;
    call_refused(&old, "echo", NULL, &r);
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_DOWN);
    assert_contains(r.message, "server 'old' is unavailable: it answered initialize");
    reply_free(&r);
    stop(&modern_only);
    stop(&old);
}

static void test_pagination(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "pages", "node", FIXTURE, "--page-size", "3", "--extra-tools", "20");
    wait_ready(&s, 10000);
    const cJSON *tools = tools_downstream_tools(s.d);
    assert_int_equal(cJSON_GetArraySize(tools), 11 + 20);
    /* In the server's order across pages. */
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(tools, 0), "name")->valuestring,
                        "echo");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(tools, 11), "name")->valuestring,
                        "gen_000");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(tools, 30), "name")->valuestring,
                        "gen_019");
    stop(&s);
}

static void test_list_error(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "nolist", "node", FIXTURE, "--list-error");
    wait_ready(&s, 10000);
    assert_int_equal(cJSON_GetArraySize(tools_downstream_tools(s.d)), 0);
    struct reply r;
    call_ok(&s, "echo", "{\"text\":\"still callable\"}", &r);
    reply_free(&r);
    stop(&s);
}

/* ============================================================================================== */
/* Calls */
/* ============================================================================================== */

#define PARALLEL 50

static void parallel_echo(struct server *s, const char *tool, const char *key)
{
    struct reply r[PARALLEL];
    int done = 0;
    for (int i = 0; i < PARALLEL; i++) {
        char args[64];
        snprintf(args, sizeof args, "{\"%s\":\"call %d\"}", key, i);
        assert_non_null(call_json(s, tool, args, 10000, &r[i]));
    }
    for (int spins = 0; spins < 2000 && done < PARALLEL; spins++) {
        uv_run(&loop, UV_RUN_ONCE);
        done = 0;
        for (int i = 0; i < PARALLEL; i++)
            done += r[i].done;
    }
    for (int i = 0; i < PARALLEL; i++) {
        char want[32];
        snprintf(want, sizeof want, "call %d", i);
        assert_true(r[i].done);
        assert_int_equal(r[i].outcome, TOOLS_DOWNSTREAM_RESULT);
        assert_contains(result_text(&r[i]), want);
        if (strstr(result_text(&r[i]), want)[strlen(want)] != '"' &&
            strstr(result_text(&r[i]), want)[strlen(want)] != '\0')
            fail_msg("reply %d carries another call's text: %s", i, result_text(&r[i]));
        reply_free(&r[i]);
    }
}

static void test_parallel_calls(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "misbehaving", "node", FIXTURE);
    wait_ready(&s, 10000);
    parallel_echo(&s, "echo", "text");
    stop(&s);
}

static void test_queued_while_connecting(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "late", "node", FIXTURE, "--start-delay", "400");
    struct reply quick, patient;
    assert_non_null(call_json(&s, "echo", "{\"text\":\"waited\"}", 10000, &patient));
    assert_non_null(call_json(&s, "echo", "{}", 150, &quick));
    assert_true(run_until(&quick.done, 5000));
    assert_int_equal(quick.outcome, TOOLS_DOWNSTREAM_TIMEOUT);
    assert_contains(quick.message, "server 'late' did not return a result for 'echo' within 150 ms "
                                   "(it was still connecting)");
    assert_true(run_until(&patient.done, 10000));
    assert_int_equal(patient.outcome, TOOLS_DOWNSTREAM_RESULT);
    assert_string_equal(result_text(&patient), "{\"text\":\"waited\"}");
    reply_free(&quick);
    reply_free(&patient);
    stop(&s);
}

static int cancellations(struct server *s)
{
    struct reply r;
    call_ok(s, "cancellations", NULL, &r);
    cJSON *list = cJSON_Parse(result_text(&r));
    int n = cJSON_GetArraySize(list);
    cJSON_Delete(list);
    reply_free(&r);
    return n;
}

static void test_hang_times_out(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "misbehaving", "node", FIXTURE);
    wait_ready(&s, 10000);
    struct reply r, other;
    call_json(&s, "hang", NULL, 300, &r);
    call_json(&s, "sleep", "{\"ms\":50}", 5000, &other);
    assert_true(run_until(&r.done, 5000));
    assert_true(other.done); /* the hung call did not hold up the others */
    assert_int_equal(other.outcome, TOOLS_DOWNSTREAM_RESULT);
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_TIMEOUT);
    assert_string_equal(r.message, "server 'misbehaving' did not return a result for 'hang' within "
                                   "300 ms; the call was cancelled");
    assert_in_range(r.elapsed, 290, 1000);
    assert_int_equal(cancellations(&s), 1); /* notifications/cancelled reached the server */
    reply_free(&r);
    reply_free(&other);
    stop(&s);
}

static void test_entry_timeout(void **state)
{
    (void) state;
    static struct server s;
    memset(&s, 0, sizeof s);
    s.argv[0] = FIXTURE;
    s.cfg.name = "slowish";
    s.cfg.transport = TOOLS_TRANSPORT_STDIO;
    s.cfg.command = "node";
    s.cfg.args = s.argv;
    s.cfg.timeout_ms = 200;
    start_cfg(&s);
    wait_ready(&s, 10000);
    struct reply r;
    call_json(&s, "hang", NULL, 0, &r);
    assert_true(run_until(&r.done, 5000));
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_TIMEOUT);
    assert_contains(r.message, "within 200 ms");
    reply_free(&r);
    stop(&s);
}

static void test_cancel(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "misbehaving", "node", FIXTURE);
    wait_ready(&s, 10000);
    struct reply r;
    struct tools_downstream_call *c = call_json(&s, "hang", NULL, 5000, &r);
    assert_non_null(c);
    run_for(50);
    tools_downstream_call_cancel(c, "the execution was cancelled");
    assert_int_equal(cancellations(&s), 1);
    assert_false(r.done); /* never called back */
    struct tools_downstream_status st;
    tools_downstream_status(s.d, &st);
    assert_int_equal(st.calls_in_flight, 0);
    stop(&s);
}

static void test_garbage_on_stdout(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "misbehaving", "node", FIXTURE);
    wait_ready(&s, 10000);
    struct reply g, e;
    call_json(&s, "garbage", NULL, 5000, &g);
    call_json(&s, "echo", "{\"text\":\"fine\"}", 5000, &e);
    assert_true(run_until(&g.done, 5000));
    assert_true(run_until(&e.done, 5000));
    assert_int_equal(g.outcome, TOOLS_DOWNSTREAM_RESULT);
    assert_string_equal(result_text(&g), "after the garbage");
    assert_string_equal(result_text(&e), "{\"text\":\"fine\"}");
    reply_free(&g);
    reply_free(&e);
    assert_true(s.ready);
    stop(&s);
}

static void test_big_results(void **state)
{
    (void) state;
    struct tools_downstream_options o = fast_options();
    static struct server roomy, tight;
    o.max_message_bytes = 32u << 20;
    start_opts(&roomy, "roomy", &o, "node", FIXTURE, NULL);
    o.max_message_bytes = 8u << 20;
    start_opts(&tight, "tight", &o, "node", FIXTURE, NULL);
    wait_ready(&roomy, 10000);
    wait_ready(&tight, 10000);
    struct reply a, b;
    call_json(&roomy, "big", "{\"bytes\":20000000}", 20000, &a);
    call_json(&tight, "big", "{\"bytes\":20000000}", 20000, &b);
    assert_true(run_until(&a.done, 20000));
    assert_true(run_until(&b.done, 20000));
    assert_int_equal(a.outcome, TOOLS_DOWNSTREAM_RESULT);
    assert_int_equal(strlen(result_text(&a)), 20000000);
    fprintf(stderr, "  20 MB result delivered in %llu ms; refused over an 8 MiB cap in %llu ms\n",
            (unsigned long long) a.elapsed, (unsigned long long) b.elapsed);
    assert_int_equal(b.outcome, TOOLS_DOWNSTREAM_TOO_LARGE);
    assert_contains(b.message, "server 'tight': the result of 'big' is too large (20000");
    assert_contains(b.message, "the limit is 8388608 bytes");
    reply_free(&a);
    reply_free(&b);
    call_ok(&tight, "echo", "{\"text\":\"after\"}", &a); /* still serving */
    reply_free(&a);
    stop(&roomy);
    stop(&tight);
}

/* A server that stops reading: what we write piles up to the cap, then new
 * calls are refused instead of growing the queue without bound. */
static void test_server_stops_reading(void **state)
{
    (void) state;
    struct tools_downstream_options o = fast_options();
    o.max_message_bytes = 1u << 20;
    static struct server s;
    start_opts(&s, "deaf", &o, "node", FIXTURE, "--deaf", NULL);
    wait_ready(&s, 10000);
    static char text[300001];
    memset(text, 'a', sizeof text - 1);
    cJSON *args = cJSON_CreateObject();
    cJSON_AddStringToObject(args, "text", text);
    struct reply r[8];
    int refused = -1;
    for (int i = 0; i < 8 && refused < 0; i++) {
        memset(&r[i], 0, sizeof r[i]);
        assert_non_null(tools_downstream_call(s.d, "echo", args, 300, on_reply, &r[i]));
        assert_false(r[i].done); /* never inside the call */
        uv_run(&loop, UV_RUN_NOWAIT);
        if (r[i].done) /* refused: answered on the next turn */
            refused = i;
    }
    cJSON_Delete(args);
    assert_in_range(refused, 3, 7); /* about 1 MiB went out or waits */
    assert_int_equal(r[refused].outcome, TOOLS_DOWNSTREAM_DOWN);
    assert_contains(r[refused].message, "server 'deaf' is not reading its input (");
    for (int i = 0; i < refused; i++) {
        assert_true(run_until(&r[i].done, 5000)); /* the others time out */
        assert_int_equal(r[i].outcome, TOOLS_DOWNSTREAM_TIMEOUT);
        reply_free(&r[i]);
    }
    reply_free(&r[refused]);
    stop(&s);
}

static void test_list_changed(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "misbehaving", "node", FIXTURE);
    wait_ready(&s, 10000);
    assert_int_equal(s.tools_changed, 1);
    struct reply r;
    call_ok(&s, "change_tools", NULL, &r);
    reply_free(&r);
    call_ok(&s, "change_tools", NULL, &r);
    reply_free(&r);
    for (int i = 0; i < 50 && tool_named(&s, "added_2") == NULL; i++)
        run_for(20);
    assert_non_null(tool_named(&s, "added_1"));
    assert_non_null(tool_named(&s, "added_2"));
    assert_in_range(s.tools_changed, 2, 3);
    stop(&s);
}

static void test_server_requests(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "misbehaving", "node", FIXTURE);
    wait_ready(&s, 10000);
    struct reply r;
    call_ok(&s, "ask_client", NULL, &r);
    cJSON *got = cJSON_Parse(result_text(&r));
    char *ping = cJSON_PrintUnformatted(cJSON_GetObjectItem(got, "ping"));
    char *roots = cJSON_PrintUnformatted(cJSON_GetObjectItem(got, "roots"));
    const cJSON *err = cJSON_GetObjectItem(cJSON_GetObjectItem(got, "sampling"), "error");
    assert_string_equal(ping, "{\"result\":{}}");
    assert_string_equal(roots, "{\"result\":{\"roots\":[]}}");
    assert_int_equal(cJSON_GetObjectItem(err, "code")->valueint, -32601);
    free(ping);
    free(roots);
    cJSON_Delete(got);
    reply_free(&r);
    stop(&s);
}

static void test_environment(void **state)
{
    (void) state;
    char dir[] = "/tmp/mcp-ds-env-XXXXXX", fixture[PATH_MAX + 64], real[PATH_MAX];
    assert_non_null(mkdtemp(dir));
    assert_non_null(realpath(dir, real));
    snprintf(fixture, sizeof fixture, "%s/" FIXTURE, root);
    setenv("MCP_CODEMODE_TEST_SECRET", "do-not-pass", 1);
    setenv("TERM", "xterm-test", 1);
    char *shell = getenv("SHELL") ? xstrdup(getenv("SHELL")) : NULL;
    setenv("SHELL", "() { :; }", 1); /* a shell function is never passed on */
    static struct server plain, custom;
    start(&plain, "plain", "node", FIXTURE);
    memset(&custom, 0, sizeof custom);
    char *env[] = {"EXTRA=1", "TERM=overridden", NULL};
    custom.argv[0] = fixture;
    custom.cfg.name = "custom";
    custom.cfg.transport = TOOLS_TRANSPORT_STDIO;
    custom.cfg.command = "node";
    custom.cfg.args = custom.argv;
    custom.cfg.env = env;
    custom.cfg.cwd = real;
    start_cfg(&custom);
    if (shell)
        setenv("SHELL", shell, 1);
    else
        unsetenv("SHELL");
    free(shell);
    unsetenv("MCP_CODEMODE_TEST_SECRET");
    wait_ready(&plain, 10000);
    wait_ready(&custom, 10000);
    struct reply r;
    call_ok(&custom, "env", NULL, &r);
    cJSON *got = cJSON_Parse(result_text(&r));
    const cJSON *e = cJSON_GetObjectItem(got, "env");
    assert_non_null(cJSON_GetObjectItem(e, "PATH"));
    assert_null(cJSON_GetObjectItem(e, "MCP_CODEMODE_TEST_SECRET"));
    assert_null(cJSON_GetObjectItem(e, "SHELL"));
    assert_string_equal(cJSON_GetObjectItem(e, "EXTRA")->valuestring, "1");
    assert_string_equal(cJSON_GetObjectItem(e, "TERM")->valuestring, "overridden");
    assert_string_equal(cJSON_GetObjectItem(got, "cwd")->valuestring, real);
    cJSON_Delete(got);
    reply_free(&r);
    call_ok(&plain, "env", NULL, &r); /* no env in the entry, our cwd */
    got = cJSON_Parse(result_text(&r));
    e = cJSON_GetObjectItem(got, "env");
    assert_string_equal(cJSON_GetObjectItem(e, "TERM")->valuestring, "xterm-test");
    assert_null(cJSON_GetObjectItem(e, "EXTRA"));
    assert_null(cJSON_GetObjectItem(e, "MCP_CODEMODE_TEST_SECRET"));
    assert_string_equal(cJSON_GetObjectItem(got, "cwd")->valuestring, root);
    cJSON_Delete(got);
    reply_free(&r);
    stop(&plain);
    stop(&custom);
    rmdir(real);
}

/* ============================================================================================== */
/* Crashes, restarts, start-up failures */
/* ============================================================================================== */

static void test_crash_mid_call(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "misbehaving", "node", FIXTURE);
    wait_ready(&s, 10000);
    struct reply crash, bystander, fast;
    call_json(&s, "crash", NULL, 5000, &crash);
    call_json(&s, "hang", NULL, 5000, &bystander);
    assert_true(run_until(&crash.done, 5000));
    assert_true(bystander.done);
    assert_int_equal(crash.outcome, TOOLS_DOWNSTREAM_DOWN);
    assert_string_equal(crash.message, "server 'misbehaving' went down during the call to 'crash': "
                                       "it exited with status 3; its last stderr line: "
                                       "\"crashing on purpose\"");
    assert_int_equal(bystander.outcome, TOOLS_DOWNSTREAM_DOWN);
    assert_contains(bystander.message, "during the call to 'hang'");
    /* Restarting: calls fail fast and say when the next attempt is. */
    struct tools_downstream_status st;
    tools_downstream_status(s.d, &st);
    assert_int_equal(st.state, TOOLS_DOWNSTREAM_RESTARTING);
    assert_in_range(st.retry_in_ms, 1, 200);
    call_refused(&s, "echo", NULL, &fast);
    assert_int_equal(fast.outcome, TOOLS_DOWNSTREAM_DOWN);
    assert_contains(fast.message, "server 'misbehaving' is unavailable: it exited with status 3");
    assert_contains(fast.message, "the next restart is in");
    reply_free(&fast);
    /* It comes back, and works. */
    s.ready = 0;
    wait_ready(&s, 10000);
    tools_downstream_status(s.d, &st);
    assert_int_equal(st.attempts, 2);
    call_ok(&s, "echo", "{\"text\":\"back\"}", &fast);
    reply_free(&fast);
    /* A second crash soon after: the delay doubles. */
    reply_free(&crash);
    call_json(&s, "crash", NULL, 5000, &crash);
    assert_true(run_until(&crash.done, 5000));
    tools_downstream_status(s.d, &st);
    assert_int_equal(st.failures, 2);
    assert_in_range(st.retry_in_ms, 201, 400);
    reply_free(&crash);
    reply_free(&bystander);
    stop(&s);
}

static void test_command_not_found(void **state)
{
    (void) state;
    static struct server missing, path, good;
    start(&missing, "missing", "no-such-command-for-mcp-codemode");
    start(&path, "abs", "/nonexistent/dir/server");
    start(&good, "good", "node", FIXTURE);
    assert_true(run_until(&missing.restarting, 5000));
    assert_true(run_until(&path.restarting, 5000));
    struct tools_downstream_status st;
    tools_downstream_status(missing.d, &st);
    assert_string_equal(
        st.reason, "cannot start \"no-such-command-for-mcp-codemode\": command not found in PATH");
    tools_downstream_status(path.d, &st);
    assert_string_equal(st.reason, "cannot start \"/nonexistent/dir/server\": no such file or "
                                   "directory");
    struct reply r;
    call_refused(&missing, "x", NULL, &r);
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_DOWN);
    assert_contains(r.message, "server 'missing' is unavailable: it cannot start");
    reply_free(&r);
    wait_ready(&good, 10000); /* unaffected */
    call_ok(&good, "echo", NULL, &r);
    reply_free(&r);
    stop(&missing);
    stop(&path);
    stop(&good);
}

static void test_crash_on_start_gives_up(void **state)
{
    (void) state;
    struct tools_downstream_options o = fast_options();
    o.backoff_initial_ms = 50;
    o.max_attempts = 3;
    static struct server s;
    start_opts(&s, "boom", &o, "node", FIXTURE, "--crash-on-start", NULL);
    assert_true(run_until(&s.failed, 10000));
    struct tools_downstream_status st;
    tools_downstream_status(s.d, &st);
    assert_int_equal(st.attempts, 3);
    assert_int_equal(s.restarting, 2);
    assert_string_equal(st.reason, "exited with status 2 while connecting; its last stderr line: "
                                   "\"boom at start\"");
    stop(&s);
}

static void test_recovers_after_failed_starts(void **state)
{
    (void) state;
    char file[] = "/tmp/mcp-ds-count-XXXXXX";
    int fd = mkstemp(file);
    assert_true(fd >= 0);
    close(fd);
    char arg[PATH_MAX + 8];
    snprintf(arg, sizeof arg, "2:%s", file);
    struct tools_downstream_options o = fast_options();
    o.backoff_initial_ms = 100;
    static struct server s;
    start_opts(&s, "flaky", &o, "node", FIXTURE, "--crash-first", arg, NULL);
    uint64_t t0 = uv_now(&loop);
    wait_ready(&s, 10000);
    uint64_t took = uv_now(&loop) - t0;
    struct tools_downstream_status st;
    tools_downstream_status(s.d, &st);
    assert_int_equal(st.attempts, 3);
    assert_true(took >= 100 + 200); /* two backoffs: 100 ms, then 200 ms */
    stop(&s);
    unlink(file);
}

static void test_shutdown_with_calls_pending(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "misbehaving", "node", FIXTURE);
    wait_ready(&s, 10000);
    struct reply r;
    call_json(&s, "hang", NULL, 5000, &r);
    run_for(20);
    stop(&s);
    assert_true(r.done);
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_DOWN);
    assert_string_equal(r.message, "server 'misbehaving' is shutting down");
    reply_free(&r);
}

/* ============================================================================================== */
/* Tasks */
/* ============================================================================================== */

static void test_tasks_fixture(void **state)
{
    (void) state;
    static struct server s;
    start(&s, "tasks", "node", FIXTURE, "--tasks");
    wait_ready(&s, 10000);
    assert_non_null(tool_named(&s, "needs_task"));
    assert_int_equal(cJSON_GetArraySize(tools_downstream_excluded(s.d)), 0);
    struct reply r;
    call_ok(&s, "needs_task", "{\"ms\":100}", &r);
    assert_string_equal(result_text(&r), "task needs_task done");
    reply_free(&r);
    /* A task that outlives its timeout is cancelled with tasks/cancel. */
    call_json(&s, "needs_task", "{\"ms\":5000}", 300, &r);
    assert_true(run_until(&r.done, 5000));
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_TIMEOUT);
    reply_free(&r);
    run_for(50);
    call_ok(&s, "cancellations", NULL, &r);
    assert_contains(result_text(&r), "\"task-");
    reply_free(&r);
    stop(&s);
}

/* ============================================================================================== */
/* The pinned reference servers */
/* ============================================================================================== */

static void test_everything(void **state)
{
    (void) state;
    if (need_npm())
        return;
    static struct server s;
    start(&s, "everything", "node", EVERYTHING);
    wait_ready(&s, 15000);
    assert_string_equal(protocol(&s), "2025-11-25");
    assert_non_null(tool_named(&s, "echo"));
    assert_non_null(tool_named(&s, "get-sum"));
    /* It registers more tools right after initialize and says so. */
    for (int i = 0; i < 100 && tool_named(&s, "simulate-research-query") == NULL; i++)
        run_for(20);
    if (tool_named(&s, "simulate-research-query") == NULL) { /* tasks are supported */
        char *all = cJSON_PrintUnformatted(tools_downstream_tools(s.d));
        fail_msg("no simulate-research-query in %.3000s", all);
    }
    assert_true(s.tools_changed >= 1); /* its list_changed after initialize changes nothing */
    struct reply r;
    call_ok(&s, "get-sum", "{\"a\":19,\"b\":23}", &r);
    assert_contains(result_text(&r), "42");
    reply_free(&r);
    parallel_echo(&s, "echo", "message");
    stop(&s);
}

static void test_everything_task(void **state)
{
    (void) state;
    if (need_npm())
        return;
    static struct server s;
    start(&s, "everything", "node", EVERYTHING);
    wait_ready(&s, 15000);
    for (int i = 0; i < 100 && tool_named(&s, "simulate-research-query") == NULL; i++)
        run_for(20);
    struct reply r;
    call_json(&s, "simulate-research-query", "{\"topic\":\"libuv\"}", 20000, &r);
    assert_true(run_until(&r.done, 20000));
    if (r.outcome != TOOLS_DOWNSTREAM_RESULT)
        fail_msg("%s", r.message);
    assert_contains(result_text(&r), "# Research Report: libuv");
    assert_in_range(r.elapsed, 3500, 10000); /* four stages of one second */
    reply_free(&r);
    stop(&s);
}

static void test_filesystem_and_memory(void **state)
{
    (void) state;
    if (need_npm())
        return;
    char dir[] = "/tmp/mcp-ds-fs-XXXXXX", mem[PATH_MAX + 32];
    assert_non_null(mkdtemp(dir));
    char real[PATH_MAX];
    assert_non_null(realpath(dir, real));
    snprintf(mem, sizeof mem, "MEMORY_FILE_PATH=%s/memory.jsonl", real);
    char *env[] = {mem, NULL};
    static struct server fs, memory;
    start(&fs, "filesystem", "node", FILESYSTEM, real);
    memset(&memory, 0, sizeof memory);
    memory.argv[0] = MEMORY;
    memory.cfg.name = "memory";
    memory.cfg.transport = TOOLS_TRANSPORT_STDIO;
    memory.cfg.command = "node";
    memory.cfg.args = memory.argv;
    memory.cfg.env = env;
    start_cfg(&memory);
    wait_ready(&fs, 15000);
    wait_ready(&memory, 15000);
    assert_non_null(tool_named(&fs, "write_file"));
    assert_non_null(tool_named(&memory, "create_entities"));
    struct reply r;
    char args[PATH_MAX + 128];
    snprintf(args, sizeof args, "{\"path\":\"%s/hello.txt\",\"content\":\"hello from C\"}", real);
    call_ok(&fs, "write_file", args, &r);
    reply_free(&r);
    snprintf(args, sizeof args, "{\"path\":\"%s/hello.txt\"}", real);
    call_ok(&fs, "read_text_file", args, &r);
    assert_contains(result_text(&r), "hello from C");
    reply_free(&r);
    call_ok(&fs, "read_text_file", "{\"path\":\"/etc/passwd\"}", &r); /* outside: isError */
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(r.result, "isError")));
    reply_free(&r);
    call_ok(&memory, "create_entities",
            "{\"entities\":[{\"name\":\"libuv\",\"entityType\":"
            "\"library\",\"observations\":[\"event loop\"]}]}",
            &r);
    reply_free(&r);
    call_ok(&memory, "read_graph", "{}", &r);
    assert_contains(result_text(&r), "event loop");
    reply_free(&r);
    stop(&fs);
    stop(&memory);
    run_for(50);
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/memory.jsonl", real);
    assert_int_equal(access(path, R_OK), 0); /* MEMORY_FILE_PATH reached it */
    unlink(path);
    snprintf(path, sizeof path, "%s/hello.txt", real);
    unlink(path);
    rmdir(real);
}

/* All servers start at once; one that cannot start does not hold the others. */
static void test_concurrent_start(void **state)
{
    (void) state;
    if (need_npm())
        return;
    char dir[] = "/tmp/mcp-ds-conc-XXXXXX";
    assert_non_null(mkdtemp(dir));
    static struct server all[5];
    uint64_t t0 = (uv_update_time(&loop), uv_now(&loop));
    start(&all[0], "everything", "node", EVERYTHING);
    start(&all[1], "filesystem", "node", FILESYSTEM, dir);
    start(&all[2], "memory", "node", MEMORY);
    start(&all[3], "misbehaving", "node", FIXTURE);
    start(&all[4], "missing", "no-such-command-for-mcp-codemode");
    for (int i = 0; i < 4; i++)
        wait_ready(&all[i], 20000);
    uint64_t wall = uv_now(&loop) - t0, sum = 0;
    assert_true(all[4].restarting > 0);
    for (int i = 0; i < 4; i++) {
        struct tools_downstream_status st;
        tools_downstream_status(all[i].d, &st);
        sum += st.connect_ms;
        fprintf(stderr, "  connect %-11s %4llu ms, %2zu tools, %s\n", all[i].cfg.name,
                (unsigned long long) st.connect_ms, st.tools, st.protocol_version);
    }
    fprintf(stderr, "  all four ready after %llu ms (sum of connects %llu ms)\n",
            (unsigned long long) wall, (unsigned long long) sum);
    assert_true(wall < sum); /* they overlapped */
    for (int i = 0; i < 5; i++)
        stop(&all[i]);
    rmdir(dir);
}

/* Median and p90 of 101 sequential calls, in microseconds. */
static void round_trip(struct server *s, const char *tool, const char *args, uint64_t *median,
                       uint64_t *p90)
{
    struct reply r;
    uint64_t times[101];
    for (int i = 0; i < 101; i++) {
        uint64_t t0 = uv_hrtime();
        call_ok(s, tool, args, &r);
        times[i] = (uv_hrtime() - t0) / 1000;
        reply_free(&r);
    }
    for (int i = 1; i < 101; i++) /* insertion sort */
        for (int j = i; j > 0 && times[j] < times[j - 1]; j--) {
            uint64_t t = times[j];
            times[j] = times[j - 1];
            times[j - 1] = t;
        }
    *median = times[50];
    *p90 = times[90];
}

/* Round trips, for the report: our raw fixture and the SDK-based server. */
static void test_round_trip(void **state)
{
    (void) state;
    static struct server raw, sdk;
    start(&raw, "misbehaving", "node", FIXTURE);
    wait_ready(&raw, 10000);
    uint64_t med, p90;
    round_trip(&raw, "echo", "{\"text\":\"x\"}", &med, &p90);
    fprintf(stderr, "  echo round trip (raw fixture): median %llu us, p90 %llu us\n",
            (unsigned long long) med, (unsigned long long) p90);
    assert_true(med < 50000);
    stop(&raw);
    if (need_npm())
        return;
    start(&sdk, "everything", "node", EVERYTHING);
    wait_ready(&sdk, 15000);
    round_trip(&sdk, "echo", "{\"message\":\"x\"}", &med, &p90);
    fprintf(stderr, "  echo round trip (server-everything): median %llu us, p90 %llu us\n",
            (unsigned long long) med, (unsigned long long) p90);
    assert_true(med < 50000);
    stop(&sdk);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    alloc_install_cjson_hooks();
    log_set_level(LOG_OFF);
    if (getenv("DOWNSTREAM_TEST_LOG"))
        log_set_level(LOG_DEBUG);
    go_to_root();
    if (getenv("TEST_FILTER"))
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_connect_legacy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_connect_modern, setup, teardown),
        cmocka_unit_test_setup_teardown(test_discover_fallbacks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_common_version, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pagination, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_parallel_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_queued_while_connecting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hang_times_out, setup, teardown),
        cmocka_unit_test_setup_teardown(test_entry_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbage_on_stdout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_big_results, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server_stops_reading, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_changed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server_requests, setup, teardown),
        cmocka_unit_test_setup_teardown(test_environment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crash_mid_call, setup, teardown),
        cmocka_unit_test_setup_teardown(test_command_not_found, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crash_on_start_gives_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recovers_after_failed_starts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shutdown_with_calls_pending, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tasks_fixture, setup, teardown),
        cmocka_unit_test_setup_teardown(test_everything, setup, teardown),
        cmocka_unit_test_setup_teardown(test_everything_task, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filesystem_and_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_start, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
