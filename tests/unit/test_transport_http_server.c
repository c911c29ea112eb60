/* Unit tests of transport/http_parser.c (requests fed byte by byte: edge
 * cases, smuggling, caps) and transport/http_server.c over real loopback
 * sockets (keep-alive, pipelining, HTTP/1.0, 100-continue, streams, limits,
 * slow and idle clients, aborts, drain, close), plus transport/sse.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "transport/http_parser.h"
#include "transport/http_server.h"
#include "transport/sse.h"
#include "common/alloc.h"
#include "common/buf.h"

#include "support/http_test_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the parser, fed byte by byte ----------------------------------------------------------- */

struct parsed {
    int nrequests;
    char log[4096]; /* one line per request: METHOD target|path|query|body|keep-alive */
    int error_status;
    int heads;
};

/* Feeds `text` one byte per call (or whole) and records every request. */
static void parse_all(const char *text, size_t len, int bytewise,
                      const struct http_parser_limits *lim, struct parsed *out)
{
    struct http_parser *p = http_parser_new(lim);
    memset(out, 0, sizeof *out);
    size_t off = 0;
    int again = 0;
    while (off < len || again) {
        enum http_parse_event ev;
        size_t n = bytewise ? (off < len ? 1 : 0) : len - off;
        again = 0;
        size_t used = http_parser_feed(p, text + off, n, &ev);
        if (ev == HTTP_PARSE_MORE && used < n)
            fail_msg("MORE with %zu of %zu bytes consumed at %zu", used, n, off);
        off += used;
        if (ev == HTTP_PARSE_ERROR) {
            out->error_status = http_parser_error_status(p);
            break;
        }
        if (ev == HTTP_PARSE_HEAD) {
            out->heads++;
            again = 1;
        }
        if (ev == HTTP_PARSE_REQUEST) {
            const struct http_server_request *r = http_parser_request(p);
            size_t logged = strlen(out->log);
            snprintf(out->log + logged, sizeof out->log - logged, "%s %s|%s|%s|%.*s|%d\n",
                     r->method, r->target, r->path, r->query, (int) r->body_len, r->body,
                     r->keep_alive);
            out->nrequests++;
            http_parser_next(p);
        }
    }
    http_parser_free(p);
}

static void both_ways(const char *text, const struct http_parser_limits *lim, struct parsed *out)
{
    struct parsed whole;
    parse_all(text, strlen(text), 0, lim, &whole);
    parse_all(text, strlen(text), 1, lim, out);
    assert_string_equal(whole.log, out->log);
    assert_int_equal(whole.error_status, out->error_status);
}

static const struct http_parser_limits no_limits = {0, 0, 0};

static void test_parser_requests(void **state)
{
    (void) state;
    struct parsed p;
    both_ways("GET /mcp?x=1&y=2#frag HTTP/1.1\r\nHost: a\r\n\r\n", &no_limits, &p);
    assert_string_equal(p.log, "GET /mcp?x=1&y=2#frag|/mcp|x=1&y=2||1\n");
    both_ways("POST /m HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello", &no_limits, &p);
    assert_string_equal(p.log, "POST /m|/m||hello|1\n");
    /* chunked, with an extension and a trailer */
    both_ways("POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
              "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n",
              &no_limits, &p);
    assert_string_equal(p.log, "POST /c|/c||abcde|1\n");
    /* pipelined, with an empty line between requests; nothing is parsed after
     * a request that ends the connection (HTTP/1.0 default, Connection: close) */
    both_ways("GET /a HTTP/1.1\r\nHost: a\r\n\r\n\r\n"
              "GET /c HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
              "GET /d HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /e HTTP/1.1\r\n\r\n",
              &no_limits, &p);
    assert_string_equal(p.log, "GET /a|/a|||1\nGET /c|/c|||1\nGET /d|/d|||0\n");
    assert_int_equal(p.heads, 3);
    both_ways("GET /b HTTP/1.0\r\n\r\nGET /x HTTP/1.0\r\n\r\n", &no_limits, &p);
    assert_string_equal(p.log, "GET /b|/b|||0\n");
    /* nor after an Upgrade or CONNECT request: its bytes are consumed and
     * dropped, never left unconsumed (found by tests/fuzz/fuzz_http) */
    both_ways("CONNECT h:1 HTTP/1.1\r\nHost: h:1\r\n\r\n\xff\x01GET /x HTTP/1.1\r\n\r\n",
              &no_limits, &p);
    assert_string_equal(p.log, "CONNECT h:1|h:1|||0\n");
    both_ways("GET /u HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n"
              "raw frames",
              &no_limits, &p);
    assert_string_equal(p.log, "GET /u|/u|||0\n");
}

