/* The 2026-07-28 (stateless) approval flow (docs/policy.md): when a tool of
 * a stateless request needs approval, the request is answered at once with
 * an input_required result (the elicitation forms in inputRequests, an
 * unguessable requestState), and the execution goes on, held by a phantom
 * request, until the client retries the same call with inputResponses and
 * that requestState, on any connection. A login the execution's calls wait
 * for is asked the same way (login_park.c: a URL-mode elicitation among the
 * inputRequests). The retry takes the execution over:
 * its answers reach the waiting calls, and it gets the final result (or
 * another input_required). A requestState is good once, for the call it
 * was given for, until approvalTimeoutMs passes (for a login, as long as a
 * login waits: login_park.c); then the execution is
 * cancelled. Nothing is replayed, so no tool call is ever sent twice.
 * The execution lives in this process: with codemode.http.instanceId set,
 * a requestState starts "ID.", and another instance that receives it says
 * which instance holds the execution (docs/deploy.md). */
#include "mcp-server/execute/internal.h"
#include "mcp-server/config/config.h"
#include "tools/policy/audit.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/sha256.h"
#include "transport/jsonrpc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mcp_park {
    struct mcp_server *s;
    char key[CONFIG_INSTANCE_ID_MAX + 34]; /* the requestState: ["ID."] 32 hex digits */
    char code_sha[65];           /* of the call the retry must repeat */
    struct mcp_request *phantom; /* holds the execution; NULL once it was freed */
    char *final;                 /* the phantom's reply, when the program ended while parked */
    uv_timer_t *timer;           /* expiry */
    uint64_t expire_ms;
    struct mcp_park *next;
};

static void timer_closed(uv_handle_t *h)
{
    free(h);
}

static void unlink_park(struct mcp_park *p)
{
    struct mcp_park **pp = &p->s->parks;
    while (*pp && *pp != p)
        pp = &(*pp)->next;
    if (*pp)
        *pp = p->next;
}

/* Unlinks and frees p (its phantom, if any, is not touched: detach it first). */
static void free_park(struct mcp_park *p)
{
    unlink_park(p);
    if (p->phantom)
        p->phantom->park = NULL;
    uv_timer_stop(p->timer);
    uv_close((uv_handle_t *) p->timer, timer_closed);
    free(p->final);
    free(p);
}

/* The phantom request ended (on_end): the park no longer holds it. */
static void phantom_ended(struct mcp_request *r)
{
    if (r->park)
        r->park->phantom = NULL;
}

void mcp_park_free_all(struct mcp_server *s)
{
    while (s->parks)
        free_park(s->parks);
}

/* The phantom's output: progress and logs are dropped; its final reply is
 * kept for the retry. */
static void phantom_send(void *ud, const char *data, size_t len, int final)
{
    struct mcp_park *p = ud;
    if (final && p->final == NULL)
        p->final = xstrndup(data, len);
}

static void expired(uv_timer_t *t)
{
    struct mcp_park *p = t->data;
    struct mcp_request *ph = p->phantom;
    if (ph && ph->exec) {
        ph->park = NULL;
        p->phantom = NULL;
        mcp_execute_cancel(ph->exec); /* drops the phantom */
    }
    free_park(p);
}

/* What the person is asked for e: its pending approvals and logins (NULL: nothing). */
static cJSON *pending_inputs(struct mcp_server *s, const struct mcp_execution *e)
{
    return mcp_login_park__input_requests(s, e, mcp_approval__input_requests(s, e));
}

static void input_required(struct mcp_request *r, struct mcp_park *p, cJSON *inputs)
{
    cJSON *res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "resultType", "input_required");
    cJSON_AddItemToObject(res, "inputRequests", inputs);
    cJSON_AddStringToObject(res, "requestState", p->key);
    mcp_request_result(r, res);
}

/* Moves r's execution to a phantom of a new park and answers r with
 * input_required for every approval pending there. */
static void park(struct mcp_request *r, uint64_t expire_ms)
{
    struct mcp_server *s = r->server;
    struct mcp_park *p = xcalloc(1, sizeof *p);
    p->s = s;
    char rnd[33];
    tools_audit_new_id(rnd); /* 128 random bits */
    const char *inst = s->cfg.instance_id;
    snprintf(p->key, sizeof p->key, "%.*s%s%s", CONFIG_INSTANCE_ID_MAX, inst ? inst : "",
             inst ? "." : "", rnd);
    memcpy(p->code_sha, mcp_execute_code_sha(r->exec), sizeof p->code_sha);
    struct mcp_channel ch = {p, phantom_send, NULL};
    p->phantom = mcp_request_phantom(s, r->rev, &ch);
    p->phantom->park = p;
    p->phantom->on_end = phantom_ended;
    /* what the client declared for this call, for what its calls ask meanwhile */
    p->phantom->can_elicit = r->can_elicit;
    p->phantom->can_elicit_url = r->can_elicit_url;
    struct mcp_execution *e = r->exec;
    mcp_execute_rebind(e, p->phantom); /* its approvals follow it: they are keyed to it */
    cJSON *inputs = pending_inputs(s, e);
    p->timer = xcalloc(1, sizeof *p->timer);
    uv_timer_init(s->cfg.loop, p->timer);
    p->timer->data = p;
    p->expire_ms = expire_ms;
    uv_timer_start(p->timer, expired, expire_ms, 0);
    p->next = s->parks;
    s->parks = p;
    input_required(r, p, inputs ? inputs : cJSON_CreateObject());
}

