/* The gate of the built-in host calls (state.*, skills.*, content.stash), in
 * the order of the gate of tools: the name (an operation there is), the same
 * policy as a downstream tool under the names "state.<op>", "skills.<op>" and
 * "content.stash" (reads, and the stash, which changes nothing outside the
 * server, count as read-only), the execution's grant, the arguments
 * (tools_state_service_check), the dry run (writes are recorded, not done),
 * approval of `ask` through the execution's approver; then the service does
 * the work; one audit line per call. skills.<name>(args) itself is not
 * gated: every tool the skill's code calls is. */
#include "tools/gate/internal.h"
#include "tools/registry_internal.h"
#include "tools/policy/audit.h"
#include "tools/policy/policy.h"
#include "tools/state/service.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_stash(const char *op)
{
    return strcmp(op, "stash") == 0;
}

/* The operations there are: state.get/entry/set/delete/list,
 * skills.save/list/delete, content.stash. */
static int known(const char *op, const char *name)
{
    static const char *const state_ops[] = {"get", "entry", "set", "delete", "list", NULL};
    static const char *const skills_ops[] = {"save", "list", "delete", NULL};
    const char *const *ops = strcmp(op, "state") == 0 ? state_ops : skills_ops;
    if (is_stash(op))
        return 1;
    for (; *ops; ops++)
        if (strcmp(*ops, name) == 0)
            return 1;
    return 0;
}

static int is_read(const char *op, const char *name)
{
    if (is_stash(op))
        return 1;
    if (strcmp(op, "state") == 0)
        return strcmp(name, "set") != 0 && strcmp(name, "delete") != 0;
    return strcmp(name, "list") == 0;
}

static const char *scope_of(const struct tools_exec *x)
{
    return x && x->principal ? x->principal : NULL;
}

/* The store answered an operation perform started: c's caller gets it. */
static void performed(void *ud, int ok, const char *json, size_t len)
{
    struct tools_call *c = ud;
    c->job = NULL;
    tools__call_unlink(c);
    tools_audit_call_end(c->r->o.audit, c->audit, ok ? "ok" : "error", c->t0, len);
    c->audit = NULL;
    c->cb(c->ud, ok, json, len);
    tools__call_free(c);
}

/* Runs the operation and replies; finishes the audit event (consumed).
 * content.stash and a skill's code answer through cb at once; state.* and
 * skills.* go to the service off the loop (tools_state_service_start) and
 * answer c's own caller later: then c belongs to the operation until it
 * answers or is cancelled (c->job set). */
static void perform(struct tools_call *c, const char *op, const char *name, const cJSON *args,
                    cJSON *ev, uint64_t t0, tools_reply_cb *cb, void *ud)
{
    struct tools_registry *r = c->r;
    struct tools_exec *x = c->x;
    if (!is_stash(op) && strcmp(op, "skill") != 0 && r->loop) {
        c->audit = ev;
        c->t0 = t0;
        tools__call_link(c);
        c->job = tools_state_service_start(r->o.state, r->loop, op, name, scope_of(x), args, performed, c);
        return;
    }
    struct buf b;
    buf_init(&b, 0);
    int ok = is_stash(op) ? x->stash(x->stash_ud, args, &b)
                          : tools_state_service_call(r->o.state, op, name, scope_of(x), args, &b);
    tools_audit_call_end(r->o.audit, ev, ok ? "ok" : "error", t0, b.len);
    cb(ud, ok, b.data ? b.data : "null", b.data ? b.len : 4);
    buf_free(&b);
}

static void audit_decision(cJSON *ev, const char *decision)
{
    if (ev)
        cJSON_AddStringToObject(ev, "decision", decision);
}

/* --- approval ---------------------------------------------------------------------------- */

/* The answer on an `ask` built-in (the approver's, always after ask
 * returned; or noApprover's, when nobody can be asked, answered later):
 * done, or refused. c->builtin holds {op, name, tool}, c->args_json the
 * arguments. */
