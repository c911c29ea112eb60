/* Tool calls to one downstream server: queued while it connects, failed
 * fast while it is down, multiplexed over its JSON-RPC client, timed out by
 * one timer (the clock covers the wait, the call and any task), cancelled
 * with notifications/cancelled (tasks/cancel for tasks), and checked: a
 * 2026 input_required answer is retried with its requestState when it asks
 * for nothing we would have to supply. */
#include "tools/downstream/internal.h"
#include "transport/rpc_client.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT_RETRIES 3

struct tools_downstream_call {
    struct ds_link link;           /* first member */
    struct next_turn_item refused; /* failed at once: answered on the next turn */
    enum tools_downstream_outcome refused_outcome;
    char *refused_message; /* and, for an RPC error, the same as its rpc_message */
    struct tools_downstream *d;
    char *tool;   /* the tool, or for another request its method (in messages) */
    char *method; /* NULL: tools/call; else a request of its own (tools_downstream_request) */
    cJSON *args;  /* tools/call: the arguments; another request: its params */
    uint64_t start, timeout_ms, deadline;
    tools_downstream_reply_cb *cb;
    void *ud;
    struct rpc_client_request *req; /* in flight, or NULL */
    int sent, task;
    char *task_id, *request_state;
    unsigned retries;
};

static void send_call(struct tools_downstream_call *c);
/* 1 when why ends with "; run: mcp-codemode login NAME" for this server. */
static int login_fixes(const struct tools_downstream *d, const char *why)
{
    static const char tail[] = "; run: mcp-codemode login ";
    size_t n = why ? strlen(why) : 0, k = strlen(d->name);
    return d->oauth && n > k + sizeof tail - 1 && strcmp(why + n - k, d->name) == 0 &&
           strncmp(why + n - k - (sizeof tail - 1), tail, sizeof tail - 1) == 0;
}

static void call_reply(void *ud, const struct rpc_client_reply *r);

/* --- list and timer --------------------------------------------------------------------------- */

static void link_init(struct ds_link *l)
{
    l->prev = l->next = l;
}

static void link_push(struct ds_link *head, struct ds_link *l)
{
    l->prev = head->prev;
    l->next = head;
    head->prev->next = l;
    head->prev = l;
}

static void link_unlink(struct ds_link *l)
{
    l->prev->next = l->next;
    l->next->prev = l->prev;
    link_init(l);
}

static void call_timer_fired(uv_timer_t *t);

static void arm(struct tools_downstream *d)
{
    uint64_t min = 0;
    for (struct ds_link *l = d->calls.next; l != &d->calls; l = l->next) {
        struct tools_downstream_call *c = (struct tools_downstream_call *) l;
        if (min == 0 || c->deadline < min)
            min = c->deadline;
    }
    if (min == 0) {
        uv_timer_stop(&d->call_timer);
        return;
    }
    uint64_t now = uv_now(d->loop);
    uv_timer_start(&d->call_timer, call_timer_fired, min > now ? min - now : 0, 0);
}

void tools__downstream_calls_init(struct tools_downstream *d)
{
    link_init(&d->calls);
    uv_timer_init(d->loop, &d->call_timer);
    d->call_timer.data = d;
    next_turn_init(d->loop, &d->refusals);
}

static void answer_refused(struct next_turn_item *it);

void tools__downstream_calls_close(struct tools_downstream *d, uv_close_cb closed_cb)
{
    struct next_turn_item *it;
    while ((it = next_turn_first(&d->refusals)) != NULL) {
        next_turn_cancel(&d->refusals, it);
        answer_refused(it);
    }
    d->refusals.idle.data = d; /* closed_cb finds the downstream there, as for its timers */
    next_turn_close(&d->refusals, closed_cb);
    uv_close((uv_handle_t *) &d->call_timer, closed_cb);
}

static void call_free(struct tools_downstream_call *c)
{
    link_unlink(&c->link);
    next_turn_cancel(&c->d->refusals, &c->refused);
    c->d->ncalls--;
    free(c->refused_message);
    free(c->tool);
    free(c->method);
    cJSON_Delete(c->args);
    free(c->task_id);
    free(c->request_state);
    free(c);
}

