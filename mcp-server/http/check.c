/* Checks on HTTP requests to the MCP endpoints: Host and Origin against the
 * names this server answers to (the defence against DNS rebinding), the
 * bearer token, Accept and Content-Type media types, header value
 * characters, the base64 sentinel of 2026 header values, query parameters. */
#include "mcp-server/http/internal.h"
#include "common/alloc.h"
#include "common/base64.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const loopback_names[] = {"localhost", "127.0.0.1", "[::1]", NULL};

/* Splits "host[:port]" ("[v6]:port" keeps its brackets). port = -1 when
 * absent. Returns 0, or -1 when malformed. */
static int split_host_port(const char *s, size_t n, char *host, size_t hsz, int *port)
{
    const char *colon = NULL;
    if (n > 0 && s[0] == '[') {
        const char *end = memchr(s, ']', n);
        if (end == NULL)
            return -1;
        colon = (size_t) (end + 1 - s) < n ? end + 1 : NULL;
        if (colon && *colon != ':')
            return -1;
    } else {
        colon = memchr(s, ':', n);
    }
    size_t hlen = colon ? (size_t) (colon - s) : n;
    if (hlen == 0 || hlen >= hsz)
        return -1;
    memcpy(host, s, hlen);
    host[hlen] = '\0';
    *port = -1;
    if (colon) {
        size_t plen = n - hlen - 1;
        if (plen == 0 || plen > 5 || strspn(colon + 1, "0123456789") < plen)
            return -1;
        *port = atoi(colon + 1);
    }
    return 0;
}

/* Splits an origin "scheme://host[:port]" with the scheme's default port. */
static int split_origin(const char *o, char *host, size_t hsz, int *port, int *https)
{
    size_t skip = strncasecmp(o, "http://", 7) == 0    ? 7
                  : strncasecmp(o, "https://", 8) == 0 ? 8
                                                       : 0;
    if (skip == 0)
        return -1;
    *https = skip == 8;
    const char *rest = o + skip;
    size_t n = strlen(rest);
    if (n > 0 && rest[n - 1] == '/')
        n--; /* tolerate "http://host:port/" */
    if (memchr(rest, '/', n) || split_host_port(rest, n, host, hsz, port) < 0)
        return -1;
    if (*port < 0)
        *port = *https ? 443 : 80;
    return 0;
}

static int is_loopback_name(const char *host)
{
    for (int i = 0; loopback_names[i]; i++)
        if (strcasecmp(host, loopback_names[i]) == 0)
            return 1;
    return 0;
}

/* The bound host as it appears in a URL (IPv6 in brackets). */
static int is_listen_host(const struct mcp_http *h, const char *host)
{
    size_t n = strlen(h->listen_host);
    if (host[0] == '[')
        return strlen(host) == n + 2 && strncasecmp(host + 1, h->listen_host, n) == 0;
    return strcasecmp(host, h->listen_host) == 0;
}

static int allowed_origin_names(const struct mcp_http *h, const char *host, int port)
{
    for (char *const *o = h->cfg.allowed_origins; o && *o; o++) {
        char oh[256];
        int op, https;
        if (split_origin(*o, oh, sizeof oh, &op, &https) == 0 && op == port &&
            strcasecmp(oh, host) == 0)
            return 1;
    }
    return 0;
}

int mcp_http__check_host(const struct mcp_http *h, const char *value)
{
    char host[256];
    int port;
    if (value == NULL || split_host_port(value, strlen(value), host, sizeof host, &port) < 0)
        return 0;
    if (allowed_origin_names(h, host, port < 0 ? 80 : port) ||
        (port < 0 && allowed_origin_names(h, host, 443)))
        return 1;
    if ((port < 0 ? 80 : port) != h->port)
        return 0;
    return h->wildcard || is_loopback_name(host) || is_listen_host(h, host);
}

int mcp_http__check_origin(const struct mcp_http *h, const char *origin)
{
    for (char *const *o = h->cfg.allowed_origins; o && *o; o++)
        if (strcasecmp(*o, origin) == 0)
            return 1;
    char host[256];
    int port, https;
    if (split_origin(origin, host, sizeof host, &port, &https) < 0 || https || port != h->port)
        return 0;
    return is_loopback_name(host) || (!h->wildcard && is_listen_host(h, host));
}

