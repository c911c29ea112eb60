/* An interactive login (see login.h), as a chain of phases driven by the
 * answers of one exchange at a time: probe -> protected resource metadata
 * -> authorization server metadata -> client -> (registration) ->
 * authorization (the person) -> token. Each failure ends the login with a
 * sentence naming the server and what to do. */
#include "tools/oauth/login.h"
#include "tools/oauth/challenge.h"
#include "tools/oauth/client_auth.h"
#include "tools/oauth/fetch.h"
#include "tools/oauth/loopback.h"
#include "tools/oauth/metadata.h"
#include "tools/oauth/pkce.h"
#include "tools/oauth/tokens.h"
#include "tools/server_config.h"
#include "tools/state/store.h"
#include "transport/http_client.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum phase { P_PROBE, P_PRM, P_AS, P_REGISTER, P_WAIT, P_TOKEN, P_DONE };

struct tools_oauth_login {
    uv_loop_t *loop;
    const struct tools_oauth_login_events *ev;
    void *ud;
    char *name, *url, *resource;
    int sse;
    struct tools_oauth_config cfg; /* borrowed strings of the entry */
    struct http_client *hc;
    struct tools_oauth_fetch *fetch;
    struct tools_state *store;
    enum phase phase;
    struct tools_oauth_challenge ch;
    char **urls; /* the candidates being tried */
    size_t next;
    int legacy;  /* no resource metadata: 2025-03-26 discovery at the origin */
    int unasked; /* the probe was not refused (its status): resource metadata says to log in */
    char *issuer;
    cJSON *prm, *meta;
    char *client_id, *client_secret;
    const char *auth_method; /* at the token endpoint (client_auth.h) */
    struct tools_oauth_loopback *lb;
    char *redirect_uri;
    char *fixed_redirect; /* a running server's public /oauth/callback, or NULL: loopback */
    struct tools_oauth_pkce pkce;
    char *scope;
    char *tried;      /* why the last discovery document was not taken */
    uv_timer_t later; /* done is reported from here */
    int ok;
    char *message;
    char *step_up;      /* the token row's step_up_scope, read before discovery */
    char *step_up_hint; /* the scopes a running server's call was refused for, or NULL */
    int pending;        /* store operations in flight (off the loop) */
    int freed;          /* tools_oauth_login_free was called */
    int closed;         /* and its timer closed: gone once pending is 0 */
    int refreshing;     /* the token got has a refresh token */
};

static void next_phase(struct tools_oauth_login *l);

/* --- ending ----------------------------------------------------------------------------------- */

static void report(uv_timer_t *t)
{
    struct tools_oauth_login *l = t->data;
    l->ev->done(l->ud, l->ok, l->message);
}

static void end(struct tools_oauth_login *l, int ok, const char *fmt, ...)
{
    if (l->phase == P_DONE)
        return;
    struct buf b;
    va_list ap;
    buf_init(&b, 0);
    if (!ok)
        buf_printf(&b, "server %s: ", l->name);
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    l->phase = P_DONE;
    l->ok = ok;
    l->message = buf_steal(&b);
    tools_oauth_loopback_free(l->lb);
    l->lb = NULL;
    uv_timer_start(&l->later, report, 0, 0);
}

/* --- exchanges -------------------------------------------------------------------------------- */

static void answered(void *ud, const struct tools_oauth_answer *a);

static void start(struct tools_oauth_login *l, const struct tools_oauth_request *rq)
{
    char why[300];
    if (!tools_oauth_url_ok(rq->url, why, sizeof why) && l->phase != P_PROBE && l->phase != P_PRM) {
        end(l, 0, "%s", why);
        return;
    }
    l->fetch = tools_oauth_fetch_start(l->hc, rq, answered, l);
    if (l->fetch == NULL)
        end(l, 0, "cannot request %s", rq->url);
}

static void get(struct tools_oauth_login *l, const char *url)
{
    struct tools_oauth_request rq = {.method = "GET", .url = url, .max_redirects = 3};
    start(l, &rq);
}

