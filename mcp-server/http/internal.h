/* Internals shared by the files of the MCP HTTP binding: http.c (lifecycle,
 * request checks, routing), check.c (Host, Origin, token, media types),
 * session.c (sessions and open SSE streams), post.c (the channel
 * of one POSTed message), routes.c (the rules of each endpoint) and
 * auth.c (the OAuth protected resource: metadata, challenges, token checks,
 * the principals tokens speak for). */
#ifndef MCP_SERVER_HTTP_INTERNAL_H
#define MCP_SERVER_HTTP_INTERNAL_H

#include "mcp-server/http/http.h"
#include "transport/http_server.h"
#include "common/buf.h"

#define HTTP_SESSION_ID_LEN  48 /* hex of 24 random bytes */
#define HTTP_INSTANCE_ID_MAX 32 /* codemode.http.instanceId, which starts every id as "ID." */
#define HTTP_SESSION_ID_MAX  (HTTP_INSTANCE_ID_MAX + 1 + HTTP_SESSION_ID_LEN)
#define HTTP_SESSION_BUCKETS 1024

/* An SSE response held open: a POST switched to SSE, a GET stream, a
 * legacy SSE stream. Listed for keep-alive comments. */
struct sse_out {
    struct mcp_http *h;
    struct http_exchange *x; /* NULL when not streaming (ended, or the client is gone) */
    uint64_t last_write;
    struct sse_out *prev, *next;
};

enum session_kind { SESSION_STREAMABLE, SESSION_SSE };

/* A principal an OAuth token speaks for: the token's (iss, sub). Its
 * sessions and its 2026-07-28 requests share its state, its rate limits
 * (admission id) and nothing else; its stateless requests have an MCP server
 * of their own (never another subject's workers, stash or parked
 * approvals). Kept while a session or a request uses it, and then until
 * idle for the session timeout. */
struct http_principal {
    char *name;                /* "oauth:ISS#SUB" (state scope, audit, skills owner) */
    uint64_t admission_id;     /* the rate limits' principal, shared by its servers */
    struct mcp_server *modern; /* its 2026-07-28 requests, made on first use; or NULL */
    unsigned refs;             /* sessions bound to it */
    uint64_t last_used;
    struct http_principal *next;
};

/* Who a request comes from, once its token was checked (NULL without oauth). */
struct mcp_http_identity {
    struct http_principal *principal;
    char *const *scopes; /* NULL-terminated granted scopes (borrowed for the request) */
};

struct http_session {
    struct mcp_http *h;
    char id[HTTP_SESSION_ID_MAX + 1]; /* ["INSTANCE."] and 48 hex digits */
    enum session_kind kind;
    struct mcp_server *server;
    struct http_principal *owner; /* oauth: the principal that opened it (one reference) */
    struct sse_out stream;        /* the GET stream (Streamable) or the SSE stream (legacy) */
    uint64_t last_used;
    unsigned posts; /* POSTs whose reply is pending */
    int closing;
    struct http_session *hnext;       /* hash chain */
    struct http_session *prev, *next; /* all sessions */
};

/* One POSTed message that gets a reply: the channel its MCP server writes to. */
struct http_post {
    struct mcp_http *h;
    struct http_exchange *x;      /* NULL once the response ended or the client is gone */
    struct http_session *session; /* a 2025 Streamable session, or NULL (2026) */
    struct sse_out sse;           /* once switched to SSE */
    int refs;
    int modern;                /* 2026-07-28: a disconnect cancels the request */
    struct mcp_server *server; /* 2026-07-28: the server handling it (h->modern or a principal's) */
    int listen;                /* subscriptions/listen: not waited for by a drain */
    int initialize;            /* the reply decides whether the session lives */
    int init_failed;
    int allow_json, allow_sse;
    int ended; /* the final reply came */
    int released;
    char *cors;                    /* CORS header lines for the response, or NULL */
    struct http_post *prev, *next; /* posts of h not yet released */
};

