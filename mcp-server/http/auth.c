/* The MCP HTTP endpoint as an OAuth 2.1 protected resource
 * (codemode.http.oauth; docs/http-oauth.md): the protected resource
 * metadata (RFC 9728) at /.well-known/oauth-protected-resource and its
 * path-suffixed forms, the bearer token of every other request checked by
 * the verifier (mcp-server/http/oauth/verifier.h) without blocking the
 * loop (a cached key answers at once; else the request waits, copied, for
 * the check), the RFC 6750 answers (401 with WWW-Authenticate naming the
 * metadata, 403 insufficient_scope, 400 invalid_request), and the
 * principals tokens speak for: "oauth:ISS#SUB", each with its own MCP
 * server for 2026-07-28 requests and one admission id for rate limits. The
 * token itself goes nowhere: not downstream, not to logs. */
#include "mcp-server/http/internal.h"
#include "mcp-server/http/oauth/verifier.h"
#include "mcp-server/protocol.h"
#include "mcp-server/version.h"
#include "transport/http_client.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"
#include "common/json.h"
#include "common/log.h"
#include "common/sha256.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define WELL_KNOWN      "/.well-known/oauth-protected-resource"
#define PRINCIPAL_MAX   256          /* longer names are digested (the CLI's --principal limit) */
#define ADMISSION_FIRST (1ull << 62) /* apart from the servers' own connection ids */

/* A request waiting for its token check: a copy of what routing reads. */
struct deferred {
    struct mcp_http *h;
    struct http_exchange *x;
    struct http_token_check *check;
    char *cors;
    struct http_server_request r;
    struct http_header *headers;
    char *strings; /* method, target, path, query, header names and values, body */
    struct deferred *prev, *next;
};

struct mcp_http_auth {
    struct http_oauth_settings settings; /* audience resolved */
    char *resource;                      /* the resource identifier (metadata "resource") */
    char *metadata_url;                  /* where the metadata is, for WWW-Authenticate */
    char *audience;
    char *metadata;    /* the metadata document (JSON) */
    char *scope_param; /* the required scopes, space-separated, or NULL */
    struct http_client *client;
    struct http_token_verifier *verifier;
    struct deferred *deferred;
    unsigned ndeferred;
    struct http_principal *principals;
    uint64_t next_admission;
};

/* --- URLs and the metadata document ----------------------------------------------------------- */

/* The metadata URL of a resource URL (RFC 9728 section 3.1): the
 * well-known path goes between the host and the resource's path. */
static char *metadata_url_of(const char *resource)
{
    const char *host = strstr(resource, "://");
    host = host ? host + 3 : resource;
    const char *path = host + strcspn(host, "/?");
    struct buf b;
    buf_init(&b, 0);
    buf_append(&b, resource, (size_t) (path - resource));
    buf_append_str(&b, WELL_KNOWN);
    if (path[0] == '/' && path[1] != '\0')
        buf_append(&b, path, strcspn(path, "?"));
    return buf_steal(&b);
}

static void add_list(cJSON *o, const char *key, char *const *list)
{
    cJSON *a = cJSON_AddArrayToObject(o, key);
    for (; list && *list; list++)
        cJSON_AddItemToArray(a, cJSON_CreateString(*list));
}

static char *metadata_document(const struct mcp_http_auth *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "resource", a->resource);
    cJSON *servers = cJSON_AddArrayToObject(o, "authorization_servers");
    cJSON_AddItemToArray(servers, cJSON_CreateString(a->settings.issuer));
    cJSON *methods = cJSON_AddArrayToObject(o, "bearer_methods_supported");
    cJSON_AddItemToArray(methods, cJSON_CreateString("header"));
    if (a->settings.scopes_supported)
        add_list(o, "scopes_supported", a->settings.scopes_supported);
    else if (a->settings.required_scopes)
        add_list(o, "scopes_supported", a->settings.required_scopes);
    cJSON_AddStringToObject(o, "resource_name", "mcp-codemode");
    char *text = json_print(o);
    cJSON_Delete(o);
    return text;
}

static char *joined(char *const *list)
{
    if (list == NULL || *list == NULL)
        return NULL;
    struct buf b;
    buf_init(&b, 0);
    for (; *list; list++)
        buf_printf(&b, "%s%s", b.len ? " " : "", *list);
    return buf_steal(&b);
}

