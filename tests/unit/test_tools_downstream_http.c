/* Unit tests of downstream servers reached over HTTP (tools/downstream/http.c,
 * tools/downstream/sse.c, shared core in tools/downstream/) on a real
 * libuv loop against real local servers: server-everything in its
 * streamableHttp and sse modes, supergateway in front of server-filesystem
 * (stateful Streamable HTTP and SSE), and the misbehaving HTTP fixture
 * (tests/fixtures/servers/http-mcp.mjs: sessions, JSON and SSE answers,
 * 2026-07-28 stateless with header checks, cut streams, expiring sessions,
 * 401, a server that dies mid-call). `cd tests && npm ci` installs the npm
 * servers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/downstream/downstream.h"
#include "tools/server_config.h"
#include "common/alloc.h"
#include "common/log.h"
#include "support/loop_wait.h"
#include "support/node_server.h"
#include "support/repo_root.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIXTURE    "tests/fixtures/servers/http-mcp.mjs"
#define STDIO_FIX  "tests/fixtures/servers/misbehaving.mjs"
#define LOCALHOST  "--import=./tests/fixtures/servers/listen-localhost.mjs"
#define EVERYTHING "tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
#define FILESYSTEM "tests/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
#define GATEWAY    "tests/node_modules/supergateway/dist/index.js"
#define PARALLEL   50

static uv_loop_t loop;

/* --- harness ---------------------------------------------------------------------------------- */

static int need_npm(void)
{
    if (access(EVERYTHING, R_OK) == 0 && access(FILESYSTEM, R_OK) == 0 &&
        access(GATEWAY, R_OK) == 0)
        return 0;
    fail_msg("the pinned npm servers are missing: run `cd tests && npm ci` first");
    return -1;
}

/* The loop waits of loop_wait.h, on this file's loop. */
static int run_while_not(int (*pred)(void *), void *arg, uint64_t ms)
{
    return loop_run_while_not(&loop, pred, arg, ms);
}

static int run_until(volatile int *flag, uint64_t ms)
{
    return loop_run_until(&loop, flag, ms);
}

static void run_for(uint64_t ms)
{
    loop_run_for(&loop, ms);
}

/* --- processes -------------------------------------------------------------------------------- */

static struct node_server procs[8];

static struct node_server *spawn_server(const char *const *argv)
{
    for (int i = 0; i < 8; i++)
        if (procs[i].pid == 0) {
            if (node_server_start(&procs[i], 0, argv, 20000) != 0)
                fail_msg("%s %s did not start listening", argv[0], argv[1]);
            return &procs[i];
        }
    fail_msg("too many servers");
    return NULL;
}

static struct node_server *fixture(const char *mode, const char *extra1, const char *extra2)
{
    const char *argv[] = {"node", FIXTURE, "--mode", mode, extra1, extra2, NULL};
    return spawn_server(argv);
}

static struct node_server *everything(const char *mode)
{
    const char *argv[] = {"node", LOCALHOST, EVERYTHING, mode, NULL};
    return spawn_server(argv);
}

/* supergateway in front of server-filesystem serving dir. */
static struct node_server *gateway(const char *transport, const char *dir)
{
    char cmd[PATH_MAX + 128];
    snprintf(cmd, sizeof cmd, "node %s %s", FILESYSTEM, dir);
    const char *argv[] = {"node",    LOCALHOST, GATEWAY,  "--stdio",    cmd, "--outputTransport",
                          transport, "--port",  "@PORT@", "--stateful", NULL};
    if (strcmp(transport, "sse") == 0)
        argv[9] = NULL; /* --stateful is for streamableHttp only */
    return spawn_server(argv);
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
    char url[256];
    char *headers[4];
    struct tools_downstream *d;
    int ready, failed, restarting, tools_changed, states;
};

static struct server *live[16];
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
    if (!tearing_down)
        s->tools_changed++;
}

static const struct tools_downstream_events events = {on_state, on_tools};

static struct tools_downstream_options fast_options(void)
{
    struct tools_downstream_options o = {0};
    o.backoff_initial_ms = 200;
    o.backoff_max_ms = 2000;
    o.close_grace_ms = 300;
    o.request_timeout_ms = 10000;
    o.probe_timeout_ms = 10000;
    o.client_version = "test";
    return o;
}

/* Connects to http://127.0.0.1:<port><path> as `name`, over transport t. */
static void connect_opts(struct server *s, const char *name, enum tools_transport t,
                         const struct node_server *p, const char *path,
                         const struct tools_downstream_options *o, const char *h0, const char *h1)
{
    memset(s, 0, sizeof *s);
    snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d%s", p ? p->port : 1, path);
    s->cfg.name = (char *) name;
    s->cfg.transport = t;
    s->cfg.url = s->url;
    s->headers[0] = (char *) h0;
    s->headers[1] = h0 ? (char *) h1 : NULL;
    s->cfg.headers = s->headers;
    s->d = tools_downstream_new(&loop, &s->cfg, o, &events, s);
    for (int i = 0; i < 16; i++)
        if (live[i] == NULL) {
            live[i] = s;
            return;
        }
    fail_msg("too many servers");
}

