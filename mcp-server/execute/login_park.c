/* Sending a person to a remote server's login page while a call of a
 * 2026-07-28 (stateless) request waits (docs/oauth.md): that revision has
 * no server-to-client requests, so the login asker that tools/
 * (tools/login_wait.c) uses puts an `elicitation/create` in URL mode into
 * the inputRequests of an input_required result (park.c parks the
 * execution), and the client's retry carries the answer in inputResponses.
 * Only when the request declared elicitation.url in its per-request client
 * capabilities. accept: the login waits for the redirect (the loopback
 * listener, or /oauth/callback) and the call goes on once the tokens are
 * stored; decline or cancel: the call fails with ToolAuthError. An answer
 * that is not an elicitation result is refused with the retry (park.c),
 * the login still waiting. The execution's clock stops meanwhile, as for
 * approvals. */
#include "mcp-server/execute/internal.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long a parked execution waits for the retry that answers a login: as
 * long as a call waits for a login (tools/login_wait.c), and a minute for
 * the retry that collects the result afterwards. */
#define LOGIN_PARK_MS (11 * 60 * 1000)

struct mcp_login_park {
    struct mcp_server *s;
    struct mcp_execution *exec;
    char key[32]; /* its key in inputRequests ("login-N"), once asked */
    char *params; /* the elicitation's params (JSON text), once asked */
    int answered; /* the retry accepted: the login waits for the redirect */
    void (*answer)(void *ud, int accepted, const char *why);
    void *ud;
    struct mcp_login_park *next;
};

static void *wait_login(void *self, const char *server)
{
    struct mcp_execution *e = self;
    struct mcp_request *r = mcp_execute_request(e);
    (void) server;
    if (!r->can_elicit_url || mcp_execute_pause(e, 1) < 0)
        return NULL;
    struct mcp_login_park *w = xcalloc(1, sizeof *w);
    w->s = r->server;
    w->exec = e;
    w->next = w->s->login_parks;
    w->s->login_parks = w;
    return w;
}

static char *params_json(const char *server, const char *url)
{
    char id[33];
    struct buf msg;
    buf_init(&msg, 0);
    random_hex(id, 16);
    buf_printf(&msg,
               "The server \"%s\" needs you to log in before a program can use its tools. Open "
               "the link to sign in, then answer accept; the program goes on once you have "
               "signed in.",
               server);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "mode", "url");
    cJSON_AddStringToObject(p, "elicitationId", id);
    cJSON_AddStringToObject(p, "message", msg.data);
    cJSON_AddStringToObject(p, "url", url);
    char *text = json_print(p);
    cJSON_Delete(p);
    buf_free(&msg);
    return text;
}

static void ask_login(void *self, void *handle, const char *server, const char *url,
                      void (*answer)(void *ud, int accepted, const char *why), void *ud)
{
    struct mcp_login_park *w = handle;
    (void) self;
    snprintf(w->key, sizeof w->key, "login-%u", ++w->s->next_approval);
    w->params = params_json(server, url);
    w->answer = answer;
    w->ud = ud;
    /* answers the request with input_required now, unless it is parked
     * already or being resumed: then the next round carries this one */
    mcp_park_ask(mcp_execute_request(w->exec), LOGIN_PARK_MS);
}

static void end_login(void *self, void *handle, int completed)
{
    struct mcp_login_park *w = handle;
    (void) self;
    (void) completed; /* no channel to say so: the retry's result tells */
    struct mcp_login_park **pp = &w->s->login_parks;
    while (*pp && *pp != w)
        pp = &(*pp)->next;
    if (*pp)
        *pp = w->next;
    mcp_execute_pause(w->exec, 0);
    free(w->params);
    free(w);
}

struct tools_login_asker mcp_login_park_asker(struct mcp_execution *e)
{
    struct tools_login_asker la = {
        .wait = wait_login, .ask = ask_login, .end = end_login, .self = e};
    return la;
}

/* --- the retry (park.c) ----------------------------------------------------------------------- */

/* Pending: asked, and not answered by a retry yet. */
static int pending(const struct mcp_login_park *w, const struct mcp_execution *e)
{
    return w->exec == e && w->params && !w->answered;
}

cJSON *mcp_login_park__input_requests(struct mcp_server *s, const struct mcp_execution *e,
                                      cJSON *reqs)
{
    for (struct mcp_login_park *w = s->login_parks; w; w = w->next) {
        if (!pending(w, e))
            continue;
        if (reqs == NULL)
            reqs = cJSON_CreateObject();
        cJSON *one = cJSON_AddObjectToObject(reqs, w->key);
        cJSON_AddStringToObject(one, "method", "elicitation/create");
        cJSON_AddItemToObject(one, "params", cJSON_Parse(w->params));
    }
    return reqs;
}

/* The action of an elicitation result, or NULL when resp is not one. */
static const char *action_of(const cJSON *resp)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(resp, "action");
    if (!cJSON_IsObject(resp) || !cJSON_IsString(a))
        return NULL;
    if (strcmp(a->valuestring, "accept") && strcmp(a->valuestring, "decline") &&
        strcmp(a->valuestring, "cancel"))
        return NULL;
    return a->valuestring;
}

const char *mcp_login_park__check_inputs(struct mcp_server *s, const struct mcp_execution *e,
                                         const cJSON *responses, char *msg, size_t msgsz)
{
    for (struct mcp_login_park *w = s->login_parks; w; w = w->next) {
        const cJSON *resp =
            pending(w, e) ? cJSON_GetObjectItemCaseSensitive(responses, w->key) : NULL;
        if (resp == NULL || action_of(resp))
            continue;
        snprintf(msg, msgsz,
                 "inputResponses[\"%s\"] answers a login (URL-mode elicitation) and must be an "
                 "elicitation result: {\"action\": \"accept\"} once the person opened the URL, "
                 "or \"decline\" or \"cancel\"; nothing was answered, retry with the same "
                 "requestState and a valid answer",
                 w->key);
        return msg;
    }
    return NULL;
}

void mcp_login_park__answer_inputs(struct mcp_server *s, const struct mcp_execution *e,
                                   const cJSON *responses)
{
    struct mcp_login_park *w = s->login_parks;
    while (w) {
        const cJSON *resp =
            pending(w, e) ? cJSON_GetObjectItemCaseSensitive(responses, w->key) : NULL;
        const char *action = action_of(resp);
        if (action == NULL) { /* not answered here (checked before: never malformed) */
            w = w->next;
            continue;
        }
        w->answered = 1;
        if (strcmp(action, "accept") == 0) {
            w->answer(w->ud, 1, NULL); /* the login waits for the redirect */
            w = w->next;
            continue;
        }
        /* a refusal ends the login, which frees w (and may end others): start over */
        w->answer(w->ud, 0,
                  strcmp(action, "decline") == 0 ? "the person declined" : "the person cancelled");
        w = s->login_parks;
    }
}
