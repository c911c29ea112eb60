/* Logging in while calls wait (docs/oauth.md): a call that reaches a
 * remote server needing an OAuth login, made by a program whose client can
 * send the person to a URL (URL-mode elicitation, through the execution's
 * login asker), waits - its execution's clock stopped - while one login
 * per server runs (tools/oauth/login.c: discovery, client, PKCE, the
 * redirect on the loopback listener or the server's own /oauth/callback,
 * the tokens stored). The first waiting call's person is asked; the calls
 * that come meanwhile wait for the same login. Once the tokens are stored,
 * the server reconnects and every waiting call is sent again; a refusal,
 * a failure or LOGIN_WAIT_MS without a login fails them with ToolAuthError. */
#include "tools/registry_internal.h"
#include "tools/catalog.h"
#include "tools/downstream/downstream.h"
#include "tools/oauth/login.h"
#include "tools/server_config.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOGIN_WAIT_MS (10 * 60 * 1000) /* the longest a call waits for a person to log in */

struct tools__login {
    struct tools_registry *r;
    size_t server;               /* the slot's index */
    struct tools_oauth_login *l; /* NULL once over */
    char *url;                   /* the authorization URL, once known */
    struct tools_call *waiters;  /* in arrival order */
    struct tools_call *asker;    /* whose person was asked (until the login ends) */
    int accepted;                /* the asker's client opened the URL */
    uv_timer_t bound;            /* LOGIN_WAIT_MS */
    /* the asker's wait, detached when its call left after the person accepted:
     * told when the login is over (tools_login_asker.detach) */
    void (*told_end)(void *self, void *handle, int completed);
    void *told;
};

static const struct tools_server_config *cfg_of(const struct tools__login *lg)
{
    return lg->r->slots[lg->server].cfg;
}

static void bound_closed(uv_handle_t *h)
{
    struct tools__login *lg = h->data;
    free(lg->url);
    free(lg);
}

static void unlink_waiter(struct tools__login *lg, struct tools_call *c)
{
    struct tools_call **pp = &lg->waiters;
    while (*pp && *pp != c)
        pp = &(*pp)->login_next;
    if (*pp)
        *pp = c->login_next;
    c->login_next = NULL;
    c->login = NULL;
    if (lg->asker == c)
        lg->asker = NULL;
}

/* Ends c's wait (its clock runs again); completed: the login succeeded. */
static void end_wait(struct tools_call *c, int completed)
{
    const struct tools_login_asker *la = c->x->login;
    void *h = c->login_handle;
    c->login_handle = NULL;
    if (h)
        la->end(la->self, h, completed);
}

/* A login for this server did not complete in x's run: not asked again there. */
static void remember_failed(struct tools_exec *x, size_t server)
{
    x->login_failed = xrealloc(x->login_failed, (x->nlogin_failed + 1) * sizeof *x->login_failed);
    x->login_failed[x->nlogin_failed++] = server;
}

/* The login is over: ok, every waiting call is sent again (the server
 * reconnects first); else each fails with ToolAuthError and why. */
static void finish(struct tools__login *lg, int ok, const char *why)
{
    struct slot *s = &lg->r->slots[lg->server];
    struct tools_call *list = lg->waiters;
    lg->waiters = NULL;
    lg->asker = NULL;
    s->login = NULL;
    if (lg->l) {
        tools_oauth_login_free(lg->l);
        lg->l = NULL;
    }
    uv_timer_stop(&lg->bound);
    uv_close((uv_handle_t *) &lg->bound, bound_closed);
    if (lg->told) /* the client that sent its person to the page, its call gone */
        lg->told_end(NULL, lg->told, ok);
    if (ok && s->d)
        tools_downstream_reconnect(s->d); /* the waiting calls queue until it is ready */
    struct buf msg;
    buf_init(&msg, 0);
    if (!ok)
        buf_printf(&msg,
                   "server '%s' needs a login, and the login for this call did not complete: %s; "
                   "run: mcp-codemode login %s",
                   s->cfg->name, why ? why : "it was abandoned", s->cfg->name);
    while (list) {
        struct tools_call *c = list;
        list = c->login_next;
        c->login_next = NULL;
        c->login = NULL;
        end_wait(c, ok);
        if (!ok)
            remember_failed(c->x, lg->server);
        if (c->first_name) /* its server's tools were not known (login_first.c) */
            tools__login_first_done(c, ok, msg.data);
        else if (ok)
            tools__call_resend(c);
        else
            tools__call_auth_failed(c, msg.data);
    }
    buf_free(&msg);
}

/* --- asking the person ------------------------------------------------------------------------ */

static void ask(struct tools__login *lg);

static void answered(void *ud, int accepted, const char *why)
{
    struct tools__login *lg = ud;
    if (accepted) {
        lg->accepted = 1;
        log_info("tools", "server %s: the client opened the login page; waiting for the redirect",
                 cfg_of(lg)->name);
        return;
    }
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "the person was asked to log in and did not (%s)", why ? why : "declined");
    finish(lg, 0, b.data);
    buf_free(&b);
}

/* Asks the person of the first waiting call to open the URL. */
static void ask(struct tools__login *lg)
{
    struct tools_call *c = lg->waiters;
    if (lg->url == NULL || lg->asker || lg->accepted || c == NULL)
        return; /* not yet, asked already, or a person is logging in */
    lg->asker = c;
    const struct tools_login_asker *la = c->x->login;
    la->ask(la->self, c->login_handle, cfg_of(lg)->name, lg->url, answered, lg);
}

