/* The tools registry: one downstream connection per configured server, the
 * current catalog snapshot (rebuilt on every tool-list or state change,
 * reference-counted so calls in flight keep theirs), host calls with schema
 * validation before anything is sent, and waiters for the first settling. */
#include "tools/registry.h"
#include "tools/catalog.h"
#include "tools/downstream/downstream.h"
#include "tools/limiter.h"
#include "tools/policy/audit.h"
#include "tools/policy/policy.h"
#include "tools/result_map.h"
#include "tools/schema/schema.h"
#include "tools/server_config.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"

#include <stdlib.h>
#include <string.h>

#define SEARCH_LIMIT 20

struct slot {
    struct tools_registry *r;
    const struct tools_server_config *cfg;
    struct tools_downstream *d; /* NULL when not started */
    const char *not_started;    /* why d is NULL */
    struct tools_limiter *lim;  /* maxConcurrentCalls / callsPerSecond, or NULL */
};

struct waiter {
    struct tools_registry *r;
    uv_timer_t timer;
    void (*cb)(void *);
    void *ud;
    int fired;
    struct waiter *next;
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
    cJSON *args;    /* a copy, while waiting for an approval */
    void *approval; /* the approver's handle, while asking */
    cJSON *audit;   /* the tool_call event being built, or NULL */
    uint64_t t0;    /* uv_hrtime at the start, for the audit log */
    struct tools_limiter_wait *wait; /* queued behind the server's limits */
    int holds;      /* has a slot of the server's limiter */
    int *go_out;    /* inside tools_limiter_acquire: where go_send puts send_now's result */
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
};

struct tools_registry {
    uv_loop_t *loop;
    struct tools_registry_options o;
    struct slot *slots;
    size_t nslots;
    struct tools_catalog *catalog;
    char *decls, *worker_json; /* texts of the current catalog, to detect changes */
    struct waiter *waiters;
    struct tools_call *calls;
    int freeing;
};

/* --- catalog ------------------------------------------------------------------------- */

static const char *slot_problem(const struct slot *s, const cJSON *tools)
{
    if (s->d == NULL)
        return s->not_started;
    if (cJSON_GetArraySize(tools) > 0)
        return NULL;
    struct tools_downstream_status st;
    tools_downstream_status(s->d, &st);
    switch (st.state) {
    case TOOLS_DOWNSTREAM_CONNECTING:
        /* a server retrying after failures is down for the reason it failed */
        return st.failures && st.reason ? st.reason : "it is still starting";
    case TOOLS_DOWNSTREAM_READY:
        return NULL;
    default:
        return st.reason ? st.reason : "it is not running";
    }
}

static void rebuild(struct tools_registry *r)
{
    struct tools_catalog_server *in = xcalloc(r->nslots ? r->nslots : 1, sizeof *in);
    for (size_t i = 0; i < r->nslots; i++) {
        struct slot *s = &r->slots[i];
        in[i].name = s->cfg->name;
        in[i].policy = s->cfg;
        in[i].tools = s->d ? tools_downstream_tools(s->d) : NULL;
        in[i].supports_tasks = 1; /* the client already left out what it cannot run */
        in[i].excluded = s->d ? tools_downstream_excluded(s->d) : NULL;
        in[i].unavailable = slot_problem(s, in[i].tools);
        in[i].rules = r->o.policy;
    }
    struct tools_catalog *c = tools_catalog_build(in, r->nslots);
    free(in);
    tools_catalog_release(r->catalog);
    r->catalog = c;
    char *decls = tools_catalog_declarations(c, r->o.declarations_budget, NULL);
    char *worker = tools_catalog_worker_json(c, NULL);
    int changed = !r->decls || strcmp(decls, r->decls) || strcmp(worker, r->worker_json);
    free(r->decls);
    free(r->worker_json);
    r->decls = decls;
    r->worker_json = worker;
    if (changed && r->o.changed && !r->freeing)
        r->o.changed(r->o.changed_ud);
}

/* --- waiters ---------------------------------------------------------------------------- */