/* Answers the call and frees it. */
static void finish(struct tools_downstream_call *c, struct tools_downstream_reply *r)
{
    r->elapsed_ms = uv_now(c->d->loop) - c->start;
    tools_downstream_reply_cb *cb = c->cb;
    void *ud = c->ud;
    call_free(c);
    cb(ud, r);
}

static void fail(struct tools_downstream_call *c, enum tools_downstream_outcome o, const char *fmt,
                 ...) __attribute__((format(printf, 3, 4)));

static void fail(struct tools_downstream_call *c, enum tools_downstream_outcome o, const char *fmt,
                 ...)
{
    struct buf b;
    buf_init(&b, 0);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    struct tools_downstream_reply r = {.outcome = o, .message = b.data};
    finish(c, &r);
    buf_free(&b);
}

/* --- cancelling ------------------------------------------------------------------------------- */

static void ignore_reply(void *ud, const struct rpc_client_reply *r)
{
    (void) ud;
    (void) r;
}

/* Tells the server to stop: notifications/cancelled for the request in
 * flight, or tasks/cancel for a task it has created. */
static void cancel_remote(struct tools_downstream_call *c, const char *reason)
{
    struct tools_downstream *d = c->d;
    if (c->req == NULL)
        return;
    if (c->task_id && d->tasks_cancel && d->rpc) {
        rpc_client_abandon(c->req);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "taskId", c->task_id);
        rpc_client_call(d->rpc, "tasks/cancel", p, d->opt.request_timeout_ms, RPC_CLIENT_NO_CANCEL,
                        ignore_reply, NULL);
    } else {
        rpc_client_cancel(c->req, reason);
    }
    c->req = NULL;
}

static struct tools_downstream_call *first_expired(struct tools_downstream *d, uint64_t now)
{
    for (struct ds_link *l = d->calls.next; l != &d->calls; l = l->next)
        if (((struct tools_downstream_call *) l)->deadline <= now)
            return (struct tools_downstream_call *) l;
    return NULL;
}

static void expire(struct tools_downstream_call *c)
{
    char reason[64];
    snprintf(reason, sizeof reason, "timed out after %llu ms", (unsigned long long) c->timeout_ms);
    cancel_remote(c, reason);
    const char *when = c->sent ? "" : " (it was still connecting)";
    fail(c, TOOLS_DOWNSTREAM_TIMEOUT,
         "%s did not return a result for '%s' within %llu ms%s; the call was cancelled",
         c->d->label, c->tool, (unsigned long long) c->timeout_ms, when);
}

static void call_timer_fired(uv_timer_t *t)
{
    struct tools_downstream *d = t->data;
    uint64_t now = uv_now(d->loop);
    struct tools_downstream_call *c;
    while (!d->closing && (c = first_expired(d, now)) != NULL)
        expire(c);
    if (!d->closing)
        arm(d);
}

void tools_downstream_call_cancel(struct tools_downstream_call *c, const char *reason)
{
    cancel_remote(c, reason ? reason : "cancelled by the caller");
    call_free(c);
}

/* --- replies ---------------------------------------------------------------------------------- */

static void start_task_result(struct tools_downstream_call *c, const char *task_id)
{
    c->task_id = xstrdup(task_id);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "taskId", task_id);
    c->req = rpc_client_call(c->d->rpc, "tasks/result", p, 0, 0, call_reply, c);
}

/* A 2026 result that is not "complete": retried when it only carries a
 * requestState (load shedding), failed otherwise. */
static void input_required(struct tools_downstream_call *c, const cJSON *res, const char *type)
{
    const char *label = c->d->label;
    const cJSON *state = cJSON_GetObjectItemCaseSensitive(res, "requestState");
    const cJSON *asks = cJSON_GetObjectItemCaseSensitive(res, "inputRequests");
    if (strcmp(type, "input_required") != 0) {
        fail(c, TOOLS_DOWNSTREAM_BAD_RESULT,
             "%s answered '%s' with an unknown resultType \"%.40s\"", label, c->tool, type);
    } else if (cJSON_GetArraySize(asks) > 0 || !cJSON_IsString(state)) {
        fail(c, TOOLS_DOWNSTREAM_BAD_RESULT,
             "%s asked for input (elicitation, sampling or roots) during '%s', which "
             "mcp-codemode cannot provide",
             label, c->tool);
    } else if (c->retries >= MAX_INPUT_RETRIES) {
        fail(c, TOOLS_DOWNSTREAM_BAD_RESULT,
             "%s kept answering '%s' with input_required (%u retries)", label, c->tool, c->retries);
    } else {
        c->retries++;
        free(c->request_state);
        c->request_state = xstrdup(state->valuestring);
        send_call(c);
    }
}

