/* A running server's tokens for one remote server (see tokens.h). The row
 * in the state database is the truth; this keeps the access token in
 * memory and coordinates refreshes: a lease (lease_owner, lease_until)
 * written with compare-and-set before the refresh token is spent, so only
 * one process spends it; the others poll the row until the new token is
 * there or the lease expires. */
#include "tools/oauth/tokens.h"
#include "tools/oauth/client_auth.h"
#include "tools/oauth/fetch.h"
#include "tools/oauth/login.h"
#include "tools/oauth/metadata.h"
#include "tools/server_config.h"
#include "tools/state/store.h"
#include "transport/http_client.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"
#include "common/random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LEASE_SECONDS 30 /* a refresh still not written after this is abandoned */
#define POLL_MS       200

struct waiter {
    struct waiter *next;
    tools_oauth_refreshed_cb *cb;
    void *ud;
};

struct tools_oauth_tokens {
    uv_loop_t *loop;
    char *name, *url, *key, *label;
    struct tools_state *store;
    struct http_client *hc;
    char *access;    /* the current access token, or NULL */
    int64_t expires; /* its expiry (Unix seconds), 0: not said */
    char *stale;     /* the token the running refresh replaces */
    char *problem;   /* why there is no token */
    char owner[33];  /* this process's lease id */
    struct waiter *waiters;
    uv_timer_t timer; /* the next step of a refresh */
    struct tools_oauth_fetch *fetch;
    cJSON *row; /* the leased row during a refresh */
    int64_t version;
    uint64_t started; /* uv_now when the refresh began */
    int busy;
    /* the entry, copied: the client credentials grant gets its tokens itself */
    struct tools_server_config srv;
    struct tools_oauth_config cfg;
    struct tools_oauth_login *login; /* client credentials: discovery and the first token */
    int login_over;                  /* login reported: to be freed */
    uv_timer_t watch;                /* the refresh shortly before expiry */
    uint64_t watch_margin_ms;
    char *watched; /* the token a watch refresh replaces */
    tools_oauth_refreshed_cb *watch_cb;
    void *watch_ud;
    int closing;
};

char *tools_oauth_token_key(const char *url)
{
    return tools_oauth_canonical_uri(url);
}

cJSON *tools_oauth_row_read(struct tools_state *s, const char *key, int64_t *version, char *err)
{
    char *json = NULL;
    err[0] = '\0';
    int rc = tools_state_oauth_get(s, "token", key, &json, version, err);
    if (rc != TOOLS_STATE_OK)
        return NULL;
    cJSON *row = json_parse(json, strlen(json));
    free(json);
    if (!cJSON_IsObject(row)) {
        cJSON_Delete(row);
        snprintf(err, TOOLS_STATE_ERR_MAX, "the stored tokens are not readable");
        return NULL;
    }
    return row;
}

static void set_problem(struct tools_oauth_tokens *t, const char *fmt, const char *detail)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, fmt, detail ? detail : "");
    buf_printf(&b, "; run: mcp-codemode login %s", t->name);
    free(t->problem);
    t->problem = buf_steal(&b);
}

static void forget_access(struct tools_oauth_tokens *t)
{
    free(t->access);
    t->access = NULL;
    t->expires = 0;
}

/* Takes the access token of row (when it has one). */
static void adopt(struct tools_oauth_tokens *t, const cJSON *row)
{
    const char *at = tools_oauth_str(row, "access_token");
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(row, "expires_at");
    forget_access(t);
    if (at && *at) {
        t->access = xstrdup(at);
        t->expires = cJSON_IsNumber(exp) ? (int64_t) exp->valuedouble : 0;
        free(t->problem);
        t->problem = NULL;
    } else {
        set_problem(t, "it needs a login%s",
                    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "needs_login"))
                        ? " (its refresh token was refused)"
                        : "");
    }
}

static void read_row(struct tools_oauth_tokens *t)
{
    char err[TOOLS_STATE_ERR_MAX];
    int64_t v;
    cJSON *row = tools_oauth_row_read(t->store, t->key, &v, err);
    if (row) {
        adopt(t, row);
    } else {
        forget_access(t);
        set_problem(t, *err ? "its tokens cannot be read (%s)" : "it needs a login%s", err);
    }
    cJSON_Delete(row);
}

static char *dup_or_null(const char *v)
{
    return v ? xstrdup(v) : NULL;
}

