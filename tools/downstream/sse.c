/* The legacy HTTP+SSE transport (2024-11-05) of a downstream server: a GET
 * opens the event stream, whose first event ("endpoint") names the URL to
 * POST messages to (same origin only); every server message, answers
 * included, arrives as a "message" event on that stream. When the stream
 * ends the session is gone: the attempt is lost and the core reconnects
 * with backoff (a new stream, a new session, a new handshake). */
#include "tools/downstream/internal.h"
#include "transport/http_client.h"
#include "transport/jsonrpc.h"
#include "transport/sse_parse.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ERROR_BODY_MAX     65536
#define CONNECT_TIMEOUT_MS 10000

struct sconn;

struct spost {
    struct spost *prev, *next;
    struct sconn *c;
    struct http_request *req;
    int is_request, is_notification, taken; /* taken: reported (tools__downstream_notified) */
    uint64_t id;
    char *method;
    int status;
    struct buf text; /* an error body */
};

struct sconn {
    struct tools_downstream *d; /* NULL once the attempt is over */
    struct http_client *hc;
    char *url, *label, **headers, *endpoint;
    size_t max_message;
    struct http_request *get;
    int get_status, get_sse;
    struct buf get_text;
    struct sse_parser sse;
    struct spost posts; /* list head */
    uv_timer_t timer;   /* the wait for the endpoint event */
};

/* --- the event stream ------------------------------------------------------------------------- */

static void lost(struct sconn *c, const char *why, int permanent)
{
    if (c->d)
        tools__downstream_lost(c->d, why, permanent);
}

static void take_endpoint(struct sconn *c, const char *data)
{
    char *url = http_url_resolve(c->url, data);
    char *from = http_url_origin(c->url), *to = url ? http_url_origin(url) : NULL;
    struct buf b;
    buf_init(&b, 0);
    if (c->endpoint) {
        log_debug(c->label, "a second endpoint event ignored");
    } else if (!to || !from || strcmp(from, to) != 0) {
        buf_printf(&b, "its endpoint event names %.200s, which is not on the origin of %s", data,
                   c->url);
        lost(c, b.data, 1);
    } else {
        c->endpoint = url;
        url = NULL;
        uv_timer_stop(&c->timer);
        log_debug(c->label, "posting messages to %s", c->endpoint);
        tools__downstream_up(c->d);
    }
    buf_free(&b);
    free(url);
    free(from);
    free(to);
}

static void on_event(void *ud, const struct sse_event *e)
{
    struct sconn *c = ud;
    if (c->d == NULL)
        return;
    if (strcmp(e->type, "endpoint") == 0)
        take_endpoint(c, e->data);
    else if (strcmp(e->type, "message") == 0 && e->len > 0)
        tools__downstream_line(c->d, e->data, e->len);
    else
        log_debug(c->label, "event \"%.40s\" ignored", e->type);
}

static void on_oversize(void *ud, const char *type, const char *head, size_t head_len,
                        const char *tail, size_t tail_len, size_t total)
{
    struct sconn *c = ud;
    if (c->d && strcmp(type, "message") == 0)
        tools__downstream_oversize(c->d, head, head_len, tail, tail_len, total);
}

static const struct sse_parse_events sse_events = {on_event, on_oversize};

static void get_response(void *ud, struct http_request *r, int status)
{
    struct sconn *c = ud;
    const char *ct = http_request_header(r, "content-type");
    c->get_status = status;
    c->get_sse =
        status >= 200 && status < 300 && ct && strncasecmp(ct, "text/event-stream", 17) == 0;
}

static void get_data(void *ud, struct http_request *r, const char *data, size_t len)
{
    struct sconn *c = ud;
    (void) r;
    if (c->get_sse)
        sse_parser_feed(&c->sse, data, len, &sse_events, c);
    else if (c->get_text.len < ERROR_BODY_MAX)
        buf_append(&c->get_text, data, len);
}

