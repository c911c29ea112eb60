/* `mcp-codemode login SERVER` and `logout SERVER` (see login_cmd.h). The
 * login runs tools/oauth/login.c on a loop of its own; this file is the
 * person's side: the URL on stderr, the browser, the pasted redirect. The
 * logout forgets the tokens, then revokes them (tools/oauth/revoke.c). */
#include "mcp-server/login_cmd.h"
#include "mcp-server/browser.h"
#include "mcp-server/config/config.h"
#include "tools/oauth/login.h"
#include "tools/oauth/revoke.h"
#include "tools/oauth/tokens.h"
#include "tools/state/store.h"
#include "tools/server_config.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

struct session {
    uv_loop_t loop;
    struct tools_oauth_login *login;
    int no_browser, ok, over, authorizing;
    uv_pipe_t in_pipe;
    uv_tty_t in_tty;
    uv_stream_t *in;
    struct buf line;
};

static const struct tools_server_config *find_server(const struct config *cfg, const char *name)
{
    for (size_t i = 0; i < cfg->nservers; i++)
        if (strcmp(cfg->servers[i].name, name) == 0)
            return &cfg->servers[i];
    return NULL;
}

static void deliver_line(struct session *s)
{
    char *nl = s->line.data ? strchr(s->line.data, '\n') : NULL;
    while (nl && s->authorizing && !s->over) {
        *nl = '\0';
        char *url = s->line.data;
        while (*url == ' ' || *url == '\t')
            url++;
        if (*url)
            tools_oauth_login_paste(s->login, url);
        buf_consume(&s->line, (size_t) (nl - s->line.data) + 1);
        nl = s->line.data && s->line.len ? memchr(s->line.data, '\n', s->line.len) : NULL;
    }
}

static void alloc_cb(uv_handle_t *h, size_t n, uv_buf_t *b)
{
    (void) h;
    b->base = xmalloc(n);
    b->len = n;
}

static void on_stdin(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
    struct session *s = st->data;
    if (n > 0 && s->line.len < 65536)
        buf_append(&s->line, b->base, (size_t) n);
    if (n < 0) {
        buf_append_char(&s->line, '\n');
        uv_read_stop(st);
    }
    free(b->base);
    deliver_line(s);
}

static void read_stdin(struct session *s)
{
    uv_handle_type t = uv_guess_handle(0);
    if (t == UV_TTY && uv_tty_init(&s->loop, &s->in_tty, 0, 1) == 0)
        s->in = (uv_stream_t *) &s->in_tty;
    else if (t == UV_NAMED_PIPE && uv_pipe_init(&s->loop, &s->in_pipe, 0) == 0) {
        if (uv_pipe_open(&s->in_pipe, 0) == 0)
            s->in = (uv_stream_t *) &s->in_pipe;
        else
            uv_close((uv_handle_t *) &s->in_pipe, NULL);
    }
    if (s->in) {
        s->in->data = s;
        uv_read_start(s->in, alloc_cb, on_stdin);
    }
}

static void on_authorize(void *ud, const char *url)
{
    struct session *s = ud;
    s->authorizing = 1;
    if (s->no_browser) {
        fprintf(stderr,
                "Open this URL in a browser on any machine and log in:\n\n  %s\n\n"
                "Then paste here the whole URL the browser was sent to "
                "(it starts with http://127.0.0.1 and may show an error page):\n",
                url);
        read_stdin(s);
        deliver_line(s);
    } else {
        fprintf(stderr, "Opening the authorization page; if no browser opens, visit:\n\n  %s\n\n",
                url);
        mcp_open_browser(&s->loop, url);
    }
    fflush(stderr);
}

static void on_done(void *ud, int ok, const char *message)
{
    struct session *s = ud;
    s->over = 1;
    s->ok = ok;
    if (ok)
        printf("%s\n", message);
    else
        fprintf(stderr, "mcp-codemode: %s\n", message);
    if (s->in) {
        uv_read_stop(s->in);
        uv_close((uv_handle_t *) s->in, NULL);
        s->in = NULL;
    }
    uv_stop(&s->loop);
}

