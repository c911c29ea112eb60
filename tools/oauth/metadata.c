/* Discovery URLs and metadata checks (see metadata.h). URLs are split by
 * hand into scheme, authority and path: the forms we accept are the
 * absolute http(s) URLs of a configuration file or a metadata document. */
#include "tools/oauth/metadata.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct url_parts {
    const char *scheme, *auth, *path, *rest; /* rest: "?..." / "#..." or "" */
    size_t scheme_len, auth_len, path_len;
};

static int split(const char *url, struct url_parts *u)
{
    const char *sep = url ? strstr(url, "://") : NULL;
    if (sep == NULL)
        return -1;
    u->scheme = url;
    u->scheme_len = (size_t) (sep - url);
    if (!((u->scheme_len == 4 && strncasecmp(url, "http", 4) == 0) ||
          (u->scheme_len == 5 && strncasecmp(url, "https", 5) == 0)))
        return -1;
    u->auth = sep + 3;
    u->auth_len = strcspn(u->auth, "/?#");
    if (u->auth_len == 0 || memchr(u->auth, '@', u->auth_len))
        return -1; /* no host, or credentials in the URL */
    u->path = u->auth + u->auth_len;
    u->path_len = strcspn(u->path, "?#");
    u->rest = u->path + u->path_len;
    for (const char *p = url; *p; p++)
        if ((unsigned char) *p <= 0x20 || *p == 0x7f)
            return -1;
    return 0;
}

static char *origin_of(const struct url_parts *u)
{
    struct buf b;
    buf_init(&b, 0);
    for (size_t i = 0; i < u->scheme_len; i++)
        buf_append_char(&b, (char) tolower((unsigned char) u->scheme[i]));
    buf_append_str(&b, "://");
    for (size_t i = 0; i < u->auth_len; i++)
        buf_append_char(&b, (char) tolower((unsigned char) u->auth[i]));
    return buf_steal(&b);
}

static char **vec(size_t n)
{
    return xcalloc(n + 1, sizeof(char *));
}