static void decided(struct tools_call *c, enum tools_approval_answer a, const char *detail,
                    tools_reply_cb *cb, void *ud)
{
    const char *op = cJSON_GetObjectItemCaseSensitive(c->builtin, "op")->valuestring;
    const char *name = cJSON_GetObjectItemCaseSensitive(c->builtin, "name")->valuestring;
    const char *q = cJSON_GetObjectItemCaseSensitive(c->builtin, "tool")->valuestring;
    int allow = tools__approval_lets_through(c->r, a);
    if (allow) {
        audit_decision(c->audit, a == TOOLS_APPROVAL_UNAVAILABLE ? "allow" : "approved");
        cJSON *args = tools__call_args(c);
        cJSON *ev = c->audit;
        c->audit = NULL;
        perform(c, op, name, args, ev, c->t0, cb, ud);
        cJSON_Delete(args);
        return;
    } else {
        struct buf msg;
        buf_init(&msg, 0);
        if (a == TOOLS_APPROVAL_UNAVAILABLE) {
            const char *dot = strchr(q, '.');
            char *server = xstrndup(q, (size_t) (dot - q));
            struct tools_policy_names n = {server, server, dot + 1, dot + 1};
            char *advice = tools_policy_allow_advice(c->r->o.policy, NULL, &n, NULL);
            buf_printf(&msg,
                       "\"%s\" needs approval, but this client cannot approve calls (it did not "
                       "declare elicitation); nothing was done. To let programs call it without "
                       "a person, the server's config file needs a rule: %s (or "
                       "codemode.policy.noApprover \"allow\" for every call that asks).",
                       q, advice);
            free(advice);
            free(server);
        } else {
            buf_printf(&msg, "\"%s\" was not approved%s%s; nothing was done.", q,
                       detail ? ": " : "", detail ? detail : "");
        }
        audit_decision(c->audit, "denied");
        tools_audit_call_end(c->r->o.audit, c->audit, "not_sent", c->t0, 0);
        tools__reply_refusal(cb, ud, "ToolApprovalError", msg.data, q, "reason",
                             tools__approval_reason(a));
        buf_free(&msg);
    }
    c->audit = NULL;
}

static void approved(void *ud, enum tools_approval_answer a, const char *detail)
{
    struct tools_call *c = ud;
    c->approval = NULL;
    tools__call_unlink(c);
    decided(c, a, detail, c->cb, c->ud);
    if (c->job == NULL) /* else the operation answers c's caller and frees c */
        tools__call_free(c);
}

static void ask(struct tools_call *c, const char *op, const char *name, const char *qualified,
                const cJSON *args, cJSON *ev, uint64_t t0)
{
    c->audit = ev;
    c->t0 = t0;
    c->builtin = cJSON_CreateObject();
    cJSON_AddStringToObject(c->builtin, "op", op);
    cJSON_AddStringToObject(c->builtin, "name", name);
    cJSON_AddStringToObject(c->builtin, "tool", qualified);
    c->args_json = args ? json_print(args) : NULL;
    const struct tools_approver *ap = c->x ? c->x->approver : NULL;
    if (ap == NULL) {
        decided(c, TOOLS_APPROVAL_UNAVAILABLE, NULL, tools__answer_later, c);
        return;
    }
    const struct tools_policy *p = c->r->o.policy;
    const char *server = is_stash(op) ? "content" : strcmp(op, "state") == 0 ? "state" : "skills";
    struct tools_approval_request q = {server, name, args, c->x->execution_id,
                                       p ? p->approval_timeout_ms : 600000};
    tools__call_link(c);
    c->approval = ap->ask(ap->self, &q, approved, c); /* answers later, never inside */
}

/* --- the gate ------------------------------------------------------------------------------ */

/* The execution's grant (execute_code's "allow") covers the built-ins as it
 * covers tools: "state.set" is granted by "state.*", "*", ... */
static int granted(const struct tools_exec *x, const char *server, const char *name)
{
    if (x == NULL || x->grant == NULL)
        return 1;
    struct tools_policy_names n = {server, server, name, name};
    return tools_policy_granted(x->grant, &n);
}

/* Replies ToolPolicyError for a denied or not granted built-in; finishes
 * the audit event (consumed). */
static void refuse(struct tools_registry *r, const char *qualified, int denied, const char *source,
                   cJSON *ev, uint64_t t0, tools_reply_cb *cb, void *ud)
{
    char msg[600];
    if (denied && source && strstr(source, "needs scope"))
        snprintf(msg, sizeof msg,
                 "\"%s\" is denied by this server's policy (%s): the caller's access token "
                 "lacks that OAuth scope; nothing was done. Retrying will not help: the user must "
                 "sign in with that scope.",
                 qualified, source);
    else if (denied)
        snprintf(msg, sizeof msg,
                 "\"%s\" is denied by this server's policy; nothing was done. Retrying will not "
                 "help.",
                 qualified);
    else
        snprintf(msg, sizeof msg,
                 "\"%s\" was not granted to this execution (execute_code's \"allow\" argument "
                 "lists what it may call); nothing was done. Retrying will not help.",
                 qualified);
    tools__reply_refusal(cb, ud, "ToolPolicyError", msg, qualified, "decision",
                         denied ? "deny" : "not_granted");
    audit_decision(ev, denied ? "denied" : "not_granted");
    tools_audit_call_end(r->o.audit, ev, "not_sent", t0, 0);
}

