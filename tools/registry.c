/* The tools registry: one downstream connection per configured server, the
 * current catalog snapshot (rebuilt on every tool-list or state change,
 * reference-counted so calls in flight keep theirs), sending calls behind
 * each server's limits and mapping their results, and waiters for the
 * first settling. The decision for each call is in gate.c. */
#include "tools/registry.h"
#include "tools/oauth/tokens.h"
#include "tools/registry_internal.h"
#include "tools/catalog.h"
#include "tools/declarations/resources.h"
#include "tools/downstream/downstream.h"
#include "tools/limiter.h"
#include "tools/policy/audit.h"
#include "tools/policy/policy.h"
#include "tools/result_map.h"
#include "tools/result_types.h"
#include "tools/server_config.h"
#include "tools/state/service.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/colocate.h"
#include "common/json.h"
#include "common/log.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct waiter {
    struct tools_registry *r;
    uv_timer_t timer;
    void (*cb)(void *);
    void *ud;
    int fired;
    struct waiter *next;
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

/* One log line on what the description's declarations cost: a warning when
 * tools were reduced to fit the budget (the model sees less of them). */
static void log_declarations(const struct tools_catalog *c)
{
    struct buf b, line;
    buf_init(&b, 0);
    buf_init(&line, 0);
    tools_catalog_declarations_report(c, &b, 1);
    int reduced = strstr(b.data, " reduced:") != NULL;
    for (size_t i = 0; i < b.len; i++) {
        if (b.data[i] != '\n')
            buf_append_char(&line, b.data[i]);
        else if (i + 1 < b.len)
            buf_append_char(&line, ';');
    }
    if (reduced)
        log_warn("tools", "%s (codemode.declarations.budget; mcp-codemode check lists them all)",
                 line.data);
    else
        log_info("tools", "%s", line.data);
    buf_free(&line);
    buf_free(&b);
}

/* 1 when the server's tools are not known until an OAuth login that a call
 * can start: it has no token and no tool list (kept ones included), or a
 * login stored its tokens and its first connection is under way. */
static int login_only(struct slot *s, const cJSON *tools)
{
    const struct tools_oauth_config *o = s->cfg->oauth;
    if (s->d == NULL || o == NULL || o->client_credentials || cJSON_GetArraySize(tools) > 0)
        return s->login_only = 0;
    if (tools_downstream_needs_login(s->d))
        return s->login_only = 1;
    struct tools_downstream_status st;
    tools_downstream_status(s->d, &st);
    if (st.state != TOOLS_DOWNSTREAM_CONNECTING)
        s->login_only = 0;
    return s->login_only;
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
        in[i].preferred = r->o.declarations_preferred;
        in[i].learned = r->types;
        in[i].login_only = login_only(s, in[i].tools);
    }
    struct tools_catalog *c = tools_catalog_build(in, r->nslots, r->o.declarations_budget);
    free(in);
    tools_catalog_release(r->catalog);
    r->catalog = c;
    char *decls = tools_catalog_declarations(c);
    char *worker = tools_catalog_worker_json(c, NULL, 1);
    /* what programs can call changed (a server's problem text alone is no change) */
    char *callable = tools_catalog_worker_json(c, NULL, 0);
    int changed = !r->decls || strcmp(decls, r->decls) || strcmp(callable, r->callable_json);
    free(r->callable_json);
    r->callable_json = callable;
    if (!r->decls || strcmp(decls, r->decls))
        log_declarations(c);
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
    if (r->loop == NULL) { /* a registry without a loop (tests of texts) has no servers */
        cb(ud);
        return;
    }
    struct waiter *w = xcalloc(1, sizeof *w);
    w->r = r;
    w->cb = cb;
    w->ud = ud;
    uv_timer_init(r->loop, &w->timer);
    w->timer.data = w;
    /* settled already: on the next turn, never inside this call */
    uv_timer_start(&w->timer, waiter_timeout, tools_registry_settled(r) ? 0 : max_ms, 0);
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
    tools__login_first_listed(s->r, (size_t) (s - s->r->slots));
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

/* A learned result type changed (written already): new declarations. */
static void types_changed(void *ud)
{
    rebuild(ud);
}