static void connect_to(struct server *s, const char *name, enum tools_transport t,
                       const struct node_server *p, const char *path)
{
    struct tools_downstream_options o = fast_options();
    connect_opts(s, name, t, p, path, &o, NULL, NULL);
}

static void connect_hdr(struct server *s, const char *name, enum tools_transport t,
                        const struct node_server *p, const char *path, const char *h0,
                        const char *h1)
{
    struct tools_downstream_options o = fast_options();
    connect_opts(s, name, t, p, path, &o, h0, h1);
}

static void stop(struct server *s)
{
    for (int i = 0; i < 16; i++)
        if (live[i] == s)
            live[i] = NULL;
    if (s->d)
        tools_downstream_free(s->d);
    s->d = NULL;
}

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
    uv_run(&loop, UV_RUN_DEFAULT);
    for (int i = 0; i < 8; i++)
        node_server_stop(&procs[i]);
    if (uv_loop_close(&loop) != 0) {
        uv_print_all_handles(&loop, stderr);
        uv_walk(&loop, close_left_over, NULL);
        uv_run(&loop, UV_RUN_DEFAULT);
        assert_int_equal(uv_loop_close(&loop), 0);
        fail_msg("handles were left open");
    }
    return 0;
}

static struct tools_downstream_status status(struct server *s)
{
    struct tools_downstream_status st;
    tools_downstream_status(s->d, &st);
    return st;
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

static void wait_ready(struct server *s, uint64_t ms)
{
    if (!run_until(&s->ready, ms)) {
        struct tools_downstream_status st = status(s);
        fail_msg("%s not ready: %s (%s)", tools_downstream_name(s->d),
                 tools_downstream_state_name(st.state), st.reason ? st.reason : "");
    }
}

static void assert_contains(const char *hay, const char *needle)
{
    if (hay == NULL || strstr(hay, needle) == NULL)
        fail_msg("\"%s\" does not contain \"%s\"", hay ? hay : "(null)", needle);
}

/* --- calls ------------------------------------------------------------------------------------ */

struct reply {
    int done;
    enum tools_downstream_outcome outcome;
    char *message;
    cJSON *result;
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

static const char *result_text(const struct reply *r)
{
    const cJSON *content = cJSON_GetObjectItem(r->result, "content");
    const cJSON *text = cJSON_GetObjectItem(cJSON_GetArrayItem(content, 0), "text");
    return cJSON_IsString(text) ? text->valuestring : "";
}

static void call_ok(struct server *s, const char *tool, const char *args, struct reply *r)
{
    call_json(s, tool, args, 15000, r);
    assert_true(run_until(&r->done, 20000));
    if (r->outcome != TOOLS_DOWNSTREAM_RESULT)
        fail_msg("%s: %s", tool, r->message);
}

/* The fixture's record of what clients did: {"cancelled":[..],"closed":[..],"deleted":n,...}. */
static cJSON *fixture_stats(struct server *s)
{
    struct reply r;
    call_ok(s, "stats", NULL, &r);
    cJSON *st = cJSON_Parse(result_text(&r));
    reply_free(&r);
    assert_non_null(st);
    return st;
}

static int all_done(void *arg)
{
    struct reply *r = arg;
    for (int i = 0; i < PARALLEL; i++)
        if (!r[i].done)
            return 0;
    return 1;
}

/* PARALLEL calls at once; each answer must carry its own argument. */
static void parallel_echo(struct server *s, const char *tool, const char *key)
{
    static struct reply r[PARALLEL];
    uint64_t t0 = (uv_update_time(&loop), uv_now(&loop));
    for (int i = 0; i < PARALLEL; i++) {
        char args[64];
        snprintf(args, sizeof args, "{\"%s\":\"call %d\"}", key, i);
        assert_non_null(call_json(s, tool, args, 15000, &r[i]));
    }
    run_while_not(all_done, r, 20000);
    fprintf(stderr, "  %d parallel calls to %s: %llu ms\n", PARALLEL, tools_downstream_name(s->d),
            (unsigned long long) (uv_now(&loop) - t0));
    for (int i = 0; i < PARALLEL; i++) {
        char want[32];
        snprintf(want, sizeof want, "call %d", i);
        assert_true(r[i].done);
        if (r[i].outcome != TOOLS_DOWNSTREAM_RESULT)
            fail_msg("call %d: %s", i, r[i].message);
        const char *at = strstr(result_text(&r[i]), want);
        if (at == NULL || (at[strlen(want)] != '"' && at[strlen(want)] != '\0'))
            fail_msg("reply %d carries another call's text: %s", i, result_text(&r[i]));
        reply_free(&r[i]);
    }
}

/* ============================================================================================== */
/* The reference servers */
/* ============================================================================================== */

static void round_trip_of(struct server *s, const char *tool, const char *args, uint64_t *median,
                          uint64_t *p90, uint64_t *max);

static void everything_checks(struct server *s, const char *protocol)
{
    struct tools_downstream_status st = status(s);
    assert_string_equal(st.protocol_version, protocol);
    assert_string_equal(st.server_name, "mcp-servers/everything");
    assert_int_equal(st.pid, 0);
    assert_non_null(tool_named(s, "echo"));
    struct reply r;
    call_ok(s, "get-sum", "{\"a\":19,\"b\":23}", &r);
    assert_contains(result_text(&r), "42");
    reply_free(&r);
    parallel_echo(s, "echo", "message");
    uint64_t med, p90, max;
    round_trip_of(s, "echo", "{\"message\":\"x\"}", &med, &p90, &max);
    fprintf(stderr, "  %s: connect %llu ms, echo round trip median %llu us, p90 %llu us\n",
            tools_downstream_name(s->d), (unsigned long long) st.connect_ms,
            (unsigned long long) med, (unsigned long long) p90);
}

static void test_everything_streamable(void **state)
{
    (void) state;
    if (need_npm())
        return;
    static struct server s;
    struct node_server *p = everything("streamableHttp");
    connect_to(&s, "everything", TOOLS_TRANSPORT_HTTP, p, "/mcp");
    wait_ready(&s, 20000);
    assert_string_equal(status(&s).transport, "http");
    everything_checks(&s, "2025-11-25");
    /* Its list_changed after initialize arrives on the GET stream and is
     * followed by a new list; the task tool needs tasks over HTTP too. */
    for (int i = 0; i < 100 && tool_named(&s, "simulate-research-query") == NULL; i++)
        run_for(20);
    assert_non_null(tool_named(&s, "simulate-research-query"));
    struct reply r;
    call_json(&s, "simulate-research-query", "{\"topic\":\"libcurl\"}", 20000, &r);
    assert_true(run_until(&r.done, 20000));
    if (r.outcome != TOOLS_DOWNSTREAM_RESULT)
        fail_msg("%s", r.message);
    assert_contains(result_text(&r), "# Research Report: libcurl");
    reply_free(&r);
    stop(&s);
}

static void test_everything_sse(void **state)
{
    (void) state;
    if (need_npm())
        return;
    static struct server s;
    struct node_server *p = everything("sse");
    connect_to(&s, "everything_sse", TOOLS_TRANSPORT_SSE, p, "/sse");
    wait_ready(&s, 20000);
    assert_string_equal(status(&s).transport, "sse");
    everything_checks(&s, "2025-11-25");
    stop(&s);
}

static void filesystem_checks(struct server *s, const char *dir)
{
    struct reply r;
    char args[PATH_MAX + 128];
    assert_non_null(tool_named(s, "write_file"));
    snprintf(args, sizeof args, "{\"path\":\"%s/hello.txt\",\"content\":\"hello over %s\"}", dir,
             status(s).transport);
    call_ok(s, "write_file", args, &r);
    reply_free(&r);
    snprintf(args, sizeof args, "{\"path\":\"%s/hello.txt\"}", dir);
    call_ok(s, "read_text_file", args, &r);
    assert_contains(result_text(&r), "hello over");
    reply_free(&r);
    call_ok(s, "read_text_file", "{\"path\":\"/etc/passwd\"}", &r); /* outside: isError */
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(r.result, "isError")));
    reply_free(&r);
    snprintf(args, sizeof args, "%s/hello.txt", dir);
    unlink(args);
}

