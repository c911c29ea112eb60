/* Unit tests of the JSON-RPC client (transport/rpc_client.c) on a real
 * libuv loop: lines are fed in by hand and what the client writes is
 * captured, so every correlation, timeout, cancellation, oversize and
 * malformed-input path is checked exactly; then the client is driven over a
 * real child process (transport/child.c) with 1000 requests in flight. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "transport/rpc_client.h"
#include "transport/child.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"
#include "support/loop_wait.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uv_loop_t loop;

/* --- a fake peer ------------------------------------------------------------------------------ */

struct peer {
    struct buf written; /* every line the client wrote */
    int fail_writes;
    char *methods[16];
    char *params[16];
    int nnotes;
};

static int peer_write(void *ud, const char *data, size_t len)
{
    struct peer *p = ud;
    if (p->fail_writes)
        return UV_EPIPE;
    buf_append(&p->written, data, len);
    return 0;
}

static void peer_note(void *ud, const char *method, const cJSON *params)
{
    struct peer *p = ud;
    assert_true(p->nnotes < 16);
    p->methods[p->nnotes] = xstrdup(method);
    p->params[p->nnotes] = params ? cJSON_PrintUnformatted(params) : NULL;
    p->nnotes++;
}

static const struct rpc_client_events peer_events = {peer_write, peer_note};

/* Returns the written lines so far and forgets them (caller frees). */
static char *take_written(struct peer *p)
{
    return buf_steal(&p->written);
}

static void feed(struct rpc_client *rc, const char *line)
{
    rpc_client_line(rc, line, strlen(line));
}

static void expect_written(struct peer *p, const char *want)
{
    char *got = take_written(p);
    assert_string_equal(got, want);
    free(got);
}

/* --- replies ---------------------------------------------------------------------------------- */

struct got {
    int calls;
    enum rpc_client_status status;
    char *result, *message, *data;
    int code;
    size_t size;
    uint64_t elapsed;
    uint64_t order; /* sequence number of this reply among all replies */
};

static uint64_t reply_seq;

static void on_reply(void *ud, const struct rpc_client_reply *r)
{
    struct got *g = ud;
    g->calls++;
    g->status = r->status;
    g->result = r->result ? json_print(r->result) : NULL;
    g->message = r->message ? xstrdup(r->message) : NULL;
    g->data = r->data ? cJSON_PrintUnformatted(r->data) : NULL;
    g->code = r->code;
    g->size = r->size;
    g->elapsed = r->elapsed_ms;
    g->order = ++reply_seq;
}

static void got_free(struct got *g)
{
    free(g->result);
    free(g->message);
    free(g->data);
    memset(g, 0, sizeof *g);
}

static cJSON *params(const char *json)
{
    return cJSON_Parse(json);
}

static void run_for(uint64_t ms)
{
    loop_run_for(&loop, ms);
}

static struct peer peer;

static int setup(void **state)
{
    (void) state;
    memset(&peer, 0, sizeof peer);
    buf_init(&peer.written, 0);
    return uv_loop_init(&loop);
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
    buf_free(&peer.written);
    for (int i = 0; i < peer.nnotes; i++) {
        free(peer.methods[i]);
        free(peer.params[i]);
    }
    uv_run(&loop, UV_RUN_DEFAULT);
    if (uv_loop_close(&loop) != 0) {
        uv_walk(&loop, close_left_over, NULL);
        uv_run(&loop, UV_RUN_DEFAULT);
        assert_int_equal(uv_loop_close(&loop), 0);
        fail_msg("handles were left open");
    }
    return 0;
}

/* ============================================================================================== */

