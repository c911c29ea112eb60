/* A running server's tokens for one remote server (see tokens.h). The row
 * in the state database is the truth; this keeps the access token in
 * memory and coordinates refreshes: a lease (lease_owner, lease_until)
 * written with compare-and-set before the refresh token is spent, so only
 * one process spends it; the others poll the row until the new token is
 * there or the lease expires. */
#include "tools/oauth/tokens.h"
#include "tools/oauth/fetch.h"
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
    char *access;      /* the current access token, or NULL */
    int64_t expires;   /* its expiry (Unix seconds), 0: not said */
    char *stale;       /* the token the running refresh replaces */
    char *problem;     /* why there is no token */
    char owner[33];    /* this process's lease id */
    struct waiter *waiters;
    uv_timer_t timer;  /* the next step of a refresh */
    struct tools_oauth_fetch *fetch;
    cJSON *row;        /* the leased row during a refresh */
    int64_t version;
    uint64_t started;  /* uv_now when the refresh began */
    int busy;
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
        set_problem(t, "it needs a login%s", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
                                                 row, "needs_login"))
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

struct tools_oauth_tokens *tools_oauth_tokens_new(uv_loop_t *loop, const char *name,
                                                  const char *url,
                                                  const struct tools_oauth_config *cfg)
{
    struct tools_oauth_tokens *t = xcalloc(1, sizeof *t);
    t->loop = loop;
    t->name = xstrdup(name);
    t->url = xstrdup(url);
    t->key = tools_oauth_token_key(url);
    if (t->key == NULL)
        t->key = xstrdup(url);
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "server %s", name);
    t->label = buf_steal(&b);
    struct tools_state_options o = {.path = cfg->store_path ? cfg->store_path : ""};
    t->store = tools_state_new(&o);
    random_hex(t->owner, 16);
    uv_timer_init(loop, &t->timer);
    t->timer.data = t;
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
    free(t);
}

void tools_oauth_tokens_free(struct tools_oauth_tokens *t)
{
    if (t == NULL)
        return;
    tools_oauth_fetch_cancel(t->fetch);
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
    free(t->problem);
    free(t->name);
    free(t->url);
    free(t->key);
    free(t->label);
    uv_close((uv_handle_t *) &t->timer, timer_closed);
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
        replace(row, "expires_at", cJSON_IsNumber(exp) && exp->valuedouble > 0
                                       ? cJSON_CreateNumber((double) time(NULL) + exp->valuedouble)
                                       : cJSON_CreateNumber(0));
        ok = 1;
    } else if (error && (strcmp(error, "invalid_grant") == 0 || strcmp(error, "invalid_client") == 0)) {
        /* the refresh token (or client) is gone: a login is needed, once */
        log_warn(t->label, "its refresh token was refused (%s): it needs a login", error);
        cJSON_DeleteItemFromObjectCaseSensitive(row, "access_token");
        cJSON_DeleteItemFromObjectCaseSensitive(row, "refresh_token");
        replace(row, "needs_login", cJSON_CreateTrue());
    } else {
        log_warn(t->label, "refreshing its token failed: %s",
                 a->error ? a->error : error ? error : "unexpected answer");
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
    if (t->hc == NULL && (t->hc = http_client_new(t->loop, "mcp-codemode", err, sizeof err)) == NULL)
        log_warn(t->label, "%s", err);
    return t->hc;
}

/* Spends the refresh token of the leased row. */
static void spend(struct tools_oauth_tokens *t)
{
    const cJSON *row = t->row;
    const char *endpoint = tools_oauth_str(row, "token_endpoint");
    const char *secret = tools_oauth_str(row, "client_secret");
    const char *resource = tools_oauth_str(row, "resource");
    struct buf form;
    buf_init(&form, 0);
    tools_oauth_form_add(&form, "grant_type", "refresh_token");
    tools_oauth_form_add(&form, "refresh_token", tools_oauth_str(row, "refresh_token"));
    tools_oauth_form_add(&form, "client_id", tools_oauth_str(row, "client_id") ? tools_oauth_str(row, "client_id") : "");
    if (secret)
        tools_oauth_form_add(&form, "client_secret", secret);
    if (resource)
        tools_oauth_form_add(&form, "resource", resource);
    struct tools_oauth_request rq = {.method = "POST",
                                     .url = endpoint ? endpoint : "",
                                     .content_type = "application/x-www-form-urlencoded",
                                     .body = form.data};
    struct http_client *hc = client(t);
    t->fetch = hc ? tools_oauth_fetch_start(hc, &rq, refreshed, t) : NULL;
    buf_free(&form);
    if (t->fetch == NULL) {
        struct tools_oauth_answer a = {.error = "could not start the token request"};
        refreshed(t, &a);
    }
}

static int newer(const struct tools_oauth_tokens *t, const cJSON *row)
{
    const char *at = tools_oauth_str(row, "access_token");
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(row, "expires_at");
    int64_t e = cJSON_IsNumber(exp) ? (int64_t) exp->valuedouble : 0;
    if (at == NULL || (e > 0 && (int64_t) time(NULL) + 5 >= e))
        return 0;
    return t->stale == NULL || strcmp(at, t->stale) != 0;
}

/* One step: adopt a newer row, wait for another process's lease, or take
 * the lease and spend the refresh token. */
static void step(uv_timer_t *timer)
{
    struct tools_oauth_tokens *t = timer->data;
    char err[TOOLS_STATE_ERR_MAX];
    int64_t v;
    cJSON *row = tools_oauth_row_read(t->store, t->key, &v, err);
    const cJSON *until = cJSON_GetObjectItemCaseSensitive(row, "lease_until");
    const char *owner = tools_oauth_str(row, "lease_owner");
    int64_t now = (int64_t) time(NULL);
    if (row == NULL) {
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
    } else if (tools_oauth_str(row, "refresh_token") == NULL) {
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
