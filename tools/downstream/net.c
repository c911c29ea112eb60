/* What the Streamable HTTP and legacy SSE transports share: request header
 * vectors (the entry's configured headers, never overriding the protocol's
 * own), and the sentences that name an HTTP failure for logs and for the
 * programs whose calls it fails. */
#include "tools/downstream/internal.h"
#include "transport/http_client.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void tools__downstream_hdr_add(struct ds_headers *h, const char *fmt, ...)
{
    struct buf b;
    va_list ap;
    buf_init(&b, 0);
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    h->v = xrealloc(h->v, (h->n + 2) * sizeof *h->v);
    h->v[h->n++] = buf_steal(&b);
    h->v[h->n] = NULL;
}

static int ours(const char *line)
{
    static const char *const names[] = {"content-type", "accept", "last-event-id", NULL};
    size_t n = strcspn(line, ":;");
    if (n >= 4 && strncasecmp(line, "mcp-", 4) == 0)
        return 1;
    for (size_t i = 0; names[i]; i++)
        if (strlen(names[i]) == n && strncasecmp(line, names[i], n) == 0)
            return 1;
    return 0;
}

void tools__downstream_hdr_config(struct ds_headers *h, char *const *config)
{
    for (size_t i = 0; config && config[i]; i++)
        if (!ours(config[i]))
            tools__downstream_hdr_add(h, "%s", config[i]);
}

void tools__downstream_hdr_free(struct ds_headers *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->v[i]);
    free(h->v);
    h->v = NULL;
    h->n = 0;
}

const char *tools__downstream_http_reason(int status)
{
    static const struct {
        int code;
        const char *text;
    } reasons[] = {{200, "OK"},
                   {202, "Accepted"},
                   {204, "No Content"},
                   {301, "Moved Permanently"},
                   {302, "Found"},
                   {307, "Temporary Redirect"},
                   {308, "Permanent Redirect"},
                   {400, "Bad Request"},
                   {401, "Unauthorized"},
                   {403, "Forbidden"},
                   {404, "Not Found"},
                   {405, "Method Not Allowed"},
                   {406, "Not Acceptable"},
                   {408, "Request Timeout"},
                   {409, "Conflict"},
                   {413, "Content Too Large"},
                   {415, "Unsupported Media Type"},
                   {429, "Too Many Requests"},
                   {500, "Internal Server Error"},
                   {502, "Bad Gateway"},
                   {503, "Service Unavailable"},
                   {504, "Gateway Timeout"}};
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (reasons[i].code == status)
            return reasons[i].text;
    return "";
}

void tools__downstream_excerpt(struct buf *out, const char *body, size_t len, size_t max)
{
    size_t n = len < max ? len : max;
    while (n > 0 && (body[n - 1] == '\n' || body[n - 1] == '\r' || body[n - 1] == ' '))
        n--;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char) body[i];
        buf_append_char(out, c < 0x20 || c == 0x7f ? ' ' : (char) c);
    }
    if (len > max)
        buf_append_str(out, "...");
}

void tools__downstream_http_failure(struct buf *out, const char *url, int err, const char *msg)
{
    switch (err) {
    case HTTP_ERR_CONNECT:
        buf_printf(out, "cannot connect to %s: %s", url, msg);
        break;
    case HTTP_ERR_NO_FD:
        buf_printf(out,
                   "got no connection: mcp-codemode is at its limit on open files, so no socket "
                   "was left to connect to %s; raise the limit (ulimit -n) or make fewer calls "
                   "at once",
                   url);
        break;
    case HTTP_ERR_TLS:
        buf_printf(out, "could not set up TLS with %s: %s", url, msg);
        break;
    case HTTP_ERR_TIMEOUT:
        buf_printf(out, "timed out talking to %s: %s", url, msg);
        break;
    case HTTP_ERR_BROKEN:
        buf_printf(out, "lost the connection to %s: %s", url, msg);
        break;
    case HTTP_ERR_REDIRECT:
        buf_printf(out, "redirected away from %s: %s", url, msg);
        break;
    default:
        buf_printf(out, "could not complete an HTTP request to %s: %s", url, msg);
        break;
    }
}

void tools__downstream_auth_failure(struct buf *out, const char *url, int status, const char *www)
{
    buf_printf(out, "authentication failed: %s answered HTTP %d %s", url, status,
               tools__downstream_http_reason(status));
    if (www && *www) {
        buf_append_str(out, " (WWW-Authenticate: ");
        tools__downstream_excerpt(out, www, strlen(www), 200);
        buf_append_str(out, ")");
    }
    buf_append_str(out, "; check the \"headers\" of its config entry, for example "
                        "\"Authorization\": \"Bearer ${TOKEN}\"");
}
