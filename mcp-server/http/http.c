/* The MCP HTTP binding's lifetime and front door: listening, the checks every
 * request passes first (Host and Origin against DNS rebinding, CORS for
 * allowed browser origins, the bearer token, draining), routing to the
 * endpoints, the tick that sends keep-alives and expires sessions, and the
 * drain and close of a graceful shutdown. */
#include "mcp-server/http/internal.h"
#include "mcp-server/protocol.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SESSION_TIMEOUT_MS (30ull * 60 * 1000)
#define DEFAULT_KEEPALIVE_MS       15000
#define DEFAULT_MAX_SESSIONS       10000
#define TICK_MS                    1000

/* --- responses ----------------------------------------------------------------------------- */

void mcp_http__reply_error(struct http_exchange *x, int status, const char *headers, const char *id,
                           int code, const char *message)
{
    struct buf b;
    buf_init(&b, 0);
    rpc_write_error(&b, id, 0, code, message, NULL);
    http_respond(x, status, headers, "application/json", b.data, b.len);
    buf_free(&b);
}

void mcp_http__reply_text(struct http_exchange *x, int status, const char *headers,
                          const char *text)
{
    http_respond(x, status, headers, text ? "text/plain; charset=utf-8" : NULL, text ? text : "",
                 text ? strlen(text) : 0);
}

/* --- the front door -------------------------------------------------------------------------- */

/* CORS header lines for an allowed browser Origin (the caller frees). */
static char *cors_headers(const char *origin)
{
    if (origin == NULL)
        return NULL;
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b,
               "Access-Control-Allow-Origin: %s\r\nVary: Origin\r\n"
               "Access-Control-Expose-Headers: Mcp-Session-Id, WWW-Authenticate\r\n",
               origin);
    return buf_steal(&b);
}

static void preflight(struct http_exchange *x, const struct http_server_request *r,
                      const char *cors)
{
    const char *asked = http_parser_header(r, "access-control-request-headers");
    struct buf b;
    buf_init(&b, 0);
    if (cors)
        buf_append_str(&b, cors);
    buf_append_str(&b, "Access-Control-Allow-Methods: GET, POST, DELETE, OPTIONS\r\n"
                       "Access-Control-Max-Age: 600\r\n");
    if (asked && mcp_http__field_ok(asked))
        buf_printf(&b, "Access-Control-Allow-Headers: %s\r\n", asked);
    http_respond(x, 204, b.data, NULL, "", 0);
    buf_free(&b);
}

static void unauthorized(struct http_exchange *x, const char *cors, int had_token)
{
    struct buf b;
    buf_init(&b, 0);
    if (cors)
        buf_append_str(&b, cors);
    buf_printf(&b, "WWW-Authenticate: Bearer realm=\"mcp-codemode\"%s\r\n",
               had_token ? ", error=\"invalid_token\"" : "");
    mcp_http__reply_error(x, 401, b.data, NULL, RPC_INVALID_REQUEST,
                          "Unauthorized: send Authorization: Bearer <token>");
    buf_free(&b);
}

static int known_path(const char *path)
{
    return !strcmp(path, "/mcp") || !strcmp(path, "/sse") || !strcmp(path, "/message");
}

void mcp_http__route(struct mcp_http *h, struct http_exchange *x,
                     const struct http_server_request *r, const char *cors,
                     const struct mcp_http_identity *id)
{
    if (strcmp(r->path, "/mcp") == 0)
        mcp_http__route_mcp(h, x, r, cors, id);
    else if (strcmp(r->path, "/sse") == 0)
        mcp_http__route_sse(h, x, r, cors, id);
    else
        mcp_http__route_message(h, x, r, cors, id);
}

static void on_request(void *ud, struct http_exchange *x, const struct http_server_request *r)
{
    struct mcp_http *h = ud;
    const char *origin = http_parser_header(r, "origin");
    const char *auth = http_parser_header(r, "authorization");
    if (!mcp_http__check_host(h, http_parser_header(r, "host"))) {
        log_info("http", "refused a request for another Host (DNS rebinding?)");
        mcp_http__reply_error(x, 403, NULL, NULL, RPC_INVALID_REQUEST,
                              "Forbidden: Host not allowed");
        return;
    }
    if (mcp_http__auth_metadata_path(r->path)) { /* public, for any origin (RFC 9728) */
        mcp_http__auth_metadata(h, x, r);
        return;
    }
    if (h->cfg.public_url && strcmp(r->path, "/oauth/callback") == 0) { /* a browser, no token */
        mcp_http__route_oauth_callback(h, x, r);
        return;
    }
    if (origin && !mcp_http__check_origin(h, origin)) {
        log_info("http", "refused a request from a browser Origin that is not allowed");
        mcp_http__reply_error(x, 403, NULL, NULL, RPC_INVALID_REQUEST,
                              "Forbidden: Origin not allowed");
        return;
    }
    char *cors = cors_headers(origin);
    if (!known_path(r->path))
        mcp_http__reply_error(x, 404, cors, NULL, RPC_INVALID_REQUEST,
                              "Not Found: the MCP endpoints are /mcp, and /sse with /message");
    else if (strcmp(r->method, "OPTIONS") == 0)
        preflight(x, r, cors);
    else if (h->draining)
        mcp_http__reply_error(x, 503, cors, NULL, RPC_INVALID_REQUEST,
                              "Service Unavailable: the server is shutting down");
    else if (h->cfg.auth_token && !mcp_http__check_token(auth, h->cfg.auth_token))
        unauthorized(x, cors, auth != NULL);
    else if (h->auth)
        mcp_http__auth_request(h, x, r, cors); /* routes once the token is checked */
    else
        mcp_http__route(h, x, r, cors, NULL);
    free(cors);
}