struct tools_registry *tools_registry_new(uv_loop_t *loop, const struct tools_registry_options *o)
{
    struct tools_registry *r = xcalloc(1, sizeof *r);
    r->loop = loop;
    if (o)
        r->o = *o;
    if (loop) { /* without a loop (tests of texts) nothing is called */
        r->later = xcalloc(1, sizeof *r->later);
        next_turn_init(loop, r->later);
    }
    if (r->o.learn_result_types) {
        struct tools_result_types_options to = {
            .loop = loop,
            .store = r->o.state ? tools_state_service_store(r->o.state) : NULL,
            .changed = types_changed,
            .changed_ud = r,
        };
        r->types = tools_result_types_new(&to);
    }
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

void tools__call_unlink(struct tools_call *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        c->r->calls = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
}

/* The limiter of the server c goes to (NULL: none, or c goes to no server). */
static struct tools_limiter *call_limiter(const struct tools_call *c)
{
    if (c->res)
        return c->r->slots[tools__res_server(c->res)].lim;
    return c->tool ? c->r->slots[c->tool->server_index].lim : NULL;
}

void tools__call_free(struct tools_call *c)
{
    struct tools_limiter *lim = call_limiter(c);
    if (c->wait)
        tools_limiter_cancel(lim, c->wait);
    if (c->holds && !c->r->freeing)
        tools_limiter_release(lim); /* may start a waiting call */
    tools_catalog_release(c->cat);
    tools__res_free(c->res);
    free(c->args_json);
    cJSON_Delete(c->builtin);
    cJSON_Delete(c->audit);
    free(c->later_json);
    free(c->first_name);
    free(c);
}

static void later_closed(uv_handle_t *h)
{
    free(h->data); /* the queue: next_turn_init made it the handle's data */
}

void tools_registry_free(struct tools_registry *r)
{
    if (r == NULL)
        return;
    r->freeing = 1;
    while (r->calls) /* cancelled silently: their programs are gone */
        tools_call_cancel(r->calls);
    if (r->later) {
        struct next_turn_item *it;
        while ((it = next_turn_first(r->later)) != NULL) /* answers not delivered: dropped */
            tools_call_cancel((struct tools_call *) ((char *) it - offsetof(struct tools_call, later)));
        next_turn_close(r->later, later_closed);
    }
    while (r->waiters)
        fire(r->waiters);
    if (r->loop)
        tools__login_free_all(r);
    for (size_t i = 0; i < r->nslots; i++)
        if (r->slots[i].d) /* NULL: never started (disabled, remote, launches us) */
            tools_downstream_free(r->slots[i].d);
    for (size_t i = 0; i < r->nslots; i++)
        tools_limiter_free(r->slots[i].lim);
    free(r->slots);
    tools_catalog_release(r->catalog);
    tools_result_types_free(r->types); /* writes what it learned last */
    free(r->decls);
    free(r->worker_json);
    free(r->callable_json);
    free(r->oauth_redirect_uri);
    free(r);
}

/* --- host calls ------------------------------------------------------------------------------ */

static const char *reply_outcome(const struct tools_downstream_reply *rep)
{
    if (rep->outcome == TOOLS_DOWNSTREAM_TIMEOUT)
        return "timeout";
    if (rep->outcome != TOOLS_DOWNSTREAM_RESULT)
        return "error";
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rep->result, "isError")) ? "error" : "ok";
}

/* What a program received from a tool without outputSchema: its type learns. */
static void result_seen(void *ud, const cJSON *value)
{
    struct tools_call *c = ud;
    tools_result_types_observe(c->r->types, c->tool->server, c->tool->name, c->tool->schema_hash,
                               value);
}

static void downstream_replied(void *ud, const struct tools_downstream_reply *rep)
{
    struct tools_call *c = ud;
    c->dc = NULL; /* answered: the handle is gone */
    if (rep->outcome == TOOLS_DOWNSTREAM_AUTH && tools__login_join(c))
        return; /* sent again after the login, or failed then */
    struct buf b;
    buf_init(&b, 0);
    int ok;
    if (c->audit) {
        char *text = rep->result ? json_print(rep->result) : NULL;
        tools_audit_call_end(c->r->o.audit, c->audit, reply_outcome(rep), c->t0, text ? strlen(text) : 0);
        free(text);
        c->audit = NULL;
    }
    if (rep->outcome == TOOLS_DOWNSTREAM_RESULT) {
        if (c->x)
            tools__exec_note_links(c->x, c->tool->server_index, rep->result);
        ok = c->tool->schema_hash && c->r->types
                 ? tools_result_map_seen(c->tool, rep->result, &b, result_seen, c)
                 : tools_result_map(c->tool, rep->result, &b);
    } else {
        struct buf name;
        buf_init(&name, 0);
        buf_printf(&name, "%s.%s", c->tool->server, c->tool->name);
        tools_result_error(rep->outcome == TOOLS_DOWNSTREAM_AUTH ? "ToolAuthError" : "ToolError",
                           rep->message ? rep->message : "the call failed", name.data, &b);
        buf_free(&name);
        ok = 0;
    }
    tools__reply_text(c->cb, c->ud, ok, &b);
    buf_free(&b);
    tools__call_unlink(c);
    tools__call_free(c);
}

