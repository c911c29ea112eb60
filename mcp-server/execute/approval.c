/* Asking a person to approve a tool call (docs/policy.md): the approver that
 * tools/ calls for `ask` tools, turned into an `elicitation/create` request
 * (form mode) on the channel of the execute_code request that made the call
 * (stdout, or the POST's event stream over HTTP), the client's answer routed
 * back by id, a timeout (codemode.policy.approvalTimeoutMs), and the tools a
 * person approved for the rest of the session. Clients that did not declare
 * the capability (and 2026-07-28 requests) get "no approver" at once. In
 * `run`, the terminal prompt (prompt.c) or --approve all|none answer instead. */
#include "mcp-server/execute/approval_view.h"
#include "mcp-server/prompt.h"
#include "mcp-server/execute/internal.h"
#include "tools/policy/policy.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"

#include <stdlib.h>
#include <string.h>

struct mcp_approval {
    struct mcp_server *s;
    struct mcp_execution *exec; /* whose call waits; its request (mcp_execute_request) may
                                   change while it waits (2026-07-28: park.c) */
    int paused;                 /* exec's deadlines are paused while this waits */
    char *id;       /* exact JSON text of the request id (elicitation) */
    char *key;      /* 2026-07-28: its key in inputRequests (park.c), else NULL */
    char *params;   /* 2026-07-28: the elicitation params, JSON text */
    void *question; /* the terminal prompt's handle (run) */
    char *tool;     /* "server\ntool", for the session list */
    tools_approval_done *done;
    void *done_ud;
    uv_timer_t timer; /* approvalTimeoutMs; or 0 ms for an answer known at once */
    enum tools_approval_answer known;
    const char *known_detail;
    struct mcp_approval *next;
};

static void unlink_approval(struct mcp_approval *a)
{
    struct mcp_approval **pp = &a->s->approvals;
    while (*pp && *pp != a)
        pp = &(*pp)->next;
    if (*pp)
        *pp = a->next;
}

static void approval_closed(uv_handle_t *h)
{
    struct mcp_approval *a = h->data;
    free(a->id);
    free(a->key);
    free(a->params);
    free(a->tool);
    free(a);
}

/* Unlinks a, stops its timer and frees it (after the timer closed). */
static void finish(struct mcp_approval *a)
{
    unlink_approval(a);
    if (a->paused)
        mcp_execute_pause(a->exec, 0);
    uv_timer_stop(&a->timer);
    uv_close((uv_handle_t *) &a->timer, approval_closed);
}

static void send_cancelled(struct mcp_approval *a, const char *reason)
{
    if (a->question) {
        mcp_prompt_cancel(a->s->cfg.prompt, a->question);
        return;
    }
    if (a->key || a->id == NULL) /* 2026-07-28, or answered at once: nothing was asked */
        return;
    struct buf p, b;
    buf_init(&p, 0);
    buf_init(&b, 0);
    buf_printf(&p, "{\"requestId\":%s,\"reason\":", a->id);
    json_append_string(&p, reason, strlen(reason));
    buf_append_char(&p, '}');
    rpc_write_notification(&b, "notifications/cancelled", p.data);
    mcp_request_send(mcp_execute_request(a->exec), b.data, b.len);
    buf_free(&p);
    buf_free(&b);
}

/* --- the session's approvals ---------------------------------------------------------- */

static int session_approved(const struct mcp_server *s, const char *key)
{
    for (size_t i = 0; i < s->nsession_approved; i++)
        if (strcmp(s->session_approved[i], key) == 0)
            return 1;
    return 0;
}

static void remember(struct mcp_server *s, const char *key)
{
    if (session_approved(s, key))
        return;
    s->session_approved =
        xrealloc(s->session_approved, (s->nsession_approved + 1) * sizeof *s->session_approved);
    s->session_approved[s->nsession_approved++] = xstrdup(key);
}

