/* The rules of each MCP HTTP endpoint. /mcp: which era a POST belongs to
 * (a known Mcp-Session-Id, or an initialize without the 2026-07-28 version
 * header: a 2025 session; an MCP-Protocol-Version of 2026-07-28: a stateless
 * request checked against its Mcp-Method and Mcp-Name headers), GET streams
 * and DELETE for sessions.
 * /sse and /message: the 2024-11-05 HTTP+SSE transport. The statuses follow
 * the transport pages of each revision (docs/protocol.md lists them). */
#include "mcp-server/http/internal.h"
#include "mcp-server/protocol.h"
#include "tools/registry.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *header(const struct http_server_request *r, const char *name)
{
    return http_parser_header(r, name);
}

static uint64_t now_ms(const struct mcp_http *h)
{
    return uv_now(h->cfg.server.loop);
}

/* "Mcp-Session-Id: ID\r\n" after the CORS lines. */
static char *session_headers(const char *cors, const struct http_session *s)
{
    struct buf b;
    buf_init(&b, 0);
    if (cors)
        buf_append_str(&b, cors);
    if (s)
        buf_printf(&b, "Mcp-Session-Id: %s\r\n", s->id);
    return buf_steal(&b);
}

static void reply_allow(struct http_exchange *x, const char *cors, const char *allow)
{
    struct buf b;
    buf_init(&b, 0);
    if (cors)
        buf_append_str(&b, cors);
    buf_printf(&b, "Allow: %s\r\n", allow);
    mcp_http__reply_error(x, 405, b.data, NULL, RPC_INVALID_REQUEST,
                          "Method Not Allowed on this endpoint");
    buf_free(&b);
}

/* --- 2025 sessions ----------------------------------------------------------------------- */

/* Hands a POSTed message to a session's MCP server. */
static void serve_session(struct mcp_http *h, struct http_exchange *x,
                          const struct http_server_request *r, struct http_session *s,
                          const char *cors, int initialize, const struct mcp_http_identity *id)
{
    const char *accept = header(r, "accept");
    if (id) /* the latest token's scopes decide what the session's programs may call */
        mcp_server_set_scopes(s->server, id->scopes);
    struct http_post *p = mcp_http__post_new(h, x, s, cors);
    p->allow_json = mcp_http__accepts(accept, "application/json");
    p->allow_sse = mcp_http__accepts(accept, "text/event-stream");
    p->initialize = initialize;
    s->last_used = now_ms(h);
    struct mcp_channel ch;
    mcp_http__post_channel(p, &ch);
    if (mcp_server_handle_on(s->server, r->body, r->body_len, &ch) == 0) {
        mcp_http__post_discard(p);
        char *hd = session_headers(cors, s);
        mcp_http__reply_text(x, 202, hd, NULL);
        free(hd);
    }
    if (initialize && p->init_failed)
        mcp_http__session_free(s); /* no session without a successful initialize */
    mcp_http__post_unref(p);
}

/* --- 2026-07-28 requests ------------------------------------------------------------------- */

/* The body field an Mcp-Name header mirrors, for the methods that need one. */
static const char *name_field(const char *method)
{
    if (strcmp(method, "tools/call") == 0 || strcmp(method, "prompts/get") == 0)
        return "name";
    return strcmp(method, "resources/read") == 0 ? "uri" : NULL;
}

static int name_problem(const struct http_server_request *r, const struct rpc_message *m, char *msg,
                        size_t sz)
{
    const char *field = name_field(m->method), *name = header(r, "mcp-name");
    const cJSON *v = field ? cJSON_GetObjectItemCaseSensitive(m->params, field) : NULL;
    if (!cJSON_IsString(v))
        return 0; /* no name in the body: the server itself rejects the request */
    if (name == NULL) {
        snprintf(msg, sz, "Header mismatch: the Mcp-Name header is required for %s", m->method);
        return 1;
    }
    char *decoded = mcp_http__field_ok(name) ? mcp_http__decode_header_value(name) : NULL;
    if (decoded == NULL || strcmp(decoded, v->valuestring) != 0)
        snprintf(
            msg, sz,
            "Header mismatch: Mcp-Name header value '%.100s' does not match body value '%.100s'",
            name, v->valuestring);
    int bad = decoded == NULL || strcmp(decoded, v->valuestring) != 0;
    free(decoded);
    return bad;
}

