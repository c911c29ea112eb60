/* codemode.http.oauth (the HTTP endpoint as an OAuth 2.1 protected
 * resource) and codemode.http.publicUrl (the URL clients reach /mcp at,
 * which tokens are issued for): issuer, audience, jwksUri, introspection
 * {url, clientId, clientSecret}, requiredScopes, scopesSupported,
 * clockSkewSeconds. authToken and oauth exclude each other. The user
 * documentation is docs/http-oauth.md. */
#include "mcp-server/config/internal.h"

#include "common/alloc.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_SKEW_SECONDS 600

static const char *const oauth_keys[] = {
    "issuer",         "audience",        "jwksUri",          "introspection",
    "requiredScopes", "scopesSupported", "clockSkewSeconds", NULL};
static const char *const introspection_keys[] = {"url", "clientId", "clientSecret", NULL};

/* 1 when url is http(s)://HOST... with no fragment and no whitespace. */
static int url_ok(const char *url, int allow_query)
{
    size_t scheme = strncasecmp(url, "https://", 8) == 0  ? 8
                    : strncasecmp(url, "http://", 7) == 0 ? 7
                                                          : 0;
    if (scheme == 0 || url[scheme] == '\0' || url[scheme] == '/')
        return 0;
    for (const unsigned char *q = (const unsigned char *) url; *q; q++)
        if (*q <= 0x20 || *q == 0x7f || *q == '#' || (!allow_query && *q == '?'))
            return 0;
    return 1;
}

/* A URL member: http(s), no fragment (no query when allow_query is 0). */
static int read_url(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                    int allow_query, const char *example, char **out)
{
    char *s;
    if (config__string(x, v, p, CONFIG_VARS_REQUIRED, &s) < 0)
        return -1;
    if (!url_ok(s, allow_query)) {
        config__error(x, config__at(x, v, 0), p,
                      "\"%s\" is not an http(s) URL such as %s (no fragment%s, no spaces)", s,
                      example, allow_query ? "" : " or query");
        free(s);
        return -1;
    }
    free(*out);
    *out = s;
    return 0;
}

int config__http_public_url(struct config_ctx *x, const cJSON *v, const struct config_kpath *p)
{
    return read_url(x, v, p, 0, "https://mcp.example.com/mcp", &x->c->http_public_url);
}

/* A non-empty string member (secrets may come from ${VAR}). */
static int read_text(struct config_ctx *x, const cJSON *v, const struct config_kpath *p, char **out)
{
    char *s;
    if (config__string(x, v, p, CONFIG_VARS_REQUIRED, &s) < 0)
        return -1;
    if (s[0] == '\0') {
        config__error(x, config__at(x, v, 0), p, "empty string (remove the key instead)");
        free(s);
        return -1;
    }
    free(*out);
    *out = s;
    return 0;
}

/* An item of a list of scopes (config__checked_list). */
static int check_scope(struct config_ctx *x, const cJSON *e, const struct config_kpath *p,
                       const char *scope)
{
    if (config__scope_ok(scope))
        return 0;
    config__error(x, config__at(x, e, 0), p,
                  "\"%s\" is not a scope (printable ASCII without spaces, quotes or "
                  "backslashes, such as \"mcp:tools\")",
                  scope);
    return -1;
}

static int read_introspection(struct config_ctx *x, cJSON *v, const struct config_kpath *p)
{
    struct config_http_oauth *o = &x->c->http_oauth;
    struct config_kpath up = {p, "url", 0}, ip = {p, "clientId", 0}, sp = {p, "clientSecret", 0};
    if (config__object(x, v, p) < 0)
        return -1;
    config__unknown_keys(x, v, p, introspection_keys);
    const cJSON *url = cJSON_GetObjectItemCaseSensitive(v, "url");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(v, "clientId");
    const cJSON *secret = cJSON_GetObjectItemCaseSensitive(v, "clientSecret");
    if (url == NULL) {
        config__error(x, config__at(x, v, 0), p,
                      "\"url\" is required: the authorization server's introspection endpoint "
                      "(RFC 7662), such as https://auth.example.com/oauth/introspect");
        return -1;
    }
    if (read_url(x, url, &up, 1, "https://auth.example.com/oauth/introspect",
                 &o->introspection_url) < 0)
        return -1;
    if (id && read_text(x, id, &ip, &o->introspection_client_id) < 0)
        return -1;
    if (secret && read_text(x, secret, &sp, &o->introspection_client_secret) < 0)
        return -1;
    if ((id == NULL) != (secret == NULL)) {
        config__error(x, config__at(x, v, 0), p,
                      "clientId and clientSecret go together: the credentials this server "
                      "presents to the introspection endpoint");
        return -1;
    }
    return 0;
}