static void test_parser_headers(void **state)
{
    (void) state;
    const char *text = "GET / HTTP/1.1\r\nHost: a\r\nX-Empty:\r\nX-Pad: \t v w \t\r\n"
                       "MCP-Session-Id: abc\r\nExpect: 100-continue\r\n\r\n";
    struct http_parser *p = http_parser_new(&no_limits);
    enum http_parse_event ev = HTTP_PARSE_MORE;
    for (size_t i = 0; i < strlen(text); i++) {
        assert_int_equal(http_parser_feed(p, text + i, 1, &ev), 1);
        if (ev == HTTP_PARSE_HEAD)
            break;
    }
    assert_int_equal(ev, HTTP_PARSE_HEAD);
    const struct http_server_request *r = http_parser_request(p);
    assert_int_equal(r->nheaders, 5);
    assert_string_equal(http_parser_header(r, "x-empty"), "");
    assert_string_equal(http_parser_header(r, "X-PAD"), "v w");
    assert_string_equal(http_parser_header(r, "mcp-session-id"), "abc");
    assert_null(http_parser_header(r, "nope"));
    assert_int_equal(r->expect_continue, 1);
    assert_int_equal(http_parser_header_count(r, "host"), 1);
    http_parser_free(p);
}

static void expect_status(const char *text, const struct http_parser_limits *lim, int status)
{
    struct parsed p;
    both_ways(text, lim, &p);
    assert_int_equal(p.error_status, status);
    assert_int_equal(p.nrequests, 0);
}

static void test_parser_rejects(void **state)
{
    (void) state;
    expect_status("G@T / HTTP/1.1\r\n\r\n", &no_limits, 400);
    expect_status("GET / HTTP/2.0\r\nHost: a\r\n\r\n", &no_limits, 505);
    expect_status("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n", &no_limits, 400);
    expect_status("GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", &no_limits, 400);
    /* request smuggling shapes */
    expect_status("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
                  &no_limits, 400);
    expect_status("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
                  &no_limits, 400);
    expect_status("POST / HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\nabc", &no_limits, 400);
    expect_status("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", &no_limits, 501);
    expect_status("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", &no_limits, 400);
    expect_status("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", &no_limits, 400);
    /* the HTTP/2 prior-knowledge preface, and HTTP/2 named on a request line:
     * 505 from the request line on, whatever follows */
    expect_status("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", &no_limits, 505);
    expect_status("PRI * HTTP/2.0\r\n", &no_limits, 505);
    expect_status("GET / HTTP/2.0\r\n", &no_limits, 505);
    /* obs-fold (RFC 9112 5.2): a header line that begins with a space or a
     * tab continues the one before; rejected, never joined */
    expect_status("GET / HTTP/1.1\r\nHost: a\r\nX-A: one\r\n two\r\n\r\n", &no_limits, 400);
    expect_status("GET / HTTP/1.1\r\nX-A: one\r\n\ttwo\r\nHost: a\r\n\r\n", &no_limits, 400);
    expect_status("GET / HTTP/1.1\nHost: a\nX-A: one\n two\n\n", &no_limits, 400);
    expect_status("\r\nGET / HTTP/1.1\r\nHost: a\r\nX-A:\r\n two\r\n\r\n", &no_limits, 400);
    /* ... but spaces that start a body, or a pipelined request after one, are data */
    struct parsed p;
    both_ways("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n  x"
              "\r\nPOST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n\t "
              "GET /c HTTP/1.1\r\nHost: a\r\nX-A: b c\r\n\r\n",
              &no_limits, &p);
    assert_int_equal(p.error_status, 0);
    assert_string_equal(p.log, "POST /a|/a||  x|1\nPOST /b|/b||\t |1\nGET /c|/c|||1\n");
}

