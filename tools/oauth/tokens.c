/* A running server's tokens for one remote server (see tokens.h). The row
 * in the state store (the SQLite file, or PostgreSQL with codemode.store)
 * is the truth; this keeps the access token in memory and coordinates
 * refreshes: a lease (lease_owner, lease_until) written with
 * compare-and-set before the refresh token is spent, so only one process
 * or instance spends it; the others poll the row until the new token is
 * there or the lease expires. Every read and write of the store runs on
 * libuv's thread pool (tools_state_oauth_start): a locked row or a slow
 * database never holds the loop. */
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
    char *failure;   /* why the running refresh failed (its token request) */
    char owner[33];  /* this process's lease id */
    struct waiter *waiters;
    uv_timer_t timer; /* the next step of a refresh */
    struct tools_oauth_fetch *fetch;
    cJSON *row; /* the leased row during a refresh */
    int64_t version;
    cJSON *last;          /* the row as last read or written (step-up reads it) */
    int64_t last_version; /* and its version */
    cJSON *kept;          /* the tool list kept for the server, as last read or written */
    int kept_known;       /* kept is what the store holds */
    uint64_t started;     /* uv_now when the refresh began */
    int busy;
    int obtained; /* the current token came from our own token request */
    int pending;  /* store operations in flight */
    int handles;  /* timers not yet closed */
    int dead;     /* freed by its owner: gone once pending and handles are 0 */
    /* the entry, copied: the client credentials grant gets its tokens itself */
    struct tools_server_config srv;
    struct tools_oauth_config cfg;
    struct tools_oauth_login *login; /* client credentials: discovery and the first token */
    uv_timer_t watch;                /* the refresh shortly before expiry */
    uint64_t watch_margin_ms;
    char *watched; /* the token a watch refresh replaces */
    tools_oauth_refreshed_cb *watch_cb;
    void *watch_ud;
};

struct tools_state *tools_oauth_store_new(const struct tools_oauth_config *cfg)
{
    struct tools_state_options o = {
        .path = cfg->store_path ? cfg->store_path : "",
        .url = cfg->store_url,
        .max_connections = cfg->store_max_connections,
        .connect_timeout_ms = cfg->store_connect_timeout_ms,
        .statement_timeout_ms = cfg->store_statement_timeout_ms,
    };
    return tools_state_new(&o);
}

int tools_oauth_store_reach(const struct tools_oauth_config *cfg, char *err)
{
    if (cfg->store_url == NULL)
        return 0;
    struct tools_state *s = tools_oauth_store_new(cfg);
    int rc = tools_state_connect(s, err);
    tools_state_free(s);
    return rc == TOOLS_STATE_OK ? 0 : -1;
}

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
    t->obtained = 0;
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

/* Remembers row (a copy) as the last one seen at version v. */
static void remember(struct tools_oauth_tokens *t, const cJSON *row, int64_t v)
{
    cJSON_Delete(t->last);
    t->last = row ? cJSON_Duplicate(row, 1) : NULL;
    t->last_version = row ? v : 0;
}

/* --- the store, off the loop ----------------------------------------------------------------- */

/* What a store operation answers: rc, the value read (owned; NULL unless a
 * read found one), the version read or written, the sentence (never NULL). */
typedef void stored_cb(struct tools_oauth_tokens *t, int rc, cJSON *value, int64_t version,
                       const char *err);

struct store_op {
    struct tools_oauth_tokens *t;
    stored_cb *cb;
};

static void really_free(struct tools_oauth_tokens *t);

static void store_done(void *ud, int rc, const char *json, int64_t version, const char *err)
{
    struct store_op *o = ud;
    struct tools_oauth_tokens *t = o->t;
    stored_cb *cb = o->cb;
    free(o);
    t->pending--;
    if (t->dead) {
        really_free(t);
        return;
    }
    cJSON *value = NULL;
    if (rc == TOOLS_STATE_OK && json && (value = json_parse(json, strlen(json))) == NULL) {
        rc = TOOLS_STATE_FAILED;
        err = "the stored tokens are not readable";
    }
    if (cb)
        cb(t, rc, value, version, err ? err : "");
    else
        cJSON_Delete(value);
}

/* Reads (json NULL) or writes (at if_version, as tools_state_oauth_put) the
 * row of kind for this server on the thread pool; cb (may be NULL) on the
 * loop, never after tools_oauth_tokens_free. */
