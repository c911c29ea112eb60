/* Unit tests of the libcurl-on-libuv HTTP client (transport/http_client.c)
 * against a real local server (tests/fixtures/servers/http-basic.mjs):
 * fixed, chunked and SSE bodies, echoes of method, headers and body, status
 * codes, connect/total/idle timeouts, the body cap, cancellation (also from
 * inside callbacks), redirects, a connection cut mid-body, 50 requests at
 * once, and a server that goes away and comes back on the same port. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "transport/http_client.h"
#include "transport/sse_parse.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "support/loop_wait.h"
#include "support/node_server.h"
#include "support/repo_root.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SERVER "tests/fixtures/servers/http-basic.mjs"

static uv_loop_t loop;
static struct node_server srv;
static struct http_client *hc;
static char base[64];

/* --- harness ---------------------------------------------------------------------------------- */

static int start_server(int port)
{
    const char *argv[] = {"node", SERVER, "@PORT@", NULL};
    if (node_server_start(&srv, port, argv, 10000) != 0)
        return -1;
    snprintf(base, sizeof base, "http://127.0.0.1:%d", srv.port);
    return 0;
}

static int group_setup(void **state)
{
    (void) state;
    return start_server(0);
}

static int group_teardown(void **state)
{
    (void) state;
    node_server_stop(&srv);
    return 0;
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
    char err[256];
    hc = http_client_new(&loop, "mcp-codemode-test/1", err, sizeof err);
    assert_non_null(hc);
    return 0;
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
    loop_wait_abort();
    if (hc)
        http_client_free(hc);
    hc = NULL;
    uv_run(&loop, UV_RUN_DEFAULT);
    if (uv_loop_close(&loop) != 0) {
        uv_walk(&loop, close_left_over, NULL);
        uv_run(&loop, UV_RUN_DEFAULT);
        assert_int_equal(uv_loop_close(&loop), 0);
        fail_msg("handles were left open");
    }
    return 0;
}

/* --- one exchange -------------------------------------------------------------------------------
 */

struct ex {
    struct http_request *r;
    int responses, datas, done, status, cancel_after_data;
    enum http_error err;
    char *message, *ctype, *xtest;
    struct buf body;
    uint64_t t0, elapsed;
    struct sse_parser *sse;
    struct buf *events;
};

static void on_response(void *ud, struct http_request *r, int status)
{
    struct ex *x = ud;
    assert_int_equal(x->datas, 0);
    x->responses++;
    x->status = status;
    assert_int_equal(http_request_status(r), status);
    const char *ct = http_request_header(r, "content-TYPE");
    x->ctype = ct ? xstrdup(ct) : NULL;
    const char *xt = http_request_header(r, "x-test");
    x->xtest = xt ? xstrdup(xt) : NULL;
}

static void on_sse(void *ud, const struct sse_event *e)
{
    struct ex *x = ud;
    buf_printf(x->events, "%s|%s|%s\n", e->type, e->id, e->data);
}

static const struct sse_parse_events sse_events = {on_sse, NULL};

static void on_data(void *ud, struct http_request *r, const char *data, size_t len)
{
    struct ex *x = ud;
    assert_int_equal(x->responses, 1);
    x->datas++;
    buf_append(&x->body, data, len);
    if (x->sse)
        sse_parser_feed(x->sse, data, len, &sse_events, x);
    if (x->cancel_after_data && x->datas >= x->cancel_after_data) {
        http_request_cancel(r);
        x->done = -1; /* cancelled: no done must follow */
    }
}

static void on_done(void *ud, struct http_request *r, enum http_error err, const char *msg)
{
    struct ex *x = ud;
    (void) r;
    assert_int_equal(x->done, 0);
    x->done = 1;
    x->err = err;
    x->message = xstrdup(msg);
    x->elapsed = uv_now(&loop) - x->t0;
}

static const struct http_request_events events = {on_response, on_data, on_done};

static void ex_init(struct ex *x)
{
    memset(x, 0, sizeof *x);
    buf_init(&x->body, 0);
    buf_append(&x->body, "", 0);
    uv_update_time(&loop);
    x->t0 = uv_now(&loop);
}

static void ex_free(struct ex *x)
{
    free(x->message);
    free(x->ctype);
    free(x->xtest);
    buf_free(&x->body);
}

static struct http_request *start(struct ex *x, const char *method, const char *path,
                                  struct http_request_options *o)
{
    char url[256];
    struct http_request_options def = {0};
    if (o == NULL)
        o = &def;
    snprintf(url, sizeof url, "%s%s", path[0] == '/' ? base : "", path);
    o->method = method;
    o->url = url;
    ex_init(x);
    x->r = http_request_start(hc, o, &events, x);
    assert_non_null(x->r);
    return x->r;
}