int mcp_http__check_token(const char *authorization, const char *token)
{
    if (authorization == NULL || strncasecmp(authorization, "Bearer ", 7) != 0)
        return 0;
    const char *t = authorization + 7;
    while (*t == ' ')
        t++;
    size_t n = strlen(t), m = strlen(token);
    unsigned char diff = n != m;
    for (size_t i = 0; i < m; i++)
        diff |= (unsigned char) (token[i] ^ (i < n ? t[i] : 0));
    return diff == 0;
}

/* --- media types ------------------------------------------------------------------------- */

/* Compares the media range at s (up to ';' or ',') with type. */
static int range_matches(const char *s, size_t n, const char *type)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    const char *slash = strchr(type, '/');
    if (n == 3 && memcmp(s, "*/*", 3) == 0)
        return 1;
    size_t major = (size_t) (slash - type);
    if (n == major + 2 && strncasecmp(s, type, major + 1) == 0 && s[major + 1] == '*')
        return 1;
    return n == strlen(type) && strncasecmp(s, type, n) == 0;
}

/* 1 when the parameters of a media range set q=0 (not acceptable). */
static int refused(const char *params, size_t n)
{
    for (const char *q = params; q + 3 <= params + n; q++)
        if ((q[0] == 'q' || q[0] == 'Q') && q[1] == '=' &&
            (q == params || q[-1] == ';' || q[-1] == ' '))
            return strtod(q + 2, NULL) <= 0.0;
    return 0;
}

int mcp_http__accepts(const char *accept, const char *type)
{
    if (accept == NULL || *accept == '\0')
        return 1;
    const char *p = accept;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        size_t item = strcspn(p, ","), range = strcspn(p, ";,");
        if (item > 0 && range_matches(p, range, type) && !refused(p + range, item - range))
            return 1;
        p += item;
    }
    return 0;
}

int mcp_http__media_is(const char *content_type, const char *type)
{
    if (content_type == NULL)
        return 0;
    size_t n = strcspn(content_type, ";");
    while (n > 0 && (content_type[n - 1] == ' ' || content_type[n - 1] == '\t'))
        n--;
    return n == strlen(type) && strncasecmp(content_type, type, n) == 0;
}

int mcp_http__field_ok(const char *value)
{
    for (const unsigned char *p = (const unsigned char *) value; *p; p++)
        if (!(*p == '\t' || (*p >= 0x20 && *p <= 0x7e)))
            return 0;
    return 1;
}

/* --- encodings ------------------------------------------------------------------------------ */

/* Standard base64 with padding and nothing else (the shared decoder is the
 * forgiving one of atob, which also takes whitespace and no padding); NULL
 * when malformed. */
static char *b64_decode(const char *s, size_t n)
{
    if (n % 4 != 0 || strcspn(s, " \t\n\f\r") < n)
        return NULL;
    char *out = xmalloc(n / 4 * 3 + 4);
    long len = base64_decode(s, n, (unsigned char *) out);
    if (len < 0) {
        free(out);
        return NULL;
    }
    out[len] = '\0';
    return out;
}

char *mcp_http__decode_header_value(const char *value)
{
    size_t n = strlen(value);
    if (n >= 11 && strncmp(value, "=?base64?", 9) == 0 && strcmp(value + n - 2, "?=") == 0)
        return b64_decode(value + 9, n - 11);
    return xstrdup(value);
}

static int hex_value(int c)
{
    return isdigit(c) ? c - '0' : isxdigit(c) ? (tolower(c) - 'a' + 10) : -1;
}

char *mcp_http__query_param(const char *query, const char *key)
{
    size_t klen = strlen(key);
    for (const char *p = query; p && *p;) {
        size_t item = strcspn(p, "&");
        if (item > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            char *v = xmalloc(item - klen);
            size_t o = 0;
            for (size_t i = klen + 1; i < item; i++) {
                int hi, lo;
                if (p[i] == '%' && i + 2 < item && (hi = hex_value(p[i + 1])) >= 0 &&
                    (lo = hex_value(p[i + 2])) >= 0) {
                    v[o++] = (char) (hi << 4 | lo);
                    i += 2;
                } else {
                    v[o++] = p[i] == '+' ? ' ' : p[i];
                }
            }
            v[o] = '\0';
            return v;
        }
        p += item + (p[item] == '&');
    }
    return NULL;
}