/* --- tick, drain ------------------------------------------------------------------------------ */

static unsigned work_left(struct mcp_http *h)
{
    unsigned n = mcp_http__post_working(h) + mcp_http__auth_pending(h);
    for (struct http_session *s = h->sessions; s; s = s->next)
        if (s->kind == SESSION_SSE)
            n += mcp_server_inflight(s->server);
    return n;
}

static void finish_drain(struct mcp_http *h)
{
    h->drained = 1;
    uv_timer_stop(&h->deadline);
    if (h->drain_done)
        h->drain_done(h->drain_ud);
}

static void tick(uv_timer_t *t)
{
    struct mcp_http *h = t->data;
    uint64_t now = uv_now(h->cfg.server.loop);
    mcp_http__sse_keepalive(h, now);
    mcp_http__session_expire(h, now);
    mcp_http__auth_expire(h, now);
    if (h->draining && !h->drained && !h->closing && work_left(h) == 0)
        finish_drain(h);
}

static uint64_t tick_interval(const struct mcp_http *h)
{
    uint64_t t = TICK_MS;
    if (h->cfg.keepalive_ms / 2 < t)
        t = h->cfg.keepalive_ms / 2;
    if (h->cfg.session_timeout_ms / 2 < t)
        t = h->cfg.session_timeout_ms / 2;
    return t ? t : 1;
}

void mcp_http__check_drained(struct mcp_http *h)
{
    if (h->draining && !h->drained && !h->closing) /* checked on the next tick, outside callers */
        uv_timer_start(&h->tick, tick, 0, tick_interval(h));
}

static void drain_deadline(uv_timer_t *t)
{
    struct mcp_http *h = t->data;
    if (h->drained)
        return;
    log_warn("http", "shutdown: %u request(s) still running at the deadline: cancelled",
             work_left(h));
    finish_drain(h);
}

void mcp_http_drain(struct mcp_http *h, uint64_t deadline_ms, void (*done)(void *ud), void *ud)
{
    h->draining = 1;
    h->drain_done = done;
    h->drain_ud = ud;
    http_server_drain(h->server);
    for (struct http_session *s = h->sessions; s; s = s->next)
        if (s->kind == SESSION_STREAMABLE)
            mcp_http__sse_end(&s->stream); /* GET streams carry no replies */
    mcp_http__post_end_listens(h);
    uv_timer_start(&h->deadline, drain_deadline, deadline_ms, 0);
    mcp_http__check_drained(h);
}

/* --- lifetime ------------------------------------------------------------------------------------
 */

static void drop_send(void *ud, const char *data, size_t len, int final)
{
    (void) ud, (void) data, (void) len, (void) final; /* 2026-07-28 has no session channel */
}

static void maybe_free(struct mcp_http *h)
{
    if (h->handles > 0 || h->server)
        return;
    free(h->listen_host);
    free((char *) h->cfg.listen);
    free((char *) h->cfg.auth_token);
    free((char *) h->cfg.instance_id);
    free((char *) h->cfg.public_url);
    for (char *const *o = h->cfg.allowed_origins; o && *o; o++)
        free(*o);
    free((char **) h->cfg.allowed_origins);
    free(h);
}

static void timer_closed(uv_handle_t *t)
{
    struct mcp_http *h = t->data;
    h->handles--;
    maybe_free(h);
}

static void server_closed(void *ud)
{
    struct mcp_http *h = ud;
    h->server = NULL;
    maybe_free(h);
}

void mcp_http_close(struct mcp_http *h)
{
    h->closing = h->draining = 1;
    while (h->sessions)
        mcp_http__session_free(h->sessions); /* cancels their requests */
    mcp_http__auth_free(h);                  /* and the principals' stateless requests */
    mcp_server_free(h->modern);
    h->modern = NULL;
    uv_close((uv_handle_t *) &h->tick, timer_closed);
    uv_close((uv_handle_t *) &h->deadline, timer_closed);
    http_server_close(h->server, server_closed, h);
}

