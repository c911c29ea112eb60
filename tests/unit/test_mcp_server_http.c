/* Unit tests of the MCP HTTP binding (mcp-server/http/) over loopback
 * sockets: the status codes and headers of each rule (sessions, the
 * MCP-Protocol-Version header, GET streams, DELETE, batches, 2026-07-28
 * header checks and listen streams, Host, Origin, CORS, bearer token, body
 * cap, legacy SSE, session expiry, keep-alives, drain), and the request
 * check helpers. No sandbox pool: nothing here runs a program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mcp-server/config/config.h"
#include "mcp-server/http/http.h"
#include "mcp-server/http/internal.h"
#include "tools/registry.h"

#include "support/http_test_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODERN_META                                                                                \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","                       \
    "\"io.modelcontextprotocol/clientCapabilities\":{}}"
#define JSON_HEADERS                                                                               \
    "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
#define MODERN_HEADERS JSON_HEADERS "MCP-Protocol-Version: 2026-07-28\r\n"

struct fixture {
    uv_loop_t loop;
    struct config cfg;
    struct tools_registry *tools;
    struct mcp_http *h;
    int port;
    int drained;
    struct tc c; /* the last request's connection */
    char sid[128];
    const char *instance; /* the instanceId the server was started with, or NULL */
};

struct reply {
    int status;
    char body[8192];
    char headers[2048];
};

static void start(struct fixture *f, struct mcp_http_config *hc)
{
    char *err = NULL;
    hc->server =
        (struct mcp_server_config){.loop = &f->loop, .tools = f->tools, .limits = &f->cfg.limits};
    if (hc->listen == NULL)
        hc->listen = "127.0.0.1:0";
    assert_int_equal(mcp_http_start(hc, &f->h, &err), 0);
    f->port = mcp_http_port(f->h);
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    uv_loop_init(&f->loop);
    config_init(&f->cfg);
    f->tools = tools_registry_new(NULL, NULL);
    f->c.fd = -1;
    *state = f;
    return 0;
}

static int setup_default(void **state)
{
    setup(state);
    struct fixture *f = *state;
    struct mcp_http_config hc = {0};
    start(f, &hc);
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    tc_free(&f->c);
    if (f->h)
        mcp_http_close(f->h);
    uv_run(&f->loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&f->loop), 0);
    tools_registry_free(f->tools);
    config_free(&f->cfg);
    free(f);
    return 0;
}

/* Sends one request on a new connection (kept in f->c) and waits for its
 * complete response (wait = 0: for its head and first bytes only). */
static void send_request(struct fixture *f, const char *method, const char *path,
                         const char *headers, const char *body, int wait_complete,
                         struct reply *out)
{
    char req[16384];
    tc_free(&f->c);
    tc_init(&f->c, &f->loop, f->port);
    snprintf(req, sizeof req,
             "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%sContent-Length: %zu\r\n\r\n%s", method,
             path, f->port, headers ? headers : "", body ? strlen(body) : 0, body ? body : "");
    tc_sends(&f->c, req);
    if (wait_complete)
        assert_true(tc_wait(&f->c, 0, 3000));
    else
        for (int i = 0; i < 200 && (f->c.nresponses == 0 || f->c.r[0].body.len == 0); i++)
            tc_step(&f->c, 5);
    assert_true(f->c.nresponses > 0);
    memset(out, 0, sizeof *out);
    out->status = f->c.r[0].status;
    snprintf(out->body, sizeof out->body, "%s", f->c.r[0].body.data ? f->c.r[0].body.data : "");
    snprintf(out->headers, sizeof out->headers, "%s",
             f->c.r[0].headers.data ? f->c.r[0].headers.data : "");
}

static struct reply *post(struct fixture *f, const char *headers, const char *body)
{
    static struct reply r;
    send_request(f, "POST", "/mcp", headers, body, 1, &r);
    return &r;
}

static int has(const struct reply *r, const char *text)
{
    return strstr(r->body, text) != NULL || strstr(r->headers, text) != NULL;
}

#define INIT_BODY(ver)                                                                             \
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"     \
    "\"" ver "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"