static int version_problem(const struct rpc_message *m, const char *pv, char *msg, size_t sz)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(m->params, "_meta");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(meta, MCP_META_PROTOCOL_VERSION);
    if (!cJSON_IsString(v) || strcmp(v->valuestring, pv) == 0)
        return 0; /* absent: the server answers -32602 */
    snprintf(msg, sz,
             "Header mismatch: MCP-Protocol-Version header value '%.40s' does not match "
             "_meta[\"" MCP_META_PROTOCOL_VERSION "\"] '%.40s'",
             pv, v->valuestring);
    return 1;
}

/* Checks the request metadata headers against the body (2026-07-28,
 * streamable-http.mdx "Server Validation"). Returns 0, or 1 with msg set. */
static int header_problem(const struct http_server_request *r, const struct rpc_message *m,
                          const char *pv, char *msg, size_t sz)
{
    const char *method = header(r, "mcp-method");
    if (!mcp_http__field_ok(pv)) {
        snprintf(msg, sz, "Header mismatch: MCP-Protocol-Version contains invalid characters");
        return 1;
    }
    if (method == NULL) {
        snprintf(msg, sz, "Header mismatch: the Mcp-Method header is required");
        return 1;
    }
    if (!mcp_http__field_ok(method) || strcmp(method, m->method) != 0) {
        snprintf(
            msg, sz,
            "Header mismatch: Mcp-Method header value '%.100s' does not match body value '%.100s'",
            method, m->method);
        return 1;
    }
    return name_problem(r, m, msg, sz) || version_problem(m, pv, msg, sz);
}

static void serve_modern(struct mcp_http *h, struct http_exchange *x,
                         const struct http_server_request *r, const struct rpc_message *m,
                         int batch, const char *pv, const char *cors,
                         const struct mcp_http_identity *id)
{
    char msg[400];
    if (batch) {
        mcp_http__reply_error(
            x, 400, cors, NULL, RPC_INVALID_REQUEST,
            "Invalid Request: JSON-RPC batches are not supported in protocol 2026-07-28");
        return;
    }
    if (m->kind == RPC_INVALID) {
        mcp_http__reply_error(x, 400, cors, m->invalid_code == RPC_PARSE_ERROR ? NULL : m->id,
                              m->invalid_code, m->invalid_reason);
        return;
    }
    if (m->kind != RPC_REQUEST) { /* no client notification is defined on HTTP in 2026-07-28 */
        mcp_http__reply_text(x, 202, cors, NULL);
        return;
    }
    if (header_problem(r, m, pv, msg, sizeof msg)) {
        mcp_http__reply_error(x, 400, cors, m->id, MCP_ERR_HEADER_MISMATCH, msg);
        return;
    }
    if (strcmp(m->method, "initialize") == 0) { /* removed in 2026-07-28: not for h->modern */
        mcp_http__reply_error(x, 404, cors, m->id, RPC_METHOD_NOT_FOUND,
                              "Method not found: initialize (protocol 2026-07-28 has no "
                              "handshake; 2025 clients send it without that version header)");
        return;
    }
    const char *accept = header(r, "accept");
    struct mcp_server *server = h->modern;
    if (id) { /* each principal's stateless requests have a server of their own */
        server = mcp_http__principal_modern(h, id->principal);
        mcp_server_set_scopes(server, id->scopes);
    }
    struct http_post *p = mcp_http__post_new(h, x, NULL, cors);
    p->modern = 1;
    p->server = server;
    p->listen = strcmp(m->method, "subscriptions/listen") == 0;
    p->allow_json = mcp_http__accepts(accept, "application/json");
    p->allow_sse = mcp_http__accepts(accept, "text/event-stream");
    struct mcp_channel ch;
    mcp_http__post_channel(p, &ch);
    if (mcp_server_handle_on(server, r->body, r->body_len, &ch) == 0) {
        mcp_http__post_discard(p);
        mcp_http__reply_text(x, 202, cors, NULL);
    }
    mcp_http__post_unref(p);
}

