/* Internals shared by the files of one downstream connection: the core
 * (downstream.c: attempts, restarts with backoff, status), the handshake
 * (handshake.c), the tool list (list.c), tool calls
 * (call.c), and the pluggable transports that carry JSON-RPC
 * lines: stdio (stdio.c), Streamable HTTP (http.c)
 * and legacy HTTP+SSE (sse.c). Not a public API. */
#ifndef TOOLS_DOWNSTREAM_INTERNAL_H
#define TOOLS_DOWNSTREAM_INTERNAL_H

#include "tools/downstream/downstream.h"
#include "transport/rpc_client.h"
#include "common/next_turn.h"

struct buf;

struct ds_link {
    struct ds_link *prev, *next;
};

enum ds_era { DS_ERA_NONE, DS_ERA_LEGACY, DS_ERA_MODERN };

/* A transport: how the JSON-RPC lines of one connection attempt travel.
 * The transport keeps its state in d->tp and reports back through the
 * tools__downstream_* functions below. */
struct ds_transport_ops {
    const char *kind;    /* "stdio", "http", "sse" */
    const char *restart; /* verb for logs: "restarting", "reconnecting" */
    const char *closed;  /* why a send failed: "its stdin is closed" */
    int probe;           /* server/discover is worth trying (no for legacy SSE) */
    /* Each message travels on its own request, so two may overtake each
     * other: the transport reports (tools__downstream_notified) when the
     * server took a notification, and the handshake sends nothing after
     * notifications/initialized until then. */
    int reports_notified;
    /* Starts an attempt: returns 1 when messages can be sent at once, 0
     * when the transport will call tools__downstream_up, or -1 with a
     * sentence in err (it then calls nothing back). */
    int (*open)(struct tools_downstream *d, char *err, size_t errlen);
    /* One outgoing message (see rpc_client_hooks.send). */
    int (*send)(struct tools_downstream *d, const char *data, size_t len,
                const struct rpc_client_msg *m);
    /* A request left the pending set (rpc_client_hooks.request_ended). May be NULL. */
    void (*request_ended)(struct tools_downstream *d, uint64_t id, int answered);
    /* The handshake is over (d->era, d->protocol set). May be NULL. */
    void (*handshake_done)(struct tools_downstream *d);
    /* Ends the attempt (grace_ms: how long a process may take to stop, or
     * a session to be closed); d->tp is NULL afterwards and no report
     * follows. Safe inside a report. */
    void (*close)(struct tools_downstream *d, uint64_t grace_ms);
    /* d->headers changed (a refreshed OAuth token): the attempt's later
     * requests carry them. May be NULL. */
    void (*set_headers)(struct tools_downstream *d);
    /* The refresh that tools__downstream_auth_retry asked for is over: ok 1,
     * the requests refused with 401 are sent again once (with d->headers);
     * ok 0, they fail and the attempt is lost. May be NULL. */
    void (*auth_retried)(struct tools_downstream *d, int ok);
    size_t (*backlog)(const struct tools_downstream *d); /* bytes not yet written */
    int (*pid)(const struct tools_downstream *d);        /* 0 when none */
};

extern const struct ds_transport_ops tools__downstream_stdio;
extern const struct ds_transport_ops tools__downstream_http;
extern const struct ds_transport_ops tools__downstream_sse;

struct tools_downstream {
    uv_loop_t *loop;
    char *name;                         /* the mcpServers key */
    char *label;                        /* "server 'name'", for logs and messages */
    char *command, **args, **env, *cwd; /* stdio */
    char *url, **headers;               /* http, sse */
    unsigned unreadable_lines;          /* across restarts: only the first is a warning */
    uint64_t entry_timeout_ms;
    struct tools_downstream_options opt;
    const struct tools_downstream_events *ev;
    void *ud;
    const struct ds_transport_ops *ops;
    void *tp; /* the transport's state for the current attempt, or NULL */

    enum tools_downstream_state state;
    char *reason;
    int permanent; /* the failure cannot be fixed by a restart */