static const struct tools_oauth_login_events login_events = {on_authorize, on_done};

static int login(const struct tools_server_config *srv, int no_browser)
{
    struct session s;
    memset(&s, 0, sizeof s);
    s.no_browser = no_browser;
    buf_init(&s.line, 0);
    uv_loop_init(&s.loop);
    s.login = tools_oauth_login_start(&s.loop, srv, &login_events, &s);
    uv_run(&s.loop, UV_RUN_DEFAULT);
    tools_oauth_login_free(s.login);
    uv_run(&s.loop, UV_RUN_DEFAULT); /* let the handles close */
    uv_loop_close(&s.loop);
    buf_free(&s.line);
    return s.ok ? 0 : 1;
}

struct revoking {
    int ok;
    char *why;
};

static void revoked(void *ud, int ok, const char *why)
{
    struct revoking *r = ud;
    r->ok = ok;
    r->why = why ? xstrdup(why) : NULL;
}

/* Revokes the tokens of a forgotten row where the server offers it: 1 when
 * revoked, 0 when there was nothing to revoke, -1 with *why (malloc'd). */
static int revoke_tokens(const struct tools_server_config *srv, const cJSON *row, char **why)
{
    uv_loop_t loop;
    struct revoking r = {0, NULL};
    uv_loop_init(&loop);
    struct tools_oauth_revoke *rv = tools_oauth_revoke_start(
        &loop, row, srv->oauth->client_credentials ? srv->oauth->client_secret : NULL,
        srv->oauth->private_key_file, revoked, &r);
    if (rv) {
        uv_run(&loop, UV_RUN_DEFAULT);
        tools_oauth_revoke_free(rv);
        uv_run(&loop, UV_RUN_DEFAULT); /* let the handles close */
    }
    uv_loop_close(&loop);
    *why = r.why;
    return rv == NULL ? 0 : r.ok ? 1 : -1;
}

int login_cmd_run(const struct config *cfg, const struct cli *cli)
{
    const struct tools_server_config *srv = find_server(cfg, cli->server);
    if (srv == NULL) {
        fprintf(stderr, "mcp-codemode: no server \"%s\" in %s\n", cli->server,
                cfg->path ? cfg->path : "the config");
        return 2;
    }
    if (srv->transport == TOOLS_TRANSPORT_STDIO || srv->oauth == NULL) {
        fprintf(stderr,
                "mcp-codemode: server \"%s\" has no \"oauth\" object: add \"oauth\": {} to its "
                "entry (remote servers only)\n",
                srv->name);
        return 2;
    }
    char err[TOOLS_STATE_ERR_MAX], *why = NULL;
    if (tools_oauth_store_reach(srv->oauth, err) != 0) {
        fprintf(stderr, "mcp-codemode: %s\n", err);
        return 1;
    }
    if (cli->cmd == CLI_LOGIN)
        return login(srv, cli->no_browser);
    cJSON *row = NULL;
    int rc = tools_oauth_logout(srv, &row, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "mcp-codemode: %s\n", err);
        return 1;
    }
    if (rc != 0) {
        printf("%s was not logged in\n", srv->name);
        return 0;
    }
    int revoked_rc = revoke_tokens(srv, row, &why);
    cJSON_Delete(row);
    if (revoked_rc > 0)
        printf("logged out of %s; its tokens were revoked\n", srv->name);
    else
        printf("logged out of %s\n", srv->name);
    if (revoked_rc < 0)
        fprintf(stderr,
                "mcp-codemode: server %s: revoking its tokens failed (%s); they are forgotten "
                "here, and expire at the server\n",
                srv->name, why ? why : "unknown reason");
    free(why);
    return 0;
}