static void unsupported_version(struct http_exchange *x, const char *cors,
                                const struct rpc_message *m, const char *pv)
{
    cJSON *data = cJSON_CreateObject();
    cJSON *sup = cJSON_AddArrayToObject(data, "supported");
    cJSON_AddItemToArray(sup, cJSON_CreateString(mcp_revision_name(MCP_2026_07_28)));
    cJSON_AddStringToObject(data, "requested", pv);
    struct buf b;
    buf_init(&b, 0);
    rpc_write_error(&b, m->kind == RPC_REQUEST ? m->id : NULL, 0, MCP_ERR_UNSUPPORTED_VERSION,
                    "Unsupported protocol version", data);
    http_respond(x, 400, cors, "application/json", b.data, b.len);
    buf_free(&b);
    cJSON_Delete(data);
}

static int has_modern_meta(const struct rpc_message *m)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(m->params, "_meta");
    return cJSON_GetObjectItemCaseSensitive(meta, MCP_META_PROTOCOL_VERSION) != NULL;
}

/* --- /mcp ------------------------------------------------------------------------------------- */

/* 1 when the session may be used by the request's principal: a session
 * opened with a token serves that token's subject only. Answers 403 when not. */
static int owner_ok(struct http_exchange *x, const char *cors, const struct http_session *s,
                    const struct mcp_http_identity *id)
{
    if (id == NULL || s->owner == id->principal)
        return 1;
    log_info("http", "refused a request for session %.8s... made with another identity's token",
             s->id);
    mcp_http__reply_error(x, 403, cors, NULL, RPC_INVALID_REQUEST,
                          "Forbidden: this session was opened with another identity's token");
    return 0;
}

static void post_session(struct mcp_http *h, struct http_exchange *x,
                         const struct http_server_request *r, const char *sid, const char *pv,
                         int pv_known, const char *cors, const struct mcp_http_identity *id)
{
    struct http_session *s = mcp_http__session_find(h, sid, SESSION_STREAMABLE);
    if (s == NULL)
        mcp_http__reply_error(
            x, 404, cors, NULL, RPC_INVALID_REQUEST,
            "Session not found: it was ended or has expired; send initialize again");
    else if (pv && !pv_known)
        mcp_http__reply_error(x, 400, cors, NULL, RPC_INVALID_REQUEST,
                              "Bad Request: unsupported MCP-Protocol-Version header");
    else if (owner_ok(x, cors, s, id))
        serve_session(h, x, r, s, cors, 0, id);
}

static void post_new_session(struct mcp_http *h, struct http_exchange *x,
                             const struct http_server_request *r, const char *cors,
                             const struct mcp_http_identity *id)
{
    struct http_session *s = mcp_http__session_new(h, SESSION_STREAMABLE, id);
    if (s == NULL) {
        log_warn("http", "refusing a new session: %u are open", h->nsessions);
        mcp_http__reply_error(x, 503, cors, NULL, RPC_INVALID_REQUEST,
                              "Service Unavailable: too many sessions");
        return;
    }
    serve_session(h, x, r, s, cors, 1, id);
}