/* Opens a session of revision ver; its id lands in f->sid. */
static void open_session(struct fixture *f, const char *ver)
{
    char body[512];
    snprintf(body, sizeof body, INIT_BODY("%s"), ver);
    struct reply *r = post(f, JSON_HEADERS, body);
    assert_int_equal(r->status, 200);
    const char *h = strstr(r->headers, "mcp-session-id: ");
    assert_non_null(h);
    sscanf(h + 16, "%127[^\r\n]", f->sid);
    assert_int_equal(strlen(f->sid), (f->instance ? strlen(f->instance) + 1 : 0) + HTTP_SESSION_ID_LEN);
    char headers[512];
    snprintf(headers, sizeof headers, JSON_HEADERS "Mcp-Session-Id: %s\r\n", f->sid);
    r = post(f, headers, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assert_int_equal(r->status, 202);
    assert_string_equal(r->body, "");
}

static struct reply *in_session(struct fixture *f, const char *extra, const char *body)
{
    char headers[1024];
    snprintf(headers, sizeof headers, JSON_HEADERS "Mcp-Session-Id: %s\r\n%s", f->sid,
             extra ? extra : "");
    return post(f, headers, body);
}

/* --- 2025 sessions ---------------------------------------------------------------------------- */

static void test_session_lifecycle(void **state)
{
    struct fixture *f = *state;
    open_session(f, "2025-11-25");
    for (const char *p = f->sid; *p; p++)
        assert_true(*p >= 0x21 && *p <= 0x7e);
    assert_int_equal(mcp_http_sessions(f->h), 1);
    struct reply *r = in_session(f, "MCP-Protocol-Version: 2025-11-25\r\n",
                                 "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    assert_int_equal(r->status, 200);
    assert_string_equal(r->body, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n");
    assert_true(has(r, "content-type: application/json"));
    assert_true(has(r, f->sid));
    /* a second session is independent */
    char first[128];
    strcpy(first, f->sid);
    open_session(f, "2025-06-18");
    assert_string_not_equal(first, f->sid);
    assert_int_equal(mcp_http_sessions(f->h), 2);
    /* DELETE ends it; later requests get 404, the other session lives on */
    char headers[512];
    struct reply d;
    snprintf(headers, sizeof headers, "Mcp-Session-Id: %s\r\n", f->sid);
    send_request(f, "DELETE", "/mcp", headers, NULL, 1, &d);
    assert_int_equal(d.status, 200);
    r = in_session(f, NULL, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
    assert_int_equal(r->status, 404);
    send_request(f, "DELETE", "/mcp", headers, NULL, 1, &d);
    assert_int_equal(d.status, 404);
    strcpy(f->sid, first);
    r = in_session(f, NULL, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");
    assert_int_equal(r->status, 200);
}

static void test_session_rules(void **state)
{
    struct fixture *f = *state;
    const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";
    /* no session id, no version header */
    assert_int_equal(post(f, JSON_HEADERS, ping)->status, 400);
    /* a legacy version header without a session */
    assert_int_equal(post(f, JSON_HEADERS "MCP-Protocol-Version: 2025-06-18\r\n", ping)->status,
                     400);
    /* unknown session */
    struct reply *r = post(f, JSON_HEADERS "Mcp-Session-Id: nope\r\n", ping);
    assert_int_equal(r->status, 404);
    assert_true(has(r, "\"code\":-32600"));
    /* an initialize that fails leaves no session behind */
    r = post(f, JSON_HEADERS,
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
    assert_int_equal(r->status, 200);
    assert_true(has(r, "\"code\":-32602"));
    assert_false(has(r, "mcp-session-id"));
    assert_int_equal(mcp_http_sessions(f->h), 0);
    /* initialize inside a batch is not an initialize */
    r = post(f, JSON_HEADERS, "[" INIT_BODY("2025-03-26") "]");
    assert_int_equal(r->status, 400);
    open_session(f, "2025-11-25");
    /* an unsupported version header in a session */
    r = in_session(f, "MCP-Protocol-Version: 1999-01-01\r\n", ping);
    assert_int_equal(r->status, 400);
    /* a second initialize in the session */
    r = in_session(f, NULL, INIT_BODY("2025-11-25"));
    assert_int_equal(r->status, 400);
    assert_true(has(r, "\"code\":-32600"));
    /* a malformed body in the session: the session's server answers -32700 */
    r = in_session(f, NULL, "{nope");
    assert_int_equal(r->status, 400);
    assert_true(has(r, "\"code\":-32700"));
    /* and without a session */
    r = post(f, JSON_HEADERS, "{nope");
    assert_int_equal(r->status, 400);
    assert_true(has(r, "\"code\":-32700"));
    /* responses and notifications: 202 */
    r = in_session(f, NULL, "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}");
    assert_int_equal(r->status, 202);
}

static void test_media_types(void **state)
{
    struct fixture *f = *state;
    open_session(f, "2025-11-25");
    char headers[512];
    snprintf(headers, sizeof headers, "Content-Type: text/plain\r\nMcp-Session-Id: %s\r\n", f->sid);
    assert_int_equal(post(f, headers, "{}")->status, 415);
    snprintf(headers, sizeof headers,
             "Content-Type: application/json; charset=utf-8\r\nAccept: text/html\r\n"
             "Mcp-Session-Id: %s\r\n",
             f->sid);
    assert_int_equal(post(f, headers, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")->status,
                     406);
    /* no Accept at all: anything goes */
    snprintf(headers, sizeof headers, "Content-Type: application/json\r\nMcp-Session-Id: %s\r\n",
             f->sid);
    assert_int_equal(post(f, headers, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")->status,
                     200);
    /* SSE only: the reply comes as an event stream */
    snprintf(
        headers, sizeof headers,
        "Content-Type: application/json\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\n",
        f->sid);
    struct reply *r = post(f, headers, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}");
    assert_int_equal(r->status, 200);
    assert_true(has(r, "content-type: text/event-stream"));
    assert_string_equal(r->body,
                        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n\n");
}

static void test_batches(void **state)
{
    struct fixture *f = *state;
    open_session(f, "2025-03-26");
    struct reply *r = in_session(f, NULL,
                                 "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"},"
                                 "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]");
    assert_int_equal(r->status, 200);
    assert_true(
        has(r, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},{\"jsonrpc\":\"2.0\",\"id\":2"));
    r = in_session(f, NULL, "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}]");
    assert_int_equal(r->status, 202);
    open_session(f, "2025-06-18");
    r = in_session(f, NULL, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
    assert_int_equal(r->status, 400);
    assert_true(has(r, "\"code\":-32600"));
}

static void test_get_stream(void **state)
{
    struct fixture *f = *state;
    struct reply g;
    send_request(f, "GET", "/mcp", "Accept: text/event-stream\r\n", NULL, 1, &g);
    assert_int_equal(g.status, 405);
    assert_true(has(&g, "allow: POST"));
    send_request(f, "GET", "/mcp", "Accept: text/event-stream\r\nMcp-Session-Id: nope\r\n", NULL, 1,
                 &g);
    assert_int_equal(g.status, 404);
    open_session(f, "2025-11-25");
    char headers[512];
    snprintf(headers, sizeof headers, "Accept: application/json\r\nMcp-Session-Id: %s\r\n", f->sid);
    send_request(f, "GET", "/mcp", headers, NULL, 1, &g);
    assert_int_equal(g.status, 406);
    snprintf(headers, sizeof headers, "Accept: text/event-stream\r\nMcp-Session-Id: %s\r\n",
             f->sid);
    struct tc stream;
    tc_init(&stream, &f->loop, f->port);
    char req[1024];
    snprintf(req, sizeof req, "GET /mcp HTTP/1.1\r\nHost: localhost:%d\r\n%s\r\n", f->port,
             headers);
    tc_sends(&stream, req);
    tc_pause(&stream, 50);
    assert_int_equal(stream.r[0].status, 200);
    assert_false(stream.r[0].complete);
    send_request(f, "GET", "/mcp", headers, NULL, 1, &g);
    assert_int_equal(g.status, 409);
    /* the tool list changed: the notification goes on the GET stream */
    mcp_http_tools_changed(f->h);
    tc_pause(&stream, 50);
    assert_non_null(stream.r[0].body.data);
    assert_non_null(strstr(stream.r[0].body.data, "notifications/tools/list_changed"));
    /* DELETE ends the session and its stream */
    snprintf(headers, sizeof headers, "Mcp-Session-Id: %s\r\n", f->sid);
    send_request(f, "DELETE", "/mcp", headers, NULL, 1, &g);
    assert_int_equal(g.status, 200);
    assert_true(tc_wait(&stream, 0, 2000));
    tc_free(&stream);
}

/* --- 2026-07-28 ----------------------------------------------------------------------------------
 */

static void test_modern_requests(void **state)
{
    struct fixture *f = *state;
    struct reply *r =
        post(f, MODERN_HEADERS "Mcp-Method: server/discover\r\n",
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{" MODERN_META
             "}}");
    assert_int_equal(r->status, 200);
    assert_true(has(r, "\"resultType\":\"complete\""));
    assert_false(has(r, "mcp-session-id"));
    assert_int_equal(mcp_http_sessions(f->h), 0);
    /* a session id header is ignored with the 2026 version header */
    r = post(f, MODERN_HEADERS "Mcp-Method: server/discover\r\nMcp-Session-Id: whatever\r\n",
             "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"server/discover\",\"params\":{" MODERN_META
             "}}");
    assert_int_equal(r->status, 200);
    /* unknown method: 404 with -32601 */
    r = post(f, MODERN_HEADERS "Mcp-Method: nope/nope\r\n",
             "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nope/nope\",\"params\":{" MODERN_META
             "}}");
    assert_int_equal(r->status, 404);
    assert_true(has(r, "\"code\":-32601"));
    /* initialize is no 2026-07-28 method: 404 with -32601 and no session, whatever the params;
     * the shared stateless server stays stateless, and 2025 clients still get sessions */
    r = post(f, MODERN_HEADERS "Mcp-Method: initialize\r\n",
             "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"initialize\",\"params\":{" MODERN_META
             "}}");
    assert_int_equal(r->status, 404);
    assert_true(has(r, "\"id\":31,\"error\":{\"code\":-32601"));
    assert_false(has(r, "mcp-session-id"));
    r = post(f, MODERN_HEADERS "Mcp-Method: initialize\r\n", INIT_BODY("2025-11-25"));
    assert_int_equal(r->status, 404);
    assert_int_equal(mcp_http_sessions(f->h), 0);
    r = post(f, MODERN_HEADERS "Mcp-Method: tools/list\r\n",
             "{\"jsonrpc\":\"2.0\",\"id\":32,\"method\":\"tools/list\",\"params\":{" MODERN_META
             "}}");
    assert_int_equal(r->status, 200);
    assert_true(has(r, "\"resultType\":\"complete\""));
    open_session(f, "2025-11-25");
    assert_int_equal(mcp_http_sessions(f->h), 1);
    /* a required _meta field is missing: 400 with -32602 */
    r = post(f, MODERN_HEADERS "Mcp-Method: tools/list\r\n",
             "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
             "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}");
    assert_int_equal(r->status, 400);
    assert_true(has(r, "\"id\":4,\"error\":{\"code\":-32602"));
    /* an unsupported version: 400 with -32022 and its data */
    r = post(f, JSON_HEADERS "MCP-Protocol-Version: 2099-01-01\r\nMcp-Method: server/discover\r\n",
             "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"server/discover\",\"params\":{}}");
    assert_int_equal(r->status, 400);
    assert_true(has(r, "\"id\":5,\"error\":{\"code\":-32022"));
    assert_true(has(r, "\"supported\":[\"2026-07-28\"],\"requested\":\"2099-01-01\""));
    /* notifications: 202, no body */
    r = post(f, MODERN_HEADERS,
             "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
             "cancelled\",\"params\":{\"requestId\":1}}");
    assert_int_equal(r->status, 202);
    /* no batches */
    r = post(f, MODERN_HEADERS "Mcp-Method: server/discover\r\n", "[]");
    assert_int_equal(r->status, 400);
    /* GET and DELETE are not part of 2026-07-28 */
    struct reply g;
    send_request(f, "GET", "/mcp", "MCP-Protocol-Version: 2026-07-28\r\nMcp-Session-Id: x\r\n",
                 NULL, 1, &g);
    assert_int_equal(g.status, 405);
    send_request(f, "DELETE", "/mcp", "MCP-Protocol-Version: 2026-07-28\r\n", NULL, 1, &g);
    assert_int_equal(g.status, 405);
}

static void expect_mismatch(struct fixture *f, const char *headers, const char *body)
{
    struct reply *r = post(f, headers, body);
    assert_int_equal(r->status, 400);
    if (!has(r, "\"code\":-32020"))
        fail_msg("expected -32020, got %s", r->body);
}

static void test_modern_header_rules(void **state)
{
    struct fixture *f = *state;
    const char *read = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{"
                       "\"uri\":\"codemode://declarations.d.ts\"," MODERN_META "}}";
    /* Mcp-Method missing, wrong, with a bad character */
    expect_mismatch(f, MODERN_HEADERS "Mcp-Name: codemode://declarations.d.ts\r\n", read);
    expect_mismatch(
        f, MODERN_HEADERS "Mcp-Method: tools/list\r\nMcp-Name: codemode://declarations.d.ts\r\n",
        read);
    expect_mismatch(f, MODERN_HEADERS "Mcp-Method: resources/read\xc3\xa9\r\nMcp-Name: x\r\n",
                    read);
    /* Mcp-Name missing or wrong */
    expect_mismatch(f, MODERN_HEADERS "Mcp-Method: resources/read\r\n", read);
    expect_mismatch(
        f, MODERN_HEADERS "Mcp-Method: resources/read\r\nMcp-Name: codemode://other\r\n", read);
    expect_mismatch(f, MODERN_HEADERS "Mcp-Method: resources/read\r\nMcp-Name: =?base64?!!?=\r\n",
                    read);
    /* the version header and _meta disagree */
    expect_mismatch(
        f, MODERN_HEADERS "Mcp-Method: server/discover\r\n",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
        "\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\","
        "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
    /* a modern body without the version header */
    expect_mismatch(
        f, JSON_HEADERS "Mcp-Method: server/discover\r\n",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{" MODERN_META
        "}}");
    /* the right headers, plain and base64-encoded */
    struct reply *r = post(
        f,
        MODERN_HEADERS "mcp-method: resources/read\r\nMCP-NAME: codemode://declarations.d.ts\r\n",
        read);
    assert_int_equal(r->status, 200);
    assert_true(has(r, "\"contents\":["));
    r = post(f,
             MODERN_HEADERS "Mcp-Method: resources/read\r\n"
                            "Mcp-Name: =?base64?Y29kZW1vZGU6Ly9kZWNsYXJhdGlvbnMuZC50cw==?=\r\n",
             read);
    assert_int_equal(r->status, 200);
}

static void test_modern_listen(void **state)
{
    struct fixture *f = *state;
    struct tc s;
    tc_init(&s, &f->loop, f->port);
    const char *body =
        "{\"jsonrpc\":\"2.0\",\"id\":\"L1\",\"method\":\"subscriptions/listen\",\"params\":{"
        "\"notifications\":{\"toolsListChanged\":true}," MODERN_META "}}";
    char req[2048];
    snprintf(req, sizeof req,
             "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" MODERN_HEADERS
             "Mcp-Method: subscriptions/listen\r\nContent-Length: %zu\r\n\r\n%s",
             f->port, strlen(body), body);
    tc_sends(&s, req);
    tc_pause(&s, 50);
    assert_int_equal(s.r[0].status, 200);
    assert_non_null(s.r[0].body.data);
    assert_non_null(strstr(s.r[0].body.data, "notifications/subscriptions/acknowledged"));
    mcp_http_tools_changed(f->h);
    tc_pause(&s, 50);
    assert_non_null(strstr(s.r[0].body.data,
                           "\"method\":\"notifications/tools/list_changed\",\"params\":{\"_meta\":{"
                           "\"io.modelcontextprotocol/subscriptionId\":\"L1\"}}"));
    assert_non_null(f->h->posts); /* the listen request is in flight */
    /* the client closes the stream: the subscription is cancelled */
    close(s.fd);
    s.fd = -1;
    tc_pause(&s, 50);
    assert_null(f->h->posts);
    mcp_http_tools_changed(f->h);
    uv_run(&f->loop, UV_RUN_NOWAIT);
    tc_free(&s);
}

/* --- security ------------------------------------------------------------------------------------
 */

static void raw_request(struct fixture *f, const char *text, struct reply *out)
{
    tc_free(&f->c);
    tc_init(&f->c, &f->loop, f->port);
    tc_sends(&f->c, text);
    assert_true(tc_wait(&f->c, 0, 3000));
    out->status = f->c.r[0].status;
    snprintf(out->headers, sizeof out->headers, "%s", f->c.r[0].headers.data);
    snprintf(out->body, sizeof out->body, "%s", f->c.r[0].body.data ? f->c.r[0].body.data : "");
}

static void test_host_and_origin(void **state)
{
    struct fixture *f = *state;
    char req[1024];
    struct reply r;
    const char *body = INIT_BODY("2025-11-25");
    const char *hosts[] = {"evil.example.com", "127.0.0.1:1", "localhost", NULL};
    for (int i = 0; hosts[i]; i++) {
        snprintf(req, sizeof req,
                 "POST /mcp HTTP/1.1\r\nHost: %s\r\n" JSON_HEADERS "Content-Length: %zu\r\n\r\n%s",
                 hosts[i], strlen(body), body);
        raw_request(f, req, &r);
        assert_int_equal(r.status, 403);
    }
    snprintf(req, sizeof req, "POST /mcp HTTP/1.1\r\n" JSON_HEADERS "Content-Length: %zu\r\n\r\n%s",
             strlen(body), body);
    raw_request(f, req, &r); /* no Host at all */
    assert_int_equal(r.status, 403);
    const char *ok_hosts[] = {"localhost:%d", "127.0.0.1:%d", "[::1]:%d", "LOCALHOST:%d", NULL};
    for (int i = 0; ok_hosts[i]; i++) {
        char host[64];
        snprintf(host, sizeof host, ok_hosts[i], f->port);
        snprintf(req, sizeof req,
                 "POST /mcp HTTP/1.1\r\nHost: %s\r\n" JSON_HEADERS "Content-Length: %zu\r\n\r\n%s",
                 host, strlen(body), body);
        raw_request(f, req, &r);
        assert_int_equal(r.status, 200);
    }
    /* Origin: the conformance suite's DNS rebinding check, then the real one */
    struct reply *p = post(f, JSON_HEADERS "Origin: http://evil.example.com\r\n", body);
    assert_int_equal(p->status, 403);
    char origin[128];
    snprintf(origin, sizeof origin, JSON_HEADERS "Origin: http://localhost:%d\r\n", f->port);
    p = post(f, origin, body);
    assert_int_equal(p->status, 200);
    assert_true(has(p, "access-control-allow-origin: http://localhost:"));
    assert_true(has(p, "access-control-expose-headers: Mcp-Session-Id"));
    assert_int_equal(post(f, JSON_HEADERS "Origin: null\r\n", body)->status, 403);
    snprintf(origin, sizeof origin, JSON_HEADERS "Origin: https://localhost:%d\r\n", f->port);
    assert_int_equal(post(f, origin, body)->status, 403);
}

static void test_allowed_origins_and_preflight(void **state)
{
    setup(state);
    struct fixture *f = *state;
    char *origins[] = {"http://inspector.example:6274", NULL};
    struct mcp_http_config hc = {.allowed_origins = origins};
    start(f, &hc);
    struct reply *r =
        post(f, JSON_HEADERS "Origin: http://inspector.example:6274\r\n", INIT_BODY("2025-11-25"));
    assert_int_equal(r->status, 200);
    /* the Host of an allowed origin is accepted too (behind a proxy) */
    char req[1024];
    const char *body = INIT_BODY("2025-11-25");
    snprintf(req, sizeof req,
             "POST /mcp HTTP/1.1\r\nHost: inspector.example:6274\r\n" JSON_HEADERS
             "Content-Length: %zu\r\n\r\n%s",
             strlen(body), body);
    struct reply rr;
    raw_request(f, req, &rr);
    assert_int_equal(rr.status, 200);
    struct reply o;
    send_request(f, "OPTIONS", "/mcp",
                 "Origin: http://inspector.example:6274\r\nAccess-Control-Request-Method: POST\r\n"
                 "Access-Control-Request-Headers: content-type, mcp-session-id\r\n",
                 NULL, 1, &o);
    assert_int_equal(o.status, 204);
    assert_true(has(&o, "access-control-allow-headers: content-type, mcp-session-id"));
    assert_true(has(&o, "access-control-allow-methods: GET, POST, DELETE, OPTIONS"));
}

static void test_bearer_token(void **state)
{
    setup(state);
    struct fixture *f = *state;
    struct mcp_http_config hc = {.auth_token = "s3cret"};
    start(f, &hc);
    struct reply *r = post(f, JSON_HEADERS, INIT_BODY("2025-11-25"));
    assert_int_equal(r->status, 401);
    assert_true(has(r, "www-authenticate: Bearer realm=\"mcp-codemode\"\n"));
    r = post(f, JSON_HEADERS "Authorization: Bearer s3cre\r\n", INIT_BODY("2025-11-25"));
    assert_int_equal(r->status, 401);
    assert_true(has(r, "error=\"invalid_token\""));
    r = post(f, JSON_HEADERS "Authorization: Basic czNjcmV0\r\n", INIT_BODY("2025-11-25"));
    assert_int_equal(r->status, 401);
    r = post(f, JSON_HEADERS "Authorization: bearer s3cret\r\n", INIT_BODY("2025-11-25"));
    assert_int_equal(r->status, 200);
    struct reply s;
    send_request(f, "GET", "/sse", NULL, NULL, 1, &s);
    assert_int_equal(s.status, 401);
}

static void test_body_cap_and_paths(void **state)
{
    setup(state);
    struct fixture *f = *state;
    struct mcp_http_config hc = {.max_body_bytes = 1024};
    start(f, &hc);
    char big[2048];
    memset(big, ' ', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    memcpy(big, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", 40);
    struct reply *r = post(f, JSON_HEADERS, big);
    assert_int_equal(r->status, 413);
    struct reply o;
    send_request(f, "GET", "/other", NULL, NULL, 1, &o);
    assert_int_equal(o.status, 404);
    send_request(f, "PUT", "/mcp", NULL, "{}", 1, &o);
    assert_int_equal(o.status, 405);
    assert_true(has(&o, "allow: GET, POST, DELETE"));
    send_request(f, "POST", "/sse", JSON_HEADERS, "{}", 1, &o);
    assert_int_equal(o.status, 405);
    send_request(f, "GET", "/message", NULL, NULL, 1, &o);
    assert_int_equal(o.status, 405);
}

/* --- legacy SSE
 * -------------------------------------------------------------------------------------- */

/* codemode.http.instanceId: every minted id starts "ID." (Streamable HTTP
 * sessions and the legacy SSE endpoint), ids are still found, and an id with
 * another instance's prefix (or none) is unknown here. */
static void test_instance_id(void **state)
{
    setup(state);
    struct fixture *f = *state;
    struct mcp_http_config hc = {.instance_id = "node7"};
    f->instance = "node7";
    start(f, &hc);
    open_session(f, "2025-11-25");
    assert_memory_equal(f->sid, "node7.", 6);
    assert_int_equal(strspn(f->sid + 6, "0123456789abcdef"), HTTP_SESSION_ID_LEN);
    char headers[512];
    snprintf(headers, sizeof headers, JSON_HEADERS "Mcp-Session-Id: %s\r\n", f->sid);
    struct reply *r = post(f, headers, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    assert_int_equal(r->status, 200);
    assert_true(has(r, "\"id\":2,\"result\":{}"));
    /* the same random part under another instance's prefix, or without one */
    snprintf(headers, sizeof headers, JSON_HEADERS "Mcp-Session-Id: node8.%s\r\n", f->sid + 6);
    assert_int_equal(post(f, headers, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}")->status,
                     404);
    snprintf(headers, sizeof headers, JSON_HEADERS "Mcp-Session-Id: %s\r\n", f->sid + 6);
    assert_int_equal(post(f, headers, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}")->status,
                     404);

    struct tc s;
    tc_init(&s, &f->loop, f->port);
    char req[512];
    snprintf(req, sizeof req,
             "GET /sse HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: text/event-stream\r\n\r\n",
             f->port);
    tc_sends(&s, req);
    tc_pause(&s, 50);
    assert_int_equal(s.r[0].status, 200);
    char id[128];
    assert_non_null(s.r[0].body.data);
    assert_int_equal(
        sscanf(s.r[0].body.data, "event: endpoint\ndata: /message?sessionId=%127[^\n]", id), 1);
    assert_memory_equal(id, "node7.", 6);
    assert_int_equal(strlen(id), 6 + HTTP_SESSION_ID_LEN);
    char path[256];
    struct reply rr;
    snprintf(path, sizeof path, "/message?sessionId=%s", id);
    send_request(f, "POST", path, JSON_HEADERS, INIT_BODY("2025-11-25"), 1, &rr);
    assert_int_equal(rr.status, 202);
    tc_free(&s);
}

static void test_legacy_sse(void **state)
{
    struct fixture *f = *state;
    struct tc s;
    tc_init(&s, &f->loop, f->port);
    char req[512];
    snprintf(req, sizeof req,
             "GET /sse HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: text/event-stream\r\n\r\n",
             f->port);
    tc_sends(&s, req);
    tc_pause(&s, 50);
    assert_int_equal(s.r[0].status, 200);
    char id[128];
    assert_non_null(s.r[0].body.data);
    assert_int_equal(
        sscanf(s.r[0].body.data, "event: endpoint\ndata: /message?sessionId=%127[^\n]", id), 1);
    assert_int_equal(mcp_http_sessions(f->h), 1);
    char path[256];
    struct reply r;
    snprintf(path, sizeof path, "/message?sessionId=%s", id);
    send_request(f, "POST", path, JSON_HEADERS, INIT_BODY("2025-11-25"), 1, &r);
    assert_int_equal(r.status, 202);
    assert_string_equal(r.body, "Accepted");
    send_request(f, "POST", path, JSON_HEADERS "MCP-Protocol-Version: 2025-11-25\r\n",
                 "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}", 1, &r);
    assert_int_equal(r.status, 202);
    tc_pause(&s, 50);
    assert_non_null(
        strstr(s.r[0].body.data,
               "event: message\ndata: "
               "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\""));
    assert_non_null(
        strstr(s.r[0].body.data,
               "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"p\",\"result\":{}}\n\n"));
    send_request(f, "POST", path, JSON_HEADERS "MCP-Protocol-Version: bogus\r\n", "{}", 1, &r);
    assert_int_equal(r.status, 400);
    send_request(f, "POST", "/message?sessionId=nope", JSON_HEADERS, "{}", 1, &r);
    assert_int_equal(r.status, 404);
    send_request(f, "POST", "/message", JSON_HEADERS, "{}", 1, &r);
    assert_int_equal(r.status, 400);
    /* the stream closes: the session ends */
    close(s.fd);
    s.fd = -1;
    tc_pause(&s, 50);
    assert_int_equal(mcp_http_sessions(f->h), 0);
    send_request(f, "POST", path, JSON_HEADERS, "{}", 1, &r);
    assert_int_equal(r.status, 404);
    tc_free(&s);
}

/* --- time: expiry, keep-alives, drain -----------------------------------------------------------
 */

static void test_session_expiry_and_keepalive(void **state)
{
    setup(state);
    struct fixture *f = *state;
    struct mcp_http_config hc = {.session_timeout_ms = 1000, .keepalive_ms = 100};
    start(f, &hc);
    open_session(f, "2025-11-25");
    char keep[128];
    strcpy(keep, f->sid);
    open_session(f, "2025-11-25");
    /* a GET stream keeps its session alive and gets keep-alive comments */
    struct tc s;
    tc_init(&s, &f->loop, f->port);
    char req[512];
    snprintf(req, sizeof req,
             "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nMcp-Session-Id: %s\r\n\r\n", f->port,
             keep);
    tc_sends(&s, req);
    tc_pause(&s, 1600);
    assert_non_null(s.r[0].body.data);
    assert_non_null(strstr(s.r[0].body.data, ":\n\n"));
    assert_int_equal(mcp_http_sessions(f->h), 1);
    assert_int_equal(
        in_session(f, NULL, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")->status, 404);
    strcpy(f->sid, keep);
    assert_int_equal(
        in_session(f, NULL, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")->status, 200);
    tc_free(&s);
}

static void drained(void *ud)
{
    ((struct fixture *) ud)->drained = 1;
}

static void test_drain(void **state)
{
    struct fixture *f = *state;
    open_session(f, "2025-11-25");
    struct tc s;
    tc_init(&s, &f->loop, f->port);
    char req[512];
    snprintf(req, sizeof req,
             "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nMcp-Session-Id: %s\r\n\r\n", f->port,
             f->sid);
    tc_sends(&s, req);
    tc_pause(&s, 50);
    assert_int_equal(s.r[0].status, 200);
    mcp_http_drain(f->h, 5000, drained, f);
    assert_true(tc_wait(&s, 0, 2000)); /* the GET stream ends */
    for (int i = 0; i < 100 && !f->drained; i++)
        tc_step(&s, 5);
    assert_true(f->drained); /* nothing was running */
    tc_free(&s);
}

/* --- helpers
 * ---------------------------------------------------------------------------------------- */

static void test_check_helpers(void **state)
{
    (void) state;
    assert_true(mcp_http__accepts(NULL, "application/json"));
    assert_true(mcp_http__accepts("application/json, text/event-stream", "text/event-stream"));
    assert_true(mcp_http__accepts("text/*", "text/event-stream"));
    assert_true(mcp_http__accepts("*/*;q=0.1", "application/json"));
    assert_false(mcp_http__accepts("text/event-stream", "application/json"));
    assert_false(mcp_http__accepts("application/json;q=0, text/event-stream", "application/json"));
    assert_true(mcp_http__media_is("Application/JSON ; charset=utf-8", "application/json"));
    assert_false(mcp_http__media_is("application/jsonx", "application/json"));
    assert_false(mcp_http__media_is(NULL, "application/json"));
    assert_true(mcp_http__check_token("Bearer abc", "abc"));
    assert_true(mcp_http__check_token("BEARER   abc", "abc"));
    assert_false(mcp_http__check_token("Bearer abcd", "abc"));
    assert_false(mcp_http__check_token("Bearer ab", "abc"));
    assert_false(mcp_http__check_token(NULL, "abc"));
    assert_true(mcp_http__field_ok("a b\tc"));
    assert_false(mcp_http__field_ok("a\x01"));
    assert_false(mcp_http__field_ok("\xc3\xa9"));
    char *d = mcp_http__decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=");
    assert_string_equal(d, "Hello, \xe4\xb8\x96\xe7\x95\x8c");
    free(d);
    d = mcp_http__decode_header_value("plain");
    assert_string_equal(d, "plain");
    free(d);
    assert_null(mcp_http__decode_header_value("=?base64?abc?="));
    assert_null(mcp_http__decode_header_value("=?base64?YW J?="));     /* whitespace */
    assert_null(mcp_http__decode_header_value("=?base64?YQ=a?="));     /* data after padding */
    assert_null(mcp_http__decode_header_value("=?base64?YQ==YQ==?=")); /* padding inside */
    d = mcp_http__query_param("a=1&sessionId=ab%2Fc&x", "sessionId");
    assert_string_equal(d, "ab/c");
    free(d);
    assert_null(mcp_http__query_param("sessionIdx=1", "sessionId"));
}

/* The principal of an OAuth token: "oauth:ISS#SUB", digested when the
 * subject is long, unprintable, or could be mistaken for a digest, and both
 * digested when the issuer cannot be kept. Different (iss, sub) pairs never
 * share a name. */
static void test_oauth_principal_names(void **state)
{
    (void) state;
    char *a = mcp_http_principal_name("https://auth.example.com", "alice");
    assert_string_equal(a, "oauth:https://auth.example.com#alice");
    char longsub[400];
    memset(longsub, 'x', sizeof longsub - 1);
    longsub[sizeof longsub - 1] = '\0';
    char *l = mcp_http_principal_name("https://auth.example.com", longsub);
    assert_true(strncmp(l, "oauth:https://auth.example.com#sha256:", 38) == 0);
    assert_int_equal(strlen(l), 38 + 64);
    char *c = mcp_http_principal_name("https://auth.example.com", "a\nb");
    assert_true(strncmp(c, "oauth:https://auth.example.com#sha256:", 38) == 0);
    char *fake = mcp_http_principal_name("https://auth.example.com", l + 31); /* "sha256:..." */
    assert_string_not_equal(fake, l);
    char *hash_iss = mcp_http_principal_name("https://a#b", "c");
    assert_true(strncmp(hash_iss, "oauth:sha256:", 13) == 0);
    char *other = mcp_http_principal_name("https://a", "b#c");
    assert_string_not_equal(other, hash_iss);
    assert_true(strlen(l) <= 256 && strlen(hash_iss) <= 256);
    free(a);
    free(l);
    free(c);
    free(fake);
    free(hash_iss);
    free(other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_session_lifecycle, setup_default, teardown),
        cmocka_unit_test_setup_teardown(test_session_rules, setup_default, teardown),
        cmocka_unit_test_setup_teardown(test_media_types, setup_default, teardown),
        cmocka_unit_test_setup_teardown(test_batches, setup_default, teardown),
        cmocka_unit_test_setup_teardown(test_get_stream, setup_default, teardown),
        cmocka_unit_test_setup_teardown(test_modern_requests, setup_default, teardown),
        cmocka_unit_test_setup_teardown(test_modern_header_rules, setup_default, teardown),
        cmocka_unit_test_setup_teardown(test_modern_listen, setup_default, teardown),
        cmocka_unit_test_setup_teardown(test_host_and_origin, setup_default, teardown),
        cmocka_unit_test_teardown(test_allowed_origins_and_preflight, teardown),
        cmocka_unit_test_teardown(test_bearer_token, teardown),
        cmocka_unit_test_teardown(test_body_cap_and_paths, teardown),
        cmocka_unit_test_setup_teardown(test_legacy_sse, setup_default, teardown),
        cmocka_unit_test_teardown(test_instance_id, teardown),
        cmocka_unit_test_teardown(test_session_expiry_and_keepalive, teardown),
        cmocka_unit_test_setup_teardown(test_drain, setup_default, teardown),
        cmocka_unit_test(test_check_helpers),
        cmocka_unit_test(test_oauth_principal_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