static void probe(struct tools_oauth_login *l)
{
    static const char init[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"mcp-codemode\","
        "\"version\":\"login\"}}}";
    struct tools_oauth_request rq = {.method = l->sse ? "GET" : "POST",
                                     .url = l->url,
                                     .content_type = l->sse ? NULL : "application/json",
                                     .body = l->sse ? NULL : init,
                                     .accept = l->sse ? "text/event-stream"
                                                      : "application/json, text/event-stream",
                                     .timeout_ms = 15000};
    start(l, &rq);
}

/* --- discovery -------------------------------------------------------------------------------- */

static void try_next_url(struct tools_oauth_login *l)
{
    if (l->urls && l->urls[l->next])
        get(l, l->urls[l->next++]);
    else
        next_phase(l);
}

static void set_urls(struct tools_oauth_login *l, char **urls)
{
    tools_oauth_free_vector(l->urls);
    l->urls = urls;
    l->next = 0;
}

static void start_prm(struct tools_oauth_login *l)
{
    l->phase = P_PRM;
    if (l->ch.resource_metadata) {
        char **v = xcalloc(2, sizeof *v);
        v[0] = xstrdup(l->ch.resource_metadata);
        set_urls(l, v);
    } else {
        set_urls(l, tools_oauth_prm_urls(l->url));
    }
    try_next_url(l);
}

static void start_as(struct tools_oauth_login *l, const char *issuer)
{
    char why[300];
    if (!tools_oauth_url_ok(issuer, why, sizeof why)) {
        end(l, 0, "its authorization server %s", why);
        return;
    }
    l->phase = P_AS;
    l->issuer = xstrdup(issuer);
    set_urls(l, tools_oauth_as_urls(issuer));
    if (l->urls == NULL) {
        end(l, 0, "its authorization server \"%s\" is not a valid issuer URL", issuer);
        return;
    }
    try_next_url(l);
}

static void prm_answer(struct tools_oauth_login *l, const struct tools_oauth_answer *a)
{
    char why[512];
    if (a->status != 200 || a->json == NULL) {
        try_next_url(l);
        return;
    }
    if (tools_oauth_prm_check(a->json, l->url, why, sizeof why) != 0) {
        end(l, 0, "%s", why);
        return;
    }
    l->prm = cJSON_Duplicate(a->json, 1);
    const char *res = tools_oauth_str(l->prm, "resource");
    if (res && l->cfg.resource == NULL) {
        free(l->resource);
        l->resource = xstrdup(res);
    }
    start_as(
        l, cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(l->prm, "authorization_servers"), 0)
               ->valuestring);
}

/* 2025-03-26: no resource metadata; the server's origin is the issuer and
 * the default endpoints stand in for missing metadata. */
static cJSON *default_metadata(const char *origin)
{
    cJSON *m = cJSON_CreateObject();
    struct buf b;
    buf_init(&b, 0);
    cJSON_AddStringToObject(m, "issuer", origin);
    buf_printf(&b, "%s/authorize", origin);
    cJSON_AddStringToObject(m, "authorization_endpoint", b.data);
    buf_reset(&b);
    buf_printf(&b, "%s/token", origin);
    cJSON_AddStringToObject(m, "token_endpoint", b.data);
    buf_reset(&b);
    buf_printf(&b, "%s/register", origin);
    cJSON_AddStringToObject(m, "registration_endpoint", b.data);
    buf_free(&b);
    return m;
}

/* Remembers why a discovery document was not taken, for the final error. */
static void note_tried(struct tools_oauth_login *l, const struct tools_oauth_answer *a)
{
    struct buf b;
    buf_init(&b, 0);
    const char *url = l->urls && l->next ? l->urls[l->next - 1] : "";
    if (a->error)
        buf_printf(&b, "%s %s", url, a->error);
    else if (a->status == 200)
        buf_printf(&b, "%s is not a JSON object", url);
    else
        buf_printf(&b, "%s answered HTTP %d", url, a->status);
    free(l->tried);
    l->tried = buf_steal(&b);
}

static void as_answer(struct tools_oauth_login *l, const struct tools_oauth_answer *a)
{
    char why[512];
    if (a->status != 200 || !cJSON_IsObject(a->json)) {
        if (l->tried == NULL || a->error || a->status == 200) /* the telling failure, not a 404 */
            note_tried(l, a);
        try_next_url(l);
        return;
    }
    if (tools_oauth_as_check(a->json, l->issuer, why, sizeof why) != 0) {
        end(l, 0, "%s", why);
        return;
    }
    l->meta = cJSON_Duplicate(a->json, 1);
    set_urls(l, NULL);
    next_phase(l);
}

/* --- the client ------------------------------------------------------------------------------- */

static int listen_redirect(struct tools_oauth_login *l, unsigned port);

static const char *query_cb(void *ud, const char *query);

/* Registrations are kept per issuer; the one kept holds the redirect URI it
 * was made for, whose port the next login listens on again. */
static char *client_key(const struct tools_oauth_login *l)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "%s redirect", l->issuer);
    return buf_steal(&b);
}

static void gone(struct tools_oauth_login *l);
static void choose_client_with(struct tools_oauth_login *l, int registering, cJSON *kept);

/* The registration kept for this issuer (read off the loop), then the rest
 * of the choice of client. */
static void registration_read(void *ud, int rc, const char *json, int64_t v, const char *err)
{
    struct tools_oauth_login *l = ud;
    (void) v;
    (void) err; /* unreadable: registered again */
    l->pending--;
    if (l->freed) {
        gone(l);
        return;
    }
    cJSON *row = rc == TOOLS_STATE_OK && json ? json_parse(json, strlen(json)) : NULL;
    if (tools_oauth_str(row, "client_id") == NULL) {
        cJSON_Delete(row);
        row = NULL;
    }
    choose_client_with(l, 1, row);
}

