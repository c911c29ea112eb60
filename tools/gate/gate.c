/* The gate of downstream tools (docs/policy.md; gate.h): the name,
 * policy deny and the execution's grant (ToolPolicyError), the inputSchema
 * (ToolArgumentError), the dry run (recorded, not sent), approval of `ask`
 * tools through the approver mcp-server gives (ToolApprovalError), then the
 * call is sent; each attempt is one audit line (and a call that is sent one
 * more, before it leaves: registry.c). Also searchTools and
 * describeTool, and the executions (grants, approvals, plans). */
#include "tools/registry_internal.h"
#include "tools/catalog.h"
#include "tools/names.h"
#include "tools/server_config.h"
#include "tools/downstream/downstream.h"
#include "tools/policy/audit.h"
#include "tools/policy/policy.h"
#include "tools/state/service.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdlib.h>
#include <string.h>

#define SEARCH_LIMIT 20

/* --- the gate: policy, grant, validation, dry run, approval ---------------------------------- */

static void qualified_name(const struct tools_catalog_tool *t, struct buf *q)
{
    buf_printf(q, "%s.%s", t->server, t->name);
}

static cJSON *audit_start(struct tools_registry *r, struct tools_exec *x, const char *tool,
                          const cJSON *args)
{
    if (r->o.audit == NULL)
        return NULL;
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "executionId", x && x->execution_id ? x->execution_id : "");
    tools_audit_add_tool(ev, tool);
    tools_audit_add_arguments(r->o.audit, ev, args);
    return ev;
}

static void audit_refused(struct tools_registry *r, cJSON *ev, const char *decision, uint64_t t0)
{
    if (ev == NULL)
        return;
    cJSON_AddStringToObject(ev, "decision", decision);
    tools_audit_call_end(r->o.audit, ev, "not_sent", t0, 0);
}

static int granted(const struct tools_exec *x, const struct tools_catalog_tool *t)
{
    if (x == NULL || x->grant == NULL)
        return 1;
    struct tools_policy_names n = tools_catalog_policy_names(t);
    return tools_policy_granted(x->grant, &n);
}

/* deny / not granted: 0 when the call may go on, else answered (-1). */
static int refuse(struct tools_registry *r, struct tools_exec *x,
                  const struct tools_catalog_tool *t, cJSON **ev, uint64_t t0, tools_reply_cb *cb,
                  void *ud)
{
    int denied = t->decision == TOOLS_POLICY_DENY;
    int unscoped = !denied && t->required_scope &&
                   !tools_policy_has_scope(x ? x->scopes : NULL, t->required_scope);
    if (!denied && !unscoped && granted(x, t))
        return 0;
    struct buf q, m;
    buf_init(&q, 0);
    buf_init(&m, 0);
    qualified_name(t, &q);
    if (unscoped) {
        buf_printf(&m,
                   "Tool \"%s\" is denied: this server's policy (%s) requires the OAuth scope "
                   "\"%s\", which the caller's access token does not have; the call was not "
                   "sent. Retrying will not help: the user must sign in with that scope.",
                   q.data, t->decision_source ? t->decision_source : "policy", t->required_scope);
        denied = 1;
    } else if (denied)
        buf_printf(&m,
                   "Tool \"%s\" is denied by this server's policy (%s); the call was not sent. "
                   "Retrying will not help: do without this tool, or tell the user.",
                   q.data, t->decision_source ? t->decision_source : "policy");
    else
        buf_printf(&m,
                   "Tool \"%s\" was not granted to this execution (execute_code's \"allow\" "
                   "argument lists the tools it may call); the call was not sent. Retrying will "
                   "not help.",
                   q.data);
    tools__reply_refusal(cb, ud, "ToolPolicyError", m.data, q.data, "decision",
                         denied ? "deny" : "not_granted");
    audit_refused(r, *ev, denied ? "denied" : "not_granted", t0);
    *ev = NULL;
    buf_free(&q);
    buf_free(&m);
    return -1;
}

static const char dry_run_note[] = "dry run: this call was recorded, not sent";