/* Records a planned call with what the policy would do with it (d, decided
 * by source: consumed) and replies null. */
static void plan(struct tools_exec *x, const char *qualified, const cJSON *args,
                 enum tools_policy_decision d, char *source, tools_reply_cb *cb, void *ud)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "tool", qualified);
    cJSON_AddItemToObject(p, "arguments", args ? cJSON_Duplicate(args, 1) : cJSON_CreateNull());
    cJSON_AddStringToObject(p, "decision", tools_policy_decision_name(d));
    if (source)
        cJSON_AddStringToObject(p, "decidedBy", source);
    free(source);
    cJSON_AddItemToArray(x->planned, p);
    cb(ud, 1, "null", 4);
}

/* The policy's decision for a built-in; *source (may be NULL) gets what
 * decided it (malloc'd). */
static enum tools_policy_decision decide(const struct tools_registry *r, const struct tools_exec *x,
                                         const char *server, const char *name, int read,
                                         char **source)
{
    struct tools_policy_names n = {server, server, name, name};
    cJSON *tool = cJSON_CreateObject();
    if (read)
        cJSON_AddTrueToObject(cJSON_AddObjectToObject(tool, "annotations"), "readOnlyHint");
    enum tools_policy_decision d =
        tools_policy_decide_scoped(r->o.policy, NULL, &n, tool, x ? x->scopes : NULL, source);
    cJSON_Delete(tool);
    return d;
}

void tools__builtin_call(struct tools_call *c, const char *op, const char *name,
                         const cJSON *args)
{
    struct tools_registry *r = c->r;
    struct tools_exec *x = c->x;
    tools_reply_cb *cb = tools__answer_later; /* what the gate decides here, it has at once */
    void *ud = c;
    uint64_t t0 = uv_hrtime();
    if (is_stash(op)) {
        if (x == NULL || x->stash == NULL) {
            tools__reply_error(cb, ud, "Error", "content.stash is not available here", NULL);
            return;
        }
        name = "stash";
    } else if (r->o.state == NULL) {
        tools__reply_error(cb, ud, "Error", "state and skills are off on this server", NULL);
        return;
    }
    if (strcmp(op, "skill") == 0) { /* the skill's tools are gated, one by one */
        perform(c, op, name, args, NULL, t0, cb, ud);
        return;
    }
    const char *server = is_stash(op) ? "content" : strcmp(op, "state") == 0 ? "state" : "skills";
    char qualified[80];
    snprintf(qualified, sizeof qualified, "%s.%.40s", server, name);
    int read = is_read(op, name);
    cJSON *ev = NULL;
    if (r->o.audit) {
        ev = cJSON_CreateObject();
        cJSON_AddStringToObject(ev, "executionId", x && x->execution_id ? x->execution_id : "");
        cJSON_AddStringToObject(ev, "tool", qualified);
        tools_audit_add_arguments(r->o.audit, ev, args);
    }
    if (!known(op, name)) {
        char msg[200];
        snprintf(msg, sizeof msg, "\"%s\" is not an operation of the server's %s", qualified,
                 server);
        tools__reply_error(cb, ud, "Error", msg, NULL);
        audit_decision(ev, "invalid");
        tools_audit_call_end(r->o.audit, ev, "not_sent", t0, 0);
        return;
    }
    char *why = NULL;
    enum tools_policy_decision d = decide(r, x, server, name, read, &why);
    if (d == TOOLS_POLICY_DENY || !granted(x, server, name)) {
        refuse(r, qualified, d == TOOLS_POLICY_DENY, why, ev, t0, cb, ud);
        free(why);
        return;
    }
    free(why);
    struct buf invalid;
    buf_init(&invalid, 0);
    if (!is_stash(op) && !tools_state_service_check(op, name, args, &invalid)) {
        tools__reply_text(cb, ud, 0, &invalid);
        buf_free(&invalid);
        audit_decision(ev, "invalid");
        tools_audit_call_end(r->o.audit, ev, "not_sent", t0, 0);
        return;
    }
    buf_free(&invalid);
    if (x && x->dry_run && !read) {
        char *source = NULL;
        decide(r, x, server, name, read, &source);
        plan(x, qualified, args, d, source, cb, ud);
        audit_decision(ev, "dry_run");
        tools_audit_call_end(r->o.audit, ev, "not_sent", t0, 0);
        return;
    }
    if (d == TOOLS_POLICY_ASK) {
        ask(c, op, name, qualified, args, ev, t0);
        return;
    }
    audit_decision(ev, "allow");
    perform(c, op, name, args, ev, t0, cb, ud);
    return;
}