int mcp_http__auth_start(struct mcp_http *h, char **err)
{
    if (h->cfg.oauth == NULL)
        return 0;
    if (h->cfg.public_url == NULL && h->wildcard) {
        *err =
            xstrdup("codemode.http.oauth: set codemode.http.publicUrl to the URL clients use for "
                    "/mcp (such as https://mcp.example.com/mcp): listening on every address, "
                    "this server cannot tell which URL tokens are issued for");
        return -1;
    }
    struct mcp_http_auth *a = xcalloc(1, sizeof *a);
    char base[400];
    snprintf(base, sizeof base, "%s/mcp", h->url);
    const char *pub = h->cfg.public_url ? h->cfg.public_url : base;
    a->settings = *h->cfg.oauth;
    a->audience = xstrdup(a->settings.audience ? a->settings.audience : pub);
    a->settings.audience = a->audience;
    a->resource = xstrdup(pub); /* what clients check against the URL they use */
    a->metadata_url = metadata_url_of(pub);
    a->metadata = metadata_document(a);
    a->scope_param = joined(a->settings.required_scopes);
    a->next_admission = ADMISSION_FIRST;
    char why[300] = "";
    a->client =
        http_client_new(h->cfg.server.loop, "mcp-codemode/" MCP_CODEMODE_VERSION, why, sizeof why);
    if (a->client)
        a->verifier =
            http_token_verifier_new(h->cfg.server.loop, a->client, &a->settings, why, sizeof why);
    h->auth = a;
    if (a->verifier == NULL) {
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "codemode.http.oauth: %s", why[0] ? why : "the token verifier failed");
        *err = buf_steal(&b);
        return -1;
    }
    if (h->cfg.public_url == NULL && h->cfg.oauth->audience == NULL)
        log_info("http",
                 "oauth: tokens must be issued for %s (set codemode.http.publicUrl to the URL "
                 "clients use when it differs)",
                 a->audience);
    log_info("http", "oauth: accepting tokens of %s for %s; metadata at %s", a->settings.issuer,
             a->audience, a->metadata_url);
    return 0;
}

static void deferred_free(struct deferred *d);

void mcp_http__auth_free(struct mcp_http *h)
{
    struct mcp_http_auth *a = h->auth;
    if (a == NULL)
        return;
    while (a->deferred) {
        struct deferred *d = a->deferred;
        http_token_check_cancel(d->check);
        http_exchange_on_abort(d->x, NULL, NULL); /* the server's close ends it */
        deferred_free(d);
    }
    while (a->principals) {
        struct http_principal *p = a->principals;
        a->principals = p->next;
        mcp_server_free(p->modern);
        free(p->name);
        free(p);
    }
    http_token_verifier_free(a->verifier);
    if (a->client)
        http_client_free(a->client);
    free(a->resource);
    free(a->metadata_url);
    free(a->audience);
    free(a->metadata);
    free(a->scope_param);
    free(a);
    h->auth = NULL;
}