static void test_gateway_filesystem(void **state)
{
    (void) state;
    if (need_npm())
        return;
    char dir[] = "/tmp/mcp-ds-gw-XXXXXX", real[PATH_MAX];
    assert_non_null(mkdtemp(dir));
    assert_non_null(realpath(dir, real));
    static struct server http, sse;
    struct node_server *ph = gateway("streamableHttp", real);
    struct node_server *ps = gateway("sse", real);
    connect_to(&http, "gateway_http", TOOLS_TRANSPORT_HTTP, ph, "/mcp");
    connect_to(&sse, "gateway_sse", TOOLS_TRANSPORT_SSE, ps, "/sse");
    wait_ready(&http, 20000);
    wait_ready(&sse, 20000);
    assert_string_equal(status(&http).server_name, "secure-filesystem-server");
    filesystem_checks(&http, real);
    filesystem_checks(&sse, real);
    stop(&http);
    stop(&sse);
    rmdir(real);
}

/* ============================================================================================== */
/* The fixture: Streamable HTTP with sessions */
/* ============================================================================================== */

static void test_streamable_sessions(void **state)
{
    (void) state;
    static struct server s;
    struct node_server *p = fixture("streamable", NULL, NULL);
    connect_hdr(&s, "fix", TOOLS_TRANSPORT_HTTP, p, "/mcp", "X-Api-Key: k1",
                "Mcp-Session-Id: forged"); /* ours wins: skipped */
    wait_ready(&s, 10000);
    struct tools_downstream_status st = status(&s);
    assert_string_equal(st.protocol_version, "2025-11-25");
    assert_string_equal(st.server_name, "http-mcp-streamable");
    assert_non_null(tool_named(&s, "echo"));
    assert_null(tool_named(&s, "bad_header")); /* invalid x-mcp-header: left out */
    const cJSON *ex = tools_downstream_excluded(s.d);
    assert_contains(cJSON_GetObjectItem(cJSON_GetArrayItem(ex, 0), "reason")->valuestring,
                    "x-mcp-header");
    struct reply r;
    call_ok(&s, "headers", NULL, &r);
    cJSON *h = cJSON_Parse(result_text(&r));
    assert_string_equal(cJSON_GetObjectItem(h, "mcp-protocol-version")->valuestring, "2025-11-25");
    assert_string_equal(cJSON_GetObjectItem(h, "x-api-key")->valuestring, "k1");
    assert_int_equal(strlen(cJSON_GetObjectItem(h, "mcp-session-id")->valuestring), 36);
    assert_null(cJSON_GetObjectItem(h, "mcp-method")); /* a 2026 header */
    assert_contains(cJSON_GetObjectItem(h, "accept")->valuestring, "text/event-stream");
    assert_contains(cJSON_GetObjectItem(h, "user-agent")->valuestring, "mcp-codemode/test");
    cJSON_Delete(h);
    reply_free(&r);
    call_ok(&s, "add", "{\"a\":2,\"b\":40}", &r);
    assert_string_equal(result_text(&r), "42");
    reply_free(&r);
    parallel_echo(&s, "echo", "text");
    /* list_changed arrives on the GET stream. */
    int before = s.tools_changed;
    call_ok(&s, "change_tools", NULL, &r);
    reply_free(&r);
    for (int i = 0; i < 100 && s.tools_changed == before; i++)
        run_for(20);
    assert_non_null(tool_named(&s, "added_1"));
    stop(&s);
    /* The session was DELETEd at shutdown. */
    run_for(100);
    static struct server again;
    connect_to(&again, "fix", TOOLS_TRANSPORT_HTTP, p, "/mcp");
    wait_ready(&again, 10000);
    cJSON *stats = fixture_stats(&again);
    assert_int_equal(cJSON_GetObjectItem(stats, "deleted")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(stats, "sessions")->valueint, 2);
    cJSON_Delete(stats);
    stop(&again);
}

