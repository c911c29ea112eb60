/* Internals shared by the files of mcp-server/ that serve requests
 * (server.c dispatch, execute.c for execute_code, resources.c). */
#ifndef MCP_SERVER_SERVER_INTERNAL_H
#define MCP_SERVER_SERVER_INTERNAL_H

#include "mcp-server/protocol.h"
#include "mcp-server/server.h"

#include <cjson/cJSON.h>

struct mcp_batch;
struct mcp_execution;

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
    int tools_changed, resources_changed; /* listen filters */
    cJSON *deferred_params;  /* a copy, while waiting for the tools to settle */
    int deferred_modern;
    struct mcp_request *prev, *next; /* in-flight list */
    struct mcp_request *next_deferred;
};

struct mcp_server {
    struct mcp_server_config cfg;
    struct mcp_channel session;
    int legacy;                 /* initialize received */
    enum mcp_revision legacy_rev;
    int initialized;            /* notifications/initialized received */
    int log_level;              /* legacy logging/setLevel threshold, -1 = not set */
    struct mcp_request *inflight;
    unsigned ninflight;
    struct mcp_request *deferred, *deferred_tail; /* waiting for downstream servers to settle */
    int waiting;                                  /* a registry waiter is registered */
    uint64_t principal; /* whose executions may share a worker (sandbox_pool_lease_for) */
};

/* Sends a success result (borrowed cJSON object; the revision's envelope
 * fields are added) and ends the request. */
void mcp_request_result(struct mcp_request *r, cJSON *result);

/* Sends an error and ends the request. */
void mcp_request_error(struct mcp_request *r, int code, const char *message, const cJSON *data);

/* Ends the request with no reply (cancelled). */
void mcp_request_drop(struct mcp_request *r);

/* Request-scoped notifications: progress (when the request asked for it)
 * and console lines as notifications/message (when logging is on). */
void mcp_request_progress(struct mcp_request *r, const char *message);
void mcp_request_log(struct mcp_request *r, const char *console_level, const char *text);

/* execute.c */
void mcp_execute(struct mcp_request *r, const cJSON *arguments);
void mcp_execute_cancel(struct mcp_execution *e);

/* describe.c: the execute_code tool object for tools/list (caller frees). */
cJSON *mcp_describe_execute_code(struct mcp_server *s, enum mcp_revision rev);
const char *mcp_describe_instructions(void);

/* resources.c */
void mcp_resources_list(struct mcp_request *r);
void mcp_resources_read(struct mcp_request *r, const cJSON *params);

#endif