/* The port of a registration's loopback redirect URI, or 0. */
static unsigned registered_port(const cJSON *row)
{
    const cJSON *uris = cJSON_GetObjectItemCaseSensitive(row, "redirect_uris");
    const cJSON *u = cJSON_GetArrayItem(uris, 0);
    unsigned port = 0;
    if (cJSON_IsString(u) && sscanf(u->valuestring, "http://127.0.0.1:%u/callback", &port) != 1)
        port = 0;
    return port < 65536 ? port : 0;
}

/* The method a registration says the client authenticates with. */
static const char *registered_method(const cJSON *reg)
{
    const char *m = tools_oauth_str(reg, "token_endpoint_auth_method");
    static const char *const known[] = {"none", "client_secret_basic", "client_secret_post"};
    for (size_t i = 0; m && i < sizeof known / sizeof known[0]; i++)
        if (strcmp(m, known[i]) == 0)
            return known[i];
    return NULL;
}

/* Takes the registration kept for this issuer when its redirect URI is the
 * one of this login. */
static int stored_client(struct tools_oauth_login *l, const cJSON *row)
{
    const cJSON *uris = cJSON_GetObjectItemCaseSensitive(row, "redirect_uris");
    const cJSON *u = cJSON_GetArrayItem(uris, 0);
    if (row == NULL || !cJSON_IsString(u) || strcmp(u->valuestring, l->redirect_uri) != 0)
        return 0;
    l->client_id = xstrdup(tools_oauth_str(row, "client_id"));
    if (tools_oauth_str(row, "client_secret"))
        l->client_secret = xstrdup(tools_oauth_str(row, "client_secret"));
    l->auth_method = registered_method(row);
    return 1;
}

static void register_client(struct tools_oauth_login *l)
{
    const char *endpoint = tools_oauth_str(l->meta, "registration_endpoint");
    cJSON *req = cJSON_CreateObject();
    cJSON *uris = cJSON_AddArrayToObject(req, "redirect_uris");
    cJSON_AddItemToArray(uris, cJSON_CreateString(l->redirect_uri));
    cJSON_AddStringToObject(req, "client_name", "mcp-codemode");
    /* a running server's public callback is a web client's redirect */
    cJSON_AddStringToObject(req, "application_type", l->fixed_redirect ? "web" : "native");
    cJSON *gt = cJSON_AddArrayToObject(req, "grant_types");
    cJSON_AddItemToArray(gt, cJSON_CreateString("authorization_code"));
    cJSON_AddItemToArray(gt, cJSON_CreateString("refresh_token"));
    cJSON *rt = cJSON_AddArrayToObject(req, "response_types");
    cJSON_AddItemToArray(rt, cJSON_CreateString("code"));
    cJSON_AddStringToObject(req, "token_endpoint_auth_method", "none");
    /* no "scope": it would bind the client to this login's scopes, and a
     * step-up authorization asks for more */
    char *body = json_print(req);
    cJSON_Delete(req);
    struct tools_oauth_request rq = {
        .method = "POST", .url = endpoint, .content_type = "application/json", .body = body};
    l->phase = P_REGISTER;
    start(l, &rq);
    free(body);
}

/* A registration that could not be kept is made again by the next login. */
static void registration_written(void *ud, int rc, const char *json, int64_t v, const char *err)
{
    struct tools_oauth_login *l = ud;
    (void) rc;
    (void) json;
    (void) v;
    (void) err;
    l->pending--;
    if (l->freed)
        gone(l);
}

static void register_answer(struct tools_oauth_login *l, const struct tools_oauth_answer *a)
{
    const char *id = tools_oauth_str(a->json, "client_id");
    if ((a->status != 200 && a->status != 201) || id == NULL) {
        const char *e = tools_oauth_str(a->json, "error_description");
        char what[64];
        snprintf(what, sizeof what, "HTTP %d", a->status);
        end(l, 0,
            "dynamic client registration at %s failed (%s%s%s); register an OAuth app with "
            "the provider and set \"oauth\": {\"clientId\": ...} in the entry",
            tools_oauth_str(l->meta, "registration_endpoint"), a->error ? a->error : what,
            e ? ": " : "", e ? e : "");
        return;
    }
    l->client_id = xstrdup(id);
    if (tools_oauth_str(a->json, "client_secret"))
        l->client_secret = xstrdup(tools_oauth_str(a->json, "client_secret"));
    l->auth_method = registered_method(a->json);
    cJSON *kept = cJSON_Duplicate(a->json, 1); /* with the redirect URI it is for */
    cJSON_DeleteItemFromObjectCaseSensitive(kept, "redirect_uris");
    cJSON_AddItemToArray(cJSON_AddArrayToObject(kept, "redirect_uris"),
                         cJSON_CreateString(l->redirect_uri));
    char *key = client_key(l), *json = json_print(kept);
    cJSON_Delete(kept);
    l->pending++; /* written off the loop; the login goes on meanwhile */
    tools_state_oauth_start(l->store, l->loop, "client", key, json, -1, registration_written, l);
    free(key);
    free(json);
    next_phase(l);
}