static void test_streamable_json_answers(void **state)
{
    (void) state;
    static struct server s;
    struct node_server *p = fixture("streamable", "--json", NULL);
    connect_to(&s, "fixjson", TOOLS_TRANSPORT_HTTP, p, "/mcp");
    wait_ready(&s, 10000);
    struct reply r;
    call_ok(&s, "add", "{\"a\":1,\"b\":2}", &r);
    assert_string_equal(result_text(&r), "3");
    reply_free(&r);
    parallel_echo(&s, "echo", "text");
    stop(&s);
}

static void test_timeout_and_cancel(void **state)
{
    (void) state;
    static struct server s;
    struct node_server *p = fixture("streamable", NULL, NULL);
    connect_to(&s, "fix", TOOLS_TRANSPORT_HTTP, p, "/mcp");
    wait_ready(&s, 10000);
    struct reply r, c;
    call_json(&s, "hang", NULL, 300, &r);
    assert_true(run_until(&r.done, 5000));
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_TIMEOUT);
    assert_contains(r.message, "server 'fix' did not return a result for 'hang' within 300 ms");
    assert_in_range(r.elapsed, 280, 2000);
    reply_free(&r);
    struct tools_downstream_call *h = call_json(&s, "hang", NULL, 10000, &c);
    run_for(200);
    tools_downstream_call_cancel(h, "no longer needed");
    run_for(200);
    assert_int_equal(c.done, 0);
    /* Legacy era: notifications/cancelled was POSTed for both (ids 4 and 5
     * after initialize, tools/list and the GET), and both streams closed. */
    cJSON *st = fixture_stats(&s);
    char *txt = cJSON_PrintUnformatted(st);
    if (cJSON_GetArraySize(cJSON_GetObjectItem(st, "cancelled")) != 2 ||
        cJSON_GetArraySize(cJSON_GetObjectItem(st, "closed")) != 2)
        fail_msg("stats: %s", txt);
    free(txt);
    cJSON_Delete(st);
    struct reply ok;
    call_ok(&s, "echo", "{\"text\":\"still fine\"}", &ok);
    reply_free(&ok);
    stop(&s);
}

static void test_cut_stream_resumed(void **state)
{
    (void) state;
    static struct server s;
    struct node_server *p = fixture("streamable", NULL, NULL);
    connect_to(&s, "fix", TOOLS_TRANSPORT_HTTP, p, "/mcp");
    wait_ready(&s, 10000);
    struct reply r;
    call_ok(&s, "cut", NULL, &r);
    assert_string_equal(result_text(&r), "answered after the cut");
    assert_in_range(r.elapsed, 90, 3000); /* retry: 100 */
    reply_free(&r);
    assert_int_equal(status(&s).state, TOOLS_DOWNSTREAM_READY);
    stop(&s);
}