int tools_registry_settled(const struct tools_registry *r)
{
    for (size_t i = 0; i < r->nslots; i++) {
        struct tools_downstream_status st;
        if (r->slots[i].d == NULL)
            continue;
        tools_downstream_status(r->slots[i].d, &st);
        /* only a first connection is waited for: a server retrying after a
         * failure must not hold up every request for the others */
        if (st.state == TOOLS_DOWNSTREAM_CONNECTING && st.failures == 0 && st.attempts <= 1)
            return 0;
    }
    return 1;
}

static void waiter_closed(uv_handle_t *h)
{
    free(h->data);
}

static void fire(struct waiter *w)
{
    if (w->fired)
        return;
    w->fired = 1;
    struct waiter **pp = &w->r->waiters;
    while (*pp && *pp != w)
        pp = &(*pp)->next;
    if (*pp)
        *pp = w->next;
    uv_timer_stop(&w->timer);
    uv_close((uv_handle_t *) &w->timer, waiter_closed);
    w->cb(w->ud);
}

static void waiter_timeout(uv_timer_t *t)
{
    fire(t->data);
}

static void check_waiters(struct tools_registry *r)
{
    if (!tools_registry_settled(r))
        return;
    while (r->waiters)
        fire(r->waiters);
}

void tools_registry_when_settled(struct tools_registry *r, uint64_t max_ms, void (*cb)(void *ud),
                                 void *ud)
{
    if (r->loop == NULL || tools_registry_settled(r)) {
        cb(ud);
        return;
    }
    struct waiter *w = xcalloc(1, sizeof *w);
    w->r = r;
    w->cb = cb;
    w->ud = ud;
    uv_timer_init(r->loop, &w->timer);
    w->timer.data = w;
    uv_timer_start(&w->timer, waiter_timeout, max_ms, 0);
    w->next = r->waiters;
    r->waiters = w;
}

void tools_registry_cancel_wait(struct tools_registry *r, void (*cb)(void *ud), void *ud)
{
    for (struct waiter *w = r->waiters; w; w = w->next) {
        if (w->cb == cb && w->ud == ud) {
            w->cb = NULL;
            w->fired = 1;
            struct waiter **pp = &r->waiters;
            while (*pp != w)
                pp = &(*pp)->next;
            *pp = w->next;
            uv_timer_stop(&w->timer);
            uv_close((uv_handle_t *) &w->timer, waiter_closed);
            return;
        }
    }
}

/* --- downstream events --------------------------------------------------------------------- */

static void on_state(void *ud, struct tools_downstream *d)
{
    struct slot *s = ud;
    struct tools_downstream_status st;
    tools_downstream_status(d, &st);
    log_info("tools", "server %s: %s%s%s", s->cfg->name, tools_downstream_state_name(st.state),
             st.reason ? ": " : "", st.reason ? st.reason : "");
    rebuild(s->r);
    check_waiters(s->r);
}

static void on_tools(void *ud, struct tools_downstream *d)
{
    struct slot *s = ud;
    (void) d;
    rebuild(s->r);
}

static const struct tools_downstream_events downstream_events = {on_state, on_tools};

/* --- creation ------------------------------------------------------------------------------- */

static void start_slot(struct tools_registry *r, struct slot *s)
{
    const struct tools_server_config *c = s->cfg;
    if (c->disabled)
        s->not_started = "it is disabled in the config";
    else if (c->launches_self)
        s->not_started = "its command launches mcp-codemode itself, so it was skipped";
    else if (r->loop == NULL)
        s->not_started = "not connected";
    if (s->not_started) {
        if (!c->disabled && r->loop)
            log_warn("tools", "server %s: %s", c->name, s->not_started);
        return;
    }
    struct tools_downstream_options o;
    memset(&o, 0, sizeof o);
    o.call_timeout_ms = r->o.call_timeout_ms;
    o.client_version = r->o.client_version;
    o.max_attempts = r->o.max_attempts;
    s->d = tools_downstream_new(r->loop, c, &o, &downstream_events, s);
    s->lim = tools_limiter_new(r->loop, c->max_concurrent_calls, c->calls_per_second);
}