/* Runs one exchange to its end. */
static void exchange(struct ex *x, const char *method, const char *path,
                     struct http_request_options *o)
{
    start(x, method, path, o);
    if (!run_until(&x->done, 20000))
        fail_msg("%s %s did not end", method ? method : "GET", path);
}

/* ============================================================================================== */

static void test_fixed_body(void **state)
{
    (void) state;
    struct ex x;
    exchange(&x, NULL, "/hello", NULL);
    assert_int_equal(x.err, HTTP_OK);
    assert_string_equal(x.message, "");
    assert_int_equal(x.responses, 1);
    assert_int_equal(x.status, 200);
    assert_string_equal(x.ctype, "text/plain");
    assert_string_equal(x.xtest, "spaced"); /* trimmed */
    assert_string_equal(x.body.data, "hello");
    assert_int_equal(http_client_active(hc), 0);
    ex_free(&x);
    /* A 404 is a complete exchange too, with its body. */
    exchange(&x, NULL, "/nope", NULL);
    assert_int_equal(x.err, HTTP_OK);
    assert_int_equal(x.status, 404);
    assert_string_equal(x.body.data, "not found");
    ex_free(&x);
    /* A response with no body still gets its response event. */
    exchange(&x, NULL, "/status?code=204&body=", NULL);
    assert_int_equal(x.responses, 1);
    assert_int_equal(x.status, 204);
    assert_int_equal(x.datas, 0);
    ex_free(&x);
}

static void test_chunked_streams(void **state)
{
    (void) state;
    struct ex x;
    exchange(&x, NULL, "/chunked?n=6&delay=40", NULL);
    assert_int_equal(x.err, HTTP_OK);
    assert_string_equal(x.body.data, "chunk 0\nchunk 1\nchunk 2\nchunk 3\nchunk 4\nchunk 5\n");
    assert_true(x.datas >= 4); /* delivered as they came, not at the end */
    assert_true(x.elapsed >= 200);
    ex_free(&x);
}

static void test_sse_body(void **state)
{
    (void) state;
    struct ex x;
    struct sse_parser p;
    struct buf evs;
    buf_init(&evs, 0);
    buf_append(&evs, "", 0);
    sse_parser_init(&p, 0);
    start(&x, NULL, "/sse?n=4&delay=30", NULL);
    x.sse = &p;
    x.events = &evs;
    assert_true(run_until(&x.done, 10000));
    assert_int_equal(x.err, HTTP_OK);
    assert_string_equal(x.ctype, "text/event-stream");
    assert_string_equal(evs.data, "message|e0|line 0\nsecond\nother|e1|line 1\nsecond\n"
                                  "message|e2|line 2\nsecond\nother|e3|line 3\nsecond\n");
    assert_int_equal(sse_parser_retry(&p), 1500);
    assert_string_equal(sse_parser_last_id(&p), "e3");
    assert_true(x.datas >= 3);
    sse_parser_free(&p);
    buf_free(&evs);
    ex_free(&x);
}

static void test_post_echo(void **state)
{
    (void) state;
    struct ex x;
    size_t n = 300000; /* big enough that curl would ask for 100-continue */
    char *body = malloc(n + 1);
    memset(body, 'b', n);
    body[n] = '\0';
    char *headers[] = {"Content-Type: application/json", "Authorization: Bearer s3cr3t", "X-Empty;",
                       NULL};
    struct http_request_options o = {.headers = headers, .body = body, .body_len = n};
    exchange(&x, "POST", "/echo", &o);
    assert_int_equal(x.err, HTTP_OK);
    assert_int_equal(x.status, 200);
    cJSON *echo = cJSON_Parse(x.body.data);
    assert_non_null(echo);
    const cJSON *h = cJSON_GetObjectItem(echo, "headers");
    assert_string_equal(cJSON_GetObjectItem(echo, "method")->valuestring, "POST");
    assert_string_equal(cJSON_GetObjectItem(h, "authorization")->valuestring, "Bearer s3cr3t");
    assert_string_equal(cJSON_GetObjectItem(h, "content-type")->valuestring, "application/json");
    assert_string_equal(cJSON_GetObjectItem(h, "user-agent")->valuestring, "mcp-codemode-test/1");
    assert_string_equal(cJSON_GetObjectItem(h, "x-empty")->valuestring, "");
    assert_null(cJSON_GetObjectItem(h, "expect"));
    assert_int_equal(strlen(cJSON_GetObjectItem(echo, "body")->valuestring), n);
    cJSON_Delete(echo);
    ex_free(&x);
    /* DELETE without a body. */
    exchange(&x, "DELETE", "/echo", NULL);
    echo = cJSON_Parse(x.body.data);
    assert_string_equal(cJSON_GetObjectItem(echo, "method")->valuestring, "DELETE");
    assert_string_equal(cJSON_GetObjectItem(echo, "body")->valuestring, "");
    cJSON_Delete(echo);
    ex_free(&x);
    free(body);
}