    /* the current attempt */
    struct rpc_client *rpc;
    struct rpc_client_request *hs_req;     /* server/discover or initialize */
    struct rpc_client_request *listen_req; /* 2026 subscriptions/listen */
    uint64_t listen_at;                    /* when it was opened */
    int probed, skip_probe, handshaken;    /* probed: this attempt sent server/discover */
    int await_initialized; /* the server has not yet taken notifications/initialized */

    /* what the handshake told us */
    enum ds_era era;
    char *protocol;
    cJSON *caps; /* server capabilities, or NULL */
    char *server_name, *server_version, *instructions;
    int tasks_call, tasks_cancel; /* 2025-11-25 tasks: tools/call augmentation, tasks/cancel */

    /* tools */
    cJSON *tools, *excluded;
    struct rpc_client_request *list_req;
    cJSON *list_acc;
    char *list_cursor;
    unsigned list_pages;
    int list_dirty;

    /* calls: queued (CONNECTING) and in flight, in order */
    struct ds_link calls;
    size_t ncalls;
    uv_timer_t call_timer;
    struct next_turn refusals; /* calls failed at once, answered on the next turn */

    /* restarts */
    uv_timer_t timer;
    uint64_t started_at, ready_at, restart_at, connect_ms;

    /* OAuth (auth.c): NULL when the entry has no "oauth" */
    struct tools_oauth_tokens *oauth;
    char **config_headers; /* the entry's headers, without the bearer token */
    char *rejected_token;  /* the token a 401 answered, until a newer one */
    int needs_login;       /* no token: calls fail with ToolAuthError */
    void *auth_go;         /* non-NULL while a refresh runs before an attempt */
    int auth_retrying;     /* a refresh for requests refused with 401 runs */
    int auth_read;         /* the attempt's refresh read the stored token (not refreshed yet) */
    int relogin;           /* new tokens were stored during this attempt: if it is lost
                              before it is ready, the next starts at once (reconnect) */
    int reloading;         /* connected: the tokens of a new login are read; calls wait */
    void (*auth_ready)(struct tools_downstream *d);
    unsigned attempts, failures;
    int closing, open_timers;
};

/* downstream.c */
void tools__downstream_set_state(struct tools_downstream *d, enum tools_downstream_state s);
void tools__downstream_lost(struct tools_downstream *d, const char *why, int permanent);
cJSON *tools__downstream_params(const struct tools_downstream *d, cJSON *params);
void tools__downstream_replace(char **slot, const char *v);
char **tools__downstream_dup_vector(char *const *v);
void tools__downstream_free_vector(char **v);
/* Reports from transports: */
void tools__downstream_up(struct tools_downstream *d); /* messages can flow now */
void tools__downstream_line(struct tools_downstream *d, const char *line, size_t len);
void tools__downstream_oversize(struct tools_downstream *d, const char *head, size_t head_len,
                                const char *tail, size_t tail_len, size_t total);
/* Fails one request whose answer the transport lost (rpc_client_fail);
 * returns 0, or -1 when it is not pending. */
int tools__downstream_fail_request(struct tools_downstream *d, uint64_t id,
                                   enum rpc_client_status status, const char *why, size_t size);

/* handshake.c */
void tools__downstream_handshake(struct tools_downstream *d);
void tools__downstream_handshake_reset(struct tools_downstream *d);
/* A report from a transport that reports_notified: the server took (2xx) or
 * refused the notification `method`; the handshake goes on after
 * notifications/initialized. */
void tools__downstream_notified(struct tools_downstream *d, const char *method);
extern const struct rpc_client_events tools__downstream_rpc_events;
extern const struct rpc_client_hooks tools__downstream_rpc_hooks;

/* list.c */
void tools__downstream_list(struct tools_downstream *d);
void tools__downstream_list_reset(struct tools_downstream *d);
const cJSON *tools__downstream_find_tool(const struct tools_downstream *d, const char *name);
const char *tools__downstream_excluded_reason(const struct tools_downstream *d, const char *name);

/* call.c */
void tools__downstream_calls_flush(struct tools_downstream *d);
void tools__downstream_calls_fail(struct tools_downstream *d, const char *fmt_during);
void tools__downstream_calls_init(struct tools_downstream *d);
/* Answers the calls refused and not answered yet, then closes what
 * tools__downstream_calls_init opened (closed_cb for each handle). */
