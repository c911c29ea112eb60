/* OAuth for a remote downstream whose entry has "oauth": before each
 * connection attempt, the access token (tools/oauth/tokens.c) goes into an
 * "Authorization: Bearer" header of every request of the attempt; a token
 * that is about to expire, or that got a 401, is refreshed first. During a
 * session the token is refreshed shortly before it expires and the
 * connection's later requests carry the new one; a request refused with 401
 * is sent again once after a refresh (the server refused it before it
 * reached the tool). With no
 * token the attempt fails with the login command in its reason and the
 * server "needs login": its calls fail with ToolAuthError until a login
 * (each new attempt reads the database again). */
#include "tools/downstream/internal.h"
#include "tools/oauth/challenge.h"
#include "tools/oauth/tokens.h"
#include "tools/server_config.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>

#define REFRESH_MARGIN_MS 60000 /* at connect: refresh a token that expires sooner than this */
/* during a session: refresh this long before expiry (a token that lives
 * less than twice this is refreshed at half its life, see tokens_watch) */
#define REFRESH_AHEAD_MS 30000

void tools__downstream_auth_init(struct tools_downstream *d, const struct tools_server_config *s)
{
    if (s->oauth == NULL || s->transport == TOOLS_TRANSPORT_STDIO || s->url == NULL)
        return;
    d->oauth = tools_oauth_tokens_new(d->loop, s);
    d->config_headers = tools__downstream_dup_vector(d->headers);
}

void tools__downstream_auth_free(struct tools_downstream *d)
{
    tools_oauth_tokens_free(d->oauth);
    d->oauth = NULL;
    tools__downstream_free_vector(d->config_headers);
    free(d->rejected_token);
}

/* d->headers = the entry's headers + the bearer token. */
static void attach(struct tools_downstream *d, const char *token)
{
    size_t n = 0;
    while (d->config_headers && d->config_headers[n])
        n++;
    tools__downstream_free_vector(d->headers);
    d->headers = xcalloc(n + 2, sizeof *d->headers);
    for (size_t i = 0; i < n; i++)
        d->headers[i] = xstrdup(d->config_headers[i]);
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "Authorization: Bearer %s", token);
    d->headers[n] = buf_steal(&b);
}

static void watched(void *ud, int ok);

/* A server that needs a login and has listed no tools in this process: the
 * tools it listed before stay declared, each marked as needing the login
 * (its calls fail with ToolAuthError until then). */
static void declare_kept(struct tools_downstream *d)
{
    if (cJSON_GetArraySize(d->tools) > 0)
        return;
    cJSON *kept = tools_oauth_tokens_kept_tools(d->oauth), *t;
    if (kept == NULL || cJSON_GetArraySize(kept) == 0) {
        cJSON_Delete(kept);
        return;
    }
    cJSON_ArrayForEach(t, kept)
    {
        const char *was = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "description"));
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b,
                   "Needs login: mcp-codemode login %s (until then a call asks your client to "
                   "open the login page when it can, else throws ToolAuthError).%s%s",
                   d->name, was && *was ? " " : "", was ? was : "");
        cJSON_DeleteItemFromObjectCaseSensitive(t, "description");
        cJSON_AddStringToObject(t, "description", b.data);
        buf_free(&b);
    }
    cJSON_Delete(d->tools);
    d->tools = kept;
    if (d->ev && d->ev->tools_changed)
        d->ev->tools_changed(d->ud, d);
}

void tools__downstream_auth_keep_tools(struct tools_downstream *d)
{
    if (d->oauth && !d->needs_login)
        tools_oauth_tokens_keep_tools(d->oauth, d->tools);
}

/* Attaches token and keeps it fresh during the session. */
static void use(struct tools_downstream *d, const char *token)
{
    d->needs_login = 0;
    attach(d, token);
    tools_oauth_tokens_watch(d->oauth, REFRESH_AHEAD_MS, watched, d);
}

/* The token was refreshed ahead of its expiry during a session: later
 * requests of the connection carry the new one. A failed refresh changes
 * nothing now: the old token is used until it is refused. */
static void watched(void *ud, int ok)
{
    struct tools_downstream *d = ud;
    const char *token = ok ? tools_oauth_tokens_current(d->oauth) : NULL;
    if (d->closing || token == NULL)
        return;
    use(d, token);
    if (d->tp && d->ops->set_headers)
        d->ops->set_headers(d);
}

