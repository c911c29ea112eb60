/* HTTP/1.x request parsing on llhttp: the llhttp callbacks assemble the
 * request line, headers and body into capped buffers; the parser pauses
 * after each head and each complete request so the caller decides what
 * happens next (100 Continue, an early 413, pipelined requests in order). */
#include "transport/http_parser.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <llhttp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_HEAD_BYTES (32u * 1024)
#define DEFAULT_HEADERS    100
#define DEFAULT_BODY_BYTES (16u * 1024 * 1024)
#define KEEP_BODY_CAPACITY (64u * 1024) /* larger body buffers are freed between requests */

struct span {
    size_t off, len;
};

struct header_span {
    struct span name, value;
};

struct http_parser {
    llhttp_t ll;
    struct http_parser_limits lim;
    struct buf store; /* method, target, path, query, names and values, NUL-separated */
    struct buf body;
    struct header_span *spans;
    size_t nspans;
    struct span target;
    char *split;       /* path, query and method, NUL-separated */
    size_t open_start; /* start in store of the field or value being read */
    size_t head_bytes; /* bytes of the current head consumed so far */
    size_t trailer_bytes;
    size_t head_lines; /* non-empty lines of the current head ended so far */
    int line_start;    /* the next head byte begins a line */
    struct http_header *headers;
    struct http_server_request req;
    int in_request, head_done, complete, have_request;
    int error_status;
    const char *error_reason;
};

/* --- the assembly ------------------------------------------------------------------- */

static struct http_parser *of(llhttp_t *ll)
{
    return ll->data;
}

static int fail(struct http_parser *p, int status, const char *reason)
{
    if (!p->error_status) {
        p->error_status = status;
        p->error_reason = reason;
    }
    return HPE_USER;
}

static int store_append(struct http_parser *p, const char *at, size_t len)
{
    if (buf_append(&p->store, at, len) < 0)
        return fail(p, 431, "request head too large");
    return 0;
}

/* Ends the string being read into the store and returns its span. */
static int store_close(struct http_parser *p, struct span *s)
{
    s->off = p->open_start;
    s->len = p->store.len - p->open_start;
    if (buf_append_char(&p->store, '\0') < 0)
        return fail(p, 431, "request head too large");
    p->open_start = p->store.len;
    return 0;
}

static int on_message_begin(llhttp_t *ll)
{
    struct http_parser *p = of(ll);
    p->in_request = 1;
    p->open_start = p->store.len;
    return 0;
}

static int on_url(llhttp_t *ll, const char *at, size_t len)
{
    return store_append(of(ll), at, len);
}

static int on_url_complete(llhttp_t *ll)
{
    return store_close(of(ll), &of(ll)->target);
}

/* Rejects any version but 1.x as soon as the request line says so (the
 * HTTP/2 preface "PRI * HTTP/2.0" included), before its headers are read. */
static int on_version_complete(llhttp_t *ll)
{
    if (ll->http_major != 1)
        return fail(of(ll), 505, "HTTP version not supported");
    return 0;
}

static int on_header_field(llhttp_t *ll, const char *at, size_t len)
{
    struct http_parser *p = of(ll);
    if (p->head_done) { /* a trailer: counted, not kept */
        p->trailer_bytes += len;
        return p->trailer_bytes > p->lim.max_head_bytes ? fail(p, 431, "trailers too large") : 0;
    }
    return store_append(p, at, len);
}

static int on_header_value(llhttp_t *ll, const char *at, size_t len)
{
    return on_header_field(ll, at, len); /* the same bookkeeping */
}

static int on_header_field_complete(llhttp_t *ll)
{
    struct http_parser *p = of(ll);
    if (p->head_done)
        return 0;
    if (p->nspans == p->lim.max_headers)
        return fail(p, 431, "too many headers");
    p->spans = xrealloc(p->spans, (p->nspans + 1) * sizeof *p->spans);
    return store_close(p, &p->spans[p->nspans].name);
}

static int on_header_value_complete(llhttp_t *ll)
{
    struct http_parser *p = of(ll);
    if (p->head_done)
        return 0;
    int rc = store_close(p, &p->spans[p->nspans].value);
    if (rc == 0)
        p->nspans++;
    return rc;
}

/* --- the head -------------------------------------------------------------------------- */

static const char *span_str(const struct http_parser *p, struct span s)
{
    return p->store.data + s.off;
}