/* Records a planned call and replies the placeholder. */
static void plan(struct tools_exec *x, const struct tools_catalog_tool *t, const cJSON *args,
                 tools_reply_cb *cb, void *ud)
{
    struct buf q;
    buf_init(&q, 0);
    qualified_name(t, &q);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "tool", q.data);
    cJSON_AddItemToObject(p, "arguments", args ? cJSON_Duplicate(args, 1) : cJSON_CreateObject());
    /* what the policy would do with it for real (sent, or asked first) */
    cJSON_AddStringToObject(p, "decision", tools_policy_decision_name(t->decision));
    if (t->decision_source)
        cJSON_AddStringToObject(p, "decidedBy", t->decision_source);
    cJSON_AddItemToArray(x->planned, p);
    cJSON *v = cJSON_CreateObject();
    cJSON_AddTrueToObject(v, "dryRun");
    cJSON_AddStringToObject(v, "tool", q.data);
    cJSON_AddStringToObject(v, "note", dry_run_note);
    char *text = json_print(v);
    cb(ud, 1, text, strlen(text));
    free(text);
    cJSON_Delete(v);
    buf_free(&q);
}

static int approved_for_execution(const struct tools_exec *x, const struct tools_catalog_tool *t)
{
    for (size_t i = 0; x && i < x->napproved; i++) {
        const char *nl = strchr(x->approved[i], '\n');
        if ((size_t) (nl - x->approved[i]) == strlen(t->server) &&
            !strncmp(x->approved[i], t->server, strlen(t->server)) && !strcmp(nl + 1, t->name))
            return 1;
    }
    return 0;
}

static void remember_approval(struct tools_exec *x, const struct tools_catalog_tool *t)
{
    struct buf k;
    buf_init(&k, 0);
    buf_printf(&k, "%s\n%s", t->server, t->name);
    x->approved = xrealloc(x->approved, (x->napproved + 1) * sizeof *x->approved);
    x->approved[x->napproved++] = buf_steal(&k);
}

static const char *const approval_reasons[] = {"",         "",          "",        "denied",
                                               "declined", "cancelled", "timeout", "no_approver"};

const char *tools__approval_reason(enum tools_approval_answer a)
{
    return approval_reasons[a];
}

/* Answers ToolApprovalError through cb (tools__answer_later with c while
 * tools_exec_call runs, c's own caller after a person answered). */
static void approval_refused(struct tools_call *c, enum tools_approval_answer a, const char *detail,
                             tools_reply_cb *cb, void *ud)
{
    struct buf q, m;
    buf_init(&q, 0);
    buf_init(&m, 0);
    qualified_name(c->tool, &q);
    if (a == TOOLS_APPROVAL_UNAVAILABLE)
        buf_printf(&m,
                   "Tool \"%s\" needs approval, but this client cannot approve tool calls (it "
                   "did not declare elicitation); the call was not sent and retrying will not "
                   "help. To let programs call it without a person, the server's config file "
                   "needs a rule: %s (or codemode.policy.noApprover \"allow\" for every tool "
                   "that asks).",
                   q.data, c->tool->allow_advice ? c->tool->allow_advice : "an \"allow\" rule");
    else
        buf_printf(&m, "Tool \"%s\" was not approved (%s%s%s); the call was not sent.", q.data,
                   approval_reasons[a], detail ? ": " : "", detail ? detail : "");
    audit_refused(c->r, c->audit, "denied", c->t0);
    tools__reply_refusal(cb, ud, "ToolApprovalError", m.data, q.data, "reason",
                         approval_reasons[a]);
    c->audit = NULL;
    buf_free(&q);
    buf_free(&m);
}

int tools__no_approver_allows(const struct tools_registry *r)
{
    return r->o.policy && r->o.policy->no_approver == TOOLS_POLICY_ALLOW;
}

int tools__approval_lets_through(const struct tools_registry *r, enum tools_approval_answer a)
{
    return a <= TOOLS_APPROVAL_SESSION ||
           (a == TOOLS_APPROVAL_UNAVAILABLE && tools__no_approver_allows(r));
}

static void audit_approved(struct tools_call *c, enum tools_approval_answer a)
{
    static const char *const scopes[] = {"once", "execution", "session"};
    if (c->audit == NULL)
        return;
    if (a == TOOLS_APPROVAL_UNAVAILABLE) { /* noApprover: allow */
        cJSON_AddStringToObject(c->audit, "decision", "allow");
        return;
    }
    cJSON_AddStringToObject(c->audit, "decision", "approved");
    cJSON_AddStringToObject(c->audit, "scope", scopes[a]);
}