static char **dup_vector(char *const *v)
{
    size_t n = 0;
    while (v[n])
        n++;
    char **out = xcalloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = xstrdup(v[i]);
    return out;
}

struct tools_oauth_tokens *tools_oauth_tokens_new(uv_loop_t *loop,
                                                  const struct tools_server_config *s)
{
    struct tools_oauth_tokens *t = xcalloc(1, sizeof *t);
    const struct tools_oauth_config *cfg = s->oauth;
    t->loop = loop;
    t->name = xstrdup(s->name);
    t->url = xstrdup(s->url);
    t->key = tools_oauth_token_key(s->url);
    if (t->key == NULL)
        t->key = xstrdup(s->url);
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "server %s", s->name);
    t->label = buf_steal(&b);
    t->cfg.client_id = dup_or_null(cfg->client_id);
    t->cfg.client_secret = dup_or_null(cfg->client_secret);
    t->cfg.private_key_file = dup_or_null(cfg->private_key_file);
    t->cfg.resource = dup_or_null(cfg->resource);
    t->cfg.store_path = dup_or_null(cfg->store_path);
    t->cfg.scopes = cfg->scopes ? dup_vector(cfg->scopes) : NULL;
    t->cfg.send_resource = cfg->send_resource;
    t->cfg.client_credentials = cfg->client_credentials;
    t->cfg.redirect_port = cfg->redirect_port;
    t->srv.name = t->name;
    t->srv.url = t->url;
    t->srv.transport = s->transport;
    t->srv.oauth = &t->cfg;
    struct tools_state_options o = {.path = cfg->store_path ? cfg->store_path : ""};
    t->store = tools_state_new(&o);
    random_hex(t->owner, 16);
    uv_timer_init(loop, &t->timer);
    t->timer.data = t;
    uv_timer_init(loop, &t->watch);
    t->watch.data = t;
    return t;
}

static void finish(struct tools_oauth_tokens *t, int ok)
{
    struct waiter *w = t->waiters;
    t->waiters = NULL;
    cJSON_Delete(t->row);
    t->row = NULL;
    free(t->stale);
    t->stale = NULL;
    t->busy = 0;
    while (w) {
        struct waiter *next = w->next;
        w->cb(w->ud, ok);
        free(w);
        w = next;
    }
}

static void timer_closed(uv_handle_t *h)
{
    struct tools_oauth_tokens *t = h->data;
    if (--t->closing == 0)
        free(t);
}

void tools_oauth_tokens_free(struct tools_oauth_tokens *t)
{
    if (t == NULL)
        return;
    tools_oauth_fetch_cancel(t->fetch);
    if (t->login)
        tools_oauth_login_free(t->login);
    for (struct waiter *w = t->waiters, *n; w; w = n) {
        n = w->next;
        free(w);
    }
    if (t->hc)
        http_client_free(t->hc);
    tools_state_free(t->store);
    cJSON_Delete(t->row);
    forget_access(t);
    free(t->stale);
    free(t->watched);
    free(t->problem);
    free(t->name);
    free(t->url);
    free(t->key);
    free(t->label);
    free(t->cfg.client_id);
    free(t->cfg.client_secret);
    free(t->cfg.private_key_file);
    free(t->cfg.resource);
    free(t->cfg.store_path);
    tools_oauth_free_vector(t->cfg.scopes);
    t->closing = 2;
    uv_close((uv_handle_t *) &t->timer, timer_closed);
    uv_close((uv_handle_t *) &t->watch, timer_closed);
}

static int expired(const struct tools_oauth_tokens *t, int64_t margin_s)
{
    return t->expires > 0 && (int64_t) time(NULL) + margin_s >= t->expires;
}

const char *tools_oauth_tokens_current(struct tools_oauth_tokens *t)
{
    if (t->access == NULL || expired(t, 0))
        read_row(t);
    return t->access;
}

int tools_oauth_tokens_due(struct tools_oauth_tokens *t, uint64_t margin_ms)
{
    return tools_oauth_tokens_current(t) == NULL || expired(t, (int64_t) (margin_ms / 1000));
}

const char *tools_oauth_tokens_problem(const struct tools_oauth_tokens *t)
{
    return t->problem;
}

/* --- the refresh ------------------------------------------------------------------------------ */

static void step(uv_timer_t *timer);