/* The scopes a running server found missing (a 403 insufficient_scope,
 * tokens.h step-up), kept in the token row (read at the start); NULL when
 * none. */
static char *step_up_scope(struct tools_oauth_login *l)
{
    return l->step_up && *l->step_up ? xstrdup(l->step_up) : NULL;
}

/* The scopes to ask for: the entry's, else the challenge's, else the
 * resource's scopes_supported, else none; with a step-up, the union of
 * those and the scopes a call was refused for. */
static void choose_scope(struct tools_oauth_login *l)
{
    struct buf b;
    buf_init(&b, 0);
    if (l->cfg.scopes) {
        for (size_t i = 0; l->cfg.scopes[i]; i++)
            buf_printf(&b, "%s%s", i ? " " : "", l->cfg.scopes[i]);
    } else if (l->ch.scope) {
        buf_append_str(&b, l->ch.scope);
    } else {
        const cJSON *e;
        cJSON_ArrayForEach(
            e, cJSON_GetObjectItemCaseSensitive(l->prm, "scopes_supported")) if (cJSON_IsString(e))
            buf_printf(&b, "%s%s", b.len ? " " : "", e->valuestring);
    }
    char *more = step_up_scope(l);
    for (char *p = more, *save = NULL, *w; more && (w = strtok_r(p, " ", &save)) != NULL;
         p = NULL) {
        int have = 0; /* each scope once */
        for (const char *q = b.data; q && *q && !have; q += strcspn(q, " "), q += *q == ' ')
            have = strncmp(q, w, strlen(w)) == 0 && (q[strlen(w)] == ' ' || q[strlen(w)] == '\0');
        if (!have)
            buf_printf(&b, "%s%s", b.len ? " " : "", w);
    }
    free(more);
    l->scope = b.len ? buf_steal(&b) : NULL;
    buf_free(&b);
}

static void authorize(struct tools_oauth_login *l)
{
    struct buf u;
    buf_init(&u, 0);
    const char *ep = tools_oauth_str(l->meta, "authorization_endpoint");
    buf_printf(&u, "%s%c", ep, strchr(ep, '?') ? '&' : '?');
    struct buf q;
    buf_init(&q, 0);
    tools_oauth_pkce_new(&l->pkce);
    tools_oauth_form_add(&q, "response_type", "code");
    tools_oauth_form_add(&q, "client_id", l->client_id);
    tools_oauth_form_add(&q, "redirect_uri", l->redirect_uri);
    tools_oauth_form_add(&q, "state", l->pkce.state);
    tools_oauth_form_add(&q, "code_challenge", l->pkce.challenge);
    tools_oauth_form_add(&q, "code_challenge_method", "S256");
    if (l->scope)
        tools_oauth_form_add(&q, "scope", l->scope);
    if (l->resource)
        tools_oauth_form_add(&q, "resource", l->resource);
    buf_append_str(&u, q.data);
    buf_free(&q);
    l->phase = P_WAIT;
    l->ev->authorize(l->ud, u.data);
    buf_free(&u);
}

static void choose_client(struct tools_oauth_login *l)
{
    if (l->meta == NULL) {
        end(l, 0, "no authorization server metadata was found");
        return;
    }
    int registering =
        l->cfg.client_id == NULL &&
        !(l->cfg.client_metadata_url && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
                                            l->meta, "client_id_metadata_document_supported")));
    if (registering) { /* the registration kept for this issuer first, off the loop */
        char *key = client_key(l);
        l->pending++;
        tools_state_oauth_start(l->store, l->loop, "client", key, NULL, 0, registration_read, l);
        free(key);
        return;
    }
    choose_client_with(l, 0, NULL);
}

/* The redirect URI (the public callback, else a loopback listener: the
 * port of the kept registration when it is free), then the client:
 * configured, metadata document, the kept registration, or a new one. kept
 * is consumed. */