/* Why the event stream could not be used, for its HTTP answer. */
static void refused(struct sconn *c, struct http_request *r, struct buf *b)
{
    int st = c->get_status;
    if (st == 401 || st == 403) {
        tools__downstream_auth_failure(b, c->url, st, http_request_header(r, "www-authenticate"));
        return;
    }
    buf_printf(b, "GET %s answered HTTP %d %s", c->url, st, tools__downstream_http_reason(st));
    if (st >= 200 && st < 300)
        buf_append_str(b, " without an event stream");
    else if (c->get_text.len) {
        buf_append_str(b, ": ");
        tools__downstream_excerpt(b, c->get_text.data, c->get_text.len, 200);
    }
    if (st == 400 || st == 404 || st == 405 || st == 406 || (st >= 200 && st < 300))
        buf_append_str(b, " (if it speaks Streamable HTTP, set \"type\": \"http\" in its entry)");
}

static void get_done(void *ud, struct http_request *r, enum http_error err, const char *msg)
{
    struct sconn *c = ud;
    struct buf b;
    c->get = NULL;
    buf_init(&b, 0);
    if (err != HTTP_OK)
        tools__downstream_http_failure(&b, c->url, err, msg);
    else if (!c->get_sse)
        refused(c, r, &b);
    else
        buf_printf(&b, "its event stream %s ended", c->url);
    int auth = err == HTTP_OK && (c->get_status == 401 || c->get_status == 403);
    if (err == HTTP_OK && c->get_status == 401 && c->d && c->d->oauth) {
        tools__downstream_auth_refused(c->d, &b, c->url);
        tools__downstream_auth_rejected(c->d); /* the next attempt refreshes the token */
        auth = 0;
    }
    lost(c, b.data, auth);
    buf_free(&b);
}

static const struct http_request_events get_events = {get_response, get_data, get_done};

static void no_endpoint(uv_timer_t *t)
{
    struct sconn *c = t->data;
    char msg[256];
    snprintf(msg, sizeof msg, "sent no endpoint event on %s within %llu ms", c->url,
             (unsigned long long) c->d->opt.request_timeout_ms);
    lost(c, msg, 0);
}

/* --- posting ---------------------------------------------------------------------------------- */

static void post_free(struct spost *p)
{
    p->prev->next = p->next;
    p->next->prev = p->prev;
    free(p->method);
    buf_free(&p->text);
    free(p);
}

static void post_response(void *ud, struct http_request *r, int status)
{
    struct spost *p = ud;
    (void) r;
    p->status = status;
    if (p->is_notification && p->c->d && status >= 200 && status < 300) {
        p->taken = 1; /* the server has it: the handshake may go on (p may be freed by it) */
        tools__downstream_notified(p->c->d, p->method);
    }
}

static void post_data(void *ud, struct http_request *r, const char *data, size_t len)
{
    struct spost *p = ud;
    (void) r;
    if ((p->status < 200 || p->status >= 300) && p->text.len < ERROR_BODY_MAX)
        buf_append(&p->text, data, len);
}

/* The message endpoint refused a message. */
static void post_refused(struct sconn *c, struct spost *p, struct http_request *r)
{
    struct buf b;
    buf_init(&b, 0);
    if (p->status == 403 && p->is_request &&
        tools__downstream_auth_forbidden(c->d, http_request_header(r, "www-authenticate"), &b)) {
        log_warn(c->label, "POST %s: %s", p->method, b.data); /* step-up: this call only */
        tools__downstream_fail_request(c->d, p->id, RPC_CLIENT_CLOSED, b.data, 0);
        buf_free(&b);
        return;
    }
    if (p->status == 401 || p->status == 403) {
        tools__downstream_auth_failure(&b, c->endpoint, p->status,
                                       http_request_header(r, "www-authenticate"));
        if (p->status == 401 && c->d->oauth) {
            tools__downstream_auth_refused(c->d, &b, c->endpoint);
            tools__downstream_auth_rejected(c->d);
            lost(c, b.data, 0);
            buf_free(&b);
            return;
        }
        if (c->d->state == TOOLS_DOWNSTREAM_CONNECTING) {
            lost(c, b.data, 1);
            buf_free(&b);
            return;
        }
    } else {
        buf_printf(&b, "the server answered %s with HTTP %d %s", p->method, p->status,
                   tools__downstream_http_reason(p->status));
        if (p->text.len) {
            buf_append_str(&b, ": ");
            tools__downstream_excerpt(&b, p->text.data, p->text.len, 300);
        }
    }
    log_warn(c->label, "POST %s: %s", p->method, b.data);
    if (p->status == 404)
        lost(c, "its session is gone (the message endpoint answered HTTP 404 Not Found)", 0);
    else if (p->is_request)
        tools__downstream_fail_request(c->d, p->id, RPC_CLIENT_CLOSED, b.data, 0);
    buf_free(&b);
}