/* The approver's answer (always after ask returned): send, or refuse. */
static void approval_done(void *ud, enum tools_approval_answer a, const char *detail)
{
    struct tools_call *c = ud;
    c->approval = NULL;
    tools__call_unlink(c);
    if (!tools__approval_lets_through(c->r, a)) {
        approval_refused(c, a, detail, c->cb, c->ud);
        tools__call_free(c);
        return;
    }
    if (a == TOOLS_APPROVAL_EXECUTION && c->x)
        remember_approval(c->x, c->tool);
    audit_approved(c, a);
    cJSON *args = tools__call_args(c);
    tools__call_send(c, args);
    cJSON_Delete(args);
}

/* The ask step: 0 to send now, 1 waiting for a person (c linked), -1
 * refused (answered). */
static int ask(struct tools_call *c, const cJSON *args)
{
    const struct tools_policy *p = c->r->o.policy;
    const struct tools_approver *ap = c->x ? c->x->approver : NULL;
    if (approved_for_execution(c->x, c->tool)) {
        if (c->audit) {
            cJSON_AddStringToObject(c->audit, "decision", "approved");
            cJSON_AddStringToObject(c->audit, "scope", "execution");
        }
        return 0;
    }
    if (ap == NULL) {
        if (tools__no_approver_allows(c->r)) {
            audit_approved(c, TOOLS_APPROVAL_UNAVAILABLE);
            return 0;
        }
        approval_refused(c, TOOLS_APPROVAL_UNAVAILABLE, NULL, tools__answer_later, c);
        return -1;
    }
    struct tools_approval_request q = {c->tool->server, c->tool->name, args, c->x->execution_id,
                                       p ? p->approval_timeout_ms : 600000};
    c->args_json = args ? json_print(args) : NULL;
    tools__call_link(c);
    c->approval = ap->ask(ap->self, &q, approval_done, c); /* answers later, never inside */
    return 1;
}

/* A call of a server whose tools are not known until a login (login_only):
 * when a policy rule denies the name as called, or the execution's grant
 * leaves it out, no login can change that (rules and grants match names;
 * only the default gives way to the tool's annotations), so it is refused
 * at once like a listed tool's call and nobody is asked to log in (-1,
 * answered). 0: the login may go on. */
static int refuse_unlisted(struct tools_call *c, const char *name, const cJSON *args, uint64_t t0)
{
    struct tools_registry *r = c->r;
    long si = tools_catalog_login_server(r->catalog, name);
    size_t slen;
    const char *tool = tools_names_split(name, &slen);
    if (si < 0 || tool == NULL)
        return 0;
    const struct tools_server_config *srv = r->slots[si].cfg;
    char *called = xstrndup(name, slen);
    struct tools_catalog_tool u = {
        .server = srv->name, .server_id = called, .name = tool, .id = tool};
    struct tools_policy_names n = tools_catalog_policy_names(&u);
    char *source = NULL;
    u.decision =
        tools_policy_rules_decide(r->o.policy, srv, &n, c->x ? c->x->scopes : NULL, &source);
    u.decision_source = source;
    int out = 0;
    if (u.decision == TOOLS_POLICY_DENY || !granted(c->x, &u)) {
        struct buf q;
        buf_init(&q, 0);
        qualified_name(&u, &q);
        cJSON *ev = audit_start(r, c->x, q.data, args);
        buf_free(&q);
        out = refuse(r, c->x, &u, &ev, t0, tools__answer_later, c);
    }
    free(source);
    free(called);
    return out;
}