static void later(struct tools_oauth_tokens *t, uint64_t ms)
{
    uv_timer_start(&t->timer, step, ms, 0);
}

/* Writes row at the version we hold; on a conflict the row is read again. */
static int write_row(struct tools_oauth_tokens *t, cJSON *row, int64_t *version)
{
    char err[TOOLS_STATE_ERR_MAX];
    char *json = json_print(row);
    int rc = tools_state_oauth_put(t->store, "token", t->key, json, *version, version, err);
    free(json);
    if (rc != TOOLS_STATE_OK && rc != TOOLS_STATE_CONFLICT)
        log_warn(t->label, "cannot store its tokens: %s", err);
    return rc;
}

static void replace(cJSON *row, const char *key, cJSON *v)
{
    cJSON_DeleteItemFromObjectCaseSensitive(row, key);
    cJSON_AddItemToObject(row, key, v);
}

static void refreshed(void *ud, const struct tools_oauth_answer *a)
{
    struct tools_oauth_tokens *t = ud;
    t->fetch = NULL;
    cJSON *row = t->row;
    const char *at = tools_oauth_str(a->json, "access_token");
    const char *error = tools_oauth_str(a->json, "error");
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(a->json, "expires_in");
    const char *rt = tools_oauth_str(a->json, "refresh_token");
    cJSON_DeleteItemFromObjectCaseSensitive(row, "lease_owner");
    cJSON_DeleteItemFromObjectCaseSensitive(row, "lease_until");
    int ok = 0;
    if (a->status == 200 && at && *at) {
        replace(row, "access_token", cJSON_CreateString(at));
        if (rt)
            replace(row, "refresh_token", cJSON_CreateString(rt));
        replace(row, "expires_at",
                cJSON_IsNumber(exp) && exp->valuedouble > 0
                    ? cJSON_CreateNumber((double) time(NULL) + exp->valuedouble)
                    : cJSON_CreateNumber(0));
        ok = 1;
    } else if (error &&
               (strcmp(error, "invalid_grant") == 0 || strcmp(error, "invalid_client") == 0)) {
        /* the refresh token (or client) is gone: a login is needed, once */
        log_warn(t->label, "its refresh token was refused (%s): it needs a login", error);
        cJSON_DeleteItemFromObjectCaseSensitive(row, "access_token");
        cJSON_DeleteItemFromObjectCaseSensitive(row, "refresh_token");
        replace(row, "needs_login", cJSON_CreateTrue());
    } else {
        log_warn(t->label, "refreshing its token failed: %s",
                 a->error ? a->error
                 : error  ? error
                          : "unexpected answer");
    }
    int rc = write_row(t, row, &t->version);
    if (rc == TOOLS_STATE_OK)
        adopt(t, row);
    else
        read_row(t); /* our lease was broken: whatever is stored now */
    if (!ok && t->access == NULL && a->error)
        set_problem(t, "refreshing its token failed (%s)", a->error);
    finish(t, t->access != NULL && (t->stale == NULL || strcmp(t->access, t->stale) != 0));
}

static struct http_client *client(struct tools_oauth_tokens *t)
{
    char err[256];
    if (t->hc == NULL &&
        (t->hc = http_client_new(t->loop, "mcp-codemode", err, sizeof err)) == NULL)
        log_warn(t->label, "%s", err);
    return t->hc;
}

/* Spends the refresh token of the leased row, or asks for a new token with
 * the client credentials grant. */