static void test_timeouts(void **state)
{
    (void) state;
    struct ex x;
    struct http_request_options o = {.timeout_ms = 300};
    exchange(&x, NULL, "/slow?ms=5000", &o);
    assert_int_equal(x.err, HTTP_ERR_TIMEOUT);
    assert_in_range(x.elapsed, 250, 2000);
    assert_true(strstr(x.message, "imed out") != NULL);
    assert_int_equal(x.responses, 0);
    ex_free(&x);
    /* Idle: the first byte comes, then nothing. */
    struct http_request_options idle = {.idle_timeout_ms = 1000};
    exchange(&x, NULL, "/stall", &idle);
    assert_int_equal(x.err, HTTP_ERR_TIMEOUT);
    assert_string_equal(x.body.data, "x");
    assert_in_range(x.elapsed, 900, 4000);
    ex_free(&x);
    /* A slow answer inside the total timeout is fine. */
    struct http_request_options ok = {.timeout_ms = 3000};
    exchange(&x, NULL, "/slow?ms=200", &ok);
    assert_int_equal(x.err, HTTP_OK);
    assert_string_equal(x.body.data, "slow");
    ex_free(&x);
}

static void test_connect_refused(void **state)
{
    (void) state;
    struct ex x;
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/hello", node_server_free_port());
    exchange(&x, NULL, url, NULL);
    assert_int_equal(x.err, HTTP_ERR_CONNECT);
    assert_int_equal(x.responses, 0);
    assert_true(x.message[0] != '\0');
    assert_true(x.elapsed < 1000);
    ex_free(&x);
    /* Malformed URLs are refused at once, without callbacks. */
    struct http_request_options o = {.url = "not a url"};
    assert_null(http_request_start(hc, &o, &events, &x));
    o.url = "ftp://127.0.0.1/";
    assert_null(http_request_start(hc, &o, &events, &x));
}

static void test_size_cap(void **state)
{
    (void) state;
    struct ex x;
    struct http_request_options o = {.max_body_bytes = 100000};
    exchange(&x, NULL, "/big?bytes=1048576", &o);
    assert_int_equal(x.err, HTTP_ERR_TOO_LARGE);
    assert_true(x.body.len <= 100000);
    assert_true(strstr(x.message, "100000") != NULL);
    ex_free(&x);
    exchange(&x, NULL, "/big?bytes=100000", &o); /* exactly the cap */
    assert_int_equal(x.err, HTTP_OK);
    assert_int_equal(x.body.len, 100000);
    ex_free(&x);
    exchange(&x, NULL, "/big?bytes=8388608", NULL); /* no cap: 8 MiB arrive */
    assert_int_equal(x.err, HTTP_OK);
    assert_int_equal(x.body.len, 8388608);
    ex_free(&x);
}

static void test_cancel(void **state)
{
    (void) state;
    struct ex x, y;
    /* From outside: a stream that never ends. */
    start(&x, NULL, "/sse?n=1&forever=1", NULL);
    run_until(&x.datas, 5000);
    assert_int_equal(x.datas, 1);
    http_request_cancel(x.r);
    assert_int_equal(http_client_active(hc), 0);
    run_for(200);
    assert_int_equal(x.done, 0);
    ex_free(&x);
    /* From inside its own data callback. */
    start(&y, NULL, "/chunked?n=10&delay=20", NULL);
    y.cancel_after_data = 2;
    run_for(600);
    assert_int_equal(y.done, -1);
    assert_int_equal(y.datas, 2);
    assert_int_equal(http_client_active(hc), 0);
    ex_free(&y);
    /* Before anything happened. */
    start(&x, NULL, "/hello", NULL);
    http_request_cancel(x.r);
    run_for(100);
    assert_int_equal(x.responses + x.datas + x.done, 0);
    ex_free(&x);
    /* The same connection still works afterwards. */
    exchange(&x, NULL, "/hello", NULL);
    assert_string_equal(x.body.data, "hello");
    ex_free(&x);
}