static void test_parser_caps(void **state)
{
    (void) state;
    struct http_parser_limits lim = {128, 4, 10};
    struct parsed p;
    both_ways("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789", &lim, &p);
    assert_int_equal(p.nrequests, 1);
    expect_status("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n0123456789a", &lim, 413);
    expect_status("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n012345\r\n"
                  "6\r\n012345\r\n0\r\n\r\n",
                  &lim, 413);
    expect_status("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n", &lim, 431);
    char big[400];
    snprintf(big, sizeof big, "GET /%0200d HTTP/1.1\r\n\r\n", 7);
    expect_status(big, &lim, 431);
    /* a flood of spaces inside a header value makes no callback: still capped */
    snprintf(big, sizeof big, "GET / HTTP/1.1\r\nX:%0300d", 0);
    for (char *q = big + 18; *q; q++)
        *q = ' ';
    struct parsed f;
    parse_all(big, strlen(big), 1, &lim, &f);
    assert_int_equal(f.error_status, 431);
}

/* --- SSE framing -------------------------------------------------------------------------- */

static void test_sse_format(void **state)
{
    (void) state;
    struct buf b;
    buf_init(&b, 0);
    sse_append_event(&b, "message", "{\"a\":1}\n", 8);
    sse_append_event(&b, NULL, "x\r\ny\rz", 6);
    sse_append_event(&b, "endpoint", "", 0);
    sse_append_comment(&b, NULL);
    sse_append_comment(&b, "ping");
    assert_string_equal(b.data, "event: message\ndata: {\"a\":1}\n\n"
                                "data: x\ndata: y\ndata: z\n\n"
                                "event: endpoint\ndata: \n\n"
                                ":\n\n: ping\n\n");
    buf_reset(&b);
    assert_int_equal(sse_append_lines(&b, "message", "{\"a\":1}\n\n{\"b\":2}\r\n", 18), 2);
    assert_string_equal(b.data,
                        "event: message\ndata: {\"a\":1}\n\nevent: message\ndata: {\"b\":2}\n\n");
    buf_free(&b);
}

/* --- the server over sockets -------------------------------------------------------------- */

struct srv {
    uv_loop_t loop;
    struct http_server *s;
    struct http_exchange *held; /* /hold, /stream: kept open */
    int aborts, requests, closed;
    char last_body[256];
};

static void on_abort(void *ud)
{
    struct srv *v = ud;
    v->aborts++;
    v->held = NULL;
}

static void on_request(void *ud, struct http_exchange *x, const struct http_server_request *r)
{
    struct srv *v = ud;
    v->requests++;
    snprintf(v->last_body, sizeof v->last_body, "%.*s", (int) r->body_len, r->body);
    if (strcmp(r->path, "/hold") == 0 || strcmp(r->path, "/stream") == 0) {
        v->held = x;
        http_exchange_on_abort(x, on_abort, v);
        if (strcmp(r->path, "/stream") == 0)
            http_stream_begin(x, 200, "Cache-Control: no-cache\r\n", "text/event-stream");
        return;
    }
    if (strcmp(r->path, "/large") == 0) { /* more than a socket takes at once */
        size_t len = 4u << 20;
        char *big = xmalloc(len);
        for (size_t i = 0; i < len; i++)
            big[i] = (char) ('a' + i % 26);
        http_respond(x, 200, NULL, "text/plain", big, len);
        free(big);
        return;
    }
    char body[512];
    int n =
        snprintf(body, sizeof body, "%s %s %s body=%zu", r->method, r->path, r->query, r->body_len);
    http_respond(x, 200, "X-Test: 1\r\n", "text/plain", body, (size_t) n);
}

static void srv_start(struct srv *v, const struct http_server_config *extra)
{
    memset(v, 0, sizeof *v);
    uv_loop_init(&v->loop);
    struct http_server_config cfg = {.host = "127.0.0.1", .port = 0};
    if (extra)
        cfg = *extra;
    char *err = NULL;
    assert_int_equal(http_server_start(&v->loop, &cfg, on_request, v, &v->s, &err), 0);
    assert_true(http_server_port(v->s) > 0);
}

static void srv_closed(void *ud)
{
    ((struct srv *) ud)->closed = 1;
}