static void got_result(struct tools_downstream_call *c, const cJSON *res)
{
    const cJSON *task = cJSON_GetObjectItemCaseSensitive(res, "task");
    const char *task_id =
        cJSON_IsObject(task)
            ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(task, "taskId"))
            : NULL;
    const cJSON *rt = cJSON_GetObjectItemCaseSensitive(res, "resultType");
    if (!cJSON_IsObject(res)) {
        fail(c, TOOLS_DOWNSTREAM_BAD_RESULT, "%s answered '%s' with a result that is not an object",
             c->d->label, c->tool);
    } else if (c->task && !c->task_id && task_id) {
        start_task_result(c, task_id);
    } else if (cJSON_IsString(rt) && strcmp(rt->valuestring, "complete") != 0) {
        input_required(c, res, rt->valuestring);
    } else {
        struct tools_downstream_reply r = {.outcome = TOOLS_DOWNSTREAM_RESULT, .result = res};
        finish(c, &r);
    }
}

static void call_reply(void *ud, const struct rpc_client_reply *r)
{
    struct tools_downstream_call *c = ud;
    const char *label = c->d->label;
    c->req = NULL;
    switch (r->status) {
    case RPC_CLIENT_OK:
        got_result(c, r->result);
        return;
    case RPC_CLIENT_ERROR: {
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "%s: '%s' failed: %s (JSON-RPC error %d)", label, c->tool, r->message,
                   r->code);
        struct tools_downstream_reply rep = {.outcome = TOOLS_DOWNSTREAM_RPC_ERROR,
                                             .message = b.data,
                                             .code = r->code,
                                             .rpc_message = r->message,
                                             .data = r->data};
        finish(c, &rep);
        buf_free(&b);
        return;
    }
    case RPC_CLIENT_TOO_LARGE:
        fail(c, TOOLS_DOWNSTREAM_TOO_LARGE,
             "%s: the result of '%s' is too large (%zu bytes; the "
             "limit is %zu bytes)",
             label, c->tool, r->size, c->d->opt.max_message_bytes);
        return;
    case RPC_CLIENT_MALFORMED:
        fail(c, TOOLS_DOWNSTREAM_BAD_RESULT, "%s: '%s' failed: %s", label, c->tool, r->message);
        return;
    case RPC_CLIENT_TIMEOUT:
    case RPC_CLIENT_CLOSED:
        /* an OAuth refusal that a login fixes (step-up, auth.c): ToolAuthError */
        fail(c, login_fixes(c->d, r->message) ? TOOLS_DOWNSTREAM_AUTH : TOOLS_DOWNSTREAM_DOWN,
             "%s: '%s' failed: %s", label, c->tool, r->message);
        return;
    }
}

/* --- sending ---------------------------------------------------------------------------------- */

/* A request other than tools/call: its params (a copy; requestState added on a retry). */
static void send_request(struct tools_downstream_call *c)
{
    struct tools_downstream *d = c->d;
    cJSON *p = c->args ? cJSON_Duplicate(c->args, 1) : cJSON_CreateObject();
    if (c->request_state) {
        cJSON_DeleteItemFromObjectCaseSensitive(p, "requestState");
        cJSON_AddStringToObject(p, "requestState", c->request_state);
    }
    c->sent = 1;
    c->req =
        rpc_client_call(d->rpc, c->method, tools__downstream_params(d, p), 0, 0, call_reply, c);
}

