/* The client side of JSON-RPC 2.0 over a line stream (a downstream server's
 * stdio): requests with integer ids and per-request timeouts, responses
 * matched by exact id, incoming notifications handed to the owner, the
 * requests a server may send answered (ping, roots/list) or refused with
 * -32601, and malformed lines logged and skipped. Transport-agnostic: the
 * owner feeds lines in and supplies the writer. */
#ifndef TRANSPORT_RPC_CLIENT_H
#define TRANSPORT_RPC_CLIENT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct rpc_client;
struct rpc_client_request;

enum rpc_client_status {
    RPC_CLIENT_OK,        /* a result */
    RPC_CLIENT_ERROR,     /* a JSON-RPC error response */
    RPC_CLIENT_TIMEOUT,   /* no response within the request's timeout */
    RPC_CLIENT_TOO_LARGE, /* the response was longer than the line cap */
    RPC_CLIENT_CLOSED,    /* the connection ended first (rpc_client_fail_all) */
    RPC_CLIENT_MALFORMED  /* a response naming the request could not be read */
};

struct rpc_client_reply {
    enum rpc_client_status status;
    const cJSON *result; /* OK: borrowed, valid during the callback */
    int code;            /* ERROR: error.code */
    const char *message; /* ERROR: error.message; otherwise a sentence of ours */
    const cJSON *data;   /* ERROR: error.data, or NULL */
    size_t size;         /* TOO_LARGE: length of the response in bytes */
    uint64_t elapsed_ms; /* from the request to this reply */
};

typedef void rpc_client_reply_cb(void *ud, const struct rpc_client_reply *r);

/* What an outgoing message is, for transports that route by it (HTTP puts
 * the method in a header and sends each message as its own POST). */
struct rpc_client_msg {
    int kind;            /* RPC_REQUEST, RPC_NOTIFICATION or RPC_RESPONSE (transport/jsonrpc.h) */
    uint64_t id;         /* RPC_REQUEST: its id */
    const char *method;  /* requests and notifications */
    const cJSON *params; /* borrowed; NULL when none */
};

struct rpc_client_events {
    /* Writes one complete line (the data is not kept). Returns 0 or a
     * negative error; a failed write fails the request being sent. */
    int (*write)(void *ud, const char *data, size_t len);
    /* A notification from the server; params borrowed, may be NULL. */
    void (*notification)(void *ud, const char *method, const cJSON *params);
};

/* Optional hooks for transports that route each message (HTTP: one POST per
 * message, the method in a header, a request cancelled by closing its
 * response stream). They get the events' ud. */
struct rpc_client_hooks {
    /* Used instead of events.write when set: the same line, and what the
     * message is (m and its params are valid during the call). */
    int (*send)(void *ud, const char *data, size_t len, const struct rpc_client_msg *m);
    /* A request left the pending set, answered (1: a response arrived) or
     * not (0: timeout, cancel, abandon, failure). Runs before the request's
     * callback; not called by rpc_client_free. May be NULL. */
    void (*request_ended)(void *ud, uint64_t id, int answered);
};

/* Flags of rpc_client_call. */
#define RPC_CLIENT_NO_CANCEL                                                                       \
    1u /* never send notifications/cancelled for it                                                \
          (initialize; probes; task polls) */

/* Creates a client. name (copied) appears in logs and error messages. */
struct rpc_client *rpc_client_new(uv_loop_t *loop, const char *name,
                                  const struct rpc_client_events *ev, void *ud);

/* Installs hooks (borrowed; must outlive the client; NULL removes them). */
void rpc_client_set_hooks(struct rpc_client *rc, const struct rpc_client_hooks *h);

/* Counts the lines this client cannot read in *count (borrowed; must
 * outlive the client; NULL: its own) instead of its own counter, so that a
 * server restarted under a new client is warned about once: the first
 * unreadable line is a warning, the later ones are logged at info level. */
void rpc_client_share_unreadable_count(struct rpc_client *rc, unsigned *count);

/* Drops every pending request without calling it back (call
 * rpc_client_fail_all first for callbacks) and frees the client once its
 * timer is closed. */
void rpc_client_free(struct rpc_client *rc);

/* Sends a request. params (object or NULL) is consumed on every path.
 * timeout_ms 0 means none. On a timeout, cb gets RPC_CLIENT_TIMEOUT and the
 * server gets notifications/cancelled (unless RPC_CLIENT_NO_CANCEL). cb runs
 * exactly once, never inside this call, unless the request is cancelled or
 * abandoned first. Returns the handle (valid until cb returns or the request
 * is cancelled), or NULL when the write failed (cb is then never called). */
struct rpc_client_request *rpc_client_call(struct rpc_client *rc, const char *method, cJSON *params,
                                           uint64_t timeout_ms, unsigned flags,
                                           rpc_client_reply_cb *cb, void *ud);

/* Cancels a pending request: sends notifications/cancelled {requestId,
 * reason} (reason may be NULL) unless it was made with RPC_CLIENT_NO_CANCEL,
 * and frees the handle. cb is never called. */
void rpc_client_cancel(struct rpc_client_request *req, const char *reason);

/* Forgets a pending request without telling the server; cb is never called. */
void rpc_client_abandon(struct rpc_client_request *req);

/* The id the request was sent with. */
uint64_t rpc_client_request_id(const struct rpc_client_request *req);

/* Sends a notification; params (object or NULL) is consumed. Returns 0 or
 * the writer's negative error. */
int rpc_client_notify(struct rpc_client *rc, const char *method, cJSON *params);

/* Feeds one line read from the server (need not be NUL-terminated). */
void rpc_client_line(struct rpc_client *rc, const char *line, size_t len);

/* Reports a line longer than the cap: head and tail are its first and last
 * bytes. When the id of a pending request can be found in either, that
 * request fails with RPC_CLIENT_TOO_LARGE naming the size and the limit. */
void rpc_client_oversize(struct rpc_client *rc, const char *head, size_t head_len, const char *tail,
                         size_t tail_len, size_t total, size_t limit);

/* Fails one pending request whose response the transport lost: its cb gets
 * status (RPC_CLIENT_CLOSED or RPC_CLIENT_TOO_LARGE) with `why` as the
 * message and `size` as the size. When lines given before are still being
 * read (a big one is parsed off the loop), this is judged after them: the
 * answer may be among them. Returns 0, or -1 when no request with this id is
 * pending. */
int rpc_client_fail(struct rpc_client *rc, uint64_t id, enum rpc_client_status status,
                    const char *why, size_t size);

/* 1 when a request with this id is waiting for its response. */
int rpc_client_is_pending(const struct rpc_client *rc, uint64_t id);

/* Fails every pending request with RPC_CLIENT_CLOSED and `why` as the
 * message (the connection is gone). Requests made from the callbacks are
 * kept. */
void rpc_client_fail_all(struct rpc_client *rc, const char *why);

/* Number of requests waiting for a response. */
size_t rpc_client_pending(const struct rpc_client *rc);

/* Lines skipped as malformed (not JSON-RPC, or responses to unknown ids). */
uint64_t rpc_client_skipped(const struct rpc_client *rc);

#endif
