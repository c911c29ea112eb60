/* Sending a person to a remote server's login page while a program's call
 * waits (docs/oauth.md): the login asker that tools/ (tools/login_wait.c)
 * uses, turned into an `elicitation/create` request in URL mode
 * (2025-11-25) on the channel of the execute_code request that made the
 * call, its answer routed back by id, and notifications/elicitation/complete
 * once the tokens are stored. The execution's clock stops while its call
 * waits, as for approvals. Clients that did not declare URL-mode
 * elicitation cannot be asked: the call fails with ToolAuthError as it
 * would without this. 2026-07-28 requests and `run` have askers of their
 * own (login_park.c, login_here.c). */
#include "mcp-server/execute/internal.h"
#include "tools/policy/policy.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/random.h"

#include <stdlib.h>
#include <string.h>

struct mcp_login_wait {
    struct mcp_server *s;
    struct mcp_execution *exec;
    char *id;             /* exact JSON text of the elicitation request's id, once asked */
    char elicitation[33]; /* its elicitationId: random hex */
    int answered, accepted;
    void (*answer)(void *ud, int accepted, const char *why);
    void *ud;
    struct mcp_login_wait *next;
};

static int can_open_urls(const struct mcp_request *r)
{
    const struct mcp_server *s = r->server;
    return s->cfg.approve != MCP_APPROVE_TERMINAL && !mcp_is_modern(r->rev) && s->can_elicit_url &&
           r->rev >= MCP_2025_11_25;
}

static void *wait_login(void *self, const char *server)
{
    struct mcp_execution *e = self;
    struct mcp_request *r = mcp_execute_request(e);
    (void) server;
    if (!can_open_urls(r) || mcp_execute_pause(e, 1) < 0)
        return NULL;
    struct mcp_login_wait *w = xcalloc(1, sizeof *w);
    w->s = r->server;
    w->exec = e;
    w->next = w->s->login_waits;
    w->s->login_waits = w;
    return w;
}

static void send_line(struct mcp_login_wait *w, struct buf *line)
{
    mcp_request_send(mcp_execute_request(w->exec), line->data, line->len);
}

static void ask_login(void *self, void *handle, const char *server, const char *url,
                      void (*answer)(void *ud, int accepted, const char *why), void *ud)
{
    struct mcp_login_wait *w = handle;
    (void) self;
    struct buf id, msg, b;
    buf_init(&id, 0);
    buf_init(&msg, 0);
    buf_init(&b, 0);
    buf_printf(&id, "\"codemode-login-%u\"", ++w->s->next_approval);
    w->id = buf_steal(&id);
    random_hex(w->elicitation, 16);
    w->answer = answer;
    w->ud = ud;
    buf_printf(&msg,
               "The server \"%s\" needs you to log in before a program can use its tools. Open "
               "the link to sign in; the program goes on once you have.",
               server);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "mode", "url");
    cJSON_AddStringToObject(p, "elicitationId", w->elicitation);
    cJSON_AddStringToObject(p, "message", msg.data);
    cJSON_AddStringToObject(p, "url", url);
    char *params = json_print(p);
    cJSON_Delete(p);
    rpc_write_request(&b, w->id, "elicitation/create", params);
    send_line(w, &b);
    free(params);
    buf_free(&msg);
    buf_free(&b);
}

static void unlink_wait(struct mcp_login_wait *w)
{
    struct mcp_login_wait **pp = &w->s->login_waits;
    while (*pp && *pp != w)
        pp = &(*pp)->next;
    if (*pp)
        *pp = w->next;
}

static void detach_login(void *self, void *handle);
static void end_detached(struct mcp_login_wait *w, int completed);

static void end_login(void *self, void *handle, int completed)
{
    struct mcp_login_wait *w = handle;
    struct buf p, b;
    (void) self;
    if (w->exec == NULL) {
        end_detached(w, completed);
        return;
    }
    buf_init(&p, 0);
    buf_init(&b, 0);
    if (w->id && completed && w->accepted) {
        buf_printf(&p, "{\"elicitationId\":\"%s\"}", w->elicitation);
        rpc_write_notification(&b, "notifications/elicitation/complete", p.data);
        send_line(w, &b);
    } else if (w->id && !w->answered) {
        buf_printf(&p, "{\"requestId\":%s,\"reason\":\"%s\"}", w->id,
                   completed ? "the login completed" : "the call no longer waits for the login");
        rpc_write_notification(&b, "notifications/cancelled", p.data);
        send_line(w, &b);
    }
    buf_free(&p);
    buf_free(&b);
    unlink_wait(w);
    mcp_execute_pause(w->exec, 0);
    free(w->id);
    free(w);
}

struct tools_login_asker mcp_login_asker(struct mcp_execution *e)
{
    struct tools_login_asker la = {
        .wait = wait_login, .ask = ask_login, .end = end_login, .detach = detach_login, .self = e};
    return la;
}

/* --- the answer ------------------------------------------------------------------------------ */

int mcp_login_response(struct mcp_server *s, const struct rpc_message *m)
{
    struct mcp_login_wait *w = s->login_waits;
    while (w && (m->id == NULL || w->id == NULL || w->answered || strcmp(w->id, m->id) != 0))
        w = w->next;
    if (w == NULL)
        return 0;
    const cJSON *action = cJSON_GetObjectItemCaseSensitive(m->result, "action");
    const char *why = NULL;
    w->answered = 1;
    if (m->error)
        why = "the client answered the elicitation with an error";
    else if (!cJSON_IsString(action))
        why = "the client's answer to the elicitation has no action";
    else if (strcmp(action->valuestring, "decline") == 0)
        why = "the person declined";
    else if (strcmp(action->valuestring, "cancel") == 0)
        why = "the person cancelled";
    else if (strcmp(action->valuestring, "accept") != 0)
        why = "the client's answer to the elicitation has an unknown action";
    w->accepted = why == NULL;
    /* last use of w: a refusal ends the login, which frees w */
    w->answer(w->ud, w->accepted, why);
    return 1;
}

/* --- a login that outlives its program ------------------------------------------------------ */

/* The program whose client accepted the elicitation ended before the login
 * completed: the login goes on, and its client (the session, if it still
 * exists then) is still told when it completes. */
static void detach_login(void *self, void *handle)
{
    struct mcp_login_wait *w = handle;
    (void) self;
    mcp_execute_pause(w->exec, 0);
    w->exec = NULL;
}

static void end_detached(struct mcp_login_wait *w, int completed)
{
    if (w->s && completed) {
        struct buf p, b;
        buf_init(&p, 0);
        buf_init(&b, 0);
        buf_printf(&p, "{\"elicitationId\":\"%s\"}", w->elicitation);
        rpc_write_notification(&b, "notifications/elicitation/complete", p.data);
        mcp_channel_send(&w->s->session, b.data, b.len, 0);
        buf_free(&p);
        buf_free(&b);
    }
    if (w->s)
        unlink_wait(w);
    free(w->id);
    free(w);
}

void mcp_login_free_session(struct mcp_server *s)
{
    struct mcp_login_wait *w = s->login_waits;
    s->login_waits = NULL;
    while (w) { /* detached ones: tools/ ends them when their login is over */
        struct mcp_login_wait *next = w->next;
        w->s = NULL;
        w->next = NULL;
        w = next;
    }
}