struct tools_registry *tools_registry_new(uv_loop_t *loop, const struct tools_registry_options *o)
{
    struct tools_registry *r = xcalloc(1, sizeof *r);
    r->loop = loop;
    if (o)
        r->o = *o;
    r->nslots = r->o.nservers;
    r->slots = xcalloc(r->nslots ? r->nslots : 1, sizeof *r->slots);
    for (size_t i = 0; i < r->nslots; i++) {
        r->slots[i].r = r;
        r->slots[i].cfg = &r->o.servers[i];
        start_slot(r, &r->slots[i]);
    }
    r->freeing = 1; /* no change callback for the initial catalog */
    rebuild(r);
    r->freeing = 0;
    return r;
}

static void unlink_call(struct tools_call *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        c->r->calls = c->next;
    if (c->next)
        c->next->prev = c->prev;
}

static void free_call(struct tools_call *c)
{
    struct tools_limiter *lim = c->tool ? c->r->slots[c->tool->server_index].lim : NULL;
    if (c->wait)
        tools_limiter_cancel(lim, c->wait);
    if (c->holds && !c->r->freeing)
        tools_limiter_release(lim); /* may start a waiting call */
    tools_catalog_release(c->cat);
    cJSON_Delete(c->args);
    cJSON_Delete(c->audit);
    free(c);
}

void tools_registry_free(struct tools_registry *r)
{
    if (r == NULL)
        return;
    r->freeing = 1;
    while (r->calls) /* cancelled silently: their programs are gone */
        tools_call_cancel(r->calls);
    while (r->waiters)
        fire(r->waiters);
    for (size_t i = 0; i < r->nslots; i++)
        if (r->slots[i].d) /* NULL: never started (disabled, remote, launches us) */
            tools_downstream_free(r->slots[i].d);
    for (size_t i = 0; i < r->nslots; i++)
        tools_limiter_free(r->slots[i].lim);
    free(r->slots);
    tools_catalog_release(r->catalog);
    free(r->decls);
    free(r->worker_json);
    free(r);
}

/* --- host calls ------------------------------------------------------------------------------ */

static void reply_text(tools_reply_cb *cb, void *ud, int ok, struct buf *b)
{
    cb(ud, ok, b->data ? b->data : "null", b->len ? b->len : 4);
}

static void reply_error(tools_reply_cb *cb, void *ud, const char *name, const char *msg,
                        const char *tool)
{
    struct buf b;
    buf_init(&b, 0);
    tools_result_error(name, msg, tool, &b);
    reply_text(cb, ud, 0, &b);
    buf_free(&b);
}

static void audit_finish(struct tools_registry *r, cJSON *ev, const char *outcome, uint64_t t0,
                         size_t bytes)
{
    if (ev == NULL)
        return;
    cJSON_AddStringToObject(ev, "outcome", outcome);
    cJSON_AddNumberToObject(ev, "durationMs", (double) ((uv_hrtime() - t0) / 1000) / 1000.0);
    if (bytes)
        cJSON_AddNumberToObject(ev, "resultBytes", (double) bytes);
    tools_audit_write(r->o.audit, "tool_call", ev);
}

static const char *reply_outcome(const struct tools_downstream_reply *rep)
{
    if (rep->outcome == TOOLS_DOWNSTREAM_TIMEOUT)
        return "timeout";
    if (rep->outcome != TOOLS_DOWNSTREAM_RESULT)
        return "error";
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rep->result, "isError")) ? "error" : "ok";
}

static void downstream_replied(void *ud, const struct tools_downstream_reply *rep)
{
    struct tools_call *c = ud;
    struct buf b;
    buf_init(&b, 0);
    int ok;
    if (c->audit) {
        char *text = rep->result ? json_print(rep->result) : NULL;
        audit_finish(c->r, c->audit, reply_outcome(rep), c->t0, text ? strlen(text) : 0);
        free(text);
        c->audit = NULL;
    }
    if (rep->outcome == TOOLS_DOWNSTREAM_RESULT) {
        ok = tools_result_map(c->tool, rep->result, &b);
    } else {
        struct buf name;
        buf_init(&name, 0);
        buf_printf(&name, "%s.%s", c->tool->server, c->tool->name);
        tools_result_error("ToolError", rep->message ? rep->message : "the call failed", name.data,
                           &b);
        buf_free(&name);
        ok = 0;
    }
    reply_text(c->cb, c->ud, ok, &b);
    buf_free(&b);
    if (c->in_start) {
        c->answered = 1;
        return;
    }
    unlink_call(c);
    free_call(c);
}