static void post_done(void *ud, struct http_request *r, enum http_error err, const char *msg)
{
    struct spost *p = ud;
    struct sconn *c = p->c;
    p->prev->next = p->next; /* off the list: a close from here must not free it */
    p->next->prev = p->prev;
    p->next = p->prev = p;
    if (c->d && err != HTTP_OK && p->taken) {
        log_debug(c->label, "POST %s, after the server took it: %s", p->method, msg);
    } else if (c->d && err == HTTP_ERR_NO_FD && p->is_request) {
        struct buf b; /* the server is fine: only this call failed */
        buf_init(&b, 0);
        tools__downstream_http_failure(&b, c->endpoint, err, msg);
        tools__downstream_fail_request(c->d, p->id, RPC_CLIENT_CLOSED, b.data, 0);
        buf_free(&b);
    } else if (c->d && err != HTTP_OK) {
        struct buf b;
        buf_init(&b, 0);
        tools__downstream_http_failure(&b, c->endpoint, err, msg);
        if (p->is_notification) /* no call names it */
            buf_printf(&b, " (sending %s)", p->method);
        lost(c, b.data, 0);
        buf_free(&b);
    } else if (c->d && (p->status < 200 || p->status >= 300)) {
        post_refused(c, p, r);
    }
    if (c->d && p->is_notification && !p->taken) /* refused, and the attempt survived that */
        tools__downstream_notified(c->d, p->method);
    post_free(p);
}

static const struct http_request_events post_events = {post_response, post_data, post_done};

static int sse_send(struct tools_downstream *d, const char *data, size_t len,
                    const struct rpc_client_msg *m)
{
    struct sconn *c = d->tp;
    if (c->endpoint == NULL)
        return UV_ENOTCONN;
    struct ds_headers h = {0};
    tools__downstream_hdr_add(&h, "Content-Type: application/json");
    if (d->era == DS_ERA_LEGACY && d->protocol)
        tools__downstream_hdr_add(&h, "MCP-Protocol-Version: %s", d->protocol);
    tools__downstream_hdr_config(&h, c->headers);
    struct spost *p = xcalloc(1, sizeof *p);
    p->c = c;
    p->is_request = m->kind == RPC_REQUEST;
    p->is_notification = m->kind == RPC_NOTIFICATION;
    p->id = m->id;
    p->method = xstrdup(m->method ? m->method : "a response");
    buf_init(&p->text, 0);
    p->next = &c->posts;
    p->prev = c->posts.prev;
    c->posts.prev->next = p;
    c->posts.prev = p;
    struct http_request_options o = {.method = "POST",
                                     .url = c->endpoint,
                                     .headers = h.v,
                                     .body = data,
                                     .body_len = len,
                                     .connect_timeout_ms = CONNECT_TIMEOUT_MS,
                                     .max_redirects = 3};
    /* the handshake waits for notifications/initialized: not for ever */
    if (p->is_notification && strcmp(p->method, "notifications/initialized") == 0)
        o.timeout_ms = d->opt.request_timeout_ms;
    p->req = http_request_start(c->hc, &o, &post_events, p);
    tools__downstream_hdr_free(&h);
    if (p->req == NULL) {
        post_free(p);
        return UV_EINVAL;
    }
    return 0;
}