static void choose_client_with(struct tools_oauth_login *l, int registering, cJSON *kept)
{
    unsigned port = l->cfg.redirect_port;
    if (l->fixed_redirect)
        l->redirect_uri = xstrdup(l->fixed_redirect);
    if (l->fixed_redirect == NULL && port == 0 && kept && registered_port(kept)) {
        /* the port registered before, when it is free: the registration is reused */
        char err[256];
        l->lb =
            tools_oauth_loopback_new(l->loop, registered_port(kept), query_cb, l, err, sizeof err);
        if (l->lb) {
            struct buf b;
            buf_init(&b, 0);
            buf_printf(&b, "http://127.0.0.1:%u/callback", registered_port(kept));
            l->redirect_uri = buf_steal(&b);
        }
    }
    if (l->redirect_uri == NULL && listen_redirect(l, port) != 0) {
        cJSON_Delete(kept);
        return;
    }
    choose_scope(l);
    if (l->cfg.client_id) {
        l->client_id = xstrdup(l->cfg.client_id);
        if (l->cfg.client_secret)
            l->client_secret = xstrdup(l->cfg.client_secret);
    } else if (!registering) {
        l->client_id = xstrdup(l->cfg.client_metadata_url);
    } else if (stored_client(l, kept)) {
        /* registered before for this issuer and redirect */
    } else if (tools_oauth_str(l->meta, "registration_endpoint")) {
        cJSON_Delete(kept);
        register_client(l);
        return;
    } else {
        cJSON_Delete(kept);
        end(l, 0,
            "authorization server %s offers no dynamic client registration%s: register an OAuth "
            "app with it (redirect URI http://127.0.0.1:PORT/callback, with \"oauth\": "
            "{\"redirectPort\": PORT}) and set \"oauth\": {\"clientId\": ...} in the entry",
            l->issuer, l->cfg.client_metadata_url ? " nor client metadata documents" : "");
        return;
    }
    cJSON_Delete(kept);
    authorize(l);
}

/* --- the redirect ----------------------------------------------------------------------------- */

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The decoded value of name in an application/x-www-form-urlencoded query. */
static char *query_get(const char *q, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = q; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL) {
        if (strncmp(p, name, n) != 0 || p[n] != '=')
            continue;
        struct buf b;
        buf_init(&b, 0);
        for (const char *v = p + n + 1; *v && *v != '&' && *v != '#'; v++) {
            if (*v == '%' && hexval(v[1]) >= 0 && hexval(v[2]) >= 0) {
                buf_append_char(&b, (char) (hexval(v[1]) * 16 + hexval(v[2])));
                v += 2;
            } else {
                buf_append_char(&b, *v == '+' ? ' ' : *v);
            }
        }
        if (b.data == NULL)
            buf_append_str(&b, "");
        return buf_steal(&b);
    }
    return NULL;
}

/* Posts form (with the client's credentials) to the token endpoint. */
static void token_request(struct tools_oauth_login *l, struct buf *form)
{
    const char *endpoint = tools_oauth_str(l->meta, "token_endpoint");
    char why[512], *authorization = NULL;
    if (l->auth_method == NULL)
        l->auth_method = tools_oauth_auth_method(l->meta, l->client_secret != NULL,
                                                 l->cfg.private_key_file != NULL);
    if (tools_oauth_client_auth(l->auth_method, l->client_id, l->client_secret,
                                l->cfg.private_key_file, l->issuer, form, &authorization, why,
                                sizeof why) != 0) {
        end(l, 0, "%s", why);
        return;
    }
    struct tools_oauth_request rq = {.method = "POST",
                                     .url = endpoint,
                                     .content_type = "application/x-www-form-urlencoded",
                                     .body = form->data,
                                     .authorization = authorization};
    l->phase = P_TOKEN;
    start(l, &rq);
    free(authorization);
}

static void exchange(struct tools_oauth_login *l, const char *code)
{
    struct buf form;
    buf_init(&form, 0);
    tools_oauth_form_add(&form, "grant_type", "authorization_code");
    tools_oauth_form_add(&form, "code", code);
    tools_oauth_form_add(&form, "redirect_uri", l->redirect_uri);
    tools_oauth_form_add(&form, "code_verifier", l->pkce.verifier);
    if (l->resource)
        tools_oauth_form_add(&form, "resource", l->resource);
    token_request(l, &form);
    buf_free(&form);
}

/* The client credentials grant (no person): the entry's client. */
static void client_credentials(struct tools_oauth_login *l)
{
    if (l->cfg.client_id == NULL) {
        end(l, 0,
            "the client_credentials grant needs \"oauth\": {\"clientId\": ...} and a "
            "clientSecret or privateKeyFile");
        return;
    }
    if (l->cfg.client_secret == NULL && l->cfg.private_key_file == NULL) {
        end(l, 0,
            "the client_credentials grant needs a clientSecret or a privateKeyFile in "
            "its \"oauth\" entry");
        return;
    }
    l->client_id = xstrdup(l->cfg.client_id);
    if (l->cfg.client_secret)
        l->client_secret = xstrdup(l->cfg.client_secret);
    if (l->cfg.scopes)
        choose_scope(l);
    struct buf form;
    buf_init(&form, 0);
    tools_oauth_form_add(&form, "grant_type", "client_credentials");
    if (l->scope)
        tools_oauth_form_add(&form, "scope", l->scope);
    if (l->resource)
        tools_oauth_form_add(&form, "resource", l->resource);
    token_request(l, &form);
    buf_free(&form);
}