/* --- the login's events ----------------------------------------------------------------------- */

static void on_authorize(void *ud, const char *url)
{
    struct tools__login *lg = ud;
    lg->url = xstrdup(url);
    ask(lg);
}

static void on_done(void *ud, int ok, const char *message)
{
    struct tools__login *lg = ud;
    char *why = xstrdup(message ? message : "");
    if (ok)
        log_info("tools", "server %s: %s", cfg_of(lg)->name, why);
    else
        log_warn("tools", "the login to %s failed: %s", cfg_of(lg)->name, why);
    finish(lg, ok, why); /* frees the login: its message is not read afterwards */
    free(why);
}

static const struct tools_oauth_login_events login_events = {on_authorize, on_done};

static uint64_t bound_ms(const struct tools_registry *r)
{
    return r->login_wait_ms ? r->login_wait_ms : LOGIN_WAIT_MS;
}

static void bound_expired(uv_timer_t *t)
{
    struct tools__login *lg = t->data;
    char why[96];
    uint64_t ms = bound_ms(lg->r);
    if (ms % 60000 == 0)
        snprintf(why, sizeof why, "nobody logged in within %llu minutes",
                 (unsigned long long) (ms / 60000));
    else
        snprintf(why, sizeof why, "nobody logged in within %llu ms", (unsigned long long) ms);
    finish(lg, 0, why);
}

static struct tools__login *start(struct tools_registry *r, size_t server)
{
    struct tools__login *lg = xcalloc(1, sizeof *lg);
    lg->r = r;
    lg->server = server;
    uv_timer_init(r->loop, &lg->bound);
    lg->bound.data = lg;
    uv_timer_start(&lg->bound, bound_expired, bound_ms(r), 0);
    struct slot *s = &r->slots[server];
    lg->l = tools_oauth_login_start_at(r->loop, s->cfg, r->oauth_redirect_uri,
                                       s->d ? tools_downstream_step_up_scope(s->d) : NULL,
                                       &login_events, lg);
    r->slots[server].login = lg;
    log_info("tools", "server %s needs a login: asking the client to open its login page",
             r->slots[server].cfg->name);
    return lg;
}

/* --- the calls -------------------------------------------------------------------------------- */

static int failed_in(const struct tools_exec *x, size_t server)
{
    for (size_t i = 0; i < x->nlogin_failed; i++)
        if (x->login_failed[i] == server)
            return 1;
    return 0;
}

int tools__login_join(struct tools_call *c)
{
    if (c->tool == NULL || c->res)
        return 0;
    return tools__login_join_server(c, c->tool->server_index);
}

int tools__login_join_server(struct tools_call *c, size_t i)
{
    struct tools_registry *r = c->r;
    if (c->login_tried || c->x == NULL || c->x->login == NULL || r->loop == NULL)
        return 0;
    struct slot *s = &r->slots[i];
    if (s->cfg->oauth == NULL || s->cfg->oauth->client_credentials || s->d == NULL ||
        failed_in(c->x, i))
        return 0;
    const struct tools_login_asker *la = c->x->login;
    void *h = la->wait(la->self, s->cfg->name);
    if (h == NULL)
        return 0;
    c->login_tried = 1;
    c->login_handle = h;
    c->dc = NULL;
    struct tools__login *lg = s->login ? s->login : start(r, i);
    struct tools_call **pp = &lg->waiters;
    while (*pp)
        pp = &(*pp)->login_next;
    *pp = c;
    c->login = lg;
    ask(lg); /* when the URL is known and nobody was asked yet */
    return 1;
}

void tools__login_leave(struct tools_call *c)
{
    struct tools__login *lg = c->login;
    if (lg == NULL)
        return;
    int was_asker = lg->asker == c;
    const struct tools_login_asker *la = c->x->login;
    unlink_waiter(lg, c);
    if (was_asker && lg->accepted && la->detach && c->login_handle) {
        lg->told_end = la->end; /* its client hears when the login completes */
        lg->told = c->login_handle;
        c->login_handle = NULL;
        la->detach(la->self, lg->told);
    }
    end_wait(c, 0);
    if (!was_asker || lg->accepted)
        return; /* an accepted login goes on: its tokens serve the next calls */
    if (lg->waiters)
        ask(lg); /* the next waiting call's person */
    else
        finish(lg, 0, NULL); /* nobody waits, nobody was sent to the page */
}

void tools__login_free_all(struct tools_registry *r)
{
    for (size_t i = 0; i < r->nslots; i++)
        if (r->slots[i].login)
            finish(r->slots[i].login, 0, "mcp-codemode is shutting down");
}

const char *tools_registry_oauth_callback(struct tools_registry *r, const char *query)
{
    for (size_t i = 0; i < r->nslots; i++) {
        struct tools__login *lg = r->slots[i].login;
        if (lg && lg->l && tools_oauth_login_expects(lg->l, query))
            return tools_oauth_login_redirect(lg->l, query);
    }
    return NULL;
}

void tools_registry_set_oauth_redirect(struct tools_registry *r, const char *uri)
{
    free(r->oauth_redirect_uri);
    r->oauth_redirect_uri = uri ? xstrdup(uri) : NULL;
}