static void test_redirects(void **state)
{
    (void) state;
    struct ex x;
    char *headers[] = {"Content-Type: text/plain", NULL};
    struct http_request_options o = {
        .max_redirects = 3, .headers = headers, .body = "payload", .body_len = 7};
    exchange(&x, "POST", "/redirect?code=307&to=/echo", &o);
    assert_int_equal(x.err, HTTP_OK);
    assert_int_equal(x.status, 200);
    cJSON *echo = cJSON_Parse(x.body.data);
    assert_string_equal(cJSON_GetObjectItem(echo, "method")->valuestring, "POST");
    assert_string_equal(cJSON_GetObjectItem(echo, "body")->valuestring, "payload");
    cJSON_Delete(echo);
    ex_free(&x);
    exchange(&x, "POST", "/redirect?code=303&to=/echo", &o); /* 303: GET */
    echo = cJSON_Parse(x.body.data);
    assert_string_equal(cJSON_GetObjectItem(echo, "method")->valuestring, "GET");
    cJSON_Delete(echo);
    ex_free(&x);
    /* Another origin: localhost is not 127.0.0.1. */
    char path[128];
    snprintf(path, sizeof path, "/redirect?to=http://localhost:%d/echo", srv.port);
    exchange(&x, "POST", path, &o);
    assert_int_equal(x.err, HTTP_ERR_REDIRECT);
    assert_true(strstr(x.message, "another origin") != NULL);
    assert_int_equal(x.responses, 0);
    ex_free(&x);
    exchange(&x, "POST", "/loop", &o);
    assert_int_equal(x.err, HTTP_ERR_REDIRECT);
    assert_true(strstr(x.message, "too many redirects") != NULL);
    ex_free(&x);
    /* Not following: the 3xx is the answer. */
    exchange(&x, NULL, "/redirect?to=/hello", NULL);
    assert_int_equal(x.err, HTTP_OK);
    assert_int_equal(x.status, 307);
    assert_string_equal(x.body.data, "moved");
    ex_free(&x);
}

static void test_cut_mid_body(void **state)
{
    (void) state;
    struct ex x;
    exchange(&x, NULL, "/cut", NULL);
    assert_int_equal(x.err, HTTP_ERR_BROKEN);
    assert_int_equal(x.status, 200);
    assert_string_equal(x.body.data, "only part of it");
    ex_free(&x);
}

static void test_parallel(void **state)
{
    (void) state;
    static struct ex xs[50];
    char path[64];
    for (int i = 0; i < 50; i++) {
        snprintf(path, sizeof path, "/chunked?n=%d&delay=10", 1 + i % 5);
        start(&xs[i], NULL, path, NULL);
    }
    assert_int_equal(http_client_active(hc), 50);
    uint64_t t0 = uv_now(&loop);
    for (int i = 0; i < 50; i++)
        assert_true(run_until(&xs[i].done, 10000));
    uint64_t wall = uv_now(&loop) - t0;
    for (int i = 0; i < 50; i++) {
        assert_int_equal(xs[i].err, HTTP_OK);
        assert_int_equal(strlen(xs[i].body.data), (size_t) (1 + i % 5) * 8);
        ex_free(&xs[i]);
    }
    fprintf(stderr, "  50 parallel chunked GETs: %llu ms\n", (unsigned long long) wall);
    assert_true(wall < 5000); /* they overlapped (50 x 5 x 10 ms in sequence = 2.5 s) */
}

/* Sequential requests reuse the kept-alive connection, none waits. */
static void test_sequential_reuse(void **state)
{
    (void) state;
    uint64_t max = 0, total = 0;
    for (int i = 0; i < 200; i++) {
        struct ex x;
        uint64_t t0 = uv_hrtime();
        exchange(&x, i % 2 ? "POST" : NULL, i % 2 ? "/echo" : "/hello", NULL);
        uint64_t us = (uv_hrtime() - t0) / 1000;
        assert_int_equal(x.err, HTTP_OK);
        assert_int_equal(x.status, 200);
        ex_free(&x);
        total += us;
        if (us > max)
            max = us;
    }
    fprintf(stderr, "  200 sequential requests: mean %llu us, max %llu us\n",
            (unsigned long long) (total / 200), (unsigned long long) max);
    assert_true(max < 500000);
}

