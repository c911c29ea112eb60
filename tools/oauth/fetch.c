/* OAuth HTTP exchanges (see fetch.h): the body is kept up to the metadata
 * cap and parsed once the exchange is over. */
#include "tools/oauth/fetch.h"
#include "tools/oauth/metadata.h"
#include "transport/http_client.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tools_oauth_fetch {
    struct http_request *req;
    tools_oauth_fetch_cb *cb;
    void *ud;
    struct buf body;
    char *www;
    char *cache_control;
    char *url; /* the answer names it */
    uint64_t timeout_ms;
};

static void on_response(void *ud, struct http_request *r, int status)
{
    struct tools_oauth_fetch *f = ud;
    const char *www = http_request_header(r, "www-authenticate");
    const char *cc = http_request_header(r, "cache-control");
    (void) status;
    if (www)
        f->www = xstrdup(www);
    if (cc)
        f->cache_control = xstrdup(cc);
}

static void on_data(void *ud, struct http_request *r, const char *data, size_t len)
{
    struct tools_oauth_fetch *f = ud;
    (void) r;
    buf_append(&f->body, data, len);
}

static const char *failure(enum http_error err)
{
    switch (err) {
    case HTTP_ERR_CONNECT:
        return "could not connect";
    case HTTP_ERR_TLS:
        return "the TLS handshake or certificate check failed";
    case HTTP_ERR_TIMEOUT:
        return "timed out";
    case HTTP_ERR_TOO_LARGE:
        return "answered more than 256 KiB";
    case HTTP_ERR_REDIRECT:
        return "redirected to another origin (refused)";
    default:
        return "failed";
    }
}

static void on_done(void *ud, struct http_request *r, enum http_error err, const char *msg)
{
    struct tools_oauth_fetch *f = ud;
    (void) msg;
    struct tools_oauth_answer a = {0};
    cJSON *json = NULL;
    if (err == HTTP_OK) {
        a.status = http_request_status(r);
        json = f->body.len ? json_parse(f->body.data, f->body.len) : NULL;
        a.json = json;
        a.www = f->www;
        a.cache_control = f->cache_control;
    }
    struct buf why; /* "timed out after N ms" */
    buf_init(&why, 0);
    a.url = f->url;
    if (err != HTTP_OK) {
        buf_append_str(&why, failure(err));
        if (err == HTTP_ERR_TIMEOUT)
            buf_printf(&why, " after %llu ms", (unsigned long long) f->timeout_ms);
        a.error = why.data;
    }
    f->cb(f->ud, &a);
    buf_free(&why);
    cJSON_Delete(json);
    buf_free(&f->body);
    free(f->www);
    free(f->url);
    free(f->cache_control);
    free(f);
}

static const struct http_request_events events = {on_response, on_data, on_done};

struct tools_oauth_fetch *tools_oauth_fetch_start(struct http_client *hc,
                                                  const struct tools_oauth_request *rq,
                                                  tools_oauth_fetch_cb *cb, void *ud)
{
    struct tools_oauth_fetch *f = xcalloc(1, sizeof *f);
    char *hdrs[4] = {NULL};
    char ct[128], auth[4096];
    size_t n = 0;
    char accept[128];
    snprintf(accept, sizeof accept, "Accept: %s", rq->accept ? rq->accept : "application/json");
    hdrs[n++] = accept;
    if (rq->content_type) {
        snprintf(ct, sizeof ct, "Content-Type: %s", rq->content_type);
        hdrs[n++] = ct;
    }
    if (rq->authorization) {
        snprintf(auth, sizeof auth, "Authorization: %s", rq->authorization);
        hdrs[n++] = auth;
    }
    struct http_request_options o = {
        .method = rq->method,
        .url = rq->url,
        .headers = hdrs,
        .body = rq->body,
        .body_len = rq->body ? strlen(rq->body) : 0,
        .connect_timeout_ms = 10000,
        .timeout_ms = rq->timeout_ms ? rq->timeout_ms : 15000,
        .max_body_bytes = TOOLS_OAUTH_METADATA_MAX,
        .max_redirects = rq->max_redirects,
    };
    f->cb = cb;
    f->ud = ud;
    f->url = xstrdup(rq->url);
    f->timeout_ms = o.timeout_ms;
    buf_init(&f->body, 0);
    f->req = http_request_start(hc, &o, &events, f);
    if (f->req == NULL) {
        free(f->url);
        free(f);
        return NULL;
    }
    return f;
}

void tools_oauth_fetch_cancel(struct tools_oauth_fetch *f)
{
    if (f == NULL)
        return;
    http_request_cancel(f->req);
    buf_free(&f->body);
    free(f->www);
    free(f->url);
    free(f->cache_control);
    free(f);
}

void tools_oauth_url_encode(struct buf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *) s; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '.' || *p == '_' || *p == '~') {
            buf_append_char(b, (char) *p);
        } else {
            buf_append_char(b, '%');
            buf_append_char(b, hex[*p >> 4]);
            buf_append_char(b, hex[*p & 15]);
        }
    }
}

void tools_oauth_form_add(struct buf *b, const char *name, const char *value)
{
    if (b->len)
        buf_append_char(b, '&');
    buf_printf(b, "%s=", name);
    tools_oauth_url_encode(b, value);
}