static void test_ids_and_correlation(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    struct got a = {0}, b = {0}, c = {0};
    assert_non_null(rpc_client_call(rc, "tools/list", NULL, 0, 0, on_reply, &a));
    assert_non_null(rpc_client_call(rc, "tools/call", params("{\"name\":\"x\",\"arguments\":{}}"),
                                    0, 0, on_reply, &b));
    struct rpc_client_request *rq = rpc_client_call(rc, "ping", params("{}"), 0, 0, on_reply, &c);
    assert_int_equal(rpc_client_request_id(rq), 3);
    expect_written(&peer, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n"
                          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                          "{\"name\":\"x\",\"arguments\":{}}}\n"
                          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{}}\n");
    assert_int_equal(rpc_client_pending(rc), 3);
    assert_int_equal(a.calls + b.calls + c.calls, 0); /* never inside the call */
    feed(rc, "{\"jsonrpc\":\"2.0\",\"result\":{\"v\":3},\"id\":3}");
    feed(rc, "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"v\":1}}");
    feed(rc,
         "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":\"Unknown tool\","
         "\"data\":{\"tool\":\"x\"}}}");
    assert_int_equal(a.calls, 1);
    assert_int_equal(a.status, RPC_CLIENT_OK);
    assert_string_equal(a.result, "{\"v\":1}");
    assert_string_equal(c.result, "{\"v\":3}");
    assert_true(c.order < a.order);
    assert_int_equal(b.status, RPC_CLIENT_ERROR);
    assert_int_equal(b.code, -32602);
    assert_string_equal(b.message, "Unknown tool");
    assert_string_equal(b.data, "{\"tool\":\"x\"}");
    assert_int_equal(rpc_client_pending(rc), 0);
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"); /* a second answer: ignored */
    assert_int_equal(a.calls, 1);
    assert_int_equal(rpc_client_skipped(rc), 1);
    got_free(&a);
    got_free(&b);
    got_free(&c);
    rpc_client_free(rc);
}

static void test_exact_ids(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    struct got a = {0};
    rpc_client_call(rc, "m", NULL, 0, 0, on_reply, &a);
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{}}"); /* a string is not our id */
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":1.0,\"result\":{}}");
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":01,\"result\":{}}"); /* not even JSON */
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":-1,\"result\":{}}");
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":18446744073709551617,\"result\":{}}");
    assert_int_equal(a.calls, 0);
    assert_int_equal(rpc_client_skipped(rc), 5);
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"ok\":true}}");
    assert_int_equal(a.calls, 1);
    got_free(&a);
    rpc_client_free(rc);
}

static void test_timeouts(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    struct got slow = {0}, fast = {0}, quiet = {0}, none = {0};
    rpc_client_call(rc, "tools/call", NULL, 200, 0, on_reply, &slow);
    rpc_client_call(rc, "tools/call", NULL, 50, 0, on_reply, &fast);
    rpc_client_call(rc, "initialize", NULL, 100, RPC_CLIENT_NO_CANCEL, on_reply, &quiet);
    rpc_client_call(rc, "forever", NULL, 0, 0, on_reply, &none);
    free(take_written(&peer));
    run_for(300);
    assert_int_equal(fast.status, RPC_CLIENT_TIMEOUT);
    assert_int_equal(quiet.status, RPC_CLIENT_TIMEOUT);
    assert_int_equal(slow.status, RPC_CLIENT_TIMEOUT);
    assert_true(fast.order < quiet.order && quiet.order < slow.order); /* by deadline */
    assert_in_range(fast.elapsed, 50, 600); /* late on a busy machine, never early */
    assert_in_range(slow.elapsed, 200, 800);
    assert_string_equal(quiet.message, "no response to initialize within 100 ms");
    assert_int_equal(none.calls, 0);
    assert_int_equal(rpc_client_pending(rc), 1);
    /* cancelled for the two tools/call, not for initialize */
    char *w = take_written(&peer);
    assert_non_null(strstr(w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                              "\"params\":{\"requestId\":2,\"reason\":\"no response to tools/call "
                              "within "));
    assert_non_null(strstr(w, "\"requestId\":1,"));
    assert_null(strstr(w, "\"requestId\":3"));
    free(w);
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}"); /* late: ignored */
    assert_int_equal(fast.calls, 1);
    got_free(&slow);
    got_free(&fast);
    got_free(&quiet);
    rpc_client_free(rc); /* "forever" is dropped without a callback */
    assert_int_equal(none.calls, 0);
}