struct mcp_http {
    struct mcp_http_config cfg;
    char *listen_host; /* without brackets */
    int port;
    char url[300];
    int wildcard; /* bound to 0.0.0.0 or :: (any Host accepted) */
    struct http_server *server;
    struct mcp_server *modern; /* one instance serves every 2026-07-28 request */
    struct http_session *buckets[HTTP_SESSION_BUCKETS];
    struct http_session *sessions;
    unsigned nsessions;
    struct http_post *posts;
    struct sse_out *streams; /* open SSE responses */
    uv_timer_t tick;         /* keep-alives and session expiry */
    uv_timer_t deadline;     /* drain deadline */
    int draining, closing, drained;
    void (*drain_done)(void *);
    void *drain_ud;
    int handles;                /* open timers */
    struct mcp_http_auth *auth; /* oauth (auth.c), or NULL */
};

/* --- check.c: request checks (pure functions) ----------------------------------- */

/* 1 when the Host header names this server: a loopback name or the bound
 * host with the bound port, or the host of an allowed origin. */
int mcp_http__check_host(const struct mcp_http *h, const char *host);

/* 1 when an Origin header value is allowed (loopback with the bound port,
 * the bound host, or an allowedOrigins entry). */
int mcp_http__check_origin(const struct mcp_http *h, const char *origin);

/* 1 when the Authorization header carries the token (constant time). */
int mcp_http__check_token(const char *authorization, const char *token);

/* 1 when an Accept header (NULL: anything) accepts the media type. */
int mcp_http__accepts(const char *accept, const char *type);

/* 1 when a Content-Type header is the media type (parameters ignored). */
int mcp_http__media_is(const char *content_type, const char *type);

/* 1 when every byte is visible ASCII, space or tab (an HTTP field value). */
int mcp_http__field_ok(const char *value);

/* Decodes an Mcp-Name value: "=?base64?...?=" is base64 of UTF-8, anything
 * else is itself. Returns a malloc'd string, or NULL for bad base64. */
char *mcp_http__decode_header_value(const char *value);

/* The value of `key` in a query string ("a=1&sessionId=x"), malloc'd, or NULL. */
char *mcp_http__query_param(const char *query, const char *key);

/* --- http.c: responses ------------------------------------------------------------------- */

/* Answers with a JSON-RPC error body (id: exact text or NULL for none). */
void mcp_http__reply_error(struct http_exchange *x, int status, const char *headers, const char *id,
                           int code, const char *message);

/* Answers with a short plain body (202 "Accepted", 200 ""). */
void mcp_http__reply_text(struct http_exchange *x, int status, const char *headers,
                          const char *text);

/* Checks whether a drain can end (no work left). */
void mcp_http__check_drained(struct mcp_http *h);

/* --- session.c ------------------------------------------------------------------------ */

/* A new session with its own MCP server, or NULL when the table is full.
 * id: the principal that opens it (oauth), or NULL. */
struct http_session *mcp_http__session_new(struct mcp_http *h, enum session_kind kind,
                                           const struct mcp_http_identity *id);

/* The live session of that kind with this id, or NULL. */
struct http_session *mcp_http__session_find(struct mcp_http *h, const char *id,
                                            enum session_kind kind);

/* Ends a session: its requests are cancelled (their POSTs answered), its
 * stream ended; freed before returning. */
void mcp_http__session_free(struct http_session *s);

/* Ends sessions idle for longer than the timeout; returns how many. */
unsigned mcp_http__session_expire(struct mcp_http *h, uint64_t now);

/* Starts the SSE response of x as `so` (headers: extra header lines). */
void mcp_http__sse_begin(struct sse_out *so, struct mcp_http *h, struct http_exchange *x,
                         int status, const char *headers);

/* Sends one event per line of data (type NULL: default "message"). */
void mcp_http__sse_lines(struct sse_out *so, const char *type, const char *data, size_t len);

/* Ends the stream (if still open) and unlists it. */
void mcp_http__sse_end(struct sse_out *so);

/* The client of so went away: unlists it without writing. */
void mcp_http__sse_gone(struct sse_out *so);