static void send_call(struct tools_downstream_call *c)
{
    struct tools_downstream *d = c->d;
    if (c->method) {
        send_request(c);
        return;
    }
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "name", c->tool);
    if (c->args) /* a reference: printed, never freed or copied with p */
        cJSON_AddItemReferenceToObject(p, "arguments", c->args);
    else
        cJSON_AddItemToObject(p, "arguments", cJSON_CreateObject());
    if (c->task) {
        cJSON *task = cJSON_AddObjectToObject(p, "task");
        cJSON_AddNumberToObject(task, "ttl", (double) c->timeout_ms);
    }
    if (c->request_state)
        cJSON_AddStringToObject(p, "requestState", c->request_state);
    c->sent = 1;
    c->req =
        rpc_client_call(d->rpc, "tools/call", tools__downstream_params(d, p), 0, 0, call_reply, c);
    /* NULL: the transport is gone; the lost connection fails the call. */
}

void tools__downstream_calls_flush(struct tools_downstream *d)
{
    for (struct ds_link *l = d->calls.next; l != &d->calls; l = l->next) {
        struct tools_downstream_call *c = (struct tools_downstream_call *) l;
        if (!c->sent)
            send_call(c);
    }
}

void tools__downstream_calls_fail(struct tools_downstream *d, const char *why)
{
    struct ds_link failing;
    link_init(&failing);
    while (d->calls.next != &d->calls) {
        struct ds_link *l = d->calls.next;
        link_unlink(l);
        link_push(&failing, l);
    }
    while (failing.next != &failing) {
        struct tools_downstream_call *c = (struct tools_downstream_call *) failing.next;
        c->req = NULL; /* its rpc client was freed with the connection */
        if (why == NULL)
            fail(c, TOOLS_DOWNSTREAM_DOWN, "%s is shutting down", d->label);
        else if (d->needs_login)
            fail(c, TOOLS_DOWNSTREAM_AUTH, "%s: '%s' cannot be called: %s", d->label, c->tool, why);
        else if (c->sent)
            fail(c, TOOLS_DOWNSTREAM_DOWN, "%s went down during the call to '%s': it %s", d->label,
                 c->tool, why);
        else
            fail(c, TOOLS_DOWNSTREAM_DOWN, "%s could not be started for the call to '%s': it %s",
                 d->label, c->tool, why);
    }
    if (!d->closing)
        arm(d);
}

/* --- the call --------------------------------------------------------------------------------- */

/* Why the server cannot take a call now (down, shutting down, not reading
 * what we already wrote, or the tool is excluded): a sentence (malloc'd)
 * and its outcome, or NULL when it can. */
static char *refusal(struct tools_downstream *d, const char *tool,
                     enum tools_downstream_outcome *outcome)
{
    struct buf b;
    buf_init(&b, 0);
    const char *excluded = tool ? tools__downstream_excluded_reason(d, tool) : NULL;
    size_t queued = d->tp ? d->ops->backlog(d) : 0;
    *outcome = TOOLS_DOWNSTREAM_DOWN;
    if (d->closing) {
        buf_printf(&b, "%s is shutting down", d->label);
    } else if (d->needs_login && d->state != TOOLS_DOWNSTREAM_READY) {
        *outcome = TOOLS_DOWNSTREAM_AUTH;
        buf_printf(&b, "%s: %s", d->label, d->reason ? d->reason : "it needs a login");
    } else if (d->state == TOOLS_DOWNSTREAM_RESTARTING) {
        uint64_t now = uv_now(d->loop);
        buf_printf(&b, "%s is unavailable: it %s; the next restart is in %llu ms", d->label,
                   d->reason ? d->reason : "went down",
                   (unsigned long long) (d->restart_at > now ? d->restart_at - now : 0));
    } else if (d->state == TOOLS_DOWNSTREAM_FAILED) {
        buf_printf(&b, "%s is unavailable: it %s", d->label, d->reason ? d->reason : "failed");
    } else if (queued > d->opt.max_message_bytes) {
        buf_printf(&b, "%s is not reading its input (%zu bytes are waiting to be written)",
                   d->label, queued);
    } else if (excluded) {
        *outcome = TOOLS_DOWNSTREAM_RPC_ERROR;
        buf_printf(&b, "%s: '%s' cannot be called: %s", d->label, tool, excluded);
    }
    return b.data; /* NULL when nothing was said */
}