int config__http_oauth(struct config_ctx *x, cJSON *v, const struct config_kpath *p)
{
    struct config_http_oauth *o = &x->c->http_oauth;
    struct config_kpath isp = {p, "issuer", 0}, ap = {p, "audience", 0}, jp = {p, "jwksUri", 0},
                        inp = {p, "introspection", 0}, rp = {p, "requiredScopes", 0},
                        sp = {p, "scopesSupported", 0}, kp = {p, "clockSkewSeconds", 0};
    if (config__object(x, v, p) < 0)
        return -1;
    config__unknown_keys(x, v, p, oauth_keys);
    const cJSON *issuer = cJSON_GetObjectItemCaseSensitive(v, "issuer");
    const cJSON *audience = cJSON_GetObjectItemCaseSensitive(v, "audience");
    const cJSON *jwks = cJSON_GetObjectItemCaseSensitive(v, "jwksUri");
    cJSON *introspection = cJSON_GetObjectItemCaseSensitive(v, "introspection");
    const cJSON *required = cJSON_GetObjectItemCaseSensitive(v, "requiredScopes");
    const cJSON *supported = cJSON_GetObjectItemCaseSensitive(v, "scopesSupported");
    const cJSON *skew = cJSON_GetObjectItemCaseSensitive(v, "clockSkewSeconds");
    if (issuer == NULL) {
        config__error(x, config__at(x, v, 0), p,
                      "\"issuer\" is required: the authorization server whose tokens this "
                      "server accepts, such as https://auth.example.com/realms/team");
        return -1;
    }
    o->enabled = 1;
    if (read_url(x, issuer, &isp, 0, "https://auth.example.com/realms/team", &o->issuer) < 0)
        return -1;
    if (audience && read_text(x, audience, &ap, &o->audience) < 0)
        return -1;
    if (jwks && read_url(x, jwks, &jp, 1, "https://auth.example.com/jwks", &o->jwks_uri) < 0)
        return -1;
    if (introspection && read_introspection(x, introspection, &inp) < 0)
        return -1;
    if (required && config__checked_list(x, required, &rp, check_scope, &o->required_scopes) < 0)
        return -1;
    if (supported && config__checked_list(x, supported, &sp, check_scope, &o->scopes_supported) < 0)
        return -1;
    if (skew) {
        int64_t n;
        if (config__int(x, skew, &kp, 0, MAX_SKEW_SECONDS, &n) < 0)
            return -1;
        o->clock_skew_seconds = (unsigned) n;
    }
    return 0;
}

int config__http_auth_exclusive(struct config_ctx *x, const cJSON *at, const struct config_kpath *p)
{
    if (x->c->http_auth_token == NULL || !x->c->http_oauth.enabled)
        return 0;
    config__error(x, at ? config__at(x, at, 1) : CONFIG_JSON_NOPOS, p,
                  "authToken and oauth exclude each other: one shared token, or a token per "
                  "user from the authorization server; remove one of them");
    return -1;
}

void config__http_oauth_free(struct config_http_oauth *o)
{
    free(o->issuer);
    free(o->audience);
    free(o->jwks_uri);
    free(o->introspection_url);
    free(o->introspection_client_id);
    free(o->introspection_client_secret);
    config__free_list(o->required_scopes);
    config__free_list(o->scopes_supported);
    memset(o, 0, sizeof *o);
}