static void spend(struct tools_oauth_tokens *t)
{
    const cJSON *row = t->row;
    const char *endpoint = tools_oauth_str(row, "token_endpoint");
    const char *client_id = tools_oauth_str(row, "client_id");
    const char *resource = tools_oauth_str(row, "resource");
    const char *method = tools_oauth_str(row, "auth_method");
    const char *grant = tools_oauth_str(row, "grant");
    int cc = grant && strcmp(grant, "client_credentials") == 0;
    /* a client credentials row keeps no secret: it is the entry's */
    const char *secret = cc ? t->cfg.client_secret : tools_oauth_str(row, "client_secret");
    struct buf form;
    buf_init(&form, 0);
    if (cc) {
        tools_oauth_form_add(&form, "grant_type", "client_credentials");
        if (tools_oauth_str(row, "requested_scope"))
            tools_oauth_form_add(&form, "scope", tools_oauth_str(row, "requested_scope"));
    } else {
        tools_oauth_form_add(&form, "grant_type", "refresh_token");
        tools_oauth_form_add(&form, "refresh_token", tools_oauth_str(row, "refresh_token"));
    }
    if (resource)
        tools_oauth_form_add(&form, "resource", resource);
    if (method == NULL) /* rows of earlier versions: the secret in the form */
        method = secret ? "client_secret_post" : "none";
    char why[512], *authorization = NULL;
    int auth = tools_oauth_client_auth(
        method, client_id ? client_id : "", secret, t->cfg.private_key_file,
        tools_oauth_str(row, "issuer") ? tools_oauth_str(row, "issuer") : "", &form, &authorization,
        why, sizeof why);
    struct tools_oauth_request rq = {.method = "POST",
                                     .url = endpoint ? endpoint : "",
                                     .content_type = "application/x-www-form-urlencoded",
                                     .body = form.data,
                                     .authorization = authorization};
    struct http_client *hc = auth == 0 ? client(t) : NULL;
    t->fetch = hc ? tools_oauth_fetch_start(hc, &rq, refreshed, t) : NULL;
    buf_free(&form);
    free(authorization);
    if (t->fetch == NULL) {
        struct tools_oauth_answer a = {.error =
                                           auth == 0 ? "could not start the token request" : why};
        refreshed(t, &a);
    }
}

/* --- the client credentials grant without a row: discovery first ------------------------ */

static void cc_authorize(void *ud, const char *url)
{
    (void) ud; /* never: the client credentials grant has no person */
    (void) url;
}

static void cc_done(void *ud, int ok, const char *message)
{
    struct tools_oauth_tokens *t = ud;
    read_row(t);
    if (!ok) { /* `login` runs the same grant and says what went wrong */
        log_warn(t->label, "%s", message);
        const char *colon = strchr(message, ':');
        set_problem(t, "%s", strncmp(message, "server ", 7) == 0 && colon ? colon + 2 : message);
    }
    t->login_over = 1; /* freed on the next turn (not inside its own event) */
    later(t, 0);
    finish(t, t->access != NULL);
}

static const struct tools_oauth_login_events cc_events = {cc_authorize, cc_done};

static int newer(const struct tools_oauth_tokens *t, const cJSON *row)
{
    const char *at = tools_oauth_str(row, "access_token");
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(row, "expires_at");
    int64_t e = cJSON_IsNumber(exp) ? (int64_t) exp->valuedouble : 0;
    /* another process's new token is taken while it is valid, however short
     * its life: waiting for our own refresh could let the current one expire */
    if (at == NULL || (e > 0 && (int64_t) time(NULL) >= e))
        return 0;
    return t->stale == NULL || strcmp(at, t->stale) != 0;
}

/* One step: adopt a newer row, wait for another process's lease, or take
 * the lease and spend the refresh token. */
static void step(uv_timer_t *timer)
{
    struct tools_oauth_tokens *t = timer->data;
    if (t->login_over) {
        tools_oauth_login_free(t->login);
        t->login = NULL;
        t->login_over = 0;
        if (!t->busy)
            return;
    }
    char err[TOOLS_STATE_ERR_MAX];
    int64_t v;
    cJSON *row = tools_oauth_row_read(t->store, t->key, &v, err);
    const cJSON *until = cJSON_GetObjectItemCaseSensitive(row, "lease_until");
    const char *owner = tools_oauth_str(row, "lease_owner");
    int64_t now = (int64_t) time(NULL);
    if (row == NULL && *err == '\0' && t->cfg.client_credentials) {
        t->login = tools_oauth_login_start(t->loop, &t->srv, &cc_events, t);
        return;
    } else if (row == NULL) {
        set_problem(t, *err ? "its tokens cannot be read (%s)" : "it needs a login%s", err);
        forget_access(t);
        finish(t, 0);
    } else if (newer(t, row)) {
        adopt(t, row);
        cJSON_Delete(row);
        finish(t, 1);
        return;
    } else if (owner && strcmp(owner, t->owner) != 0 && cJSON_IsNumber(until) &&
               until->valuedouble > (double) now &&
               uv_now(t->loop) - t->started < LEASE_SECONDS * 1000) {
        cJSON_Delete(row); /* another process is refreshing: wait for its token */
        later(t, POLL_MS);
        return;
    } else if (tools_oauth_str(row, "refresh_token") == NULL &&
               !(tools_oauth_str(row, "grant") &&
                 strcmp(tools_oauth_str(row, "grant"), "client_credentials") == 0)) {
        adopt(t, row);
        if (t->access && t->stale && strcmp(t->access, t->stale) == 0)
            forget_access(t);
        if (t->access == NULL)
            set_problem(t, "its access token expired and it has no refresh token%s", "");
        cJSON_Delete(row);
        finish(t, t->access != NULL);
        return;
    } else {
        replace(row, "lease_owner", cJSON_CreateString(t->owner));
        replace(row, "lease_until", cJSON_CreateNumber((double) (now + LEASE_SECONDS)));
        int rc = write_row(t, row, &v);
        if (rc == TOOLS_STATE_CONFLICT) {
            cJSON_Delete(row);
            later(t, 0); /* another process wrote first: look again */
            return;
        }
        if (rc != TOOLS_STATE_OK) {
            cJSON_Delete(row);
            finish(t, 0);
            return;
        }
        t->row = row;
        t->version = v;
        spend(t);
        return;
    }
    cJSON_Delete(row);
}