static void srv_stop(struct srv *v)
{
    http_server_close(v->s, srv_closed, v);
    while (!v->closed)
        uv_run(&v->loop, UV_RUN_ONCE);
    uv_run(&v->loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&v->loop), 0);
}

static void test_server_keep_alive_and_bytewise(void **state)
{
    (void) state;
    struct srv v;
    srv_start(&v, NULL);
    struct tc c;
    tc_init(&c, &v.loop, http_server_port(v.s));
    const char *req = "POST /echo?q=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcd";
    tc_send(&c, req, strlen(req), 1);
    assert_true(tc_wait(&c, 0, 2000));
    assert_int_equal(c.r[0].status, 200);
    assert_string_equal(c.r[0].body.data, "POST /echo q=1 body=4");
    char h[64];
    assert_string_equal(tc_header(&c, 0, "connection", h, sizeof h), "keep-alive");
    assert_string_equal(tc_header(&c, 0, "x-test", h, sizeof h), "1");
    assert_non_null(tc_header(&c, 0, "date", h, sizeof h));
    tc_sends(&c, "GET /again HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_true(tc_wait(&c, 1, 2000));
    assert_string_equal(c.r[1].body.data, "GET /again  body=0");
    assert_int_equal(http_server_connections(v.s), 1);
    tc_free(&c);
    srv_stop(&v);
}

static void test_server_pipelining(void **state)
{
    (void) state;
    struct srv v;
    srv_start(&v, NULL);
    struct tc c;
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c,
             "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /2 HTTP/1.1\r\nHost: x\r\n"
             "Content-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert_true(tc_wait(&c, 2, 2000));
    assert_string_equal(c.r[0].body.data, "GET /1  body=0");
    assert_string_equal(c.r[1].body.data, "POST /2  body=2");
    assert_string_equal(c.r[2].body.data, "GET /3  body=0");
    char h[64];
    assert_string_equal(tc_header(&c, 2, "connection", h, sizeof h), "close");
    assert_true(tc_wait_closed(&c, 3000));
    tc_free(&c);
    srv_stop(&v);
}

/* A response the socket does not take at once is written in parts (the
 * rest queued), and the next pipelined response comes after all of it. */
static void test_server_large_response_then_next(void **state)
{
    (void) state;
    struct srv v;
    srv_start(&v, NULL);
    struct tc c;
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "GET /large HTTP/1.1\r\nHost: x\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_true(tc_wait(&c, 1, 10000));
    assert_int_equal(c.r[0].body.len, 4u << 20);
    size_t bad = 0;
    for (size_t i = 0; i < c.r[0].body.len; i++)
        bad += c.r[0].body.data[i] != (char) ('a' + i % 26);
    assert_int_equal(bad, 0);
    assert_string_equal(c.r[1].body.data, "GET /after  body=0");
    tc_free(&c);
    srv_stop(&v);
}

static void test_server_http10_and_continue(void **state)
{
    (void) state;
    struct srv v;
    srv_start(&v, NULL);
    struct tc c;
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "GET /old HTTP/1.0\r\n\r\n");
    assert_true(tc_wait(&c, 0, 2000));
    assert_true(tc_wait_closed(&c, 3000)); /* HTTP/1.0 closes by default */
    tc_free(&c);
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c,
             "POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
    tc_pause(&c, 50);
    assert_non_null(c.raw.data);
    assert_non_null(strstr(c.raw.data, "HTTP/1.1 100 Continue\r\n\r\n"));
    tc_sends(&c, "xyz");
    assert_true(tc_wait(&c, 0, 2000));
    assert_string_equal(c.r[0].body.data, "POST /big  body=3");
    tc_free(&c);
    srv_stop(&v);
}

static void test_server_limits(void **state)
{
    (void) state;
    struct http_server_config cfg = {.host = "127.0.0.1", .limits = {256, 10, 8}};
    struct srv v;
    srv_start(&v, &cfg);
    struct tc c;
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\n");
    assert_true(tc_wait(&c, 0, 2000));
    assert_int_equal(c.r[0].status, 413);
    assert_true(tc_wait_closed(&c, 3000));
    tc_free(&c);
    tc_init(&c, &v.loop, http_server_port(v.s));
    char big[600];
    snprintf(big, sizeof big, "GET / HTTP/1.1\r\nHost: x\r\nX: %0400d\r\n\r\n", 1);
    tc_sends(&c, big);
    assert_true(tc_wait(&c, 0, 2000));
    assert_int_equal(c.r[0].status, 431);
    assert_true(tc_wait_closed(&c, 3000));
    tc_free(&c);
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "BREW / HTTP/1.1\r\n\r\n");
    assert_true(tc_wait(&c, 0, 2000));
    assert_int_equal(c.r[0].status, 400);
    tc_free(&c);
    assert_int_equal(v.requests, 0);
    srv_stop(&v);
}