void mcp_approval_free_session(struct mcp_server *s)
{
    for (size_t i = 0; i < s->nsession_approved; i++)
        free(s->session_approved[i]);
    free(s->session_approved);
    s->session_approved = NULL;
    s->nsession_approved = 0;
}

/* --- the request -------------------------------------------------------------------------- */

static char *message_text(const struct tools_approval_request *q)
{
    struct buf b;
    buf_init(&b, 0);
    char *args = mcp_approval_view(q->arguments);
    buf_printf(&b,
               "A program wants to call the tool \"%s\" of the server \"%s\" with these "
               "arguments:\n%s\nApprove this call (once), this tool for the rest of this program "
               "(execution), this tool for the session (session), or deny?",
               q->tool, q->server, args);
    free(args);
    return buf_steal(&b);
}

static char *params_json(const struct tools_approval_request *q)
{
    cJSON *p = cJSON_CreateObject();
    char *msg = message_text(q);
    cJSON_AddStringToObject(p, "message", msg);
    free(msg);
    cJSON *schema = cJSON_AddObjectToObject(p, "requestedSchema");
    cJSON_AddStringToObject(schema, "type", "object");
    cJSON *d = cJSON_AddObjectToObject(cJSON_AddObjectToObject(schema, "properties"), "decision");
    cJSON_AddStringToObject(d, "type", "string");
    cJSON_AddStringToObject(d, "title", "Decision");
    cJSON_AddStringToObject(d, "description",
                            "once: this call; execution: this tool for the rest of the program; "
                            "session: this tool for the session; deny: refuse");
    const char *values[] = {"once", "execution", "session", "deny"};
    cJSON_AddItemToObject(d, "enum", cJSON_CreateStringArray(values, 4));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(schema, "required"),
                         cJSON_CreateString("decision"));
    char *text = json_print(p);
    cJSON_Delete(p);
    return text;
}

static void timed_out(uv_timer_t *t)
{
    struct mcp_approval *a = t->data;
    tools_approval_done *done = a->done;
    void *ud = a->done_ud;
    send_cancelled(a, "no answer within codemode.policy.approvalTimeoutMs");
    finish(a);
    done(ud, TOOLS_APPROVAL_TIMEOUT, "no answer in time");
}

static int can_ask(const struct mcp_request *r)
{
    if (r->server->cfg.approve == MCP_APPROVE_TERMINAL)
        return 1;
    if (mcp_is_modern(r->rev))
        return r->can_elicit;
    return r->server->can_elicit && r->rev >= MCP_2025_06_18;
}

/* What --approve all|none answers: 1 and the answer, or 0 when a person decides. */
static int fixed_answer(const struct mcp_server *s, enum tools_approval_answer *answer,
                        const char **detail)
{
    *detail = NULL;
    if (s->cfg.approve == MCP_APPROVE_ALL)
        *answer = TOOLS_APPROVAL_ONCE;
    else if (s->cfg.approve == MCP_APPROVE_NONE)
        *answer = TOOLS_APPROVAL_DENY, *detail = "run --approve none";
    else
        return 0;
    return 1;
}

static void terminal_answered(void *ud, int answer)
{
    struct mcp_approval *a = ud;
    tools_approval_done *done = a->done;
    void *done_ud = a->done_ud;
    a->question = NULL;
    if (answer == 'a')
        remember(a->s, "*");
    finish(a);
    if (answer == 'y' || answer == 'a')
        done(done_ud, answer == 'y' ? TOOLS_APPROVAL_ONCE : TOOLS_APPROVAL_SESSION, NULL);
    else
        done(done_ud, answer ? TOOLS_APPROVAL_DENY : TOOLS_APPROVAL_DECLINED,
             answer ? "refused on the terminal" : "the terminal closed");
}