static void test_cancel_and_abandon(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    struct got a = {0}, b = {0}, c = {0};
    struct rpc_client_request *ra = rpc_client_call(rc, "tools/call", NULL, 100, 0, on_reply, &a);
    struct rpc_client_request *rb = rpc_client_call(rc, "tools/call", NULL, 100, 0, on_reply, &b);
    struct rpc_client_request *rcq =
        rpc_client_call(rc, "probe", NULL, 100, RPC_CLIENT_NO_CANCEL, on_reply, &c);
    free(take_written(&peer));
    rpc_client_cancel(ra, "the execution was cancelled");
    expect_written(&peer, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
                          "{\"requestId\":1,\"reason\":\"the execution was cancelled\"}}\n");
    rpc_client_abandon(rb);
    rpc_client_cancel(rcq, NULL); /* NO_CANCEL: nothing written */
    expect_written(&peer, "");
    run_for(150);
    assert_int_equal(a.calls + b.calls + c.calls, 0);
    assert_int_equal(rpc_client_pending(rc), 0);
    rpc_client_free(rc);
}

static void test_server_requests(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":\"r\\\"1\",\"method\":\"roots/list\",\"params\":{}}");
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"method\":\"sampling/createMessage\","
             "\"params\":{\"messages\":[]}}");
    expect_written(&peer,
                   "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n"
                   "{\"jsonrpc\":\"2.0\",\"id\":\"r\\\"1\",\"result\":{\"roots\":[]}}\n"
                   "{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"error\":{\"code\":-32601,"
                   "\"message\":\"Method not found: sampling/createMessage (mcp-codemode declares "
                   "no client capabilities)\"}}\n");
    rpc_client_free(rc);
}

static void test_notifications(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    feed(rc, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
    feed(rc,
         "{\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hi\"},"
         "\"jsonrpc\":\"2.0\"}");
    assert_int_equal(peer.nnotes, 2);
    assert_string_equal(peer.methods[0], "notifications/tools/list_changed");
    assert_null(peer.params[0]);
    assert_string_equal(peer.methods[1], "notifications/message");
    assert_string_equal(peer.params[1], "{\"level\":\"info\",\"data\":\"hi\"}");
    expect_written(&peer, ""); /* never answered */
    rpc_client_free(rc);
}

static void test_malformed_lines(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    struct got a = {0};
    rpc_client_call(rc, "m", NULL, 0, 0, on_reply, &a);
    free(take_written(&peer));
    const char *bad[] = {
        "this is not json",
        "{\"jsonrpc\":\"2.0\",",
        "[1,2,3]",
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}]", /* no batches from a server */
        /* the id of no pending request: skipped */
        "{\"jsonrpc\":\"1.0\",\"id\":7,\"result\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":7}",
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":\"not an object\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"a\":\"\\ud800\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}",
        "\x01\x02\xff",
        "{\"jsonrpc\":\"2.0\",\"method\":5}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        feed(rc, bad[i]);
    assert_int_equal(rpc_client_skipped(rc), sizeof bad / sizeof *bad);
    assert_int_equal(a.calls, 0);
    expect_written(&peer, ""); /* a server's garbage gets no answer */
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"still\":\"working\"}}");
    assert_int_equal(a.calls, 1);
    got_free(&a);
    rpc_client_free(rc);
}

/* A reply naming a pending request that cannot be read fails that request
 * at once, naming the method, instead of leaving it to its timeout. */
static void test_unreadable_reply_fails_its_request(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    const char *bad[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"text\":\"cut sho",
        "{\"jsonrpc\":\"2.0\",\"result\":{\"text\":\"bad \\x escape\"},\"id\":%d}",
        "{\"jsonrpc\":\"1.0\",\"id\":%d,\"result\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":%d}",
        "{\"jsonrpc\":\"2.0\",\"id\":%d,\"error\":\"not an object\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct got a = {0};
        rpc_client_call(rc, "tools/call", NULL, 0, 0, on_reply, &a);
        free(take_written(&peer));
        char line[200];
        snprintf(line, sizeof line, bad[i], (int) i + 1);
        feed(rc, line);
        assert_int_equal(a.calls, 1);
        assert_int_equal(a.status, RPC_CLIENT_MALFORMED);
        assert_non_null(strstr(a.message, "its response to tools/call could not be read"));
        assert_int_equal(rpc_client_pending(rc), 0);
        got_free(&a);
    }
    rpc_client_free(rc);
}

/* A lone surrogate escape is valid JSON: the reply is delivered. */
static void test_lone_surrogate_reply(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    struct got a = {0};
    rpc_client_call(rc, "m", NULL, 0, 0, on_reply, &a);
    free(take_written(&peer));
    feed(rc, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"t\":\"a\\ud800b\\u0000c\"}}");
    assert_int_equal(a.calls, 1);
    assert_int_equal(a.status, RPC_CLIENT_OK);
    assert_string_equal(a.result, "{\"t\":\"a\\ud800b\\u0000c\"}");
    got_free(&a);
    rpc_client_free(rc);
}