static void post_mcp(struct mcp_http *h, struct http_exchange *x,
                     const struct http_server_request *r, const char *cors,
                     const struct mcp_http_identity *id)
{
    const char *accept = header(r, "accept"), *sid = header(r, "mcp-session-id");
    const char *pv = header(r, "mcp-protocol-version");
    enum mcp_revision rev;
    int pv_known = pv && mcp_revision_parse(pv, &rev) == 0;
    int pv_modern = pv_known && mcp_is_modern(rev);
    if (!mcp_http__media_is(header(r, "content-type"), "application/json")) {
        mcp_http__reply_error(x, 415, cors, NULL, RPC_INVALID_REQUEST,
                              "Unsupported Media Type: the body must be application/json");
        return;
    }
    if (!mcp_http__accepts(accept, "application/json") &&
        !mcp_http__accepts(accept, "text/event-stream")) {
        mcp_http__reply_error(x, 406, cors, NULL, RPC_INVALID_REQUEST,
                              "Not Acceptable: accept application/json and text/event-stream");
        return;
    }
    struct rpc_message m;
    int batch = rpc_is_batch(r->body, r->body_len);
    memset(&m, 0, sizeof m);
    m.kind = RPC_INVALID;
    if (!batch)
        rpc_parse(r->body, r->body_len, &m);
    int init = !batch && m.kind == RPC_REQUEST && strcmp(m.method, "initialize") == 0;
    if (sid && !pv_modern)
        post_session(h, x, r, sid, pv, pv_known, cors, id);
    else if (pv_modern) /* versioning.mdx: modern requests are served statelessly, initialize too */
        serve_modern(h, x, r, &m, batch, pv, cors, id);
    else if (init)
        post_new_session(h, x, r, cors, id);
    else if (pv && !pv_known)
        unsupported_version(x, cors, &m, pv);
    else if (!batch && m.kind == RPC_INVALID && m.invalid_code == RPC_PARSE_ERROR)
        mcp_http__reply_error(x, 400, cors, NULL, RPC_PARSE_ERROR, m.invalid_reason);
    else if (!pv && !batch && has_modern_meta(&m))
        mcp_http__reply_error(x, 400, cors, m.id, MCP_ERR_HEADER_MISMATCH,
                              "Header mismatch: the MCP-Protocol-Version header is required");
    else
        mcp_http__reply_error(
            x, 400, cors, NULL, RPC_INVALID_REQUEST,
            "Bad Request: no Mcp-Session-Id header; send initialize first (protocol "
            "2025-11-25 and earlier), or MCP-Protocol-Version: 2026-07-28 with "
            "per-request _meta");
    rpc_message_free(&m);
}

static void get_stream_gone(void *ud)
{
    struct http_session *s = ud;
    mcp_http__sse_gone(&s->stream);
    s->last_used = now_ms(s->h);
}

static struct http_session *session_of(struct mcp_http *h, struct http_exchange *x,
                                       const struct http_server_request *r, const char *cors,
                                       const struct mcp_http_identity *id)
{
    const char *sid = header(r, "mcp-session-id"), *pv = header(r, "mcp-protocol-version");
    enum mcp_revision rev;
    if (sid == NULL || (pv && mcp_revision_parse(pv, &rev) == 0 && mcp_is_modern(rev))) {
        reply_allow(x, cors, "POST");
        return NULL;
    }
    struct http_session *s = mcp_http__session_find(h, sid, SESSION_STREAMABLE);
    if (s == NULL)
        mcp_http__reply_error(x, 404, cors, NULL, RPC_INVALID_REQUEST,
                              "Session not found: it was ended or has expired");
    else if (!owner_ok(x, cors, s, id))
        return NULL;
    return s;
}

static void get_mcp(struct mcp_http *h, struct http_exchange *x,
                    const struct http_server_request *r, const char *cors,
                    const struct mcp_http_identity *id)
{
    struct http_session *s = session_of(h, x, r, cors, id);
    if (s == NULL)
        return;
    if (!mcp_http__accepts(header(r, "accept"), "text/event-stream")) {
        mcp_http__reply_error(x, 406, cors, NULL, RPC_INVALID_REQUEST,
                              "Not Acceptable: the GET stream is text/event-stream");
        return;
    }
    if (s->stream.x) {
        mcp_http__reply_error(x, 409, cors, NULL, RPC_INVALID_REQUEST,
                              "Conflict: this session already has a GET stream open");
        return;
    }
    char *hd = session_headers(cors, s);
    mcp_http__sse_begin(&s->stream, h, x, 200, hd);
    free(hd);
    http_exchange_on_abort(x, get_stream_gone, s);
    s->last_used = now_ms(h);
}

static void delete_mcp(struct mcp_http *h, struct http_exchange *x,
                       const struct http_server_request *r, const char *cors,
                       const struct mcp_http_identity *id)
{
    struct http_session *s = session_of(h, x, r, cors, id);
    if (s == NULL)
        return;
    mcp_http__session_free(s);
    mcp_http__reply_text(x, 200, cors, NULL);
}

void mcp_http__route_mcp(struct mcp_http *h, struct http_exchange *x,
                         const struct http_server_request *r, const char *cors,
                         const struct mcp_http_identity *id)
{
    if (strcmp(r->method, "POST") == 0)
        post_mcp(h, x, r, cors, id);
    else if (strcmp(r->method, "GET") == 0)
        get_mcp(h, x, r, cors, id);
    else if (strcmp(r->method, "DELETE") == 0)
        delete_mcp(h, x, r, cors, id);
    else
        reply_allow(x, cors, "GET, POST, DELETE");
}