static void test_server_slow_and_idle_clients(void **state)
{
    (void) state;
    struct http_server_config cfg = {.host = "127.0.0.1",
                                     .headers_timeout_ms = 150,
                                     .request_timeout_ms = 400,
                                     .idle_timeout_ms = 300};
    struct srv v;
    srv_start(&v, &cfg);
    /* trickling headers: dropped with 408 once the head deadline passes */
    struct tc c;
    tc_init(&c, &v.loop, http_server_port(v.s));
    const char *head = "GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nX-B: 2\r\n";
    uint64_t t0 = uv_hrtime();
    for (size_t i = 0; i < strlen(head) && !c.closed; i++) {
        tc_send(&c, head + i, 1, 0);
        tc_pause(&c, 20);
    }
    assert_true(tc_wait_closed(&c, 2000));
    assert_int_equal(c.r[0].status, 408);
    uint64_t ms = (uv_hrtime() - t0) / 1000000;
    assert_true(ms >= 140 && ms < 1000);
    tc_free(&c);
    /* a slow body: the request deadline */
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc");
    assert_true(tc_wait_closed(&c, 2000));
    assert_int_equal(c.r[0].status, 408);
    tc_free(&c);
    /* idle keep-alive connection: closed without a response */
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_true(tc_wait(&c, 0, 2000));
    t0 = uv_hrtime();
    assert_true(tc_wait_closed(&c, 2000));
    ms = (uv_hrtime() - t0) / 1000000;
    assert_true(ms >= 250 && ms < 1500);
    assert_int_equal(c.nresponses, 1);
    tc_free(&c);
    assert_int_equal(v.requests, 1);
    srv_stop(&v);
    /* a connection that sends nothing: closed (without a response) once the
     * head it never sent is due, headers_timeout_ms after accept, not after
     * idle_timeout_ms; stray empty lines do not extend that */
    cfg.idle_timeout_ms = 5000;
    srv_start(&v, &cfg);
    tc_init(&c, &v.loop, http_server_port(v.s));
    t0 = uv_hrtime();
    tc_pause(&c, 60);
    tc_sends(&c, "\r\n");
    assert_true(tc_wait_closed(&c, 3000));
    ms = (uv_hrtime() - t0) / 1000000;
    assert_true(ms >= 140 && ms < 1500);
    assert_int_equal(c.nresponses, 0);
    tc_free(&c);
    /* ... and its first head must be complete by then */
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_pause(&c, 100);
    tc_sends(&c, "GET / HTTP/1.1\r\n");
    t0 = uv_hrtime();
    assert_true(tc_wait_closed(&c, 3000));
    assert_int_equal(c.r[0].status, 408);
    ms = (uv_hrtime() - t0) / 1000000;
    assert_true(ms < 140);
    tc_free(&c);
    /* the server still serves */
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_true(tc_wait(&c, 0, 2000));
    assert_int_equal(c.r[0].status, 200);
    tc_free(&c);
    srv_stop(&v);
}