int tools_oauth_tokens_refresh(struct tools_oauth_tokens *t, const char *stale,
                               tools_oauth_refreshed_cb *cb, void *ud)
{
    struct waiter *w = xcalloc(1, sizeof *w);
    w->cb = cb;
    w->ud = ud;
    w->next = t->waiters;
    t->waiters = w;
    if (t->busy)
        return 0;
    t->busy = 1;
    t->started = uv_now(t->loop);
    t->stale = stale ? xstrdup(stale) : t->access ? xstrdup(t->access) : NULL;
    later(t, 0);
    return 0;
}

/* --- the tool list kept for a server that needs a login ------------------------------------- */

void tools_oauth_tokens_keep_tools(struct tools_oauth_tokens *t, const cJSON *tools)
{
    char err[TOOLS_STATE_ERR_MAX], *json = json_print(tools), *old = NULL;
    int64_t v;
    int rc = tools_state_oauth_get(t->store, "tools", t->key, &old, &v, err);
    if (rc != TOOLS_STATE_OK || strcmp(old, json) != 0)
        tools_state_oauth_put(t->store, "tools", t->key, json, -1, &v, err);
    free(old);
    free(json);
}

cJSON *tools_oauth_tokens_kept_tools(struct tools_oauth_tokens *t)
{
    char err[TOOLS_STATE_ERR_MAX], *json = NULL;
    int64_t v;
    if (tools_state_oauth_get(t->store, "tools", t->key, &json, &v, err) != TOOLS_STATE_OK)
        return NULL;
    cJSON *tools = json_parse(json, strlen(json));
    free(json);
    if (!cJSON_IsArray(tools)) {
        cJSON_Delete(tools);
        return NULL;
    }
    return tools;
}

/* --- step-up ---------------------------------------------------------------------------------- */

/* Adds each space-separated scope of add to the set in b (no duplicates). */
static void scope_union(struct buf *b, const char *add)
{
    for (const char *p = add; p && *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == 0)
            break;
        int have = 0;
        for (const char *q = b->data; q && *q;) {
            while (*q == ' ')
                q++;
            size_t m = strcspn(q, " ");
            if (m == n && strncmp(p, q, n) == 0)
                have = 1;
            q += m;
        }
        if (!have) {
            if (b->len)
                buf_append_char(b, ' ');
            buf_append(b, p, n);
        }
        p += n;
    }
    if (b->data == NULL)
        buf_append_str(b, "");
}

/* 1 when every scope of need is in set. */
static int scopes_cover(const char *set, const char *need)
{
    struct buf b;
    buf_init(&b, 0);
    scope_union(&b, set);
    size_t before = b.len;
    scope_union(&b, need);
    int covered = b.len == before;
    buf_free(&b);
    return covered;
}