/* --- sending (behind the server's limits) ---------------------------------------------------- */

/* The tool_call_sent line, written before the call can leave the host: a
 * host that dies while the call is out leaves this trace of it. The call's
 * tool_call line gets the same callId. */
static void audit_sent(struct tools_call *c)
{
    if (c->audit == NULL)
        return;
    char id[17];
    tools_audit_new_call_id(id);
    cJSON_AddStringToObject(c->audit, "callId", id);
    tools_audit_write(c->r->o.audit, "tool_call_sent", cJSON_Duplicate(c->audit, 1));
}

static void send_now(struct tools_call *c, const cJSON *args)
{
    struct slot *s = &c->r->slots[c->res ? tools__res_server(c->res) : c->tool->server_index];
    audit_sent(c);
    if (c->res) { /* resources.* / prompts.*: its own request */
        colocate_server(tools_downstream_pid(s->d));
        tools__res_send(c);
        return;
    }
    colocate_server(tools_downstream_pid(s->d)); /* when the program waits on this call alone */
    if (s->cfg->oauth && c->x && c->x->login && c->args_json == NULL && args)
        c->args_json = json_print(args); /* sent again if it waits for a login */
    c->dc = tools_downstream_call(s->d, c->tool->name, args, 0, downstream_replied, c);
}

void tools__call_resend(struct tools_call *c)
{
    struct slot *s = &c->r->slots[c->tool->server_index];
    cJSON *args = tools__call_args(c);
    c->dc = tools_downstream_call(s->d, c->tool->name, args, 0, downstream_replied, c);
    cJSON_Delete(args);
}

void tools__call_auth_failed(struct tools_call *c, const char *message)
{
    struct tools_downstream_reply rep = {.outcome = TOOLS_DOWNSTREAM_AUTH, .message = message};
    downstream_replied(c, &rep); /* c->login_tried: no second login */
}

void tools__call_link(struct tools_call *c)
{
    c->prev = NULL;
    c->next = c->r->calls;
    if (c->r->calls)
        c->r->calls->prev = c;
    c->r->calls = c;
}

/* The server's limiter gave c its slot: inside tools_limiter_acquire (with
 * the caller's arguments), or later from the loop (with c's copy). */
static void go_send(void *ud)
{
    struct tools_call *c = ud;
    c->holds = 1;
    c->wait = NULL;
    if (c->go_args) {
        send_now(c, c->go_args);
        return;
    }
    cJSON *args = tools__call_args(c);
    send_now(c, args); /* the downstream call keeps its own copy */
    cJSON_Delete(args);
}

void tools__call_send(struct tools_call *c, const cJSON *args)
{
    struct tools_limiter *lim = call_limiter(c);
    tools__call_link(c);
    if (lim == NULL) {
        send_now(c, args);
        return;
    }
    c->go_args = args;
    struct tools_limiter_wait *w = tools_limiter_acquire(lim, go_send, c);
    c->go_args = NULL;
    if (w == NULL)
        return; /* sent inside tools_limiter_acquire */
    c->wait = w;
    if (c->args_json == NULL && args)
        c->args_json = json_print(args);
}

struct next_turn *tools__later(struct tools_registry *r)
{
    return r->later;
}

/* --- texts ------------------------------------------------------------------------------------ */

size_t tools_registry_offering(const struct tools_registry *r, const char *capability,
                               const char **names, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nslots; i++) {
        const struct slot *s = &r->slots[i];
        if (s->d == NULL || !tools_downstream_offers(s->d, capability))
            continue;
        if (n < max)
            names[n] = s->cfg->name;
        n++;
    }
    return n;
}

struct tools_downstream *tools__registry_server(const struct tools_registry *r, size_t i)
{
    return i < r->nslots ? r->slots[i].d : NULL;
}

char *tools_registry_catalog(struct tools_registry *r)
{
    return xstrdup(r->worker_json);
}

#define MAX_OFFERING 64 /* servers named in the declarations of resources and prompts */

/* The declarations of resources.* and prompts.*, for the servers that offer them. */
static void resources_declarations(const struct tools_registry *r, struct buf *b)
{
    const char *res[MAX_OFFERING], *prompts[MAX_OFFERING];
    size_t nres = tools_registry_offering(r, "resources", res, MAX_OFFERING);
    size_t nprompts = tools_registry_offering(r, "prompts", prompts, MAX_OFFERING);
    tools_declarations_resources(res, nres < MAX_OFFERING ? nres : MAX_OFFERING, prompts,
                                 nprompts < MAX_OFFERING ? nprompts : MAX_OFFERING, b);
}