/* The next turn after a call was refused: its answer. */
static void answer_refused(struct next_turn_item *it)
{
    struct tools_downstream_call *c =
        (struct tools_downstream_call *) ((char *) it -
                                          offsetof(struct tools_downstream_call, refused));
    char *message = c->refused_message; /* outlives c, which finish frees first */
    c->refused_message = NULL;
    struct tools_downstream_reply r = {.outcome = c->refused_outcome, .message = message};
    if (r.outcome == TOOLS_DOWNSTREAM_RPC_ERROR) {
        r.code = -32601;
        r.rpc_message = message;
    }
    finish(c, &r);
    free(message);
}

/* A value as a raw JSON item of its text (printed as it is). */
static cJSON *raw_copy(const cJSON *v)
{
    cJSON *r = cJSON_CreateRaw("");
    free(r->valuestring);
    r->valuestring = json_print(v);
    return r;
}

/* A call or request on its way: answered on the next turn when the server
 * cannot take it now, else queued (CONNECTING) or sent; the timer armed. */
static struct tools_downstream_call *start(struct tools_downstream *d, const char *tool,
                                           const char *method, uint64_t timeout_ms,
                                           tools_downstream_reply_cb *cb, void *ud)
{
    struct tools_downstream_call *c = xcalloc(1, sizeof *c);
    c->d = d;
    c->tool = xstrdup(method ? method : tool);
    c->method = method ? xstrdup(method) : NULL;
    c->cb = cb;
    c->ud = ud;
    c->start = uv_now(d->loop);
    link_init(&c->link);
    d->ncalls++;
    c->refused_message = refusal(d, method ? NULL : tool, &c->refused_outcome);
    if (c->refused_message) { /* answered on the next turn, never inside this call */
        next_turn_push(&d->refusals, &c->refused, answer_refused);
        return c;
    }
    c->timeout_ms = timeout_ms            ? timeout_ms
                    : d->entry_timeout_ms ? d->entry_timeout_ms
                                          : d->opt.call_timeout_ms;
    c->deadline = c->start + c->timeout_ms;
    return c;
}

static void go(struct tools_downstream_call *c)
{
    struct tools_downstream *d = c->d;
    link_push(&d->calls, &c->link);
    if (d->state == TOOLS_DOWNSTREAM_READY && !d->reloading)
        send_call(c);
    /* arm() scans every call: only when this deadline comes first (calls
     * share a timeout, so it rarely does; a burst of n calls was O(n^2)). */
    if (!uv_is_active((uv_handle_t *) &d->call_timer) ||
        c->deadline < c->start + uv_timer_get_due_in(&d->call_timer))
        arm(d);
}

struct tools_downstream_call *tools_downstream_call(struct tools_downstream *d, const char *tool,
                                                    const cJSON *args, uint64_t timeout_ms,
                                                    tools_downstream_reply_cb *cb, void *ud)
{
    struct tools_downstream_call *c = start(d, tool, NULL, timeout_ms, cb, ud);
    if (c->refused_message)
        return c;
    /* kept as text: a copy of a big tree would cost ~40 bytes a byte, and its
     * copying and freeing would hold the loop */
    c->args = args ? raw_copy(args) : NULL;
    const cJSON *def = tools__downstream_find_tool(d, tool);
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(def, "execution");
    const char *ts = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ex, "taskSupport"));
    c->task = d->tasks_call && ts && strcmp(ts, "required") == 0;
    go(c);
    return c;
}

struct tools_downstream_call *tools_downstream_request(struct tools_downstream *d,
                                                       const char *method, const cJSON *params,
                                                       uint64_t timeout_ms,
                                                       tools_downstream_reply_cb *cb, void *ud)
{
    struct tools_downstream_call *c = start(d, NULL, method, timeout_ms, cb, ud);
    if (c->refused_message)
        return c;
    c->args = params ? cJSON_Duplicate(params, 1) : NULL;
    go(c);
    return c;
}

int tools_downstream_offers(const struct tools_downstream *d, const char *capability)
{
    return cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(d->caps, capability));
}