static void test_server_streams(void **state)
{
    (void) state;
    struct srv v;
    srv_start(&v, NULL);
    struct tc c;
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    tc_pause(&c, 30);
    assert_non_null(v.held);
    assert_int_equal(http_stream_write(v.held, "data: 1\n\n", 9), 0);
    tc_pause(&c, 30);
    assert_int_equal(c.r[0].status, 200);
    assert_string_equal(c.r[0].body.data, "data: 1\n\n");
    assert_false(c.r[0].complete);
    http_stream_write(v.held, "data: 2\n\n", 9);
    http_stream_end(v.held);
    v.held = NULL;
    assert_true(tc_wait(&c, 0, 2000));
    assert_string_equal(c.r[0].body.data, "data: 1\n\ndata: 2\n\n");
    char h[64];
    assert_string_equal(tc_header(&c, 0, "transfer-encoding", h, sizeof h), "chunked");
    /* the connection is reusable after a chunked stream */
    tc_sends(&c, "GET /after HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_true(tc_wait(&c, 1, 2000));
    tc_free(&c);
    /* HTTP/1.0: the end of the connection ends the stream */
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "GET /stream HTTP/1.0\r\n\r\n");
    tc_pause(&c, 30);
    http_stream_write(v.held, "x", 1);
    http_stream_end(v.held);
    v.held = NULL;
    assert_true(tc_wait_closed(&c, 3000));
    assert_true(c.r[0].complete);
    assert_string_equal(c.r[0].body.data, "x");
    tc_free(&c);
    assert_int_equal(v.aborts, 0);
    srv_stop(&v);
}

static void test_server_abort_on_disconnect(void **state)
{
    (void) state;
    struct srv v;
    srv_start(&v, NULL);
    struct tc c;
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n");
    tc_pause(&c, 30);
    assert_non_null(v.held);
    close(c.fd);
    c.fd = -1;
    for (int i = 0; i < 100 && v.aborts == 0; i++)
        tc_step(&c, 2);
    assert_int_equal(v.aborts, 1);
    assert_null(v.held);
    tc_free(&c);
    srv_stop(&v);
}

