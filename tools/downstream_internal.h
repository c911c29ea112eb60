/* Internals shared by the files of one downstream connection:
 * downstream.c (process, negotiation, restarts), downstream_list.c (tool
 * list) and downstream_call.c (tool calls and tasks). Not a public API. */
#ifndef TOOLS_DOWNSTREAM_INTERNAL_H
#define TOOLS_DOWNSTREAM_INTERNAL_H

#include "tools/downstream.h"

struct transport_child;
struct rpc_client;
struct rpc_client_request;

struct ds_link {
    struct ds_link *prev, *next;
};

enum ds_era { DS_ERA_NONE, DS_ERA_LEGACY, DS_ERA_MODERN };

struct tools_downstream {
    uv_loop_t *loop;
    char *name;  /* the mcpServers key */
    char *label; /* "server 'name'", for logs and messages */
    char *command, **args, **env, *cwd;
    uint64_t entry_timeout_ms;
    struct tools_downstream_options opt;
    const struct tools_downstream_events *ev;
    void *ud;

    enum tools_downstream_state state;
    char *reason;
    int permanent; /* the failure cannot be fixed by a restart */

    /* the current process, when one runs */
    struct transport_child *child;
    struct rpc_client *rpc;
    struct rpc_client_request *hs_req;     /* server/discover or initialize */
    struct rpc_client_request *listen_req; /* 2026 subscriptions/listen */
    int probed, skip_probe, handshaken;    /* probed: this attempt sent server/discover */

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

    /* restarts */
    uv_timer_t timer;
    uint64_t started_at, ready_at, restart_at, connect_ms;
    unsigned attempts, failures;
    int closing, open_timers;
};

/* downstream.c */
void tools__downstream_set_state(struct tools_downstream *d, enum tools_downstream_state s);
void tools__downstream_lost(struct tools_downstream *d, const char *why, int permanent);
cJSON *tools__downstream_params(const struct tools_downstream *d, cJSON *params);

/* downstream_list.c */
void tools__downstream_list(struct tools_downstream *d);
void tools__downstream_list_reset(struct tools_downstream *d);
const cJSON *tools__downstream_find_tool(const struct tools_downstream *d, const char *name);
const char *tools__downstream_excluded_reason(const struct tools_downstream *d, const char *name);

/* downstream_call.c */
void tools__downstream_calls_flush(struct tools_downstream *d);
void tools__downstream_calls_fail(struct tools_downstream *d, const char *fmt_during);
void tools__downstream_calls_init(struct tools_downstream *d);

#endif