static void store_op(struct tools_oauth_tokens *t, const char *kind, const char *json,
                     int64_t if_version, stored_cb *cb)
{
    struct store_op *o = xcalloc(1, sizeof *o);
    o->t = t;
    o->cb = cb;
    t->pending++;
    tools_state_oauth_start(t->store, t->loop, kind, t->key, json, if_version, store_done, o);
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
    t->cfg.store_url = dup_or_null(cfg->store_url);
    t->cfg.store_max_connections = cfg->store_max_connections;
    t->cfg.store_connect_timeout_ms = cfg->store_connect_timeout_ms;
    t->cfg.store_statement_timeout_ms = cfg->store_statement_timeout_ms;
    t->cfg.scopes = cfg->scopes ? dup_vector(cfg->scopes) : NULL;
    t->cfg.send_resource = cfg->send_resource;
    t->cfg.client_credentials = cfg->client_credentials;
    t->cfg.redirect_port = cfg->redirect_port;
    t->srv.name = t->name;
    t->srv.url = t->url;
    t->srv.transport = s->transport;
    t->srv.oauth = &t->cfg;
    t->store = tools_oauth_store_new(&t->cfg);
    random_hex(t->owner, 16);
    uv_timer_init(loop, &t->timer);
    t->timer.data = t;
    uv_timer_init(loop, &t->watch);
    t->watch.data = t;
    t->handles = 2;
    return t;
}

static void deliver(struct tools_oauth_tokens *t, int ok)
{
    struct waiter *w = t->waiters;
    t->waiters = NULL;
    t->busy = 0;
    while (w) {
        struct waiter *next = w->next;
        w->cb(w->ud, ok);
        free(w);
        w = next;
    }
}

static void kept_read(struct tools_oauth_tokens *t, int rc, cJSON *value, int64_t v,
                      const char *err)
{
    (void) v;
    if (rc < 0)
        log_warn(t->label, "cannot read the tools kept for it: %s", err);
    cJSON_Delete(t->kept);
    t->kept = cJSON_IsArray(value) ? value : NULL;
    if (t->kept == NULL)
        cJSON_Delete(value);
    t->kept_known = rc >= 0;
    deliver(t, 0);
}

/* The refresh is over: its waiters learn ok. Without a token they are told
 * once the kept tool list was read (they declare it). */
static void finish(struct tools_oauth_tokens *t, int ok)
{
    cJSON_Delete(t->row);
    t->row = NULL;
    free(t->stale);
    t->stale = NULL;
    free(t->failure);
    t->failure = NULL;
    if (ok || t->kept_known)
        deliver(t, ok);
    else
        store_op(t, "tools", NULL, 0, kept_read);
}

static void really_free(struct tools_oauth_tokens *t)
{
    if (t->pending > 0 || t->handles > 0)
        return;
    tools_state_free(t->store);
    free(t);
}

static void timer_closed(uv_handle_t *h)
{
    struct tools_oauth_tokens *t = h->data;
    t->handles--;
    really_free(t);
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
    cJSON_Delete(t->row);
    cJSON_Delete(t->last);
    cJSON_Delete(t->kept);
    forget_access(t);
    free(t->stale);
    free(t->failure);
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
    free(t->cfg.store_url);
    tools_oauth_free_vector(t->cfg.scopes);
    t->dead = 1; /* the store is freed once its operations answered */
    uv_close((uv_handle_t *) &t->timer, timer_closed);
    uv_close((uv_handle_t *) &t->watch, timer_closed);
}

static int expired(const struct tools_oauth_tokens *t, int64_t margin_s)
{
    return t->expires > 0 && (int64_t) time(NULL) + margin_s >= t->expires;
}

const char *tools_oauth_tokens_current(struct tools_oauth_tokens *t)
{
    return t->access && !expired(t, 0) ? t->access : NULL;
}

int tools_oauth_tokens_due(struct tools_oauth_tokens *t, uint64_t margin_ms)
{
    return tools_oauth_tokens_current(t) == NULL || expired(t, (int64_t) (margin_ms / 1000));
}