static void refreshed(void *ud, int ok)
{
    struct tools_downstream *d = ud;
    const char *token = ok ? tools_oauth_tokens_current(d->oauth) : NULL;
    d->auth_go = NULL;
    if (d->closing)
        return;
    free(d->rejected_token);
    d->rejected_token = NULL;
    if (token && d->auth_read && !tools_oauth_tokens_obtained(d->oauth) &&
        tools_oauth_tokens_due(d->oauth, REFRESH_MARGIN_MS)) {
        /* the stored token was read, and it expires too soon for an attempt */
        d->auth_read = 0;
        d->auth_go = d;
        tools_oauth_tokens_refresh(d->oauth, token, refreshed, d);
        return;
    }
    if (token == NULL) {
        d->needs_login = 1;
        declare_kept(d);
        tools__downstream_lost(d, tools_oauth_tokens_problem(d->oauth), 0);
        return;
    }
    use(d, token);
    d->auth_ready(d);
}

int tools__downstream_auth_prepare(struct tools_downstream *d,
                                   void (*ready)(struct tools_downstream *d))
{
    if (d->oauth == NULL)
        return 1;
    const char *token = tools_oauth_tokens_current(d->oauth);
    int stale = token && d->rejected_token && strcmp(token, d->rejected_token) == 0;
    if (token && !stale && !tools_oauth_tokens_due(d->oauth, REFRESH_MARGIN_MS)) {
        use(d, token);
        return 1;
    }
    d->auth_ready = ready;
    d->auth_go = d;                         /* a refresh runs */
    d->auth_read = token == NULL && !stale; /* nothing known yet: it reads the stored token */
    tools_oauth_tokens_refresh(d->oauth, stale ? d->rejected_token : NULL, refreshed, d);
    return 0;
}

const char *tools_downstream_step_up_scope(const struct tools_downstream *d)
{
    return d->oauth ? tools_oauth_tokens_step_up_scope(d->oauth) : NULL;
}

int tools_downstream_needs_login(const struct tools_downstream *d)
{
    return d->oauth && d->needs_login;
}

static void reloaded(void *ud, int ok)
{
    struct tools_downstream *d = ud;
    const char *token = ok ? tools_oauth_tokens_current(d->oauth) : NULL;
    d->reloading = 0;
    if (d->closing)
        return;
    if (token) {
        use(d, token);
        if (d->tp && d->ops->set_headers)
            d->ops->set_headers(d);
    }
    if (d->state == TOOLS_DOWNSTREAM_READY)
        tools__downstream_calls_flush(d); /* those that waited for the new token */
}

void tools__downstream_auth_reload(struct tools_downstream *d)
{
    const char *token = d->oauth ? tools_oauth_tokens_current(d->oauth) : NULL;
    if (d->reloading || token == NULL)
        return;
    d->reloading = 1; /* the login's row is newer than the token in use */
    char *stale = xstrdup(token);
    tools_oauth_tokens_refresh(d->oauth, stale, reloaded, d);
    free(stale);
}

void tools__downstream_auth_rejected(struct tools_downstream *d)
{
    if (d->oauth == NULL)
        return;
    const char *token = tools_oauth_tokens_current(d->oauth);
    free(d->rejected_token);
    d->rejected_token = token ? xstrdup(token) : NULL;
}

static void retried(void *ud, int ok)
{
    struct tools_downstream *d = ud;
    const char *token = ok ? tools_oauth_tokens_current(d->oauth) : NULL;
    d->auth_retrying = 0;
    if (d->closing)
        return;
    if (token) {
        free(d->rejected_token);
        d->rejected_token = NULL;
        use(d, token);
        if (d->tp && d->ops->set_headers)
            d->ops->set_headers(d);
    }
    if (d->tp && d->ops->auth_retried)
        d->ops->auth_retried(d, token != NULL);
}

void tools__downstream_auth_retry(struct tools_downstream *d, const char *stale)
{
    free(d->rejected_token);
    d->rejected_token = stale ? xstrdup(stale) : NULL;
    if (d->auth_retrying)
        return; /* the refresh running answers this request too */
    d->auth_retrying = 1;
    tools_oauth_tokens_refresh(d->oauth, stale, retried, d);
}

int tools__downstream_auth_forbidden(struct tools_downstream *d, const char *www, struct buf *out)
{
    struct tools_oauth_challenge ch;
    if (d->oauth == NULL || tools_oauth_challenge_parse(www, &ch) != 0)
        return 0;
    int step_up = ch.error && strcmp(ch.error, "insufficient_scope") == 0;
    if (step_up) {
        char *why = tools_oauth_tokens_step_up(d->oauth, ch.scope);
        buf_append_str(out, why);
        free(why);
    }
    tools_oauth_challenge_free(&ch);
    return step_up;
}

void tools__downstream_auth_refused(struct tools_downstream *d, struct buf *out, const char *url)
{
    buf_reset(out);
    buf_printf(out,
               "its access token was refused (%s answered HTTP 401 Unauthorized); the next "
               "connection attempt refreshes it, and if the server keeps refusing: run: "
               "mcp-codemode login %s",
               url, d->name);
}