/* The authorization response (RFC 6749 4.1.2, RFC 9207): a sentence for the
 * browser. */
static const char *redirected(struct tools_oauth_login *l, const char *query)
{
    if (l->phase != P_WAIT)
        return "This login is over; you can close this page.";
    char *state = query_get(query, "state"), *code = query_get(query, "code");
    char *error = query_get(query, "error"), *iss = query_get(query, "iss");
    int iss_required = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
        l->meta, "authorization_response_iss_parameter_supported"));
    const char *page = "Logged in. You can close this page and return to the terminal.";
    if (state == NULL || strcmp(state, l->pkce.state) != 0) {
        end(l, 0, "the authorization response's state does not match this login: refused");
        page = "Refused: the state does not match this login.";
    } else if ((iss && strcmp(iss, l->issuer) != 0) || (iss == NULL && iss_required)) {
        end(l, 0, "the authorization response comes from issuer \"%s\", not %s: refused",
            iss ? iss : "(none)", l->issuer);
        page = "Refused: the response comes from another authorization server.";
    } else if (error) {
        char *desc = query_get(query, "error_description");
        end(l, 0, "the authorization server refused the login: %s%s%s", error, desc ? ": " : "",
            desc ? desc : "");
        free(desc);
        page = "The login was refused.";
    } else if (code == NULL || *code == '\0') {
        end(l, 0, "the authorization response has no code");
        page = "Refused: no authorization code.";
    } else {
        exchange(l, code);
    }
    free(state);
    free(code);
    free(error);
    free(iss);
    return page;
}

static const char *query_cb(void *ud, const char *query)
{
    return redirected(ud, query);
}

void tools_oauth_login_paste(struct tools_oauth_login *l, const char *url)
{
    const char *q = strchr(url, '?');
    if (l->phase == P_WAIT)
        redirected(l, q ? q + 1 : url);
}

const char *tools_oauth_login_redirect(struct tools_oauth_login *l, const char *query)
{
    return redirected(l, query);
}

int tools_oauth_login_expects(const struct tools_oauth_login *l, const char *query)
{
    if (l->phase != P_WAIT || l->lb)
        return 0;
    char *state = query_get(query, "state");
    int yes = state && strcmp(state, l->pkce.state) == 0;
    free(state);
    return yes;
}

static int listen_redirect(struct tools_oauth_login *l, unsigned port)
{
    char err[256];
    l->lb = tools_oauth_loopback_new(l->loop, port, query_cb, l, err, sizeof err);
    if (l->lb == NULL) {
        end(l, 0, "%s", err);
        return -1;
    }
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "http://127.0.0.1:%u/callback", tools_oauth_loopback_port(l->lb));
    l->redirect_uri = buf_steal(&b);
    return 0;
}

/* --- tokens ----------------------------------------------------------------------------------- */

static void tokens_stored(void *ud, int rc, const char *json, int64_t v, const char *err)
{
    struct tools_oauth_login *l = ud;
    (void) json;
    (void) v;
    l->pending--;
    if (l->freed)
        gone(l);
    else if (rc != TOOLS_STATE_OK)
        end(l, 0, "the tokens could not be stored: %s", err ? err : "");
    else if (l->cfg.client_credentials)
        end(l, 1, "got a token for %s from %s with the client credentials grant", l->name,
            l->issuer);
    else
        end(l, 1, "logged in to %s at %s%s", l->name, l->issuer,
            l->refreshing ? " (the token refreshes itself)" : "");
}