/* Sends the question: an elicitation request, or a line on the terminal. */
static void send_question(struct mcp_approval *a, const struct tools_approval_request *q)
{
    struct mcp_server *s = a->s;
    if (s->cfg.approve == MCP_APPROVE_TERMINAL) {
        char *args = mcp_approval_view(q->arguments);
        struct buf t;
        buf_init(&t, 0);
        /* the long form is several lines: the question goes on a line of its own */
        buf_printf(&t, "\nmcp-codemode: approve %s.%s %s%s?", q->server, q->tool, args,
                   strchr(args, '\n') ? "\n" : "");
        a->question = mcp_prompt_ask(s->cfg.prompt, t.data, terminal_answered, a);
        buf_free(&t);
        free(args);
        return;
    }
    struct buf b;
    char *params = params_json(q);
    buf_init(&b, 0);
    rpc_write_request(&b, a->id, "elicitation/create", params);
    mcp_request_send(mcp_execute_request(a->exec), b.data, b.len);
    buf_free(&b);
    free(params);
}

static struct mcp_approval *new_approval(struct mcp_execution *e, char *key,
                                         tools_approval_done *done, void *done_ud)
{
    struct mcp_approval *a = xcalloc(1, sizeof *a);
    a->s = mcp_execute_request(e)->server;
    a->exec = e;
    a->tool = key;
    a->done = done;
    a->done_ud = done_ud;
    uv_timer_init(a->s->cfg.loop, &a->timer);
    a->timer.data = a;
    a->next = a->s->approvals;
    a->s->approvals = a;
    return a;
}

static void answer_known(uv_timer_t *t)
{
    struct mcp_approval *a = t->data;
    tools_approval_done *done = a->done;
    void *ud = a->done_ud;
    enum tools_approval_answer answer = a->known;
    const char *detail = a->known_detail;
    finish(a);
    done(ud, answer, detail);
}

/* An answer known at once (--approve, approved for the session, nobody to
 * ask, too many waiting): given on the loop's next turn, never inside ask.
 * detail is a static string or NULL. */
static struct mcp_approval *answer_soon(struct mcp_execution *e, char *key,
                                        tools_approval_done *done, void *done_ud,
                                        enum tools_approval_answer answer, const char *detail)
{
    struct mcp_approval *a = new_approval(e, key, done, done_ud);
    a->known = answer;
    a->known_detail = detail;
    uv_timer_start(&a->timer, answer_known, 0, 0);
    return a;
}

static void *ask(void *self, const struct tools_approval_request *q, tools_approval_done *done,
                 void *done_ud)
{
    struct mcp_execution *e = self;
    struct mcp_request *r = mcp_execute_request(e);
    struct mcp_server *s = r->server;
    struct buf key;
    buf_init(&key, 0);
    buf_printf(&key, "%s\n%s", q->server, q->tool);
    enum tools_approval_answer fixed;
    const char *detail;
    if (fixed_answer(s, &fixed, &detail))
        return answer_soon(e, buf_steal(&key), done, done_ud, fixed, detail);
    if (!can_ask(r) || session_approved(s, key.data) || session_approved(s, "*"))
        return answer_soon(e, buf_steal(&key), done, done_ud,
                           can_ask(r) ? TOOLS_APPROVAL_SESSION : TOOLS_APPROVAL_UNAVAILABLE, NULL);
    /* A person's time does not count against timeoutMs, but the execution
     * holds its worker meanwhile: only so many may wait at once. */
    if (mcp_execute_pause(e, 1) < 0)
        return answer_soon(e, buf_steal(&key), done, done_ud, TOOLS_APPROVAL_DECLINED,
                           "too many executions on this server wait for an approval already, "
                           "the most codemode.sandbox.maxWorkers allows (half of it); retry later");
    struct mcp_approval *a = new_approval(e, buf_steal(&key), done, done_ud);
    a->paused = 1;
    struct buf id;
    buf_init(&id, 0);
    buf_printf(&id, "\"codemode-approval-%u\"", ++s->next_approval);
    a->id = buf_steal(&id);
    if (mcp_is_modern(r->rev)) { /* answered by a retry of the request (park.c) */
        struct buf k;
        buf_init(&k, 0);
        buf_printf(&k, "approval-%u", s->next_approval);
        a->key = buf_steal(&k);
        a->params = params_json(q);
        mcp_park_ask(r, q->timeout_ms);
        return a;
    }
    uv_timer_start(&a->timer, timed_out, q->timeout_ms, 0);
    send_question(a, q);
    return a;
}