/* --- legacy HTTP+SSE (2024-11-05) --------------------------------------------------------- */

static void sse_stream_gone(void *ud)
{
    struct http_session *s = ud;
    mcp_http__sse_gone(&s->stream);
    mcp_http__session_free(s); /* the session lives as long as its stream */
}

void mcp_http__route_sse(struct mcp_http *h, struct http_exchange *x,
                         const struct http_server_request *r, const char *cors,
                         const struct mcp_http_identity *id)
{
    if (strcmp(r->method, "GET") != 0) {
        reply_allow(x, cors, "GET");
        return;
    }
    struct http_session *s = mcp_http__session_new(h, SESSION_SSE, id);
    if (s == NULL) {
        mcp_http__reply_error(x, 503, cors, NULL, RPC_INVALID_REQUEST,
                              "Service Unavailable: too many sessions");
        return;
    }
    mcp_http__sse_begin(&s->stream, h, x, 200, cors);
    http_exchange_on_abort(x, sse_stream_gone, s);
    char endpoint[HTTP_SESSION_ID_MAX + 32];
    snprintf(endpoint, sizeof endpoint, "/message?sessionId=%s", s->id);
    mcp_http__sse_lines(&s->stream, "endpoint", endpoint, strlen(endpoint));
}

void mcp_http__route_message(struct mcp_http *h, struct http_exchange *x,
                             const struct http_server_request *r, const char *cors,
                             const struct mcp_http_identity *id)
{
    const char *pv = header(r, "mcp-protocol-version");
    enum mcp_revision rev;
    if (strcmp(r->method, "POST") != 0) {
        reply_allow(x, cors, "POST");
        return;
    }
    if (!mcp_http__media_is(header(r, "content-type"), "application/json")) {
        mcp_http__reply_error(x, 415, cors, NULL, RPC_INVALID_REQUEST,
                              "Unsupported Media Type: the body must be application/json");
        return;
    }
    char *sid = mcp_http__query_param(r->query, "sessionId");
    struct http_session *s = mcp_http__session_find(h, sid, SESSION_SSE);
    if (sid == NULL)
        mcp_http__reply_error(x, 400, cors, NULL, RPC_INVALID_REQUEST,
                              "Bad Request: the sessionId query parameter is required");
    else if (s == NULL)
        mcp_http__reply_error(x, 404, cors, NULL, RPC_INVALID_REQUEST,
                              "Session not found: open the event stream at /sse first");
    else if (pv && mcp_revision_parse(pv, &rev) != 0)
        mcp_http__reply_error(x, 400, cors, NULL, RPC_INVALID_REQUEST,
                              "Bad Request: unsupported MCP-Protocol-Version header");
    else if (owner_ok(x, cors, s, id)) {
        if (id)
            mcp_server_set_scopes(s->server, id->scopes);
        s->last_used = now_ms(h);
        mcp_server_handle(s->server, r->body, r->body_len); /* replies go on the stream */
        mcp_http__reply_text(x, 202, cors, "Accepted");
    }
    free(sid);
}

/* --- /oauth/callback: the redirect of a login a call waits for ------------------------------ */

/* GET /oauth/callback?code=...&state=... (docs/oauth.md): a person's browser
 * sent back by a remote server's authorization server. Only a login that
 * waits for this state takes it (tools_registry_oauth_callback: once, while
 * the login lasts); the page says what happened. Served when
 * codemode.http.publicUrl is set (the redirect URI is built from it). */
void mcp_http__route_oauth_callback(struct mcp_http *h, struct http_exchange *x,
                                    const struct http_server_request *r)
{
    if (strcmp(r->method, "GET") != 0) {
        reply_allow(x, NULL, "GET");
        return;
    }
    const char *page = tools_registry_oauth_callback(h->cfg.server.tools, r->query);
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "<!doctype html><title>mcp-codemode</title><p>%s</p>",
               page ? page
                    : "This sign-in link is not valid: it was used already, its login is over, "
                      "or it was not made by this server.");
    http_respond(x, page ? 200 : 400, "Cache-Control: no-store\r\n", "text/html; charset=utf-8",
                 b.data, b.len);
    buf_free(&b);
}