void tools_oauth_free_vector(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

static char *join(const char *origin, const char *a, const char *p, size_t plen, const char *b)
{
    struct buf out;
    buf_init(&out, 0);
    buf_printf(&out, "%s%s%.*s%s", origin, a, (int) plen, p, b);
    return buf_steal(&out);
}

/* The path without its trailing slash ("" for "/" or none). */
static size_t trimmed_path(const struct url_parts *u)
{
    size_t n = u->path_len;
    while (n > 0 && u->path[n - 1] == '/')
        n--;
    return n;
}

char **tools_oauth_prm_urls(const char *url)
{
    struct url_parts u;
    if (split(url, &u) != 0)
        return NULL;
    char *origin = origin_of(&u);
    size_t plen = trimmed_path(&u), k = 0;
    char **v = vec(2);
    if (plen > 0)
        v[k++] = join(origin, "/.well-known/oauth-protected-resource", u.path, plen, "");
    v[k++] = join(origin, "/.well-known/oauth-protected-resource", "", 0, "");
    free(origin);
    return v;
}

char **tools_oauth_as_urls(const char *issuer)
{
    struct url_parts u;
    if (split(issuer, &u) != 0 || *u.rest != '\0')
        return NULL;
    char *origin = origin_of(&u);
    size_t plen = trimmed_path(&u);
    char **v = vec(3);
    if (plen > 0) {
        v[0] = join(origin, "/.well-known/oauth-authorization-server", u.path, plen, "");
        v[1] = join(origin, "/.well-known/openid-configuration", u.path, plen, "");
        v[2] = join(origin, "", u.path, plen, "/.well-known/openid-configuration");
    } else {
        v[0] = join(origin, "/.well-known/oauth-authorization-server", "", 0, "");
        v[1] = join(origin, "/.well-known/openid-configuration", "", 0, "");
    }
    free(origin);
    return v;
}

static int loopback_host(const char *h, size_t n)
{
    if (n > 0 && h[0] == '[') {
        size_t close = 0;
        while (close < n && h[close] != ']')
            close++;
        return close == 4 && strncmp(h, "[::1", 4) == 0;
    }
    size_t host = 0;
    while (host < n && h[host] != ':')
        host++;
    if (host == 9 && strncasecmp(h, "localhost", 9) == 0)
        return 1;
    return host >= 7 && strncmp(h, "127.", 4) == 0 && strspn(h, "0123456789.") >= host;
}

int tools_oauth_url_ok(const char *url, char *why, size_t n)
{
    struct url_parts u;
    if (split(url, &u) != 0) {
        snprintf(why, n, "\"%.200s\" is not an absolute http(s) URL", url ? url : "");
        return 0;
    }
    if (u.scheme_len == 5 || loopback_host(u.auth, u.auth_len))
        return 1;
    snprintf(why, n, "\"%.200s\" is plain HTTP on a host that is not loopback (HTTPS is required)",
             url);
    return 0;
}

char *tools_oauth_canonical_uri(const char *url)
{
    struct url_parts u;
    if (split(url, &u) != 0)
        return NULL;
    char *origin = origin_of(&u);
    size_t qlen = strcspn(u.rest, "#");
    char *out = u.path_len == 1 && qlen == 0 ? xstrdup(origin)
                                             : join(origin, "", u.path, u.path_len + qlen, "");
    free(origin);
    return out;
}

const char *tools_oauth_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int same_origin(const char *a, const char *b)
{
    struct url_parts ua, ub;
    if (split(a, &ua) != 0 || split(b, &ub) != 0)
        return 0;
    char *oa = origin_of(&ua), *ob = origin_of(&ub);
    int same = strcmp(oa, ob) == 0;
    free(oa);
    free(ob);
    return same;
}

int tools_oauth_prm_check(const cJSON *prm, const char *server_url, char *why, size_t n)
{
    const cJSON *as = cJSON_GetObjectItemCaseSensitive(prm, "authorization_servers");
    const char *res = tools_oauth_str(prm, "resource");
    if (!cJSON_IsObject(prm)) {
        snprintf(why, n, "its protected resource metadata is not a JSON object");
        return -1;
    }
    if (!cJSON_IsArray(as) || cJSON_GetArraySize(as) == 0 ||
        !cJSON_IsString(cJSON_GetArrayItem(as, 0))) {
        snprintf(why, n, "its protected resource metadata lists no authorization_servers");
        return -1;
    }
    if (cJSON_GetObjectItemCaseSensitive(prm, "resource") &&
        (res == NULL || !same_origin(res, server_url))) {
        snprintf(why, n,
                 "its protected resource metadata is for resource \"%.200s\", not for %.200s",
                 res ? res : "(not a string)", server_url);
        return -1;
    }
    return 0;
}

static int lists_s256(const cJSON *meta)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(meta, "code_challenge_methods_supported");
    const cJSON *e;
    cJSON_ArrayForEach(e, m) if (cJSON_IsString(e) && strcmp(e->valuestring, "S256") == 0) return 1;
    return 0;
}

static int endpoint_check(const cJSON *meta, const char *key, int required, const char *issuer,
                          char *why, size_t n)
{
    const char *v = tools_oauth_str(meta, key);
    char reason[300];
    if (v == NULL && !required && cJSON_GetObjectItemCaseSensitive(meta, key) == NULL)
        return 0;
    if (v == NULL) {
        snprintf(why, n, "the metadata of authorization server %.200s has no %s", issuer, key);
        return -1;
    }
    if (!tools_oauth_url_ok(v, reason, sizeof reason)) {
        snprintf(why, n, "the %s of authorization server %.200s: %s", key, issuer, reason);
        return -1;
    }
    return 0;
}

int tools_oauth_as_check(const cJSON *meta, const char *issuer, char *why, size_t n)
{
    const char *iss = tools_oauth_str(meta, "issuer");
    if (!cJSON_IsObject(meta)) {
        snprintf(why, n, "the metadata of authorization server %.200s is not a JSON object",
                 issuer);
        return -1;
    }
    if (iss == NULL || strcmp(iss, issuer) != 0) {
        snprintf(why, n,
                 "the metadata fetched for authorization server %.200s names issuer \"%.200s\": "
                 "refused (they must be identical)",
                 issuer, iss ? iss : "(none)");
        return -1;
    }
    if (!lists_s256(meta)) {
        snprintf(why, n,
                 "authorization server %.200s does not list S256 in "
                 "code_challenge_methods_supported: refused (PKCE S256 is required)",
                 issuer);
        return -1;
    }
    if (endpoint_check(meta, "authorization_endpoint", 1, issuer, why, n) != 0 ||
        endpoint_check(meta, "token_endpoint", 1, issuer, why, n) != 0 ||
        endpoint_check(meta, "registration_endpoint", 0, issuer, why, n) != 0 ||
        endpoint_check(meta, "revocation_endpoint", 0, issuer, why, n) != 0)
        return -1;
    return 0;
}
