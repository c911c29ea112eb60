/* The gate every host call of a program passes (docs/policy.md), for
 * downstream tools and the built-in services alike: the name, policy deny,
 * the execution's grant, the arguments, the dry run, asking a person, then
 * the call is sent or done; one audit line per attempt. Executions carry
 * what the gate needs to know of one run (grant, dry run, approvals,
 * principal, stash). tools/gate/gate.c (tools), builtins.c (state.*,
 * skills.*, content.stash), reply.c (answers the gate gives itself). */
#ifndef TOOLS_GATE_GATE_H
#define TOOLS_GATE_GATE_H

#include "tools/registry.h"

#include <cjson/cJSON.h>

struct buf;
struct tools_call;
struct tools_exec;

/* Starts a host call; op is "tool", "search" or "describe" (or the built-in
 * "state", "skills", "skill", "stash": tools/gate/builtins.c; "resources",
 * "prompts": tools/gate/resources.c), name the
 * text the program gave, args borrowed. Returns the call's handle (never
 * NULL). cb runs exactly once, never before this function returns (an answer
 * the gate has at once comes on the loop's next turn, like every other),
 * unless the call is cancelled first with tools_call_cancel: a call in
 * flight is cancelled at the downstream server (notifications/cancelled)
 * and cb never runs. The handle is invalid once cb ran or it was cancelled. */
struct tools_call *tools_registry_call(struct tools_registry *r, const char *op, const char *name,
                                       const cJSON *args, tools_reply_cb *cb, void *ud);
void tools_call_cancel(struct tools_call *c);

/* --- one execution's calls -------------------------------------------------------------
 * The decision for each call (docs/policy.md), in this order: unknown name
 * (Error); policy deny or outside the grant (ToolPolicyError); arguments
 * that break the inputSchema (ToolArgumentError); dry run (recorded, not
 * sent, a placeholder value) unless the tool is allowed and read-only;
 * ask (the approver, or codemode.policy.noApprover when there is none;
 * ToolApprovalError when not approved); then the call is sent. Every
 * attempt is one tool_call line in the audit log. Built-in services pass
 * the same steps under their names (state.set, skills.save, content.stash),
 * and so do the downstream resources and prompts
 * (<server>.resources/read, ...). */

struct tools_exec_options {
    char *const *allow;                    /* grant patterns, NULL-terminated, copied; NULL: none */
    int dry_run;
    const char *execution_id;              /* copied; for the audit log (may be NULL) */
    const struct tools_approver *approver; /* borrowed; NULL: nobody can be asked */
    const struct tools_login_asker *login; /* borrowed; NULL: a call to a server that needs
                                              a login fails with ToolAuthError at once */
    const char *principal;                 /* copied; whose state (codemode.state.scope) */
    char *const *scopes;                   /* copied; the caller's OAuth scopes (NULL: none):
                                              rules that require a scope deny without it */
    /* content.stash(value) (op "stash"): keeps value for the client and writes
     * the reply JSON (its link, or an error) to out; returns 1 (ok) or 0. Called
     * after the gate (policy "content.stash", approval, audit). NULL: no stash. */
    int (*stash)(void *ud, const cJSON *value, struct buf *out);
    void *stash_ud;
};

struct tools_exec *tools_exec_new(struct tools_registry *r, const struct tools_exec_options *o);

/* Frees x; every call made through it must have replied or been cancelled. */
void tools_exec_free(struct tools_exec *x);

/* tools_registry_call within execution x (same contract). */
struct tools_call *tools_exec_call(struct tools_exec *x, const char *op, const char *name,
                                   const cJSON *args, tools_reply_cb *cb, void *ud);

/* The worker catalog as this execution sees it (only granted tools). malloc'd. */
char *tools_exec_catalog(struct tools_exec *x);

/* The built-in namespaces for the worker's run message (tools/state/service.h:
 * {"state":true,"skills":[names]}, with "resources" and "prompts" true when a
 * server offers them), malloc'd, or NULL when they are all off. */
char *tools_exec_builtins(struct tools_exec *x);

/* The dry run's planned calls so far: [{"tool":"server.tool","arguments":{...}}]
 * in call order (original names), borrowed; an empty array without dry run. */
const cJSON *tools_exec_planned(const struct tools_exec *x);

/* "server.tool" patterns check: why `pattern` cannot be a grant, or NULL. */
const char *tools_exec_pattern_problem(const char *pattern);

#endif