static void test_session_expiry(void **state)
{
    (void) state;
    static struct server s;
    struct node_server *p = fixture("streamable", "--expire-after", "2");
    connect_to(&s, "fix", TOOLS_TRANSPORT_HTTP, p, "/mcp");
    wait_ready(&s, 10000);
    struct reply r;
    call_ok(&s, "echo", "{}", &r);
    reply_free(&r);
    call_ok(&s, "echo", "{}", &r);
    reply_free(&r);
    call_json(&s, "echo", "{}", 5000, &r); /* the server forgot the session */
    assert_true(run_until(&r.done, 5000));
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_DOWN);
    assert_contains(r.message, "session expired");
    reply_free(&r);
    s.ready = 0;
    wait_ready(&s, 5000); /* a new session */
    call_ok(&s, "echo", "{\"text\":\"new session\"}", &r);
    reply_free(&r);
    cJSON *st = fixture_stats(&s);
    assert_int_equal(cJSON_GetObjectItem(st, "sessions")->valueint, 2);
    cJSON_Delete(st);
    stop(&s);
}

static void test_big_results(void **state)
{
    (void) state;
    static struct server sse, json;
    struct node_server *p = fixture("streamable", NULL, NULL);
    struct node_server *pj = fixture("streamable", "--json", NULL);
    struct tools_downstream_options o = fast_options();
    o.max_message_bytes = 1 << 20;
    connect_opts(&sse, "fixsse", TOOLS_TRANSPORT_HTTP, p, "/mcp", &o, NULL, NULL);
    connect_opts(&json, "fixjson", TOOLS_TRANSPORT_HTTP, pj, "/mcp", &o, NULL, NULL);
    wait_ready(&sse, 10000);
    wait_ready(&json, 10000);
    struct server *both[] = {&sse, &json};
    for (int i = 0; i < 2; i++) {
        struct reply r;
        call_ok(both[i], "big", "{\"bytes\":900000}", &r);
        assert_int_equal(strlen(result_text(&r)), 900000);
        reply_free(&r);
        call_json(both[i], "big", "{\"bytes\":3000000}", 10000, &r);
        assert_true(run_until(&r.done, 10000));
        assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_TOO_LARGE);
        assert_contains(r.message, "is too large");
        assert_contains(r.message, "the limit is 1048576 bytes");
        reply_free(&r);
        call_ok(both[i], "echo", "{\"text\":\"after\"}", &r); /* the connection survives */
        reply_free(&r);
        assert_int_equal(status(both[i]).state, TOOLS_DOWNSTREAM_READY);
    }
    stop(&sse);
    stop(&json);
}

/* ============================================================================================== */
/* The fixture: 2026-07-28 stateless */
/* ============================================================================================== */

static void test_modern(void **state)
{
    (void) state;
    static struct server s;
    struct node_server *p = fixture("modern", NULL, NULL);
    connect_to(&s, "modern", TOOLS_TRANSPORT_HTTP, p, "/mcp");
    wait_ready(&s, 10000);
    struct tools_downstream_status st = status(&s);
    assert_string_equal(st.protocol_version, "2026-07-28");
    assert_string_equal(st.server_version, "2.0.0");
    assert_null(tool_named(&s, "bad_header"));
    struct reply r;
    /* The server checks MCP-Protocol-Version, Mcp-Method, Mcp-Name and
     * Mcp-Param-* against the body and answers -32020 on a mismatch. */
    call_ok(&s, "headers", NULL, &r);
    cJSON *h = cJSON_Parse(result_text(&r));
    assert_string_equal(cJSON_GetObjectItem(h, "mcp-method")->valuestring, "tools/call");
    assert_string_equal(cJSON_GetObjectItem(h, "mcp-name")->valuestring, "headers");
    assert_string_equal(cJSON_GetObjectItem(h, "mcp-protocol-version")->valuestring, "2026-07-28");
    assert_null(cJSON_GetObjectItem(h, "mcp-session-id"));
    cJSON_Delete(h);
    reply_free(&r);
    call_ok(&s, "region", "{\"region\":\"us-west1\",\"opts\":{\"n\":42}}", &r);
    assert_string_equal(result_text(&r), "{\"region\":\"us-west1\",\"n\":\"42\"}");
    reply_free(&r);
    call_ok(&s, "region", "{\"region\":\"Hello, \xe4\xb8\x96\xe7\x95\x8c\"}", &r);
    assert_string_equal(result_text(&r),
                        "{\"region\":\"=?base64?SGVsbG8sIOS4lueVjA==?=\",\"n\":null}");
    reply_free(&r);
    parallel_echo(&s, "echo", "text");
    /* list_changed comes on the subscriptions/listen stream. */
    int before = s.tools_changed;
    call_ok(&s, "change_tools", NULL, &r);
    reply_free(&r);
    for (int i = 0; i < 100 && s.tools_changed == before; i++)
        run_for(20);
    assert_non_null(tool_named(&s, "added_1"));
    /* The server ends the listen stream: it is opened again (it had lasted
     * more than a second), and the next change is still seen. */
    run_for(1000);
    call_ok(&s, "end_listen", NULL, &r);
    assert_string_equal(result_text(&r), "ended 1");
    reply_free(&r);
    run_for(200);
    before = s.tools_changed;
    call_ok(&s, "change_tools", NULL, &r);
    reply_free(&r);
    for (int i = 0; i < 100 && s.tools_changed == before; i++)
        run_for(20);
    assert_non_null(tool_named(&s, "added_2"));
    /* A timeout closes the stream: that is the cancellation; nothing is POSTed. */
    call_json(&s, "hang", NULL, 300, &r);
    assert_true(run_until(&r.done, 5000));
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_TIMEOUT);
    reply_free(&r);
    run_for(100);
    cJSON *stats = fixture_stats(&s);
    char *txt = cJSON_PrintUnformatted(stats);
    if (cJSON_GetArraySize(cJSON_GetObjectItem(stats, "closed")) != 1 ||
        cJSON_GetArraySize(cJSON_GetObjectItem(stats, "cancelled")) != 0)
        fail_msg("stats: %s", txt);
    free(txt);
    cJSON_Delete(stats);
    stop(&s);
}