static void test_oversize(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    struct got head = {0}, tail = {0}, lost = {0};
    rpc_client_call(rc, "tools/call", NULL, 0, 0, on_reply, &head);
    rpc_client_call(rc, "tools/call", NULL, 0, 0, on_reply, &tail);
    rpc_client_call(rc, "tools/call", NULL, 0, 0, on_reply, &lost);
    /* The id in the head (written first) ... */
    const char *h1 =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"te";
    rpc_client_oversize(rc, h1, strlen(h1), "xxxx\"}]}}", 9, 5000000, 1000000);
    assert_int_equal(head.status, RPC_CLIENT_TOO_LARGE);
    assert_int_equal(head.size, 5000000);
    assert_string_equal(
        head.message,
        "the response to tools/call is 5000000 bytes, over the limit of 1000000 bytes");
    /* ... or after the result, as the TypeScript SDK writes it. */
    const char *h2 =
        "{\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"xx";
    const char *t2 = "xxxxxxxx\"}],\"id\":\"no\"},\"jsonrpc\":\"2.0\",\"id\": 2 }\r";
    rpc_client_oversize(rc, h2, strlen(h2), t2, strlen(t2), 3000000, 1000000);
    assert_int_equal(tail.status, RPC_CLIENT_TOO_LARGE);
    /* Nothing to go on (the id is nested, not the last member): skipped. */
    const char *t3 = "xx\"}],\"id\":3}}";
    rpc_client_oversize(rc, h2, strlen(h2), t3, strlen(t3), 3000000, 1000000);
    assert_int_equal(lost.calls, 0);
    assert_int_equal(rpc_client_skipped(rc), 1);
    got_free(&head);
    got_free(&tail);
    rpc_client_free(rc);
}

/* --- callbacks that reenter ------------------------------------------------------------------- */

struct reenter {
    struct rpc_client *rc;
    struct got got;
    struct got next;
    int free_it, call_again;
};

static void reentering_reply(void *ud, const struct rpc_client_reply *r)
{
    struct reenter *re = ud;
    on_reply(&re->got, r);
    if (re->call_again)
        rpc_client_call(re->rc, "again", NULL, 0, 0, on_reply, &re->next);
    if (re->free_it)
        rpc_client_free(re->rc);
}

static void test_fail_all(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    struct reenter re = {.rc = rc, .call_again = 1};
    struct got b = {0};
    rpc_client_call(rc, "one", NULL, 1000, 0, reentering_reply, &re);
    rpc_client_call(rc, "two", NULL, 1000, 0, on_reply, &b);
    char why[] = "the server exited with status 1";
    rpc_client_fail_all(rc, why);
    assert_int_equal(re.got.status, RPC_CLIENT_CLOSED);
    assert_string_equal(re.got.message, why);
    assert_int_equal(b.status, RPC_CLIENT_CLOSED);
    assert_int_equal(rpc_client_pending(rc), 1); /* the call made from the callback is kept */
    got_free(&re.got);
    got_free(&b);
    rpc_client_free(rc);
    assert_int_equal(re.next.calls, 0);
}

static void test_free_inside_callback(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    struct reenter re = {.rc = rc, .free_it = 1};
    struct got other = {0};
    rpc_client_call(rc, "first", NULL, 50, 0, reentering_reply, &re);
    rpc_client_call(rc, "second", NULL, 50, 0, on_reply, &other);
    run_for(100); /* both expire in one timer run; the first callback frees the client */
    assert_int_equal(re.got.calls, 1);
    assert_int_equal(other.calls, 0);
    got_free(&re.got);
}

static void test_write_failure(void **state)
{
    (void) state;
    struct rpc_client *rc = rpc_client_new(&loop, "peer", &peer_events, &peer);
    struct got a = {0};
    peer.fail_writes = 1;
    assert_null(rpc_client_call(rc, "m", params("{\"big\":true}"), 100, 0, on_reply, &a));
    assert_int_equal(rpc_client_notify(rc, "notifications/initialized", NULL), UV_EPIPE);
    run_for(150);
    assert_int_equal(a.calls, 0); /* a call that failed never calls back */
    assert_int_equal(rpc_client_pending(rc), 0);
    rpc_client_free(rc);
}