static void test_server_slow_reader(void **state)
{
    (void) state;
    struct http_server_config cfg = {.host = "127.0.0.1", .max_write_queue = 256 * 1024};
    struct srv v;
    srv_start(&v, &cfg);
    struct tc c;
    tc_init(&c, &v.loop, http_server_port(v.s));
    int small = 4096;
    setsockopt(c.fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    tc_sends(&c, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    for (int i = 0; i < 20 && !v.held; i++)
        uv_run(&v.loop, UV_RUN_NOWAIT), usleep(1000);
    assert_non_null(v.held);
    static char chunk[65536];
    memset(chunk, 'x', sizeof chunk);
    int failed = 0;
    for (int i = 0; i < 2048 && !failed; i++) { /* up to 128 MiB, never read */
        failed = http_stream_write(v.held, chunk, sizeof chunk) < 0;
        uv_run(&v.loop, UV_RUN_NOWAIT);
    }
    assert_true(failed);
    for (int i = 0; i < 100 && v.aborts == 0; i++)
        uv_run(&v.loop, UV_RUN_NOWAIT), usleep(1000);
    assert_int_equal(v.aborts, 1);
    tc_free(&c);
    srv_stop(&v);
}

/* At the cap a newcomer is admitted by closing the oldest connection with
 * nothing under way (sent nothing yet, or waiting between requests), else
 * the oldest one still sending its request; when every connection is
 * answering, the newcomer gets 503 and the others are left alone. */
static void test_server_max_connections(void **state)
{
    (void) state;
    struct http_server_config cfg = {.host = "127.0.0.1", .max_connections = 2};
    struct srv v;
    srv_start(&v, &cfg);
    int port = http_server_port(v.s);
    struct tc a, b, d;
    tc_init(&a, &v.loop, port);
    tc_pause(&a, 20);
    tc_init(&b, &v.loop, port);
    tc_pause(&b, 20);
    assert_int_equal(http_server_connections(v.s), 2);
    tc_init(&d, &v.loop, port); /* a, the oldest that sent nothing, makes room */
    assert_true(tc_wait_closed(&a, 2000));
    assert_int_equal(a.nresponses, 0);
    tc_sends(&d, "GET /d HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_true(tc_wait(&d, 0, 2000));
    assert_int_equal(d.r[0].status, 200);
    tc_sends(&b, "GET /b HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_true(tc_wait(&b, 0, 2000));
    assert_int_equal(b.r[0].status, 200);
    /* a connection still sending its request goes after those with nothing under
     * way, even when it is older: b (half a head) stays, d (between requests) goes */
    tc_sends(&b, "GET /b2 HTTP/1.1\r\n");
    tc_pause(&b, 20);
    struct tc e;
    tc_init(&e, &v.loop, port);
    assert_true(tc_wait_closed(&d, 2000));
    assert_int_equal(d.nresponses, 1);
    tc_sends(&b, "Host: x\r\n\r\n");
    assert_true(tc_wait(&b, 1, 2000));
    assert_int_equal(b.r[1].status, 200);
    /* both answering (a held response, a stream): the newcomer gets 503 */
    tc_sends(&b, "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n");
    tc_sends(&e, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    tc_pause(&e, 30);
    struct tc f;
    tc_init(&f, &v.loop, port);
    assert_true(tc_wait_closed(&f, 2000));
    assert_int_equal(f.nresponses, 1);
    assert_int_equal(f.r[0].status, 503);
    tc_pause(&b, 30);
    assert_false(b.closed);
    assert_false(e.closed);
    assert_int_equal(v.aborts, 0);
    tc_free(&a);
    tc_free(&b);
    tc_free(&d);
    tc_free(&e);
    tc_free(&f);
    srv_stop(&v);
}

static void test_server_drain(void **state)
{
    (void) state;
    struct srv v;
    srv_start(&v, NULL);
    int port = http_server_port(v.s);
    struct tc busy, idle;
    tc_init(&busy, &v.loop, port);
    tc_init(&idle, &v.loop, port);
    tc_sends(&busy, "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n");
    tc_sends(&idle, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_true(tc_wait(&idle, 0, 2000));
    assert_non_null(v.held);
    http_server_drain(v.s);
    assert_true(tc_wait_closed(&idle, 2000)); /* idle: closed at once */
    struct tc late;
    tc_init(&late, &v.loop, port); /* refused: the listener is closed */
    assert_true(tc_wait_closed(&late, 2000));
    http_respond(v.held, 200, NULL, "text/plain", "done", 4);
    v.held = NULL;
    assert_true(tc_wait(&busy, 0, 2000));
    char h[64];
    assert_string_equal(tc_header(&busy, 0, "connection", h, sizeof h), "close");
    assert_string_equal(busy.r[0].body.data, "done");
    assert_true(tc_wait_closed(&busy, 3000));
    tc_free(&busy);
    tc_free(&idle);
    tc_free(&late);
    srv_stop(&v);
}

static void test_server_close_aborts(void **state)
{
    (void) state;
    struct srv v;
    srv_start(&v, NULL);
    struct tc c;
    tc_init(&c, &v.loop, http_server_port(v.s));
    tc_sends(&c, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    tc_pause(&c, 30);
    assert_non_null(v.held);
    srv_stop(&v); /* also checks that no handle is left on the loop */
    assert_int_equal(v.aborts, 1);
    tc_free(&c);
}

static void test_server_bind_errors(void **state)
{
    (void) state;
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct http_server *s = NULL;
    char *err = NULL;
    struct http_server_config cfg = {.host = "no-such-host.invalid", .port = 0};
    assert_true(http_server_start(&loop, &cfg, on_request, NULL, &s, &err) < 0);
    assert_non_null(err);
    free(err);
    struct srv v;
    srv_start(&v, NULL);
    cfg.host = "127.0.0.1";
    cfg.port = http_server_port(v.s);
    err = NULL;
    assert_int_equal(http_server_start(&loop, &cfg, on_request, NULL, &s, &err), UV_EADDRINUSE);
    assert_non_null(strstr(err, "address already in use"));
    free(err);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&loop), 0);
    srv_stop(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parser_requests),
        cmocka_unit_test(test_parser_headers),
        cmocka_unit_test(test_parser_rejects),
        cmocka_unit_test(test_parser_caps),
        cmocka_unit_test(test_sse_format),
        cmocka_unit_test(test_server_keep_alive_and_bytewise),
        cmocka_unit_test(test_server_pipelining),
        cmocka_unit_test(test_server_large_response_then_next),
        cmocka_unit_test(test_server_http10_and_continue),
        cmocka_unit_test(test_server_limits),
        cmocka_unit_test(test_server_slow_and_idle_clients),
        cmocka_unit_test(test_server_streams),
        cmocka_unit_test(test_server_abort_on_disconnect),
        cmocka_unit_test(test_server_slow_reader),
        cmocka_unit_test(test_server_max_connections),
        cmocka_unit_test(test_server_drain),
        cmocka_unit_test(test_server_close_aborts),
        cmocka_unit_test(test_server_bind_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