/* ============================================================================================== */
/* The fixture: legacy HTTP+SSE */
/* ============================================================================================== */

static void test_sse_fixture(void **state)
{
    (void) state;
    static struct server s, other;
    struct node_server *p = fixture("sse", NULL, NULL);
    connect_to(&s, "old", TOOLS_TRANSPORT_SSE, p, "/sse");
    wait_ready(&s, 10000);
    assert_string_equal(status(&s).server_name, "http-mcp-sse");
    struct reply r;
    call_ok(&s, "headers", NULL, &r);
    assert_contains(result_text(&r), "\"mcp-protocol-version\":\"2025-11-25\"");
    reply_free(&r);
    call_json(&s, "hang", NULL, 300, &r);
    assert_true(run_until(&r.done, 5000));
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_TIMEOUT);
    reply_free(&r);
    run_for(100);
    cJSON *st = fixture_stats(&s);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(st, "cancelled")), 1);
    cJSON_Delete(st);
    parallel_echo(&s, "echo", "text");
    /* An endpoint on another origin is refused for good. */
    struct node_server *po = fixture("sse", "--endpoint-other", NULL);
    connect_to(&other, "other", TOOLS_TRANSPORT_SSE, po, "/sse");
    assert_true(run_until(&other.failed, 10000));
    assert_contains(status(&other).reason, "not on the origin of");
    stop(&s);
    stop(&other);
}

/* Servers that take notifications/initialized 300 ms late and refuse any
 * request before it (as the Python SDK does) get none early, over both
 * transports; one that never answers its POST is given up on after the
 * request timeout, and retried; one that answers it with a stream it keeps
 * open is ready at once and stays so. */
static void test_initialized_first(void **state)
{
    (void) state;
    static struct server http, sse, stuck, held;
    struct node_server *ph = fixture("streamable", "--strict-init", "300");
    struct node_server *ps = fixture("sse", "--strict-init", "300");
    struct node_server *pn = fixture("streamable", "--strict-init", "600000");
    struct node_server *pk = fixture("streamable", "--hold-notifications", NULL);
    connect_to(&http, "strict_http", TOOLS_TRANSPORT_HTTP, ph, "/mcp");
    connect_to(&sse, "strict_sse", TOOLS_TRANSPORT_SSE, ps, "/sse");
    struct tools_downstream_options o = fast_options();
    o.request_timeout_ms = 400;
    connect_opts(&stuck, "stuck", TOOLS_TRANSPORT_HTTP, pn, "/mcp", &o, NULL, NULL);
    connect_opts(&held, "held", TOOLS_TRANSPORT_HTTP, pk, "/mcp", &o, NULL, NULL);
    wait_ready(&held, 10000);
    wait_ready(&http, 10000);
    wait_ready(&sse, 10000);
    struct server *strict[] = {&http, &sse};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(strict[i]->restarting, 0);
        cJSON *st = fixture_stats(strict[i]);
        assert_int_equal(cJSON_GetObjectItem(st, "premature")->valueint, 0);
        assert_int_equal(cJSON_GetObjectItem(st, "sessions")->valueint, 1);
        cJSON_Delete(st);
    }
    assert_true(run_until(&stuck.restarting, 5000));
    assert_false(stuck.ready);
    assert_contains(status(&stuck).reason, "notifications/initialized");
    run_for(500); /* past the timeout of the held notification */
    assert_true(held.ready);
    assert_int_equal(held.restarting, 0);
    struct reply r;
    call_ok(&held, "echo", "{\"text\":\"still\"}", &r);
    assert_contains(result_text(&r), "still");
    reply_free(&r);
    stop(&http);
    stop(&sse);
    stop(&stuck);
    stop(&held);
}

/* ============================================================================================== */
/* Failures */
/* ============================================================================================== */