static int validate(const struct tools_catalog_tool *t, const cJSON *args, tools_reply_cb *cb,
                    void *ud)
{
    if (t->input == NULL)
        return 0;
    struct tools_schema_result res;
    cJSON *empty = args ? NULL : cJSON_CreateObject();
    int valid = tools_schema_validate(t->input, args ? args : empty, &res);
    cJSON_Delete(empty);
    if (!valid) {
        struct buf b;
        buf_init(&b, 0);
        tools_result_argument_error(t, &res, &b);
        reply_text(cb, ud, 0, &b);
        buf_free(&b);
    }
    tools_schema_result_free(&res);
    return valid ? 0 : -1;
}

/* --- the gate: policy, grant, validation, dry run, approval ---------------------------------- */

static void qualified_name(const struct tools_catalog_tool *t, struct buf *q)
{
    buf_printf(q, "%s.%s", t->server, t->name);
}

/* Replies {"name","message","tool",key:value} (ToolPolicyError, ToolApprovalError). */
static void reply_refusal(tools_reply_cb *cb, void *ud, const char *name, const char *msg,
                          const char *tool, const char *key, const char *value)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(o, "message", msg);
    cJSON_AddStringToObject(o, "tool", tool);
    cJSON_AddStringToObject(o, key, value);
    char *text = json_print(o);
    cb(ud, 0, text, strlen(text));
    free(text);
    cJSON_Delete(o);
}

static cJSON *audit_start(struct tools_registry *r, struct tools_exec *x, const char *tool,
                          const cJSON *args)
{
    if (r->o.audit == NULL)
        return NULL;
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "executionId", x && x->execution_id ? x->execution_id : "");
    cJSON_AddStringToObject(ev, "tool", tool);
    tools_audit_add_arguments(r->o.audit, ev, args);
    return ev;
}

static void audit_refused(struct tools_registry *r, cJSON *ev, const char *decision, uint64_t t0)
{
    if (ev == NULL)
        return;
    cJSON_AddStringToObject(ev, "decision", decision);
    audit_finish(r, ev, "not_sent", t0, 0);
}

static int granted(const struct tools_exec *x, const struct tools_catalog_tool *t)
{
    if (x == NULL || x->grant == NULL)
        return 1;
    struct tools_policy_names n = tools_catalog_policy_names(t);
    return tools_policy_granted(x->grant, &n);
}