int mcp_http__auth_metadata_path(const char *path)
{
    size_t n = sizeof WELL_KNOWN - 1;
    return strncmp(path, WELL_KNOWN, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

void mcp_http__auth_metadata(struct mcp_http *h, struct http_exchange *x,
                             const struct http_server_request *r)
{
    static const char cors[] = "Access-Control-Allow-Origin: *\r\n";
    if (h->auth == NULL) {
        mcp_http__reply_error(x, 404, NULL, NULL, RPC_INVALID_REQUEST,
                              "Not Found: this server does not use OAuth (codemode.http.oauth)");
        return;
    }
    if (strcmp(r->method, "OPTIONS") == 0) {
        http_respond(x, 204,
                     "Access-Control-Allow-Origin: *\r\n"
                     "Access-Control-Allow-Methods: GET, OPTIONS\r\n"
                     "Access-Control-Allow-Headers: MCP-Protocol-Version\r\n",
                     NULL, "", 0);
        return;
    }
    if (strcmp(r->method, "GET") != 0 && strcmp(r->method, "HEAD") != 0) {
        mcp_http__reply_error(x, 405, "Allow: GET\r\n", NULL, RPC_INVALID_REQUEST,
                              "Method Not Allowed on this endpoint");
        return;
    }
    http_respond(x, 200, cors, "application/json", h->auth->metadata, strlen(h->auth->metadata));
}

/* --- principals ----------------------------------------------------------------------------- */

static int plain(const char *s)
{
    for (; *s; s++)
        if ((unsigned char) *s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}

/* "oauth:ISS#SUB" (an issuer has no '#': RFC 8414), digested when long or
 * not printable: "oauth:ISS#sha256:HEX", or "oauth:sha256:HEX" of both. */
char *mcp_http_principal_name(const char *iss, const char *sub)
{
    struct buf b;
    buf_init(&b, 0);
    char hex[65];
    if (strlen(iss) + strlen(sub) + 8 <= PRINCIPAL_MAX && plain(iss) && plain(sub) &&
        strchr(iss, '#') == NULL && strncmp(sub, "sha256:", 7) != 0) {
        buf_printf(&b, "oauth:%s#%s", iss, sub);
    } else if (strlen(iss) + 80 <= PRINCIPAL_MAX && plain(iss) && strchr(iss, '#') == NULL) {
        sha256_hex(sub, strlen(sub), hex);
        buf_printf(&b, "oauth:%s#sha256:%s", iss, hex);
    } else {
        struct buf both;
        buf_init(&both, 0);
        buf_printf(&both, "%s\n%s", iss, sub);
        sha256_hex(both.data, both.len, hex);
        buf_free(&both);
        buf_printf(&b, "oauth:sha256:%s", hex);
    }
    return buf_steal(&b);
}

static struct http_principal *principal_of(struct mcp_http *h, const char *iss, const char *sub)
{
    struct mcp_http_auth *a = h->auth;
    char *name = mcp_http_principal_name(iss, sub);
    struct http_principal **pp = &a->principals;
    for (; *pp; pp = &(*pp)->next)
        if (strcmp((*pp)->name, name) == 0)
            break;
    struct http_principal *p = *pp;
    if (p) {
        *pp = p->next; /* to the front: the active ones are found first */
        free(name);
    } else {
        p = xcalloc(1, sizeof *p);
        p->name = name;
        p->admission_id = a->next_admission++;
    }
    p->next = a->principals;
    a->principals = p;
    p->last_used = uv_now(h->cfg.server.loop);
    return p;
}

void mcp_http__principal_ref(struct http_principal *p)
{
    p->refs++;
}

void mcp_http__principal_unref(struct mcp_http *h, struct http_principal *p)
{
    p->refs--;
    p->last_used = uv_now(h->cfg.server.loop);
}

static void drop_send(void *ud, const char *data, size_t len, int final)
{
    (void) ud, (void) data, (void) len, (void) final; /* 2026-07-28 has no session channel */
}

struct mcp_server *mcp_http__principal_modern(struct mcp_http *h, struct http_principal *p)
{
    if (p->modern == NULL) {
        struct mcp_channel none = {h, drop_send, NULL};
        p->modern = mcp_server_new(&h->cfg.server, &none);
        mcp_server_set_principal(p->modern, p->name);
        mcp_server_set_admission_principal(p->modern, p->admission_id);
    }
    p->last_used = uv_now(h->cfg.server.loop);
    return p->modern;
}

void mcp_http__auth_expire(struct mcp_http *h, uint64_t now)
{
    if (h->auth == NULL)
        return;
    struct http_principal **pp = &h->auth->principals;
    while (*pp) {
        struct http_principal *p = *pp;
        if (p->refs == 0 && (p->modern == NULL || !mcp_server_busy(p->modern)) &&
            now - p->last_used >= h->cfg.session_timeout_ms) {
            *pp = p->next;
            mcp_server_free(p->modern);
            free(p->name);
            free(p);
        } else {
            pp = &p->next;
        }
    }
}

void mcp_http__auth_tools_changed(struct mcp_http *h)
{
    for (struct http_principal *p = h->auth ? h->auth->principals : NULL; p; p = p->next)
        if (p->modern)
            mcp_server_tools_changed(p->modern);
}

unsigned mcp_http__auth_pending(const struct mcp_http *h)
{
    return h->auth ? h->auth->ndeferred : 0;
}

/* --- answers (RFC 6750 section 3) ------------------------------------------------------------- */

/* error NULL: a request without credentials (no error code, RFC 6750 3.1). */
static void challenge(struct mcp_http *h, struct http_exchange *x, const char *cors, int status,
                      const char *error, const char *description, const char *message)
{
    struct mcp_http_auth *a = h->auth;
    struct buf b;
    buf_init(&b, 0);
    if (cors)
        buf_append_str(&b, cors);
    buf_printf(&b, "WWW-Authenticate: Bearer resource_metadata=\"%s\"", a->metadata_url);
    if (a->scope_param)
        buf_printf(&b, ", scope=\"%s\"", a->scope_param);
    if (error)
        buf_printf(&b, ", error=\"%s\"", error);
    if (description)
        buf_printf(&b, ", error_description=\"%s\"", description);
    buf_append_str(&b, "\r\n");
    mcp_http__reply_error(x, status, b.data, NULL, RPC_INVALID_REQUEST, message);
    buf_free(&b);
}

static void unavailable(struct http_exchange *x, const char *cors, const char *reason)
{
    struct buf b;
    buf_init(&b, 0);
    if (cors)
        buf_append_str(&b, cors);
    buf_append_str(&b, "Retry-After: 5\r\n");
    log_warn("http", "oauth: refused a request: its token cannot be checked now (%s)",
             reason ? reason : "the authorization server cannot be reached");
    mcp_http__reply_error(x, 503, b.data, NULL, RPC_INVALID_REQUEST,
                          "Service Unavailable: the access token cannot be checked now (the "
                          "authorization server's keys cannot be fetched); try again later");
    buf_free(&b);
}

static int has_scope(char *const *granted, const char *scope)
{
    for (; granted && *granted; granted++)
        if (strcmp(*granted, scope) == 0)
            return 1;
    return 0;
}

/* The verifier's answer for a request: routed with its identity, or refused. */
static void decided(struct mcp_http *h, struct http_exchange *x,
                    const struct http_server_request *r, const char *cors, int status,
                    const struct http_token_identity *ti, const char *reason)
{
    struct mcp_http_auth *a = h->auth;
    if (status == HTTP_TOKEN_UNAVAILABLE) {
        unavailable(x, cors, reason);
        return;
    }
    if (status != HTTP_TOKEN_VALID || ti == NULL || ti->iss == NULL || ti->sub == NULL ||
        ti->sub[0] == '\0') {
        log_info("http", "oauth: refused a token: %s",
                 reason ? reason : "it names no subject (sub)");
        challenge(h, x, cors, 401, "invalid_token",
                  "The access token is invalid, expired, or not for this server",
                  "Unauthorized: the access token is invalid, expired, or was not issued for "
                  "this server; get a new one from the authorization server");
        return;
    }
    for (char *const *need = a->settings.required_scopes; need && *need; need++)
        if (!has_scope(ti->scopes, *need)) {
            log_info("http", "oauth: refused a token of %s: scope %s missing", ti->sub, *need);
            challenge(h, x, cors, 403, "insufficient_scope",
                      "The access token lacks a scope this server requires",
                      "Forbidden: the access token lacks a scope this server requires (see the "
                      "scope parameter of WWW-Authenticate); ask for it and try again");
            return;
        }
    struct mcp_http_identity id = {principal_of(h, ti->iss, ti->sub), ti->scopes};
    mcp_http__route(h, x, r, cors, &id);
}

/* --- waiting for a check ---------------------------------------------------------------------- */

static void deferred_free(struct deferred *d)
{
    struct mcp_http_auth *a = d->h->auth;
    if (d->prev)
        d->prev->next = d->next;
    else
        a->deferred = d->next;
    if (d->next)
        d->next->prev = d->prev;
    a->ndeferred--;
    free(d->cors);
    free(d->headers);
    free(d->strings);
    free(d);
}

static void deferred_gone(void *ud)
{
    struct deferred *d = ud;
    http_token_check_cancel(d->check);
    struct mcp_http *h = d->h;
    deferred_free(d);
    mcp_http__check_drained(h);
}

static void checked(void *ud, enum http_token_status status, const struct http_token_identity *id,
                    const char *reason)
{
    struct deferred *d = ud;
    struct mcp_http *h = d->h;
    http_exchange_on_abort(d->x, NULL, NULL);
    d->check = NULL;
    if (h->closing)
        mcp_http__reply_error(d->x, 503, d->cors, NULL, RPC_INVALID_REQUEST,
                              "Service Unavailable: the server is shutting down");
    else
        decided(h, d->x, &d->r, d->cors, (int) status, id, reason);
    deferred_free(d);
    mcp_http__check_drained(h);
}

/* Copies what routing reads of r into one block of strings. */
static void copy_request(struct deferred *d, const struct http_server_request *r)
{
    struct buf b;
    buf_init(&b, 0);
    size_t at[4 + 2 * 128 + 1];
    size_t n = r->nheaders < 128 ? r->nheaders : 128, k = 0;
    const char *parts[] = {r->method, r->target, r->path, r->query};
    for (size_t i = 0; i < 4; i++) {
        at[k++] = b.len;
        buf_append(&b, parts[i], strlen(parts[i]) + 1);
    }
    for (size_t i = 0; i < n; i++) {
        at[k++] = b.len;
        buf_append(&b, r->headers[i].name, r->headers[i].name_len + 1);
        at[k++] = b.len;
        buf_append(&b, r->headers[i].value, r->headers[i].value_len + 1);
    }
    at[k++] = b.len;
    buf_append(&b, r->body ? r->body : "", r->body_len);
    buf_append_char(&b, '\0');
    d->strings = buf_steal(&b);
    d->r = *r;
    d->r.method = d->strings + at[0];
    d->r.target = d->strings + at[1];
    d->r.path = d->strings + at[2];
    d->r.query = d->strings + at[3];
    d->headers = xcalloc(n ? n : 1, sizeof *d->headers);
    for (size_t i = 0; i < n; i++) {
        d->headers[i] = r->headers[i];
        d->headers[i].name = d->strings + at[4 + 2 * i];
        d->headers[i].value = d->strings + at[5 + 2 * i];
    }
    d->r.headers = d->headers;
    d->r.nheaders = n;
    d->r.body = d->strings + at[k - 1];
}

static void defer(struct mcp_http *h, struct http_exchange *x, const struct http_server_request *r,
                  const char *cors, const char *token, size_t len)
{
    struct mcp_http_auth *a = h->auth;
    struct deferred *d = xcalloc(1, sizeof *d);
    d->h = h;
    d->x = x;
    d->cors = cors ? xstrdup(cors) : NULL;
    copy_request(d, r);
    d->next = a->deferred;
    if (a->deferred)
        a->deferred->prev = d;
    a->deferred = d;
    a->ndeferred++;
    http_exchange_on_abort(x, deferred_gone, d);
    d->check = http_token_verify(a->verifier, token, len, checked, d);
}

/* --- the front door's check ---------------------------------------------------------------------
 */

/* The token of "Authorization: Bearer TOKEN" (scheme case-insensitive),
 * or NULL; *malformed when the header is there but unusable. */
static const char *bearer(const char *authorization, size_t *len, int *malformed)
{
    *malformed = 0;
    if (authorization == NULL)
        return NULL;
    if (strncasecmp(authorization, "Bearer ", 7) != 0)
        return NULL; /* another scheme: as if no credentials came (RFC 6750 3.1) */
    const char *t = authorization + 7;
    while (*t == ' ')
        t++;
    *len = strlen(t);
    /* b64token: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
    size_t i = 0;
    while (i < *len && (strchr("-._~+/", t[i]) || (t[i] >= 'a' && t[i] <= 'z') ||
                        (t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= '0' && t[i] <= '9')))
        i++;
    while (i < *len && t[i] == '=')
        i++;
    if (*len == 0 || i != *len) {
        *malformed = 1;
        return NULL;
    }
    return t;
}

void mcp_http__auth_request(struct mcp_http *h, struct http_exchange *x,
                            const struct http_server_request *r, const char *cors)
{
    struct mcp_http_auth *a = h->auth;
    size_t len = 0;
    int malformed;
    size_t nauth = http_parser_header_count(r, "authorization");
    const char *token = bearer(http_parser_header(r, "authorization"), &len, &malformed);
    if (nauth > 1 || malformed) {
        challenge(h, x, cors, 400, "invalid_request", "Malformed Authorization header",
                  "Bad Request: send one header Authorization: Bearer <access token>");
        return;
    }
    if (token == NULL) {
        challenge(h, x, cors, 401, NULL, NULL,
                  "Unauthorized: this server needs an OAuth access token (Authorization: "
                  "Bearer <token>); its authorization server is named in the protected "
                  "resource metadata (WWW-Authenticate)");
        return;
    }
    struct http_token_identity ti;
    const char *reason = NULL;
    memset(&ti, 0, sizeof ti);
    int status = http_token_verify_cached(a->verifier, token, len, &ti, &reason);
    if (status < 0)
        defer(h, x, r, cors, token, len);
    else
        decided(h, x, r, cors, status, &ti, reason);
}
