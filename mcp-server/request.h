/* A request being served and where its reply goes (request.c): its life
 * (made, ended once, freed, with an on_end hook for whoever holds it), its
 * reply in the envelope of its revision, its notifications, and the
 * channels and batches replies are written to. Internal to mcp-server/. */
#ifndef MCP_SERVER_REQUEST_H
#define MCP_SERVER_REQUEST_H

#include "mcp-server/protocol.h"
#include "mcp-server/server.h"

#include <cjson/cJSON.h>
#include <stddef.h>

struct buf;
struct mcp_batch;
struct mcp_execution;
struct mcp_park;
struct mcp_stash_wait;
struct rpc_message;

struct mcp_request {
    struct mcp_server *server;
    char *id;                /* exact id text */
    char *key;               /* canonical id key, for cancellation */
    char *method;
    enum mcp_revision rev;
    char *progress_token;    /* exact JSON text of _meta.progressToken, or NULL */
    double progress;         /* last progress value sent */
    int log_level;           /* notifications/message threshold (enum log_level), -1 = none */
    struct mcp_batch *batch; /* set when the request came in a batch */
    struct mcp_channel ch;   /* where its reply goes (the batch's when batched) */
    struct mcp_execution *exec;
    int is_listen;           /* a 2026 subscriptions/listen stream */
    int can_elicit;          /* 2026-07-28: _meta's client capabilities have elicitation */
    int can_elicit_url;      /* 2026-07-28: ... and elicitation.url (a login, login_park.c) */
    struct mcp_park *park;   /* a phantom request: the park holding it (park.c) */
    struct mcp_stash_wait *stash_wait; /* the shared stash's writes and reads it waits for
                                        * (execute/stash_link.c) */
    /* Called once when the request ends (answered, dropped or cancelled),
     * before it is freed, by whoever holds on to it: the queue of requests
     * waiting for the catalog (server.c), a park (park.c). May be NULL. */
    void (*on_end)(struct mcp_request *r);
    int tools_changed, resources_changed; /* listen filters */
    cJSON *deferred_params;  /* a copy, while waiting for the tools to settle */
    int deferred_modern;
    struct mcp_request *prev, *next; /* in-flight list */
    struct mcp_request *next_deferred;
};

/* Sends a success result (a cJSON object, taken over: the revision's
 * envelope fields are added, then it is freed) and ends the request. */
void mcp_request_result(struct mcp_request *r, cJSON *result);

/* Sends an error and ends the request. */
void mcp_request_error(struct mcp_request *r, int code, const char *message, const cJSON *data);

/* Ends the request with no reply (cancelled). */
void mcp_request_drop(struct mcp_request *r);

/* A notification on the request's channel: method with params (taken over). */
void mcp_request_notify(struct mcp_request *r, const char *method, cJSON *params);

/* Request-scoped notifications: progress (when the request asked for it)
 * and console lines as notifications/message (when logging is on). */
void mcp_request_progress(struct mcp_request *r, const char *message);
void mcp_request_log(struct mcp_request *r, const char *console_level, const char *text);

/* Sends a message (complete JSON-RPC lines) on the request's channel, as
 * its notifications go: stdout, or the POST's event stream. */
void mcp_request_send(struct mcp_request *r, const char *data, size_t len);

/* A request no client sent, that holds a parked execution while
 * no request of a client does; its messages go to ch. Ended like any other
 * (mcp_request_result, mcp_request_drop); cancelled with the server. */
struct mcp_request *mcp_request_phantom(struct mcp_server *s, enum mcp_revision rev,
                                        const struct mcp_channel *ch);

/* request.c: a request read from m (its reply goes into batch, or on ch);
 * sending complete lines on a channel (invalid UTF-8 repaired) and letting
 * it go; a reply line into its batch or, unbatched, as the final message on
 * ch; the channel a request's notifications go on; a batch of requests
 * that answers as one array (released once per request and once when it
 * has been read; discarded when nothing in it needs a reply). */
struct mcp_request *mcp_request_new(struct mcp_server *s, const struct rpc_message *m,
                                    struct mcp_batch *batch, const struct mcp_channel *ch);
void mcp_channel_send(const struct mcp_channel *ch, const char *data, size_t len, int final);
void mcp_channel_release(const struct mcp_channel *ch);
void mcp_reply_emit(struct mcp_batch *batch, const struct mcp_channel *ch, struct buf *line);
const struct mcp_channel *mcp_request_channel(const struct mcp_request *r);
struct mcp_batch *mcp_batch_new(struct mcp_server *s, const struct mcp_channel *ch);
void mcp_batch_release(struct mcp_batch *b);
void mcp_batch_discard(struct mcp_batch *b);

#endif