static void token_answer(struct tools_oauth_login *l, const struct tools_oauth_answer *a)
{
    const char *at = tools_oauth_str(a->json, "access_token");
    if (a->status != 200 || at == NULL) {
        const char *e = tools_oauth_str(a->json, "error");
        const char *d = tools_oauth_str(a->json, "error_description");
        end(l, 0, "the token endpoint refused %s (%s%s%s)",
            l->cfg.client_credentials ? "the client credentials" : "the code",
            a->error ? a->error
            : e      ? e
                     : "no access_token",
            d ? ": " : "", d ? d : "");
        return;
    }
    cJSON *row = cJSON_CreateObject();
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(a->json, "expires_in");
    cJSON_AddStringToObject(row, "issuer", l->issuer);
    cJSON_AddStringToObject(row, "client_id", l->client_id);
    cJSON_AddStringToObject(row, "auth_method", l->auth_method);
    if (l->cfg.client_credentials) {
        /* the secret or key stays in the config: the row says how to get the next token */
        cJSON_AddStringToObject(row, "grant", "client_credentials");
        if (l->scope)
            cJSON_AddStringToObject(row, "requested_scope", l->scope);
    } else if (l->client_secret) {
        cJSON_AddStringToObject(row, "client_secret", l->client_secret);
    }
    cJSON_AddStringToObject(row, "token_endpoint", tools_oauth_str(l->meta, "token_endpoint"));
    if (tools_oauth_str(l->meta, "revocation_endpoint"))
        cJSON_AddStringToObject(row, "revocation_endpoint",
                                tools_oauth_str(l->meta, "revocation_endpoint"));
    if (l->resource)
        cJSON_AddStringToObject(row, "resource", l->resource);
    cJSON_AddStringToObject(row, "access_token", at);
    if (tools_oauth_str(a->json, "refresh_token"))
        cJSON_AddStringToObject(row, "refresh_token", tools_oauth_str(a->json, "refresh_token"));
    if (tools_oauth_str(a->json, "scope"))
        cJSON_AddStringToObject(row, "scope", tools_oauth_str(a->json, "scope"));
    else if (l->scope) /* RFC 6749 5.1: omitted when identical to the request */
        cJSON_AddStringToObject(row, "scope", l->scope);
    if (l->scope) /* a later 403 for these does not ask for another login */
        cJSON_AddStringToObject(row, "asked_scope", l->scope);
    double until =
        cJSON_IsNumber(exp) && exp->valuedouble > 0 ? (double) time(NULL) + exp->valuedouble : 0;
    cJSON_AddNumberToObject(row, "expires_at", until);
    char *json = json_print(row), *key = tools_oauth_token_key(l->url);
    l->refreshing = tools_oauth_str(a->json, "refresh_token") != NULL;
    l->pending++; /* written off the loop (a running server's client credentials) */
    tools_state_oauth_start(l->store, l->loop, "token", key ? key : l->url, json, -1, tokens_stored,
                            l);
    free(json);
    free(key);
    cJSON_Delete(row);
}

/* --- the chain -------------------------------------------------------------------------------- */

static void next_phase(struct tools_oauth_login *l)
{
    switch (l->phase) {
    case P_PRM: /* every resource metadata URL failed: the origin is the issuer */
        if (l->unasked) {
            end(l, 0,
                "%s answered HTTP %d without asking for authorization and publishes no "
                "protected resource metadata; no login is needed",
                l->url, l->unasked);
            return;
        }
        l->legacy = 1;
        {
            char *origin = tools_oauth_canonical_uri(l->url);
            char *slash = origin ? strchr(strstr(origin, "://") + 3, '/') : NULL;
            if (slash)
                *slash = '\0';
            if (origin == NULL)
                end(l, 0, "its URL is not an absolute http(s) URL");
            else
                start_as(l, origin);
            free(origin);
        }
        return;
    case P_AS:
        if (l->meta == NULL && l->legacy)
            l->meta = default_metadata(l->issuer);
        if (l->meta == NULL) {
            end(l, 0,
                "no usable metadata of authorization server %s was found (tried its "
                "oauth-authorization-server and openid-configuration documents%s%s)",
                l->issuer, l->tried ? "; " : "", l->tried ? l->tried : "");
            return;
        }
        if (l->cfg.client_credentials)
            client_credentials(l);
        else
            choose_client(l);
        return;
    case P_REGISTER:
        authorize(l);
        return;
    default:
        return;
    }
}

static void probe_answer(struct tools_oauth_login *l, const struct tools_oauth_answer *a)
{
    if (a->error) {
        end(l, 0, "%s: %s", l->url, a->error);
        return;
    }
    if (a->status != 401 && a->status != 403)
        l->unasked = a->status; /* some calls may need it: its resource metadata says */
    if (tools_oauth_challenge_parse(a->www, &l->ch) != 0)
        tools_oauth_challenge_free(&l->ch);
    start_prm(l);
}

static void answered(void *ud, const struct tools_oauth_answer *a)
{
    struct tools_oauth_login *l = ud;
    l->fetch = NULL;
    if (a->error && l->phase != P_PROBE && l->phase != P_PRM && l->phase != P_AS) {
        end(l, 0, "%s %s", a->url ? a->url : "its authorization server", a->error);
        return;
    }
    switch (l->phase) {
    case P_PROBE:
        probe_answer(l, a);
        break;
    case P_PRM:
        prm_answer(l, a);
        break;
    case P_AS:
        as_answer(l, a);
        break;
    case P_REGISTER:
        register_answer(l, a);
        break;
    case P_TOKEN:
        token_answer(l, a);
        break;
    default:
        break;
    }
}

static void kick(uv_timer_t *t)
{
    struct tools_oauth_login *l = t->data;
    probe(l);
}