static void test_server_restart(void **state)
{
    (void) state;
    struct ex x;
    exchange(&x, NULL, "/hello", NULL); /* leaves a kept-alive connection */
    assert_int_equal(x.err, HTTP_OK);
    ex_free(&x);
    int port = srv.port;
    node_server_stop(&srv);
    exchange(&x, NULL, "/hello", NULL);
    assert_true(x.err == HTTP_ERR_CONNECT || x.err == HTTP_ERR_BROKEN);
    ex_free(&x);
    assert_int_equal(start_server(port), 0);
    exchange(&x, NULL, "/hello", NULL);
    assert_int_equal(x.err, HTTP_OK);
    assert_string_equal(x.body.data, "hello");
    ex_free(&x);
}

/* Freeing the client from inside a callback, with other requests open. */
static void free_on_done(void *ud, struct http_request *r, enum http_error err, const char *msg)
{
    on_done(ud, r, err, msg);
    http_client_free(hc);
    hc = NULL;
}
static const struct http_request_events free_events = {on_response, on_data, free_on_done};

static void test_free_inside_callback(void **state)
{
    (void) state;
    struct ex a, b, c;
    start(&a, NULL, "/sse?n=1&forever=1", NULL);
    start(&b, NULL, "/slow?ms=3000", NULL);
    char url[128];
    snprintf(url, sizeof url, "%s/hello", base);
    struct http_request_options o = {.url = url};
    ex_init(&c);
    assert_non_null(http_request_start(hc, &o, &free_events, &c));
    assert_true(run_until(&c.done, 5000));
    assert_null(hc);
    run_for(100);
    assert_int_equal(a.done + b.done, 0);
    ex_free(&a);
    ex_free(&b);
    ex_free(&c);
}

/* HTTPS with a self-signed certificate: refused against the system's CA
 * store, accepted once CURL_CA_BUNDLE names it. */
static void test_tls(void **state)
{
    (void) state;
    char dir[] = "/tmp/mcp-tls-XXXXXX", cmd[512], cert[64], key[64], url[64];
    assert_non_null(mkdtemp(dir));
    snprintf(cert, sizeof cert, "%s/cert.pem", dir);
    snprintf(key, sizeof key, "%s/key.pem", dir);
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey rsa:2048 -nodes -keyout %s -out %s -days 1 "
             "-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1",
             key, cert);
    if (system(cmd) != 0)
        fail_msg("openssl could not make a test certificate");
    struct node_server tls;
    const char *argv[] = {"node", SERVER, "@PORT@", "--tls", cert, key, NULL};
    assert_int_equal(node_server_start(&tls, 0, argv, 10000), 0);
    snprintf(url, sizeof url, "https://127.0.0.1:%d/hello", tls.port);
    unsetenv("CURL_CA_BUNDLE");
    unsetenv("SSL_CERT_FILE");
    struct ex x;
    exchange(&x, NULL, url, NULL);
    assert_int_equal(x.err, HTTP_ERR_TLS);
    assert_true(strstr(x.message, "certificate") != NULL);
    ex_free(&x);
    setenv("CURL_CA_BUNDLE", cert, 1);
    exchange(&x, NULL, url, NULL);
    assert_int_equal(x.err, HTTP_OK);
    assert_string_equal(x.body.data, "hello");
    ex_free(&x);
    unsetenv("CURL_CA_BUNDLE");
    node_server_stop(&tls);
    unlink(cert);
    unlink(key);
    rmdir(dir);
}

static void test_urls(void **state)
{
    (void) state;
    char *o = http_url_origin("HTTP://Example.COM/a/b?c");
    assert_string_equal(o, "http://example.com:80");
    free(o);
    o = http_url_origin("https://h:8443");
    assert_string_equal(o, "https://h:8443");
    free(o);
    assert_null(http_url_origin("ftp://h/"));
    assert_null(http_url_origin("/relative"));
    char *r = http_url_resolve("http://h:1/sse", "/message?sessionId=abc");
    assert_string_equal(r, "http://h:1/message?sessionId=abc");
    free(r);
    r = http_url_resolve("http://h:1/v1/sse", "messages");
    assert_string_equal(r, "http://h:1/v1/messages");
    free(r);
    r = http_url_resolve("http://h:1/sse", "https://other/x");
    assert_string_equal(r, "https://other/x");
    free(r);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    alloc_install_cjson_hooks();
    repo_root_enter(SERVER, "test_transport_http_client");
    if (getenv("TEST_FILTER"))
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fixed_body, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chunked_streams, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sse_body, setup, teardown),
        cmocka_unit_test_setup_teardown(test_post_echo, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeouts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_connect_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_size_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_redirects, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cut_mid_body, setup, teardown),
        cmocka_unit_test_setup_teardown(test_parallel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sequential_reuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server_restart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_free_inside_callback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tls, setup, teardown),
        cmocka_unit_test(test_urls),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