static void test_auth(void **state)
{
    (void) state;
    static struct server none, wrong, right, sse_none;
    struct node_server *p = fixture("streamable", "--token", "s3cret");
    struct node_server *ps = fixture("sse", "--token", "s3cret");
    connect_to(&none, "none", TOOLS_TRANSPORT_HTTP, p, "/mcp");
    connect_hdr(&wrong, "wrong", TOOLS_TRANSPORT_HTTP, p, "/mcp", "Authorization: Bearer nope",
                NULL);
    connect_hdr(&right, "right", TOOLS_TRANSPORT_HTTP, p, "/mcp", "Authorization: Bearer s3cret",
                NULL);
    connect_to(&sse_none, "sse_none", TOOLS_TRANSPORT_SSE, ps, "/sse");
    wait_ready(&right, 10000);
    assert_true(run_until(&none.failed, 10000));
    assert_true(run_until(&wrong.failed, 10000));
    assert_true(run_until(&sse_none.failed, 10000));
    assert_contains(status(&none).reason, "authentication failed");
    assert_contains(status(&none).reason, "HTTP 401 Unauthorized");
    assert_contains(status(&none).reason, "WWW-Authenticate: Bearer realm=\"test\"");
    assert_contains(status(&wrong).reason, "authentication failed");
    assert_contains(status(&sse_none).reason, "authentication failed");
    assert_int_equal(status(&none).attempts, 1); /* not retried */
    struct reply r;
    call_refused(&none, "echo", "{}", &r);
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_DOWN);
    assert_contains(r.message, "server 'none' is unavailable: it authentication failed");
    reply_free(&r);
    call_ok(&right, "echo", "{}", &r);
    reply_free(&r);
    stop(&none);
    stop(&wrong);
    stop(&right);
    stop(&sse_none);
}

/* The server dies during a call: the call fails naming the server, calls
 * fail fast while it is down, and it is reconnected with backoff once it
 * listens again. */
static void killed_mid_call(const char *mode, enum tools_transport t, const char *path)
{
    static struct server s;
    struct node_server *p = fixture(mode, NULL, NULL);
    int port = p->port;
    connect_to(&s, "dying", t, p, path);
    wait_ready(&s, 10000);
    struct reply r, fast;
    call_json(&s, "sleep", "{\"ms\":5000}", 10000, &r);
    run_for(200);
    node_server_signal(p, SIGKILL);
    node_server_reap(p);
    assert_true(run_until(&r.done, 5000));
    assert_int_equal(r.outcome, TOOLS_DOWNSTREAM_DOWN);
    assert_contains(r.message, "server 'dying' went down during the call to 'sleep'");
    reply_free(&r);
    assert_true(s.restarting > 0);
    call_refused(&s, "echo", "{}", &fast); /* fails fast */
    assert_contains(fast.message, "server 'dying' is unavailable");
    reply_free(&fast);
    run_for(700); /* a few failed attempts: connection refused */
    assert_true(status(&s).attempts >= 2);
    assert_contains(status(&s).reason, "cannot connect to");
    const char *argv[] = {"node", FIXTURE, "--mode", mode, NULL};
    assert_int_equal(node_server_start(p, port, argv, 10000), 0);
    s.ready = 0;
    wait_ready(&s, 10000);
    call_ok(&s, "echo", "{\"text\":\"back\"}", &r);
    reply_free(&r);
    stop(&s);
}

static void test_killed_mid_call(void **state)
{
    (void) state;
    killed_mid_call("streamable", TOOLS_TRANSPORT_HTTP, "/mcp");
}

static void test_killed_mid_call_sse(void **state)
{
    (void) state;
    killed_mid_call("sse", TOOLS_TRANSPORT_SSE, "/sse");
}

static void test_killed_mid_call_modern(void **state)
{
    (void) state;
    killed_mid_call("modern", TOOLS_TRANSPORT_HTTP, "/mcp");
}

static void test_unreachable(void **state)
{
    (void) state;
    static struct server refused, notfound, sse_on_http, http_on_sse, empty;
    struct node_server *p = fixture("streamable", NULL, NULL);
    struct node_server *ps = fixture("sse", NULL, NULL);
    struct node_server *fake = &(struct node_server){0, node_server_free_port()};
    connect_to(&refused, "refused", TOOLS_TRANSPORT_HTTP, fake, "/mcp");
    connect_to(&notfound, "notfound", TOOLS_TRANSPORT_HTTP, p, "/nowhere");
    connect_to(&sse_on_http, "wrongtype", TOOLS_TRANSPORT_SSE, p, "/mcp");
    connect_to(&http_on_sse, "wrongtype2", TOOLS_TRANSPORT_HTTP, ps, "/message");
    assert_true(run_until(&refused.restarting, 5000));
    assert_contains(status(&refused).reason, "cannot connect to http://127.0.0.1:");
    assert_true(run_until(&notfound.restarting, 5000));
    assert_contains(status(&notfound).reason, "initialize failed: the server answered initialize "
                                              "with HTTP 404 Not Found");
    assert_true(run_until(&sse_on_http.restarting, 5000));
    assert_contains(status(&sse_on_http).reason, "set \"type\": \"http\"");
    assert_true(run_until(&http_on_sse.restarting, 5000));
    assert_contains(status(&http_on_sse).reason, "set \"type\": \"sse\"");
    /* An entry without a URL. */
    memset(&empty, 0, sizeof empty);
    empty.cfg.name = "empty";
    empty.cfg.transport = TOOLS_TRANSPORT_HTTP;
    empty.d = tools_downstream_new(&loop, &empty.cfg, NULL, &events, &empty);
    live[15] = &empty;
    assert_int_equal(status(&empty).state, TOOLS_DOWNSTREAM_FAILED);
    assert_contains(status(&empty).reason, "without a \"url\"");
    stop(&refused);
    stop(&notfound);
    stop(&sse_on_http);
    stop(&http_on_sse);
    stop(&empty);
}