/* --- over a real child process ---------------------------------------------------------------- */

/* Answers each request with its params, in reverse order of arrival per
 * batch of 10 (so responses come out of order). */
static const char *echo_server =
    "let b='',q=[];process.stdin.on('data',c=>{b+=c;let i;while((i=b.indexOf('\\n'))>=0){"
    "const m=JSON.parse(b.slice(0,i));b=b.slice(i+1);if(m.id===undefined)continue;q.push(m);"
    "if(q.length==10){q.reverse().forEach(m=>process.stdout.write(JSON.stringify("
    "{jsonrpc:'2.0',result:m.params,id:m.id})+'\\n'));q=[];}}});"
    "process.stdin.on('end',()=>process.exit(0));";

struct wire {
    struct transport_child *child;
    struct rpc_client *rc;
    int exited;
};

static void wire_line(void *ud, char *line, size_t len)
{
    struct wire *w = ud;
    rpc_client_line(w->rc, line, len);
}

static void wire_oversize(void *ud, const char *h, size_t hl, const char *t, size_t tl, size_t n)
{
    struct wire *w = ud;
    rpc_client_oversize(w->rc, h, hl, t, tl, n, 1 << 20);
}

static void wire_exit(void *ud, int64_t status, int sig)
{
    struct wire *w = ud;
    (void) status;
    (void) sig;
    w->exited = 1;
}

static int wire_write(void *ud, const char *data, size_t len)
{
    struct wire *w = ud;
    return transport_child_write(w->child, data, len);
}

static const struct transport_child_events wire_child_events = {wire_line, wire_oversize,
                                                                wire_exit};
static const struct rpc_client_events wire_rpc_events = {wire_write, NULL};

#define MANY 1000

static void test_many_in_flight_over_a_child(void **state)
{
    (void) state;
    struct wire w = {0};
    char *args[] = {"-e", (char *) echo_server, NULL};
    char **env = transport_child_env((const char *const[]){"PATH", "HOME", NULL}, NULL);
    struct transport_child_options o = {.name = "echo",
                                        .file = "node",
                                        .args = args,
                                        .env = env,
                                        .max_line = 1 << 20,
                                        .stderr_level = LOG_WARNING};
    assert_int_equal(transport_child_spawn(&loop, &o, &wire_child_events, &w, &w.child), 0);
    transport_child_env_free(env);
    w.rc = rpc_client_new(&loop, "echo", &wire_rpc_events, &w);
    static struct got g[MANY];
    memset(g, 0, sizeof g);
    uint64_t t0 = uv_hrtime();
    for (int i = 0; i < MANY; i++) {
        char p[64];
        snprintf(p, sizeof p, "{\"n\":%d}", i);
        assert_non_null(rpc_client_call(w.rc, "echo", params(p), 10000, 0, on_reply, &g[i]));
    }
    int done = 0;
    while (done < MANY) {
        uv_run(&loop, UV_RUN_ONCE);
        for (done = 0; done < MANY && g[done].calls; done++)
            ;
    }
    fprintf(stderr, "  %d requests in flight over a pipe: %.1f ms\n", MANY,
            (double) (uv_hrtime() - t0) / 1e6);
    for (int i = 0; i < MANY; i++) {
        char want[64];
        snprintf(want, sizeof want, "{\"n\":%d}", i);
        assert_int_equal(g[i].status, RPC_CLIENT_OK);
        assert_string_equal(g[i].result, want);
        got_free(&g[i]);
    }
    rpc_client_free(w.rc);
    transport_child_close(w.child, 1000);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    alloc_install_cjson_hooks();
    log_set_level(getenv("RPC_TEST_LOG") ? LOG_DEBUG : LOG_OFF);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ids_and_correlation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exact_ids, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeouts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancel_and_abandon, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server_requests, setup, teardown),
        cmocka_unit_test_setup_teardown(test_notifications, setup, teardown),
        cmocka_unit_test_setup_teardown(test_malformed_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unreadable_reply_fails_its_request, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lone_surrogate_reply, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oversize, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fail_all, setup, teardown),
        cmocka_unit_test_setup_teardown(test_free_inside_callback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_in_flight_over_a_child, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