/* deny / not granted: 0 when the call may go on, else replied (-1). */
static int refuse(struct tools_registry *r, struct tools_exec *x,
                  const struct tools_catalog_tool *t, cJSON **ev, uint64_t t0, tools_reply_cb *cb,
                  void *ud)
{
    int denied = t->decision == TOOLS_POLICY_DENY;
    if (!denied && granted(x, t))
        return 0;
    struct buf q, m;
    buf_init(&q, 0);
    buf_init(&m, 0);
    qualified_name(t, &q);
    if (denied)
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
    reply_refusal(cb, ud, "ToolPolicyError", m.data, q.data, "decision",
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

static void approval_refused(struct tools_call *c, enum tools_approval_answer a, const char *detail)
{
    struct buf q, m;
    buf_init(&q, 0);
    buf_init(&m, 0);
    qualified_name(c->tool, &q);
    if (a == TOOLS_APPROVAL_UNAVAILABLE)
        buf_printf(&m,
                   "Tool \"%s\" needs approval, but this client cannot approve tool calls; the "
                   "call was not sent. The server's setting codemode.policy.noApprover (\"deny\") "
                   "decides this; retrying will not help.",
                   q.data);
    else
        buf_printf(&m, "Tool \"%s\" was not approved (%s%s%s); the call was not sent.", q.data,
                   approval_reasons[a], detail ? ": " : "", detail ? detail : "");
    reply_refusal(c->cb, c->ud, "ToolApprovalError", m.data, q.data, "reason", approval_reasons[a]);
    audit_refused(c->r, c->audit, "denied", c->t0);
    c->audit = NULL;
    buf_free(&q);
    buf_free(&m);
}

/* Sends the call downstream. Returns 0 while it is in flight, -1 when it
 * was answered already (c is then freed). */
static int send_now(struct tools_call *c, const cJSON *args)
{
    struct slot *s = &c->r->slots[c->tool->server_index];
    c->in_start = 1;
    c->dc = tools_downstream_call(s->d, c->tool->name, args, 0, downstream_replied, c);
    c->in_start = 0;
    if (c->answered || c->dc == NULL) {
        free_call(c);
        return -1;
    }
    return 0;
}

static void link_call(struct tools_call *c)
{
    c->next = c->r->calls;
    if (c->r->calls)
        c->r->calls->prev = c;
    c->r->calls = c;
}

/* The server's limiter gave c its slot: inside tools_limiter_acquire, or
 * later from the loop (c is then linked and queued). */
static void go_send(void *ud)
{
    struct tools_call *c = ud;
    c->holds = 1;
    if (c->go_out) { /* c may be freed by send_now: nothing of c is read after it */
        int *out = c->go_out;
        c->go_out = NULL;
        *out = send_now(c, c->go_args);
        return;
    }
    c->wait = NULL;
    unlink_call(c);
    if (send_now(c, c->args) == 0)
        link_call(c);
}

/* Sends the call, or queues it behind the server's limits (docs/policy.md).
 * Returns 0 while it is in flight or queued (the caller links c), -1 when it
 * was answered already (c is then freed). */
static int send_call(struct tools_call *c, const cJSON *args)
{
    struct tools_limiter *lim = c->r->slots[c->tool->server_index].lim;
    if (lim == NULL)
        return send_now(c, args);
    int sent = 0;
    c->go_args = args;
    c->go_out = &sent;
    struct tools_limiter_wait *w = tools_limiter_acquire(lim, go_send, c);
    if (w == NULL)
        return sent; /* sent (or answered and freed) inside the call */
    c->go_out = NULL;
    c->wait = w;
    if (c->args == NULL && args)
        c->args = cJSON_Duplicate(args, 1);
    return 0;
}

static int no_approver_allows(const struct tools_registry *r)
{
    return r->o.policy && r->o.policy->no_approver == TOOLS_POLICY_ALLOW;
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

static void approval_done(void *ud, enum tools_approval_answer a, const char *detail)
{
    struct tools_call *c = ud;
    int waiting = c->approval != NULL; /* asynchronous: c is linked */
    c->approval = NULL;
    if (a > TOOLS_APPROVAL_SESSION &&
        !(a == TOOLS_APPROVAL_UNAVAILABLE && no_approver_allows(c->r))) {
        approval_refused(c, a, detail);
        c->answered = 1;
    } else {
        if (a == TOOLS_APPROVAL_EXECUTION && c->x)
            remember_approval(c->x, c->tool);
        audit_approved(c, a);
        if (!waiting) /* still inside tools_exec_call: it sends */
            return;
        unlink_call(c);
        if (send_call(c, c->args) == 0)
            link_call(c);
        return;
    }
    if (waiting) {
        unlink_call(c);
        free_call(c);
    }
}

/* The ask step: 0 to send now, 1 waiting for a person (c linked), -1 refused (replied). */
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
        if (no_approver_allows(c->r)) {
            audit_approved(c, TOOLS_APPROVAL_UNAVAILABLE);
            return 0;
        }
        approval_refused(c, TOOLS_APPROVAL_UNAVAILABLE, NULL);
        return -1;
    }
    struct tools_approval_request q = {c->tool->server, c->tool->name, args, c->x->execution_id,
                                       p ? p->approval_timeout_ms : 600000};
    c->answered = 0;
    void *h = ap->ask(ap->self, &q, approval_done, c);
    if (h == NULL)
        return c->answered ? -1 : 0;
    c->approval = h;
    c->args = args ? cJSON_Duplicate(args, 1) : NULL;
    link_call(c);
    return 1;
}

static struct tools_call *call_tool(struct tools_registry *r, struct tools_exec *x,
                                    const char *name, const cJSON *args, tools_reply_cb *cb,
                                    void *ud)
{
    uint64_t t0 = r->o.audit ? uv_hrtime() : 0;
    char *why = NULL;
    const struct tools_catalog_tool *t = tools_catalog_resolve(r->catalog, name, &why);
    if (t == NULL) {
        reply_error(cb, ud, "Error", why, NULL);
        free(why);
        audit_refused(r, audit_start(r, x, name, args), "invalid", t0);
        return NULL;
    }
    cJSON *ev = NULL;
    if (r->o.audit) {
        struct buf q;
        buf_init(&q, 0);
        qualified_name(t, &q);
        ev = audit_start(r, x, q.data, args);
        buf_free(&q);
    }
    if (refuse(r, x, t, &ev, t0, cb, ud) != 0)
        return NULL;
    if (validate(t, args, cb, ud) != 0) {
        audit_refused(r, ev, "invalid", t0);
        return NULL;
    }
    if (x && x->dry_run && !(t->decision == TOOLS_POLICY_ALLOW && t->read_only)) {
        plan(x, t, args, cb, ud);
        audit_refused(r, ev, "dry_run", t0);
        return NULL;
    }
    struct tools_call *c = xcalloc(1, sizeof *c);
    c->r = r;
    c->x = x;
    c->cat = tools_catalog_retain(r->catalog);
    c->tool = t;
    c->cb = cb;
    c->ud = ud;
    c->audit = ev;
    c->t0 = t0;
    if (t->decision == TOOLS_POLICY_ASK) {
        int a = ask(c, args);
        if (a != 0) {
            if (a < 0)
                free_call(c);
            return a > 0 ? c : NULL;
        }
    } else if (ev) {
        cJSON_AddStringToObject(ev, "decision", "allow");
    }
    if (send_call(c, args) != 0)
        return NULL;
    link_call(c);
    return c;
}

static void describe(struct tools_registry *r, struct tools_exec *x, const char *name,
                     tools_reply_cb *cb, void *ud)
{
    char *why = NULL;
    const struct tools_catalog_tool *t = tools_catalog_resolve(r->catalog, name, &why);
    if (t == NULL) {
        reply_error(cb, ud, "Error", why, NULL);
        free(why);
        return;
    }
    if (refuse(r, x, t, &(cJSON *){NULL}, 0, cb, ud) != 0)
        return;
    char *text = tools_catalog_describe(r->catalog, t);
    struct buf b;
    buf_init(&b, 0);
    buf_append_json_string(&b, text ? text : "", text ? strlen(text) : 0);
    reply_text(cb, ud, 1, &b);
    buf_free(&b);
    free(text);
}

static struct tools_call *host_call(struct tools_registry *r, struct tools_exec *x, const char *op,
                                    const char *name, const cJSON *args, tools_reply_cb *cb,
                                    void *ud)
{
    if (strcmp(op, "tool") == 0)
        return call_tool(r, x, name, args, cb, ud);
    if (strcmp(op, "describe") == 0) {
        describe(r, x, name, cb, ud);
        return NULL;
    }
    char *json = tools_catalog_search(r->catalog, name, SEARCH_LIMIT, x ? x->grant : NULL);
    cb(ud, 1, json, strlen(json));
    free(json);
    return NULL;
}

struct tools_call *tools_registry_call(struct tools_registry *r, const char *op, const char *name,
                                       const cJSON *args, tools_reply_cb *cb, void *ud)
{
    return host_call(r, NULL, op, name, args, cb, ud);
}

void tools_call_cancel(struct tools_call *c)
{
    if (c->approval) {
        const struct tools_approver *ap = c->x->approver;
        ap->cancel(ap->self, c->approval);
        c->approval = NULL;
        audit_refused(c->r, c->audit, "denied", c->t0); /* never approved */
        c->audit = NULL;
    } else {
        if (c->dc) /* NULL: still queued behind the server's limits */
            tools_downstream_call_cancel(c->dc, "the program that made the call has ended");
        audit_finish(c->r, c->audit, "cancelled", c->t0, 0);
        c->audit = NULL;
    }
    unlink_call(c);
    free_call(c);
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
    for (size_t i = 0; i < x->napproved; i++)
        free(x->approved[i]);
    free(x->approved);
    free(x->execution_id);
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
    return tools_catalog_worker_json(x->r->catalog, x->grant);
}

const cJSON *tools_exec_planned(const struct tools_exec *x)
{
    return x->planned;
}

const char *tools_exec_pattern_problem(const char *pattern)
{
    return tools_policy_pattern_problem(pattern, 0);
}

/* --- texts ------------------------------------------------------------------------------------ */

char *tools_registry_catalog(struct tools_registry *r)
{
    return xstrdup(r->worker_json);
}

char *tools_registry_declarations(struct tools_registry *r)
{
    return xstrdup(r->decls);
}

char *tools_registry_declarations_full(struct tools_registry *r)
{
    return tools_catalog_declarations_full(r->catalog);
}

size_t tools_registry_servers(struct tools_registry *r, char ***ids, char ***names)
{
    size_t n = 0, total = tools_catalog_server_count(r->catalog);
    *ids = xcalloc(total ? total : 1, sizeof **ids);
    *names = xcalloc(total ? total : 1, sizeof **names);
    for (size_t i = 0; i < total; i++) {
        const char *id = tools_catalog_server_id(r->catalog, i);
        char *d = tools_catalog_declarations_server(r->catalog, id);
        if (d == NULL)
            continue; /* no callable tools now */
        free(d);
        (*ids)[n] = xstrdup(id);
        (*names)[n] = xstrdup(tools_catalog_server_name(r->catalog, i));
        n++;
    }
    return n;
}

void tools_registry_free_names(char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

char *tools_registry_declarations_server(struct tools_registry *r, const char *server_id)
{
    return tools_catalog_declarations_server(r->catalog, server_id);
}

int tools_registry_all_ready(const struct tools_registry *r)
{
    for (size_t i = 0; i < r->nslots; i++) {
        const struct slot *s = &r->slots[i];
        if (s->cfg->disabled || s->cfg->launches_self)
            continue; /* skipped on purpose, not broken */
        struct tools_downstream_status st;
        if (s->d == NULL)
            return 0;
        tools_downstream_status(s->d, &st);
        if (st.state != TOOLS_DOWNSTREAM_READY)
            return 0;
    }
    return 1;
}

char *tools_registry_report(struct tools_registry *r)
{
    struct buf b;
    buf_init(&b, 0);
    for (size_t i = 0; i < r->nslots; i++) {
        const struct slot *s = &r->slots[i];
        if (s->d == NULL) {
            buf_printf(&b, "%s: not started: %s\n", s->cfg->name, s->not_started);
            continue;
        }
        struct tools_downstream_status st;
        tools_downstream_status(s->d, &st);
        buf_printf(&b, "%s: %s", s->cfg->name, tools_downstream_state_name(st.state));
        if (st.protocol_version)
            buf_printf(&b, ", protocol %s over %s", st.protocol_version, st.transport);
        if (st.server_name)
            buf_printf(&b, ", %s %s", st.server_name, st.server_version ? st.server_version : "");
        buf_printf(&b, ", %zu tools", st.tools);
        if (st.state != TOOLS_DOWNSTREAM_READY && st.reason)
            buf_printf(&b, " (%s)", st.reason);
        buf_append_char(&b, '\n');
        for (size_t k = 0; k < tools_catalog_count(r->catalog); k++) {
            const struct tools_catalog_tool *t = tools_catalog_at(r->catalog, k);
            if (t->server_index != i)
                continue;
            buf_printf(&b, "  tools.%s.%s", t->server_id, t->id);
            if (strcmp(t->id, t->name) != 0)
                buf_printf(&b, "  (\"%s\")", t->name);
            buf_printf(&b, "  %s (%s)\n", tools_policy_decision_name(t->decision),
                       t->decision_source ? t->decision_source : "");
        }
    }
    return buf_steal(&b);
}