/* text (consumed) followed by the declarations of state and the skills
 * principal sees, and of the downstream resources and prompts. */
static char *with_builtins(struct tools_registry *r, const char *principal, char *text)
{
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, text);
    free(text);
    if (r->o.state)
        tools_state_service_declarations(r->o.state, principal, &b);
    resources_declarations(r, &b);
    return buf_steal(&b);
}

char *tools_registry_declarations(struct tools_registry *r, const char *principal)
{
    return with_builtins(r, principal, xstrdup(r->decls));
}

char *tools_registry_declarations_full(struct tools_registry *r, const char *principal)
{
    return with_builtins(r, principal, tools_catalog_declarations_full(r->catalog));
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

/* The tools a client without elicitation cannot call (ask, with
 * noApprover deny), each with the rule that lets it through. */
static void report_no_approver(const struct tools_registry *r, struct buf *b)
{
    if (r->o.policy && r->o.policy->no_approver == TOOLS_POLICY_ALLOW)
        return;
    size_t n = 0;
    for (size_t k = 0; k < tools_catalog_count(r->catalog); k++) {
        const struct tools_catalog_tool *t = tools_catalog_at(r->catalog, k);
        if (t->decision != TOOLS_POLICY_ASK)
            continue;
        if (n++ == 0)
            buf_printf(b, "\nRefused in clients that cannot approve (no elicitation: "
                          "ToolApprovalError), as codemode.policy.noApprover is \"deny\":\n");
        buf_printf(b, "  %s.%s: %s\n", t->server, t->name,
                   t->allow_advice ? t->allow_advice : "add an \"allow\" rule");
    }
    if (n > 0)
        buf_printf(b, "  or, for all of them: \"noApprover\": \"allow\" in codemode.policy "
                      "(docs/policy.md)\n");
}

/* The rules that require a scope, and what they decide for the caller. */
static void report_scopes(const struct tools_registry *r, int scoped, char *const *scopes,
                          struct buf *b)
{
    const struct tools_policy *p = r->o.policy;
    size_t n = 0;
    for (size_t i = 0; p && i < p->nrules; i++) {
        const struct tools_policy_rule *rule = &p->rules[i];
        if (rule->scope == NULL)
            continue;
        if (n++ == 0)
            buf_printf(b, "\nRules that require an OAuth scope (without it: deny)%s:\n",
                       scoped ? ", for this token" : "");
        int has = tools_policy_has_scope(scopes, rule->scope);
        buf_printf(b, "  \"%s\": %s with scope %s", rule->pattern,
                   tools_policy_decision_name(rule->decision), rule->scope);
        if (scoped)
            buf_printf(b, ": %s",
                       has ? tools_policy_decision_name(rule->decision)
                           : "deny (the token lacks the scope)");
        buf_append_char(b, '\n');
    }
}

static char *report(struct tools_registry *r, int scoped, char *const *scopes)
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
        if (s->cfg->oauth && s->cfg->transport != TOOLS_TRANSPORT_STDIO) {
            char *login = tools_oauth_login_state(s->cfg->name, s->cfg->url, s->cfg->oauth);
            buf_printf(&b, "  login: %s\n", login);
            free(login);
        }
        for (size_t k = 0; k < tools_catalog_count(r->catalog); k++) {
            const struct tools_catalog_tool *t = tools_catalog_at(r->catalog, k);
            if (t->server_index != i)
                continue;
            buf_printf(&b, "  tools.%s.%s", t->server_id, t->id);
            if (strcmp(t->id, t->name) != 0)
                buf_printf(&b, "  (\"%s\")", t->name);
            enum tools_policy_decision d = t->decision;
            int lacks = t->required_scope && !tools_policy_has_scope(scopes, t->required_scope);
            if (scoped && lacks)
                d = TOOLS_POLICY_DENY;
            buf_printf(&b, "  %s (%s", tools_policy_decision_name(d),
                       t->decision_source ? t->decision_source : "");
            if (t->required_scope)
                buf_printf(&b, ", needs scope %s%s", t->required_scope,
                           scoped ? (lacks ? ": the token lacks it" : ": the token has it") : "");
            buf_printf(&b, ")\n");
        }
    }
    report_scopes(r, scoped, scopes, &b);
    report_no_approver(r, &b);
    tools_catalog_declarations_report(r->catalog, &b, 0);
    return buf_steal(&b);
}

char *tools_registry_report(struct tools_registry *r)
{
    return report(r, 0, NULL);
}

char *tools_registry_report_scoped(struct tools_registry *r, char *const *scopes)
{
    return report(r, 1, scopes);
}