/* ============================================================================================== */
/* Numbers for the report */
/* ============================================================================================== */

static void round_trip_of(struct server *s, const char *tool, const char *args, uint64_t *median,
                          uint64_t *p90, uint64_t *max)
{
    struct reply r;
    uint64_t times[101];
    for (int i = 0; i < 101; i++) {
        uint64_t t0 = uv_hrtime();
        call_ok(s, tool, args, &r);
        times[i] = (uv_hrtime() - t0) / 1000;
        reply_free(&r);
    }
    for (int i = 1; i < 101; i++)
        for (int j = i; j > 0 && times[j] < times[j - 1]; j--) {
            uint64_t t = times[j];
            times[j] = times[j - 1];
            times[j - 1] = t;
        }
    *median = times[50];
    *p90 = times[90];
    *max = times[100];
}

static void round_trip(struct server *s, uint64_t *median, uint64_t *p90, uint64_t *max)
{
    round_trip_of(s, "echo", "{\"text\":\"x\"}", median, p90, max);
}

static void test_round_trips(void **state)
{
    (void) state;
    static struct server sv[5];
    struct node_server *ps = fixture("streamable", NULL, NULL);
    struct node_server *pj = fixture("streamable", "--json", NULL);
    struct node_server *pm = fixture("modern", NULL, NULL);
    struct node_server *pl = fixture("sse", NULL, NULL);
    connect_to(&sv[0], "http-sse-answers", TOOLS_TRANSPORT_HTTP, ps, "/mcp");
    connect_to(&sv[1], "http-json-answers", TOOLS_TRANSPORT_HTTP, pj, "/mcp");
    connect_to(&sv[2], "http-2026", TOOLS_TRANSPORT_HTTP, pm, "/mcp");
    connect_to(&sv[3], "legacy-sse", TOOLS_TRANSPORT_SSE, pl, "/sse");
    memset(&sv[4], 0, sizeof sv[4]);
    static char *argv[] = {STDIO_FIX, NULL};
    sv[4].cfg.name = "stdio";
    sv[4].cfg.transport = TOOLS_TRANSPORT_STDIO;
    sv[4].cfg.command = "node";
    sv[4].cfg.args = argv;
    struct tools_downstream_options o = fast_options();
    o.stderr_level = -1;
    sv[4].d = tools_downstream_new(&loop, &sv[4].cfg, &o, &events, &sv[4]);
    live[14] = &sv[4];
    for (int i = 0; i < 5; i++) {
        wait_ready(&sv[i], 15000);
        uint64_t med, p90, max;
        round_trip(&sv[i], &med, &p90, &max);
        fprintf(stderr,
                "  %-17s connect %4llu ms, echo round trip median %4llu us, p90 %5llu us, "
                "max %6llu us\n",
                sv[i].cfg.name, (unsigned long long) status(&sv[i]).connect_ms,
                (unsigned long long) med, (unsigned long long) p90, (unsigned long long) max);
        assert_true(med < 50000);
    }
    for (int i = 0; i < 5; i++)
        stop(&sv[i]);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    alloc_install_cjson_hooks();
    log_set_level(LOG_OFF);
    if (getenv("DOWNSTREAM_TEST_LOG"))
        log_set_level(LOG_DEBUG);
    repo_root_enter(FIXTURE, "test_tools_downstream_http");
    if (getenv("TEST_FILTER"))
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_everything_streamable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_everything_sse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gateway_filesystem, setup, teardown),
        cmocka_unit_test_setup_teardown(test_streamable_sessions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_streamable_json_answers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout_and_cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cut_stream_resumed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_session_expiry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_big_results, setup, teardown),
        cmocka_unit_test_setup_teardown(test_modern, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sse_fixture, setup, teardown),
        cmocka_unit_test_setup_teardown(test_initialized_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_auth, setup, teardown),
        cmocka_unit_test_setup_teardown(test_killed_mid_call, setup, teardown),
        cmocka_unit_test_setup_teardown(test_killed_mid_call_sse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_killed_mid_call_modern, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unreachable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trips, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