static char **copy_list(char *const *list)
{
    size_t n = 0;
    while (list && list[n])
        n++;
    char **out = xcalloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = xstrdup(list[i]);
    return out;
}

/* Splits "HOST:PORT" / "[V6]:PORT" into h->listen_host and *port. */
static int parse_listen(struct mcp_http *h, const char *listen, int *port)
{
    const char *colon = strrchr(listen, ':');
    if (colon == NULL)
        return -1;
    size_t start = listen[0] == '[', end = (size_t) (colon - listen) - (listen[0] == '[');
    if (end < start)
        return -1;
    h->listen_host = xstrndup(listen + start, end - start);
    *port = atoi(colon + 1);
    h->wildcard =
        !strcmp(h->listen_host, "0.0.0.0") || !strcmp(h->listen_host, "::") || !*h->listen_host;
    return 0;
}

static void apply_defaults(struct mcp_http_config *c)
{
    if (!c->session_timeout_ms)
        c->session_timeout_ms = DEFAULT_SESSION_TIMEOUT_MS;
    if (!c->keepalive_ms)
        c->keepalive_ms = DEFAULT_KEEPALIVE_MS;
    if (!c->max_sessions)
        c->max_sessions = DEFAULT_MAX_SESSIONS;
}

static struct mcp_http *http_new(const struct mcp_http_config *cfg)
{
    struct mcp_http *h = xcalloc(1, sizeof *h);
    h->cfg = *cfg;
    apply_defaults(&h->cfg);
    h->cfg.listen = xstrdup(cfg->listen);
    h->cfg.auth_token = cfg->auth_token ? xstrdup(cfg->auth_token) : NULL;
    h->cfg.public_url = cfg->public_url ? xstrdup(cfg->public_url) : NULL;
    h->cfg.instance_id =
        cfg->instance_id
            ? xstrndup(cfg->instance_id, strnlen(cfg->instance_id, HTTP_INSTANCE_ID_MAX))
            : NULL;
    h->cfg.allowed_origins = copy_list(cfg->allowed_origins);
    h->cfg.server.instance_id = h->cfg.instance_id;
    struct mcp_channel none = {h, drop_send, NULL};
    h->modern = mcp_server_new(&h->cfg.server, &none);
    mcp_server_set_principal(h->modern, cfg->auth_token ? "http-token" : "http-stateless");
    uv_timer_init(cfg->server.loop, &h->tick);
    uv_timer_init(cfg->server.loop, &h->deadline);
    h->tick.data = h->deadline.data = h;
    h->handles = 2;
    return h;
}

int mcp_http_start(const struct mcp_http_config *cfg, struct mcp_http **out, char **err)
{
    struct mcp_http *h = http_new(cfg);
    int port;
    if (parse_listen(h, cfg->listen, &port) < 0) {
        *err = xstrdup("expected HOST:PORT to listen on");
        h->server = NULL;
        mcp_server_free(h->modern);
        uv_close((uv_handle_t *) &h->tick, timer_closed);
        uv_close((uv_handle_t *) &h->deadline, timer_closed);
        return -1;
    }
    struct http_server_config sc = {
        .host = h->wildcard && !*h->listen_host ? "0.0.0.0" : h->listen_host,
        .port = port,
        .limits = {.max_body_bytes = cfg->max_body_bytes},
        .headers_timeout_ms = cfg->headers_timeout_ms,
        .request_timeout_ms = cfg->request_timeout_ms,
        .idle_timeout_ms = cfg->idle_timeout_ms,
        .max_connections = cfg->max_connections,
    };
    if (http_server_start(cfg->server.loop, &sc, on_request, h, &h->server, err) != 0) {
        h->server = NULL;
        mcp_server_free(h->modern);
        uv_close((uv_handle_t *) &h->tick, timer_closed);
        uv_close((uv_handle_t *) &h->deadline, timer_closed);
        return -1;
    }
    h->port = http_server_port(h->server);
    int v6 = strchr(h->listen_host, ':') != NULL;
    snprintf(h->url, sizeof h->url, "http://%s%s%s:%d", v6 ? "[" : "", h->listen_host,
             v6 ? "]" : "", h->port);
    if (mcp_http__auth_start(h, err) != 0) {
        mcp_http_close(h); /* the caller runs the loop until it is freed */
        return -1;
    }
    uv_timer_start(&h->tick, tick, tick_interval(h), tick_interval(h));
    *out = h;
    return 0;
}

int mcp_http_port(const struct mcp_http *h)
{
    return h->port;
}

const char *mcp_http_url(const struct mcp_http *h)
{
    return h->url;
}

unsigned mcp_http_sessions(const struct mcp_http *h)
{
    return h->nsessions;
}

void mcp_http_tools_changed(struct mcp_http *h)
{
    for (struct http_session *s = h->sessions; s; s = s->next)
        mcp_server_tools_changed(s->server);
    mcp_server_tools_changed(h->modern);
    mcp_http__auth_tools_changed(h);
}