static void trim(char *s, size_t *len)
{
    size_t start = 0, n = *len;
    while (start < n && (s[start] == ' ' || s[start] == '\t'))
        start++;
    while (n > start && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    memmove(s, s + start, n - start);
    s[n - start] = '\0';
    *len = n - start;
}

/* Splits the target into path and query, next to the method's name. */
static void split_target(struct http_parser *p)
{
    const char *t = span_str(p, p->target);
    const char *m = llhttp_method_name((llhttp_method_t) p->ll.method);
    size_t n = strcspn(t, "?#");
    const char *q = t[n] == '?' ? t + n + 1 : "";
    size_t qlen = strcspn(q, "#"), mlen = strlen(m);
    p->split = xrealloc(p->split, n + qlen + mlen + 3);
    memcpy(p->split, t, n);
    p->split[n] = '\0';
    memcpy(p->split + n + 1, q, qlen);
    p->split[n + 1 + qlen] = '\0';
    memcpy(p->split + n + qlen + 2, m, mlen + 1);
}

static int expects_continue(const struct http_server_request *r)
{
    const char *e = http_parser_header(r, "expect");
    return e && strcasecmp(e, "100-continue") == 0;
}

static void build_request(struct http_parser *p)
{
    struct http_server_request *r = &p->req;
    p->headers = xrealloc(p->headers, (p->nspans ? p->nspans : 1) * sizeof *p->headers);
    for (size_t i = 0; i < p->nspans; i++) {
        struct http_header *h = &p->headers[i];
        h->name = span_str(p, p->spans[i].name);
        h->name_len = p->spans[i].name.len;
        h->value_len = p->spans[i].value.len;
        trim(p->store.data + p->spans[i].value.off, &h->value_len);
        h->value = span_str(p, p->spans[i].value);
    }
    memset(r, 0, sizeof *r);
    r->target = span_str(p, p->target);
    r->path = p->split;
    r->query = r->path + strlen(r->path) + 1;
    r->method = r->query + strlen(r->query) + 1;
    r->version_minor = p->ll.http_minor;
    r->headers = p->headers;
    r->nheaders = p->nspans;
    r->upgrade = p->ll.upgrade || p->ll.method == HTTP_CONNECT;
    r->has_body = (p->ll.flags & (F_CHUNKED | F_CONTENT_LENGTH)) != 0;
    r->content_length = (p->ll.flags & F_CONTENT_LENGTH) ? p->ll.content_length : 0;
    r->expect_continue = expects_continue(r);
    r->body = "";
}

static int on_headers_complete(llhttp_t *ll)
{
    struct http_parser *p = of(ll);
    if (ll->http_major != 1)
        return fail(p, 505, "HTTP version not supported");
    split_target(p);
    build_request(p);
    p->head_done = 1;
    p->have_request = 1;
    if (p->req.content_length > p->lim.max_body_bytes)
        return fail(p, 413, "request body too large");
    if (http_parser_header_count(&p->req, "host") > 1 ||
        http_parser_header_count(&p->req, "content-length") > 1)
        return fail(p, 400, "duplicate Host or Content-Length");
    return HPE_PAUSED;
}

static int on_body(llhttp_t *ll, const char *data, size_t len)
{
    struct http_parser *p = of(ll);
    if (buf_append(&p->body, data, len) < 0)
        return fail(p, 413, "request body too large");
    return 0;
}

static int on_message_complete(llhttp_t *ll)
{
    struct http_parser *p = of(ll);
    p->req.body = p->body.data ? p->body.data : "";
    p->req.body_len = p->body.len;
    p->req.keep_alive = llhttp_should_keep_alive(ll) && !p->req.upgrade;
    p->complete = 1;
    p->in_request = 0;
    return HPE_PAUSED;
}

static const llhttp_settings_t *settings(void)
{
    static llhttp_settings_t s;
    static int ready;
    if (!ready) {
        llhttp_settings_init(&s);
        s.on_message_begin = on_message_begin;
        s.on_url = on_url;
        s.on_url_complete = on_url_complete;
        s.on_version_complete = on_version_complete;
        s.on_header_field = on_header_field;
        s.on_header_field_complete = on_header_field_complete;
        s.on_header_value = on_header_value;
        s.on_header_value_complete = on_header_value_complete;
        s.on_headers_complete = on_headers_complete;
        s.on_body = on_body;
        s.on_message_complete = on_message_complete;
        ready = 1;
    }
    return &s;
}

/* --- public API --------------------------------------------------------------------- */

struct http_parser *http_parser_new(const struct http_parser_limits *limits)
{
    struct http_parser *p = xcalloc(1, sizeof *p);
    p->lim = *limits;
    if (!p->lim.max_head_bytes)
        p->lim.max_head_bytes = DEFAULT_HEAD_BYTES;
    if (!p->lim.max_headers)
        p->lim.max_headers = DEFAULT_HEADERS;
    if (!p->lim.max_body_bytes)
        p->lim.max_body_bytes = DEFAULT_BODY_BYTES;
    buf_init(&p->store, p->lim.max_head_bytes);
    buf_init(&p->body, p->lim.max_body_bytes);
    llhttp_init(&p->ll, HTTP_REQUEST, settings());
    p->ll.data = p;
    p->line_start = 1;
    return p;
}

void http_parser_free(struct http_parser *p)
{
    if (p == NULL)
        return;
    buf_free(&p->store);
    buf_free(&p->body);
    free(p->spans);
    free(p->headers);
    free(p->split);
    free(p);
}

static enum http_parse_event error_event(struct http_parser *p, llhttp_errno_t e)
{
    if (!p->error_status) {
        p->error_status = e == HPE_INVALID_TRANSFER_ENCODING ? 501
                          : e == HPE_PAUSED_H2_UPGRADE       ? 505
                                                             : 400;
        p->error_reason = llhttp_get_error_reason(&p->ll);
        if (p->error_reason == NULL)
            p->error_reason = "malformed request";
    }
    p->in_request = 0;
    return HTTP_PARSE_ERROR;
}

/* Counts the bytes of a head still being read against the cap (a flood of
 * whitespace inside a header line produces no callback, so the store alone
 * cannot see it). */
static int head_over_cap(struct http_parser *p, size_t used, int head_was_done)
{
    if (head_was_done || !p->in_request)
        return 0;
    p->head_bytes += used;
    return p->head_bytes > p->lim.max_head_bytes;
}

/* Whether the head bytes just consumed hold a line folded onto the one
 * before it (obs-fold: a line after the request line that begins with a
 * space or a tab). llhttp joins such lines into the value; RFC 9112 5.2
 * lets a server reject them, which is what we do. Lines are counted across
 * feeds; empty lines before a request do not count. */
static int head_has_fold(struct http_parser *p, const char *data, size_t used, int head_was_done)
{
    if (head_was_done)
        return 0;
    for (size_t i = 0; i < used; i++) {
        char ch = data[i];
        if (p->line_start && p->head_lines > 0 && (ch == ' ' || ch == '\t'))
            return 1;
        if (ch == '\n') {
            p->head_lines += !p->line_start;
            p->line_start = 1;
        } else if (ch != '\r') {
            p->line_start = 0;
        }
    }
    return 0;
}

size_t http_parser_feed(struct http_parser *p, const char *data, size_t len,
                        enum http_parse_event *ev)
{
    if (p->error_status) {
        *ev = HTTP_PARSE_ERROR;
        return 0;
    }
    int head_was_done = p->head_done;
    llhttp_errno_t e = llhttp_execute(&p->ll, data, len);
    size_t used = len;
    if (e == HPE_PAUSED_UPGRADE && !p->complete) {
        /* bytes after an Upgrade or CONNECT request, which ends the
         * connection: dropped, like those after "Connection: close" (llhttp
         * would stop at their first byte on every call) */
        *ev = HTTP_PARSE_MORE;
        return len;
    }
    if (e == HPE_PAUSED || e == HPE_PAUSED_UPGRADE) {
        used = (size_t) (llhttp_get_error_pos(&p->ll) - data);
        if (e == HPE_PAUSED)
            llhttp_resume(&p->ll);
    } else if (e != HPE_OK) {
        *ev = error_event(p, e);
        return 0;
    }
    if (head_over_cap(p, used, head_was_done)) {
        fail(p, 431, "request head too large");
        *ev = error_event(p, HPE_USER);
        return 0;
    }
    if (head_has_fold(p, data, used, head_was_done)) {
        fail(p, 400, "folded header line (obs-fold) not accepted");
        *ev = error_event(p, HPE_USER);
        return 0;
    }
    if (p->complete)
        *ev = HTTP_PARSE_REQUEST;
    else if (p->head_done && !head_was_done)
        *ev = HTTP_PARSE_HEAD;
    else
        *ev = HTTP_PARSE_MORE;
    return used;
}

enum http_parse_event http_parser_finish(struct http_parser *p)
{
    if (p->error_status)
        return HTTP_PARSE_ERROR;
    llhttp_errno_t e = llhttp_finish(&p->ll);
    if (e != HPE_OK && e != HPE_PAUSED)
        return error_event(p, e);
    return p->complete ? HTTP_PARSE_REQUEST : HTTP_PARSE_MORE;
}

const struct http_server_request *http_parser_request(const struct http_parser *p)
{
    return p->have_request ? &p->req : NULL;
}

int http_parser_in_request(const struct http_parser *p)
{
    return p->in_request;
}

int http_parser_error_status(const struct http_parser *p)
{
    return p->error_status ? p->error_status : 400;
}

const char *http_parser_error_reason(const struct http_parser *p)
{
    return p->error_reason ? p->error_reason : "malformed request";
}

void http_parser_next(struct http_parser *p)
{
    buf_reset(&p->store);
    if (p->body.cap > KEEP_BODY_CAPACITY)
        buf_free(&p->body);
    else
        buf_reset(&p->body);
    p->nspans = 0;
    p->open_start = 0;
    p->head_bytes = p->trailer_bytes = p->head_lines = 0;
    p->line_start = 1;
    p->in_request = p->head_done = p->complete = p->have_request = 0;
    memset(&p->req, 0, sizeof p->req);
}

const char *http_parser_header(const struct http_server_request *r, const char *name)
{
    for (size_t i = 0; i < r->nheaders; i++)
        if (strcasecmp(r->headers[i].name, name) == 0)
            return r->headers[i].value;
    return NULL;
}

size_t http_parser_header_count(const struct http_server_request *r, const char *name)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nheaders; i++)
        n += strcasecmp(r->headers[i].name, name) == 0;
    return n;
}