static void token_row_read(void *ud, int rc, const char *json, int64_t v, const char *err)
{
    struct tools_oauth_login *l = ud;
    (void) v;
    (void) err; /* unreadable: no step-up scopes; storing the tokens says what is wrong */
    l->pending--;
    if (l->freed) {
        gone(l);
        return;
    }
    cJSON *row = rc == TOOLS_STATE_OK && json ? json_parse(json, strlen(json)) : NULL;
    const char *s = tools_oauth_str(row, "step_up_scope");
    struct buf b; /* the row's, and the running server's (its write may not be done) */
    buf_init(&b, 0);
    buf_printf(&b, "%s%s%s", s ? s : "", s && l->step_up_hint ? " " : "",
               l->step_up_hint ? l->step_up_hint : "");
    l->step_up = b.len ? buf_steal(&b) : NULL;
    buf_free(&b);
    cJSON_Delete(row);
    probe(l);
}

struct tools_oauth_login *tools_oauth_login_start(uv_loop_t *loop,
                                                  const struct tools_server_config *s,
                                                  const struct tools_oauth_login_events *ev,
                                                  void *ud)
{
    return tools_oauth_login_start_at(loop, s, NULL, NULL, ev, ud);
}

struct tools_oauth_login *tools_oauth_login_start_at(uv_loop_t *loop,
                                                     const struct tools_server_config *s,
                                                     const char *redirect_uri, const char *step_up,
                                                     const struct tools_oauth_login_events *ev,
                                                     void *ud)
{
    struct tools_oauth_login *l = xcalloc(1, sizeof *l);
    l->step_up_hint = step_up && *step_up ? xstrdup(step_up) : NULL;
    l->fixed_redirect = redirect_uri ? xstrdup(redirect_uri) : NULL;
    char err[256];
    l->loop = loop;
    l->ev = ev;
    l->ud = ud;
    l->name = xstrdup(s->name);
    l->url = xstrdup(s->url);
    l->sse = s->transport == TOOLS_TRANSPORT_SSE;
    l->cfg = *s->oauth;
    if (l->cfg.send_resource)
        l->resource =
            l->cfg.resource ? xstrdup(l->cfg.resource) : tools_oauth_canonical_uri(s->url);
    l->store = tools_oauth_store_new(&l->cfg);
    uv_timer_init(loop, &l->later);
    l->later.data = l;
    l->hc = http_client_new(loop, "mcp-codemode", err, sizeof err);
    char *key = tools_oauth_token_key(s->url);
    if (l->hc == NULL) {
        end(l, 0, "%s", err);
    } else if (key) { /* the step-up scopes first, off the loop; then discovery */
        l->pending++;
        tools_state_oauth_start(l->store, loop, "token", key, NULL, 0, token_row_read, l);
    } else {
        uv_timer_start(&l->later, kick, 0, 0);
    }
    free(key);
    return l;
}

static void gone(struct tools_oauth_login *l)
{
    if (!l->closed || l->pending > 0)
        return;
    tools_state_free(l->store);
    free(l);
}

static void login_closed(uv_handle_t *h)
{
    struct tools_oauth_login *l = h->data;
    l->closed = 1;
    gone(l);
}

void tools_oauth_login_free(struct tools_oauth_login *l)
{
    tools_oauth_fetch_cancel(l->fetch);
    tools_oauth_loopback_free(l->lb);
    if (l->hc)
        http_client_free(l->hc);
    l->freed = 1; /* the store goes once its operations answered */
    tools_oauth_challenge_free(&l->ch);
    tools_oauth_free_vector(l->urls);
    cJSON_Delete(l->prm);
    cJSON_Delete(l->meta);
    free(l->name);
    free(l->url);
    free(l->resource);
    free(l->issuer);
    free(l->client_id);
    free(l->client_secret);
    free(l->redirect_uri);
    free(l->fixed_redirect);
    free(l->scope);
    free(l->message);
    free(l->tried);
    free(l->step_up);
    free(l->step_up_hint);
    uv_close((uv_handle_t *) &l->later, login_closed);
}

int tools_oauth_logout(const struct tools_server_config *s, cJSON **row, char *err, size_t errlen)
{
    struct tools_state *st = tools_oauth_store_new(s->oauth);
    char e[TOOLS_STATE_ERR_MAX], *key = tools_oauth_token_key(s->url);
    int64_t v;
    int exists = tools_state_file_exists(st) && key;
    if (row)
        *row = exists ? tools_oauth_row_read(st, key, &v, e) : NULL;
    int rc = exists ? tools_state_oauth_delete(st, "token", key, e) : TOOLS_STATE_ABSENT;
    free(key);
    tools_state_free(st);
    if (rc < 0) {
        snprintf(err, errlen, "%s", e);
        if (row) {
            cJSON_Delete(*row);
            *row = NULL;
        }
        return -1;
    }
    return rc == TOOLS_STATE_OK ? 0 : 1;
}