char *tools_oauth_tokens_step_up(struct tools_oauth_tokens *t, const char *scope)
{
    char err[TOOLS_STATE_ERR_MAX];
    int64_t v;
    struct buf b, msg;
    buf_init(&b, 0);
    buf_init(&msg, 0);
    cJSON *row = tools_oauth_row_read(t->store, t->key, &v, err);
    const char *asked = tools_oauth_str(row, "asked_scope");
    if (scope == NULL || *scope == '\0') {
        buf_printf(&msg, "the server refused the call for want of a scope it did not name");
    } else if (asked && scopes_cover(asked, scope)) {
        /* a login asked for these already: another would not help (bounded) */
        buf_printf(&msg,
                   "the server still needs scope \"%s\" after a login that asked for it: the "
                   "authorization server did not grant it to this account or client",
                   scope);
    } else {
        scope_union(&b, tools_oauth_str(row, "scope"));
        scope_union(&b, tools_oauth_str(row, "step_up_scope"));
        scope_union(&b, scope);
        if (row) {
            replace(row, "step_up_scope", cJSON_CreateString(b.data));
            if (write_row(t, row, &v) == TOOLS_STATE_CONFLICT)
                log_debug(t->label, "its token row changed while recording a step-up");
        }
        buf_printf(&msg,
                   "the call needs scope \"%s\", which its token lacks (a new login asks "
                   "for \"%s\"); run: mcp-codemode login %s",
                   scope, b.data, t->name);
    }
    cJSON_Delete(row);
    buf_free(&b);
    return buf_steal(&msg);
}

/* --- the refresh shortly before expiry ------------------------------------------------------ */

static void watch_refreshed(void *ud, int ok)
{
    struct tools_oauth_tokens *t = ud;
    /* the same token again (no refresh token): nothing new to watch; it is
     * used until refused */
    if (ok && t->watched && t->access && strcmp(t->access, t->watched) == 0)
        ok = 0;
    free(t->watched);
    t->watched = NULL;
    if (t->watch_cb)
        t->watch_cb(t->watch_ud, ok);
}

static void watch_fired(uv_timer_t *timer)
{
    struct tools_oauth_tokens *t = timer->data;
    free(t->watched);
    t->watched = t->access ? xstrdup(t->access) : NULL;
    tools_oauth_tokens_refresh(t, t->access, watch_refreshed, t);
}

void tools_oauth_tokens_watch(struct tools_oauth_tokens *t, uint64_t margin_ms,
                              tools_oauth_refreshed_cb *cb, void *ud)
{
    t->watch_cb = cb;
    t->watch_ud = ud;
    t->watch_margin_ms = margin_ms;
    uv_timer_stop(&t->watch);
    if (cb == NULL || t->access == NULL || t->expires <= 0)
        return;
    /* margin_ms ahead, or at half the time left for a token that lives less */
    int64_t left_ms = (t->expires - (int64_t) time(NULL)) * 1000;
    int64_t at = left_ms - (int64_t) margin_ms;
    if (at < left_ms / 2)
        at = left_ms / 2;
    uv_timer_start(&t->watch, watch_fired, at > 100 ? (uint64_t) at : 100, 0);
}

/* --- check ------------------------------------------------------------------------------------ */

char *tools_oauth_login_state(const char *name, const char *url,
                              const struct tools_oauth_config *cfg)
{
    struct tools_state_options o = {.path = cfg->store_path ? cfg->store_path : ""};
    struct tools_state *s = tools_state_new(&o);
    char err[TOOLS_STATE_ERR_MAX];
    char *key = tools_oauth_token_key(url);
    int64_t v;
    struct buf b;
    buf_init(&b, 0);
    cJSON *row = NULL;
    if (tools_state_local_file_exists(s) && key)
        row = tools_oauth_row_read(s, key, &v, err);
    else
        err[0] = '\0';
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(row, "expires_at");
    if (row && (tools_oauth_str(row, "access_token") || tools_oauth_str(row, "refresh_token"))) {
        buf_append_str(&b, "logged in");
        if (tools_oauth_str(row, "issuer"))
            buf_printf(&b, " at %s", tools_oauth_str(row, "issuer"));
        if (cJSON_IsNumber(exp) && exp->valuedouble > 0) {
            time_t until = (time_t) exp->valuedouble;
            struct tm tm;
            char when[64];
            gmtime_r(&until, &tm);
            strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
            buf_printf(&b, " (until %s%s)", when,
                       tools_oauth_str(row, "refresh_token") ? ", then refreshed" : "");
        }
    } else if (*err) {
        buf_printf(&b, "cannot tell: %s", err);
    } else {
        buf_printf(&b, "needs login: mcp-codemode login %s", name);
    }
    cJSON_Delete(row);
    free(key);
    tools_state_free(s);
    return buf_steal(&b);
}