void tools__downstream_calls_close(struct tools_downstream *d, uv_close_cb closed_cb);

/* auth.c: OAuth bearer tokens */
struct tools_server_config;
void tools__downstream_auth_init(struct tools_downstream *d, const struct tools_server_config *s);
void tools__downstream_auth_free(struct tools_downstream *d);
/* Before an attempt: 1 when it can open now (d->headers carry the token),
 * 0 when a refresh runs first and ready(d) follows (or the attempt is lost
 * with the reason, d->needs_login set). */
/* A 403 from an OAuth server: when its challenge says insufficient_scope,
 * records the step-up (tools_oauth_tokens_step_up), appends the call's
 * error sentence to out and returns 1; else 0. */
struct buf;
int tools__downstream_auth_forbidden(struct tools_downstream *d, const char *www, struct buf *out);
/* out = the sentence for a 401 from an OAuth server at url (the token was
 * refused: refreshed on reconnection, else a login), ending with the login
 * command. */
void tools__downstream_auth_refused(struct tools_downstream *d, struct buf *out, const char *url);
/* The server listed its tools: an OAuth server's list is kept in the state
 * database, declared (marked) while it needs a login later. */
void tools__downstream_auth_keep_tools(struct tools_downstream *d);
int tools__downstream_auth_prepare(struct tools_downstream *d,
                                   void (*ready)(struct tools_downstream *d));
/* A login stored new tokens while the server is connected (a step-up):
 * they are read (calls wait meanwhile, d->reloading), used for the later
 * requests, and the waiting calls sent. */
void tools__downstream_auth_reload(struct tools_downstream *d);
/* A 401 answered the current token: the next attempt refreshes it. */
void tools__downstream_auth_rejected(struct tools_downstream *d);
/* A request sent with token `stale` was refused with 401 during a session
 * (before it reached the tool: safe to send again): the token is refreshed
 * (one refresh for every request waiting), then d->ops->auth_retried(d, ok)
 * from the loop, never inside this call. */
void tools__downstream_auth_retry(struct tools_downstream *d, const char *stale);

/* headers.c: the 2026-07-28 HTTP request headers */
/* The header value for v: v itself when it is plain printable ASCII, else
 * "=?base64?...?=". malloc'd. */
char *tools__downstream_header_value(const char *v, size_t len);
/* Why a tool definition's x-mcp-header annotations are invalid (written to
 * buf, which is returned), or NULL when they are fine or absent. */
const char *tools__downstream_header_problem(const cJSON *tool, char *buf, size_t n);
/* Appends "Mcp-Param-Name: value" lines for the annotated arguments of a
 * tools/call to *hdrs (a malloc'd NULL-terminated vector of *n lines). */
void tools__downstream_param_headers(const cJSON *tool, const cJSON *args, char ***hdrs, size_t *n);

/* net.c: what the two HTTP transports share */
struct ds_headers {
    char **v; /* NULL-terminated once anything was added */
    size_t n;
};
void tools__downstream_hdr_add(struct ds_headers *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Adds the entry's configured headers, except those mcp-codemode sets itself
 * (Content-Type, Accept, Mcp-*, MCP-*, Last-Event-ID), which are skipped. */
void tools__downstream_hdr_config(struct ds_headers *h, char *const *config);
void tools__downstream_hdr_free(struct ds_headers *h);
/* "Not Found" for 404, ... ("" when unknown). */
const char *tools__downstream_http_reason(int status);
/* Appends at most max bytes of an HTTP body, on one line, for a message. */
void tools__downstream_excerpt(struct buf *out, const char *body, size_t len, size_t max);
/* Appends why an exchange failed below HTTP (see http_client.h), as a phrase
 * that follows "it" (the server): "lost the connection to URL: ...". */
void tools__downstream_http_failure(struct buf *out, const char *url, int err, const char *msg);
/* Appends the "authentication failed" sentence for a 401 or 403. */
void tools__downstream_auth_failure(struct buf *out, const char *url, int status, const char *www);

#endif