/* A request is over (its answer came on the stream, or it timed out or was
 * cancelled): a POST of it still waiting for its 202 is not needed any more. */
static void sse_request_ended(struct tools_downstream *d, uint64_t id, int answered)
{
    struct sconn *c = d->tp;
    (void) answered;
    for (struct spost *p = c->posts.next; p != &c->posts; p = p->next)
        if (p->is_request && p->id == id) {
            http_request_cancel(p->req);
            post_free(p);
            return;
        }
}

/* --- the attempt ------------------------------------------------------------------------------ */

static void conn_closed(uv_handle_t *h)
{
    struct sconn *c = h->data;
    sse_parser_free(&c->sse);
    buf_free(&c->get_text);
    free(c->url);
    free(c->label);
    free(c->endpoint);
    tools__downstream_free_vector(c->headers);
    free(c);
}

static void sse_close(struct tools_downstream *d, uint64_t grace_ms)
{
    struct sconn *c = d->tp;
    (void) grace_ms;
    d->tp = NULL;
    c->d = NULL;
    while (c->posts.next != &c->posts) {
        struct spost *p = c->posts.next;
        http_request_cancel(p->req);
        post_free(p);
    }
    if (c->get)
        http_request_cancel(c->get);
    c->get = NULL;
    http_client_free(c->hc);
    uv_close((uv_handle_t *) &c->timer, conn_closed);
}

static int sse_open(struct tools_downstream *d, char *err, size_t errlen)
{
    char ua[96];
    snprintf(ua, sizeof ua, "mcp-codemode/%s", d->opt.client_version);
    struct http_client *hc = http_client_new(d->loop, ua, err, errlen);
    if (hc == NULL)
        return -1;
    struct sconn *c = xcalloc(1, sizeof *c);
    c->d = d;
    c->hc = hc;
    c->url = xstrdup(d->url);
    c->label = xstrdup(d->label);
    c->headers = tools__downstream_dup_vector(d->headers);
    c->max_message = d->opt.max_message_bytes;
    c->posts.next = c->posts.prev = &c->posts;
    buf_init(&c->get_text, 0);
    sse_parser_init(&c->sse, c->max_message);
    uv_timer_init(d->loop, &c->timer);
    c->timer.data = c;
    d->tp = c;
    struct ds_headers h = {0};
    tools__downstream_hdr_add(&h, "Accept: text/event-stream");
    tools__downstream_hdr_config(&h, c->headers);
    struct http_request_options o = {.url = c->url,
                                     .headers = h.v,
                                     .connect_timeout_ms = CONNECT_TIMEOUT_MS,
                                     .max_redirects = 3};
    c->get = http_request_start(c->hc, &o, &get_events, c);
    tools__downstream_hdr_free(&h);
    if (c->get == NULL) {
        snprintf(err, errlen, "cannot request %s", c->url);
        sse_close(d, 0);
        return -1;
    }
    uv_timer_start(&c->timer, no_endpoint, d->opt.request_timeout_ms, 0);
    return 0;
}

static size_t sse_backlog(const struct tools_downstream *d)
{
    (void) d;
    return 0;
}

static int sse_pid(const struct tools_downstream *d)
{
    (void) d;
    return 0;
}

static void sse_set_headers(struct tools_downstream *d)
{
    struct sconn *c = d->tp;
    tools__downstream_free_vector(c->headers);
    c->headers = tools__downstream_dup_vector(d->headers);
}

const struct ds_transport_ops tools__downstream_sse = {
    .kind = "sse",
    .restart = "reconnecting",
    .closed = "its event stream is closed",
    .probe = 0, /* the 2024-11-05 transport carries legacy sessions only */
    .reports_notified = 1,
    .open = sse_open,
    .send = sse_send,
    .request_ended = sse_request_ended,
    .close = sse_close,
    .set_headers = sse_set_headers,
    .backlog = sse_backlog,
    .pid = sse_pid,
};