void mcp_park_ask(struct mcp_request *r, uint64_t expire_ms)
{
    struct mcp_park *p = r->park;
    if (p && expire_ms > p->expire_ms) { /* a question that may wait longer (a login) */
        p->expire_ms = expire_ms;
        uv_timer_start(p->timer, expired, expire_ms, 0);
    }
    if (r->park || r->server->resuming == r || r->exec == NULL)
        return; /* parked already, or the retry parks after its answers */
    park(r, expire_ms);
}

/* --- the retry ------------------------------------------------------------------------------ */

static struct mcp_park *find(struct mcp_server *s, const char *key)
{
    for (struct mcp_park *p = s->parks; p; p = p->next)
        if (strcmp(p->key, key) == 0)
            return p;
    return NULL;
}

/* The parked program ended: its result, for the retry's id. */
static void answer_final(struct mcp_request *r, const char *line)
{
    cJSON *m = cJSON_Parse(line);
    cJSON *res = cJSON_DetachItemFromObjectCaseSensitive(m, "result");
    if (res)
        mcp_request_result(r, res);
    else
        mcp_request_error(r, RPC_INTERNAL_ERROR, "the parked execution ended without a result",
                          NULL);
    cJSON_Delete(m);
}

/* A requestState this instance did not issue but another one did (its
 * "ID." prefix names another instance): says so in msg, returns 1. */
static int foreign(const struct mcp_server *s, const char *state, char *msg, size_t msgsz)
{
    const char *dot = strchr(state, '.');
    const char *mine = s->cfg.instance_id;
    size_t n = dot ? (size_t) (dot - state) : 0;
    if (n == 0 || n > CONFIG_INSTANCE_ID_MAX || (mine && strlen(mine) == n && !strncmp(state, mine, n)))
        return 0;
    snprintf(msg, msgsz,
             "requestState was issued by the instance \"%.*s\", and this is %s%s%s: the "
             "execution waits there, so the retry must reach that instance (behind a load "
             "balancer, keep a client's requests on one instance: docs/deploy.md)",
             (int) n, state, mine ? "the instance \"" : "a server without an instanceId",
             mine ? mine : "", mine ? "\"" : "");
    return 1;
}

static const char *check_retry(struct mcp_server *s, const cJSON *params, const char *code,
                               struct mcp_park **out, char *msg, size_t msgsz)
{
    const cJSON *state = cJSON_GetObjectItemCaseSensitive(params, "requestState");
    const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(params, "inputResponses");
    if (!cJSON_IsString(state))
        return "requestState must be a string";
    if (inputs && !cJSON_IsObject(inputs))
        return "inputResponses must be an object";
    struct mcp_park *p = find(s, state->valuestring);
    if (p == NULL && foreign(s, state->valuestring, msg, msgsz))
        return msg;
    if (p == NULL)
        return "requestState is unknown, expired or already used: start the call again without "
               "it";
    char sha[65];
    if (code == NULL || (sha256_hex(code, strlen(code), sha), strcmp(sha, p->code_sha)))
        return "requestState belongs to another call: retry with the same arguments";
    const char *bad = p->phantom && p->phantom->exec
                          ? mcp_login_park__check_inputs(s, p->phantom->exec, inputs, msg, msgsz)
                          : NULL;
    if (bad)
        return bad; /* the park stays: a retry with a valid answer resumes it */
    *out = p;
    return NULL;
}

void mcp_park_resume(struct mcp_request *r, const cJSON *params, const char *code)
{
    struct mcp_server *s = r->server;
    struct mcp_park *p = NULL;
    char msg[400];
    const char *why = check_retry(s, params, code, &p, msg, sizeof msg);
    if (why) {
        mcp_request_error(r, RPC_INVALID_PARAMS, why, NULL);
        return;
    }
    struct mcp_request *ph = p->phantom;
    if (p->final) {
        answer_final(r, p->final);
        free_park(p);
        return;
    }
    if (ph == NULL || ph->exec == NULL) {
        free_park(p);
        mcp_request_error(r, RPC_INVALID_PARAMS, "the parked execution was cancelled", NULL);
        return;
    }
    uint64_t expire_ms = p->expire_ms;
    free_park(p); /* used: a replay finds nothing */
    ph->park = NULL;
    struct mcp_execution *e = ph->exec;
    mcp_execute_rebind(e, r);
    mcp_request_drop(ph);
    s->resuming = r;
    const cJSON *responses = cJSON_GetObjectItemCaseSensitive(params, "inputResponses");
    mcp_login_park__answer_inputs(s, e, responses);
    if (r->exec == e)
        mcp_approval__answer_inputs(s, e, responses);
    s->resuming = NULL;
    cJSON *left = r->exec ? pending_inputs(s, r->exec) : NULL;
    if (left) { /* unanswered, or asked since: another round */
        cJSON_Delete(left);
        park(r, expire_ms);
    }
}