int tools_oauth_tokens_obtained(const struct tools_oauth_tokens *t)
{
    return t->obtained;
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

static void replace(cJSON *row, const char *key, cJSON *v)
{
    cJSON_DeleteItemFromObjectCaseSensitive(row, key);
    cJSON_AddItemToObject(row, key, v);
}

static void refresh_over(struct tools_oauth_tokens *t)
{
    if (t->access == NULL && t->failure)
        set_problem(t, "refreshing its token failed (%s)", t->failure);
    finish(t, t->access != NULL && (t->stale == NULL || strcmp(t->access, t->stale) != 0));
}

/* Takes what a read of the stored row found (row is consumed): its tokens,
 * or the problem (none stored: a login is needed; unreadable: why). */
static void take_row(struct tools_oauth_tokens *t, int rc, cJSON *row, int64_t v, const char *err)
{
    if (rc == TOOLS_STATE_OK && cJSON_IsObject(row)) {
        remember(t, row, v);
        adopt(t, row);
    } else {
        forget_access(t);
        set_problem(t, rc < 0 ? "its tokens cannot be read (%s)" : "it needs a login%s",
                    rc < 0 ? err : "");
    }
    cJSON_Delete(row);
}

/* Our lease was broken meanwhile: whatever is stored now. */
static void reread(struct tools_oauth_tokens *t, int rc, cJSON *row, int64_t v, const char *err)
{
    take_row(t, rc, row, v, err);
    refresh_over(t);
}

static void written(struct tools_oauth_tokens *t, int rc, cJSON *value, int64_t v, const char *err)
{
    cJSON_Delete(value);
    if (rc == TOOLS_STATE_OK) {
        t->version = v;
        remember(t, t->row, v);
        adopt(t, t->row);
        t->obtained = t->access != NULL;
        refresh_over(t);
        return;
    }
    if (rc != TOOLS_STATE_CONFLICT)
        log_warn(t->label, "cannot store its tokens: %s", err);
    store_op(t, "token", NULL, 0, reread);
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
    if (a->status == 200 && at && *at) {
        replace(row, "access_token", cJSON_CreateString(at));
        if (rt)
            replace(row, "refresh_token", cJSON_CreateString(rt));
        replace(row, "expires_at",
                cJSON_IsNumber(exp) && exp->valuedouble > 0
                    ? cJSON_CreateNumber((double) time(NULL) + exp->valuedouble)
                    : cJSON_CreateNumber(0));
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
    free(t->failure);
    t->failure = a->error ? xstrdup(a->error) : NULL;
    char *json = json_print(row);
    store_op(t, "token", json, t->version, written);
    free(json);
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

static void cc_read(struct tools_oauth_tokens *t, int rc, cJSON *row, int64_t v, const char *err)
{
    tools_oauth_login_free(t->login); /* a later turn than its own event */
    t->login = NULL;
    take_row(t, rc, row, v, err);
    t->obtained = t->access != NULL && t->failure == NULL; /* the grant just wrote it */
    if (t->failure) /* `login` runs the same grant and says what went wrong */
        set_problem(t, "%s", t->failure);
    finish(t, t->access != NULL);
}

static void cc_done(void *ud, int ok, const char *message)
{
    struct tools_oauth_tokens *t = ud;
    free(t->failure);
    t->failure = NULL;
    if (!ok) {
        log_warn(t->label, "%s", message);
        const char *colon = strchr(message, ':');
        t->failure = xstrdup(strncmp(message, "server ", 7) == 0 && colon ? colon + 2 : message);
    }
    store_op(t, "token", NULL, 0, cc_read);
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

static void stepped(struct tools_oauth_tokens *t, int rc, cJSON *row, int64_t v, const char *err);

/* One step: read the row (then adopt a newer one, wait for another
 * process's lease, or take the lease and spend the refresh token). */
static void step(uv_timer_t *timer)
{
    struct tools_oauth_tokens *t = timer->data;
    store_op(t, "token", NULL, 0, stepped);
}

static void leased(struct tools_oauth_tokens *t, int rc, cJSON *value, int64_t v, const char *err)
{
    cJSON_Delete(value);
    if (rc == TOOLS_STATE_CONFLICT) {
        cJSON_Delete(t->row);
        t->row = NULL;
        later(t, 0); /* another process wrote first: look again */
        return;
    }
    if (rc != TOOLS_STATE_OK) {
        log_warn(t->label, "cannot store its tokens: %s", err);
        finish(t, 0);
        return;
    }
    t->version = v;
    spend(t);
}

static void stepped(struct tools_oauth_tokens *t, int rc, cJSON *row, int64_t v, const char *err)
{
    if (rc == TOOLS_STATE_OK && !cJSON_IsObject(row)) {
        rc = TOOLS_STATE_FAILED;
        err = "the stored tokens are not readable";
    }
    const cJSON *until = cJSON_GetObjectItemCaseSensitive(row, "lease_until");
    const char *owner = tools_oauth_str(row, "lease_owner");
    int64_t now = (int64_t) time(NULL);
    if (rc == TOOLS_STATE_OK)
        remember(t, row, v);
    if (rc == TOOLS_STATE_ABSENT && t->cfg.client_credentials) {
        t->login = tools_oauth_login_start(t->loop, &t->srv, &cc_events, t);
    } else if (rc != TOOLS_STATE_OK) {
        set_problem(t, rc < 0 ? "its tokens cannot be read (%s)" : "it needs a login%s",
                    rc < 0 ? err : "");
        forget_access(t);
        finish(t, 0);
    } else if (newer(t, row)) {
        adopt(t, row);
        finish(t, 1);
    } else if (owner && strcmp(owner, t->owner) != 0 && cJSON_IsNumber(until) &&
               until->valuedouble > (double) now &&
               uv_now(t->loop) - t->started < LEASE_SECONDS * 1000) {
        later(t, POLL_MS); /* another process is refreshing: wait for its token */
    } else if (tools_oauth_str(row, "refresh_token") == NULL &&
               !(tools_oauth_str(row, "grant") &&
                 strcmp(tools_oauth_str(row, "grant"), "client_credentials") == 0)) {
        adopt(t, row);
        if (t->access && t->stale && strcmp(t->access, t->stale) == 0)
            forget_access(t);
        if (t->access == NULL)
            set_problem(t, "its access token expired and it has no refresh token%s", "");
        finish(t, t->access != NULL);
    } else {
        replace(row, "lease_owner", cJSON_CreateString(t->owner));
        replace(row, "lease_until", cJSON_CreateNumber((double) (now + LEASE_SECONDS)));
        char *json = json_print(row);
        t->row = row;
        row = NULL;
        store_op(t, "token", json, v, leased);
        free(json);
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
    if (t->kept_known && t->kept && cJSON_Compare(t->kept, tools, 1))
        return; /* stored already */
    char *json = json_print(tools);
    store_op(t, "tools", json, -1, NULL);
    free(json);
    cJSON_Delete(t->kept);
    t->kept = cJSON_Duplicate(tools, 1);
    t->kept_known = 1;
}

cJSON *tools_oauth_tokens_kept_tools(struct tools_oauth_tokens *t)
{
    return t->kept ? cJSON_Duplicate(t->kept, 1) : NULL;
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

static void stepped_up(struct tools_oauth_tokens *t, int rc, cJSON *value, int64_t v,
                       const char *err)
{
    cJSON_Delete(value);
    if (rc == TOOLS_STATE_OK)
        t->last_version = v;
    else if (rc == TOOLS_STATE_CONFLICT)
        log_debug(t->label, "its token row changed while recording a step-up");
    else
        log_warn(t->label, "cannot record the step-up scopes: %s", err);
}

char *tools_oauth_tokens_step_up(struct tools_oauth_tokens *t, const char *scope)
{
    struct buf b, msg;
    buf_init(&b, 0);
    buf_init(&msg, 0);
    cJSON *row = t->last; /* the row of the token in use */
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
            char *json = json_print(row);
            store_op(t, "token", json, t->last_version, stepped_up);
            free(json);
        }
        buf_printf(&msg,
                   "the call needs scope \"%s\", which its token lacks (a new login asks "
                   "for \"%s\"); run: mcp-codemode login %s",
                   scope, b.data, t->name);
    }
    buf_free(&b);
    return buf_steal(&msg);
}

const char *tools_oauth_tokens_step_up_scope(const struct tools_oauth_tokens *t)
{
    return tools_oauth_str(t->last, "step_up_scope");
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
    struct tools_state *s = tools_oauth_store_new(cfg);
    char err[TOOLS_STATE_ERR_MAX];
    char *key = tools_oauth_token_key(url);
    int64_t v;
    struct buf b;
    buf_init(&b, 0);
    cJSON *row = NULL;
    if (tools_state_file_exists(s) && key)
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