/* Writes a keep-alive comment on every stream quiet for keepalive_ms. */
void mcp_http__sse_keepalive(struct mcp_http *h, uint64_t now);

/* --- post.c ------------------------------------------------------------------------------ */

/* A POST whose reply comes through its channel; refs = 2 (the channel's,
 * dropped by its release, and the caller's, dropped by mcp_http__post_unref). */
struct http_post *mcp_http__post_new(struct mcp_http *h, struct http_exchange *x,
                                     struct http_session *session, const char *cors);
void mcp_http__post_channel(struct http_post *p, struct mcp_channel *ch);
void mcp_http__post_unref(struct http_post *p);

/* For a message that got no reply (notification, response): the channel's
 * reference is dropped without touching the exchange (the caller answers 202). */
void mcp_http__post_discard(struct http_post *p);

/* Cancels or ends the POSTs of a drain: listen streams (2026). */
void mcp_http__post_end_listens(struct mcp_http *h);

/* Requests still being worked on (not listen streams). */
unsigned mcp_http__post_working(const struct mcp_http *h);

/* --- routes.c ------------------------------------------------------------------------- */

/* id: who sent the request (oauth), or NULL. */
void mcp_http__route_mcp(struct mcp_http *h, struct http_exchange *x,
                         const struct http_server_request *r, const char *cors,
                         const struct mcp_http_identity *id);
void mcp_http__route_sse(struct mcp_http *h, struct http_exchange *x,
                         const struct http_server_request *r, const char *cors,
                         const struct mcp_http_identity *id);
void mcp_http__route_message(struct mcp_http *h, struct http_exchange *x,
                             const struct http_server_request *r, const char *cors,
                             const struct mcp_http_identity *id);
/* GET /oauth/callback (with public_url): a login's redirect, handed to the
 * tools registry; answers the browser with a short page. */
void mcp_http__route_oauth_callback(struct mcp_http *h, struct http_exchange *x,
                                    const struct http_server_request *r);

/* Routes a request that passed the front door's checks (http.c). */
void mcp_http__route(struct mcp_http *h, struct http_exchange *x,
                     const struct http_server_request *r, const char *cors,
                     const struct mcp_http_identity *id);

/* --- auth.c: the OAuth protected resource --------------------------------------------- */

/* Sets up h->auth when cfg.oauth is set (after the port is bound: the
 * default resource is the bound URL's /mcp). Returns 0, or -1 with a
 * malloc'd sentence in *err. */
int mcp_http__auth_start(struct mcp_http *h, char **err);

/* Cancels pending token checks (their exchanges are left to the server's
 * close) and frees h->auth. */
void mcp_http__auth_free(struct mcp_http *h);

/* 1 when path is a protected resource metadata document (RFC 9728). */
int mcp_http__auth_metadata_path(const char *path);

/* Answers a GET of the protected resource metadata (404 without oauth). */
void mcp_http__auth_metadata(struct mcp_http *h, struct http_exchange *x,
                             const struct http_server_request *r);

/* Checks the request's bearer token, then routes it with its identity
 * (now, or from the loop once the token is checked), or answers 401, 403
 * or 503. */
void mcp_http__auth_request(struct mcp_http *h, struct http_exchange *x,
                            const struct http_server_request *r, const char *cors);

/* Token checks waiting (work a drain waits for). */
unsigned mcp_http__auth_pending(const struct mcp_http *h);

/* A principal's reference: taken by a session it opens, dropped when the
 * session ends. */
void mcp_http__principal_ref(struct http_principal *p);
void mcp_http__principal_unref(struct mcp_http *h, struct http_principal *p);

/* The MCP server of a principal's 2026-07-28 requests (made on first use). */
struct mcp_server *mcp_http__principal_modern(struct mcp_http *h, struct http_principal *p);

/* Ends the idle principals' state (tick). */
void mcp_http__auth_expire(struct mcp_http *h, uint64_t now);

/* Tells every principal's MCP server that the tool list changed. */
void mcp_http__auth_tools_changed(struct mcp_http *h);

#endif