void tools__gate_tool(struct tools_call *c, const char *name, const cJSON *args)
{
    struct tools_registry *r = c->r;
    struct tools_exec *x = c->x;
    uint64_t t0 = r->o.audit ? uv_hrtime() : 0;
    char *why = NULL;
    const struct tools_catalog_tool *t = tools_catalog_resolve(r->catalog, name, &why);
    if (t == NULL && refuse_unlisted(c, name, args, t0) != 0) {
        free(why);
        return;
    }
    int first = t ? 0 : tools__login_first(c, name, args); /* a server not listed until a login */
    if (first > 0) {
        free(why);
        return; /* waits for the login, then comes back here */
    }
    if (t == NULL) {
        audit_refused(r, audit_start(r, x, name, args), first < 0 ? "needs_login" : "invalid", t0);
        tools__reply_error(tools__answer_later, c, first < 0 ? "ToolAuthError" : "Error", why,
                           first < 0 ? name : NULL);
        free(why);
        return;
    }
    cJSON *ev = NULL;
    if (r->o.audit) {
        struct buf q;
        buf_init(&q, 0);
        qualified_name(t, &q);
        ev = audit_start(r, x, q.data, args);
        buf_free(&q);
    }
    if (refuse(r, x, t, &ev, t0, tools__answer_later, c) != 0)
        return;
    if (tools__validate(t, args, tools__answer_later, c) != 0) {
        audit_refused(r, ev, "invalid", t0);
        return;
    }
    if (x && x->dry_run && !(t->decision == TOOLS_POLICY_ALLOW && t->read_only)) {
        audit_refused(r, ev, "dry_run", t0);
        plan(x, t, args, tools__answer_later, c);
        return;
    }
    c->cat = tools_catalog_retain(r->catalog);
    c->tool = t;
    c->audit = ev;
    c->t0 = t0;
    if (t->decision == TOOLS_POLICY_ASK) {
        if (ask(c, args) != 0)
            return;
    } else if (ev) {
        cJSON_AddStringToObject(ev, "decision", "allow");
    }
    tools__call_send(c, args);
}

static void describe(struct tools_registry *r, struct tools_exec *x, const char *name,
                     tools_reply_cb *cb, void *ud)
{
    char *why = NULL, *text = NULL;
    const struct tools_catalog_tool *t = tools_catalog_resolve(r->catalog, name, &why);
    if (t == NULL && strncmp(name, "skills.", 7) == 0)
        text = tools_state_service_describe(r->o.state, x ? x->principal : NULL,
                                            name + 7); /* a saved skill */
    if (t == NULL && text == NULL) {
        tools__reply_error(cb, ud, "Error", why, NULL);
        free(why);
        return;
    }
    free(why);
    if (t && refuse(r, x, t, &(cJSON *){NULL}, 0, cb, ud) != 0)
        return;
    if (t)
        text = tools_catalog_describe(r->catalog, t);
    struct buf b;
    buf_init(&b, 0);
    json_append_string(&b, text ? text : "", text ? strlen(text) : 0);
    tools__reply_text(cb, ud, 1, &b);
    buf_free(&b);
    free(text);
}

/* Adds the saved skills that match (of those principal sees) to a
 * searchTools answer (consumed). */
static char *search_with_skills(struct tools_registry *r, const char *principal, const char *query,
                                char *json)
{
    cJSON *hits = json_parse(json, strlen(json));
    free(json);
    if (!cJSON_IsArray(hits)) {
        cJSON_Delete(hits);
        hits = cJSON_CreateArray();
    }
    tools_state_service_search(r->o.state, principal, query, hits);
    char *out = json_print(hits);
    cJSON_Delete(hits);
    return out;
}

static struct tools_call *host_call(struct tools_registry *r, struct tools_exec *x, const char *op,
                                    const char *name, const cJSON *args, tools_reply_cb *cb,
                                    void *ud)
{
    struct tools_call *c = xcalloc(1, sizeof *c);
    c->r = r;
    c->x = x;
    c->cb = cb;
    c->ud = ud;
    if (strcmp(op, "tool") == 0) {
        tools__gate_tool(c, name, args);
    } else if (strcmp(op, "describe") == 0) {
        describe(r, x, name, tools__answer_later, c);
    } else if (strcmp(op, "search") == 0) {
        char *json = tools_catalog_search(r->catalog, name, SEARCH_LIMIT, x ? x->grant : NULL);
        if (tools_state_service_has_skills(r->o.state))
            json = search_with_skills(r, x ? x->principal : NULL, name, json);
        tools__answer_later(c, 1, json, strlen(json));
        free(json);
    } else if (strcmp(op, "resources") == 0 || strcmp(op, "prompts") == 0) {
        tools__resource_call(c, op, name, args);
    } else {
        tools__builtin_call(c, op, name, args);
    }
    return c;
}

struct tools_call *tools_registry_call(struct tools_registry *r, const char *op, const char *name,
                                       const cJSON *args, tools_reply_cb *cb, void *ud)
{
    return host_call(r, NULL, op, name, args, cb, ud);
}