static void cancel(void *self, void *handle)
{
    struct mcp_approval *a = handle;
    (void) self;
    send_cancelled(a, "the program that made the call has ended");
    finish(a);
}

struct tools_approver mcp_approval_approver(struct mcp_execution *e)
{
    struct tools_approver ap = {ask, cancel, e};
    return ap;
}

/* --- the answer ------------------------------------------------------------------------------ */

static enum tools_approval_answer read_answer(const cJSON *result, const cJSON *error,
                                              const char **detail)
{
    const cJSON *action = cJSON_GetObjectItemCaseSensitive(result, "action");
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(result, "content");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(content, "decision");
    static const char *const names[] = {"once", "execution", "session", "deny"};
    *detail = NULL;
    if (error || !cJSON_IsString(action)) {
        *detail = error ? "the client answered with an error" : "malformed answer";
        return TOOLS_APPROVAL_DECLINED;
    }
    if (strcmp(action->valuestring, "decline") == 0)
        return TOOLS_APPROVAL_DECLINED;
    if (strcmp(action->valuestring, "cancel") == 0)
        return TOOLS_APPROVAL_CANCELLED;
    for (int i = 0; i < 4 && strcmp(action->valuestring, "accept") == 0; i++)
        if (cJSON_IsString(d) && strcmp(d->valuestring, names[i]) == 0)
            return i == 3 ? TOOLS_APPROVAL_DENY : (enum tools_approval_answer) i;
    *detail = "malformed answer: accept needs decision once, execution, session or deny";
    return TOOLS_APPROVAL_DECLINED;
}

int mcp_approval_response(struct mcp_server *s, const struct rpc_message *m)
{
    struct mcp_approval *a = s->approvals;
    while (a && (m->id == NULL || a->id == NULL || strcmp(a->id, m->id) != 0))
        a = a->next;
    if (a == NULL)
        return 0;
    const char *detail;
    enum tools_approval_answer ans = read_answer(m->result, m->error, &detail);
    if (ans == TOOLS_APPROVAL_SESSION)
        remember(s, a->tool);
    tools_approval_done *done = a->done;
    void *ud = a->done_ud;
    finish(a);
    done(ud, ans, detail);
    return 1;
}

/* --- 2026-07-28: the approvals a retry answers (park.c) ----------------------------------- */

cJSON *mcp_approval__input_requests(struct mcp_server *s, const struct mcp_execution *e)
{
    cJSON *reqs = NULL;
    for (struct mcp_approval *a = s->approvals; a; a = a->next) {
        if (a->exec != e || a->key == NULL)
            continue;
        if (reqs == NULL)
            reqs = cJSON_CreateObject();
        cJSON *one = cJSON_AddObjectToObject(reqs, a->key);
        cJSON_AddStringToObject(one, "method", "elicitation/create");
        cJSON_AddItemToObject(one, "params", cJSON_Parse(a->params));
    }
    return reqs;
}

void mcp_approval__answer_inputs(struct mcp_server *s, const struct mcp_execution *e,
                                 const cJSON *responses)
{
    struct mcp_approval *a = s->approvals;
    while (a) {
        const cJSON *resp =
            a->exec == e && a->key ? cJSON_GetObjectItemCaseSensitive(responses, a->key) : NULL;
        if (resp == NULL) {
            a = a->next;
            continue;
        }
        const char *detail;
        enum tools_approval_answer ans = read_answer(resp, NULL, &detail);
        if (ans == TOOLS_APPROVAL_SESSION)
            ans = TOOLS_APPROVAL_EXECUTION; /* no session without sessions */
        tools_approval_done *done = a->done;
        void *ud = a->done_ud;
        finish(a);
        done(ud, ans, detail); /* may add approvals: start over */
        a = s->approvals;
    }
}
