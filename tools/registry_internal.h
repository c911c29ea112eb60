/* Internals shared by the files of the tools registry: registry.c (servers,
 * catalog, sending behind the per-server limits) and gate.c (the decision
 * for each host call: policy, grant, schema, dry run, approval; and the
 * executions). Not for use outside tools/. */
#ifndef TOOLS_REGISTRY_INTERNAL_H
#define TOOLS_REGISTRY_INTERNAL_H

#include "tools/policy/policy.h"
#include "tools/registry.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <uv.h>

struct buf;
struct waiter;
struct tools_catalog;
struct tools_catalog_tool;
struct tools_downstream;
struct tools_downstream_call;
struct tools_limiter;
struct tools_limiter_wait;

struct slot {
    struct tools_registry *r;
    const struct tools_server_config *cfg;
    struct tools_downstream *d; /* NULL when not started */
    const char *not_started;    /* why d is NULL */
    struct tools_limiter *lim;  /* maxConcurrentCalls / callsPerSecond, or NULL */
};

struct tools_call {
    struct tools_registry *r;
    struct tools_exec *x;      /* NULL: no execution context */
    struct tools_catalog *cat; /* retained */
    const struct tools_catalog_tool *tool;
    struct tools_downstream_call *dc;
    tools_reply_cb *cb;
    void *ud;
    int in_start, answered;
    cJSON *args;                     /* a copy, while waiting for an approval */
    void *approval;                  /* the approver's handle, while asking */
    cJSON *audit;                    /* the tool_call event being built, or NULL */
    uint64_t t0;                     /* uv_hrtime at the start, for the audit log */
    struct tools_limiter_wait *wait; /* queued behind the server's limits */
    int holds;                       /* has a slot of the server's limiter */
    int *go_out; /* inside tools_limiter_acquire: where go_send puts send_now's result */
    const cJSON *go_args;
    struct tools_call *prev, *next;
};

struct tools_exec {
    struct tools_registry *r;
    char **grant; /* NULL-terminated, or NULL */
    int dry_run;
    char *execution_id;
    const struct tools_approver *approver;
    cJSON *planned;  /* [{"tool","arguments"}] */
    char **approved; /* "server\ntool" approved for the rest of this execution */
    size_t napproved;
    char *principal; /* whose state, or NULL */
    int (*stash)(void *ud, const cJSON *value, struct buf *out);
    void *stash_ud;
};

struct tools_registry {
    uv_loop_t *loop;
    struct tools_registry_options o;
    struct slot *slots;
    size_t nslots;
    struct tools_catalog *catalog;
    char *decls, *worker_json; /* texts of the current catalog, for clients and workers */
    char *callable_json;       /* the worker catalog without problems, to detect changes */
    struct waiter *waiters;
    struct tools_call *calls;
    int freeing;
};

/* gate.c: replies {"name","message","tool",key:value} (ToolPolicyError,
 * ToolApprovalError). */
void tools__reply_refusal(tools_reply_cb *cb, void *ud, const char *name, const char *msg,
                          const char *tool, const char *key, const char *value);

/* gate.c: ToolApprovalError's reason for an answer that refuses. */
const char *tools__approval_reason(enum tools_approval_answer a);

/* tools/gate/builtins.c: the host calls of op "state", "skills" and "skill"
 * (the same contract as tools_exec_call). */
struct tools_call *tools__builtin_call(struct tools_registry *r, struct tools_exec *x,
                                       const char *op, const char *name, const cJSON *args,
                                       tools_reply_cb *cb, void *ud);

/* registry.c */

/* Replies the JSON text in b (or null), or an error {"name","message","tool"}. */
void tools__reply_text(tools_reply_cb *cb, void *ud, int ok, struct buf *b);
void tools__reply_error(tools_reply_cb *cb, void *ud, const char *name, const char *msg,
                        const char *tool);

/* Checks args against the tool's inputSchema: 0, or -1 after replying the
 * ToolArgumentError. */
int tools__validate(const struct tools_catalog_tool *t, const cJSON *args, tools_reply_cb *cb,
                    void *ud);

/* Completes a tool_call audit event (consumed; NULL is fine) and writes it. */
void tools__audit_finish(struct tools_registry *r, cJSON *ev, const char *outcome, uint64_t t0,
                         size_t result_bytes);

/* The registry's list of calls in progress. */
void tools__call_link(struct tools_call *c);
void tools__call_unlink(struct tools_call *c);

/* Frees c: its catalog reference, its limiter slot or place in the queue. */
void tools__call_free(struct tools_call *c);

/* Sends c downstream, or queues it behind the server's limits. Returns 0
 * while in flight or queued (the caller links c), -1 when it was answered
 * already (c is then freed). */
int tools__call_send(struct tools_call *c, const cJSON *args);

#endif