void tools_call_cancel(struct tools_call *c)
{
    if (next_turn_pending(&c->later)) { /* answered already, not delivered yet */
        next_turn_cancel(tools__later(c->r), &c->later);
        tools__call_free(c);
        return;
    }
    if (c->login) { /* waiting for a person to log in to its server */
        tools__login_leave(c);
        tools_audit_call_end(c->r->o.audit, c->audit, "cancelled", c->t0, 0);
        c->audit = NULL;
        tools__call_unlink(c);
        tools__call_free(c);
        return;
    }
    if (c->job) { /* a state.* / skills.* operation: it ends, unanswered */
        tools_state_job_cancel(c->job);
        c->job = NULL;
        tools_audit_call_end(c->r->o.audit, c->audit, "cancelled", c->t0, 0);
        c->audit = NULL;
        tools__call_unlink(c);
        tools__call_free(c);
        return;
    }
    if (c->approval) {
        const struct tools_approver *ap = c->x->approver;
        ap->cancel(ap->self, c->approval);
        c->approval = NULL;
        audit_refused(c->r, c->audit, "denied", c->t0); /* never approved */
        c->audit = NULL;
    } else {
        /* dc NULL: still queued behind the server's limits, never sent */
        if (c->dc)
            tools_downstream_call_cancel(c->dc, "the program that made the call has ended");
        tools_audit_call_end(c->r->o.audit, c->audit, c->dc ? "cancelled" : "not_sent", c->t0, 0);
        c->audit = NULL;
    }
    tools__call_unlink(c);
    tools__call_free(c);
}

/* --- executions ---------------------------------------------------------------------------------
 */

static char **copy_list(char *const *list)
{
    size_t n = 0;
    while (list[n])
        n++;
    char **out = xcalloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = xstrdup(list[i]);
    return out;
}

struct tools_exec *tools_exec_new(struct tools_registry *r, const struct tools_exec_options *o)
{
    struct tools_exec *x = xcalloc(1, sizeof *x);
    x->r = r;
    x->planned = cJSON_CreateArray();
    if (o) {
        x->grant = o->allow ? copy_list(o->allow) : NULL;
        x->dry_run = o->dry_run;
        x->execution_id = o->execution_id ? xstrdup(o->execution_id) : NULL;
        x->approver = o->approver;
        x->login = o->login;
        x->principal = o->principal ? xstrdup(o->principal) : NULL;
        x->scopes = o->scopes ? copy_list(o->scopes) : NULL;
        x->stash = o->stash;
        x->stash_ud = o->stash_ud;
    }
    return x;
}

void tools_exec_free(struct tools_exec *x)
{
    if (x == NULL)
        return;
    for (size_t i = 0; x->grant && x->grant[i]; i++)
        free(x->grant[i]);
    free(x->grant);
    for (size_t i = 0; x->scopes && x->scopes[i]; i++)
        free(x->scopes[i]);
    free(x->scopes);
    for (size_t i = 0; i < x->napproved; i++)
        free(x->approved[i]);
    free(x->approved);
    free(x->login_failed);
    free(x->execution_id);
    free(x->principal);
    tools__exec_free_links(x);
    cJSON_Delete(x->planned);
    free(x);
}

struct tools_call *tools_exec_call(struct tools_exec *x, const char *op, const char *name,
                                   const cJSON *args, tools_reply_cb *cb, void *ud)
{
    return host_call(x->r, x, op, name, args, cb, ud);
}

char *tools_exec_catalog(struct tools_exec *x)
{
    if (x->grant == NULL)
        return xstrdup(x->r->worker_json);
    return tools_catalog_worker_json(x->r->catalog, x->grant, 1);
}

char *tools_exec_builtins(struct tools_exec *x)
{
    char *state = tools_state_service_worker_json(x->r->o.state, x->principal);
    int resources = tools_registry_offering(x->r, "resources", NULL, 0) > 0;
    int prompts = tools_registry_offering(x->r, "prompts", NULL, 0) > 0;
    if (!resources && !prompts)
        return state;
    struct buf b;
    buf_init(&b, 0);
    if (state) { /* {"state":...}: one more member */
        buf_append(&b, state, strlen(state) - 1);
        buf_append_char(&b, ',');
    } else {
        buf_append_char(&b, '{');
    }
    free(state);
    buf_printf(&b, "\"resources\":%s,\"prompts\":%s}", resources ? "true" : "false",
               prompts ? "true" : "false");
    return buf_steal(&b);
}

const cJSON *tools_exec_planned(const struct tools_exec *x)
{
    return x->planned;
}

const char *tools_exec_pattern_problem(const char *pattern)
{
    return tools_policy_pattern_problem(pattern, 0);
}
