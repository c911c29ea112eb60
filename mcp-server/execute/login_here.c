/* A login while `run`'s program waits, with a person at the terminal
 * (docs/oauth.md): the login asker that tools/ (tools/login_wait.c) uses
 * does what `mcp-codemode login` does - the authorization URL on stderr,
 * the browser opened ($BROWSER, else xdg-open) - and takes the person's
 * part as accepted; the redirect comes back on the loopback listener, and
 * the call goes on once the tokens are stored. The program's clock stops
 * while its call waits, as for approvals. `run --no-login`, or `run`
 * without a terminal on stdin and without $BROWSER, does not use this: the
 * call fails with ToolAuthError naming the login command. */
#include "mcp-server/execute/internal.h"
#include "mcp-server/browser.h"
#include "common/alloc.h"

#include <stdio.h>
#include <stdlib.h>

struct login_here {
    struct mcp_execution *exec;
    uv_loop_t *loop;
    char *server;
    uv_timer_t later; /* the person's part, on the loop's turn after ask */
    void (*answer)(void *ud, int accepted, const char *why);
    void *ud;
};

static void *wait_login(void *self, const char *server)
{
    struct mcp_execution *e = self;
    struct mcp_request *r = mcp_execute_request(e);
    if (mcp_execute_pause(e, 1) < 0)
        return NULL;
    struct login_here *w = xcalloc(1, sizeof *w);
    w->exec = e;
    w->loop = r->server->cfg.loop;
    w->server = xstrdup(server);
    uv_timer_init(w->loop, &w->later);
    w->later.data = w;
    return w;
}

static void accepted(uv_timer_t *t)
{
    struct login_here *w = t->data;
    w->answer(w->ud, 1, NULL); /* the loopback listener waits for the redirect */
}

static void ask_login(void *self, void *handle, const char *server, const char *url,
                      void (*answer)(void *ud, int accepted, const char *why), void *ud)
{
    struct login_here *w = handle;
    (void) self;
    w->answer = answer;
    w->ud = ud;
    fprintf(stderr,
            "mcp-codemode: the server \"%s\" needs a login; the program waits (its clock "
            "stopped). Opening the authorization page; if no browser opens, visit in a browser "
            "on this machine:\n\n  %s\n\n",
            server, url);
    fflush(stderr);
    mcp_open_browser(w->loop, url);
    uv_timer_start(&w->later, accepted, 0, 0);
}

static void closed(uv_handle_t *h)
{
    struct login_here *w = h->data;
    free(w->server);
    free(w);
}

static void end_login(void *self, void *handle, int completed)
{
    struct login_here *w = handle;
    (void) self;
    if (completed)
        fprintf(stderr, "mcp-codemode: logged in to %s; the program goes on\n", w->server);
    mcp_execute_pause(w->exec, 0);
    uv_timer_stop(&w->later);
    uv_close((uv_handle_t *) &w->later, closed);
}

struct tools_login_asker mcp_login_here_asker(struct mcp_execution *e)
{
    struct tools_login_asker la = {
        .wait = wait_login, .ask = ask_login, .end = end_login, .self = e};
    return la;
}
