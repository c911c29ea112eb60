/* HTTP client (see http_client.h). libcurl runs inside
 * curl_multi_socket_action only; its write and header callbacks just store
 * bytes and queue the request, and the events go out once libcurl has
 * returned, so callbacks may start and cancel requests freely. Redirects
 * are followed here, not by libcurl, so that each hop can be checked
 * against the origin of the first URL. */
#include "transport/http_client.h"
#include "common/alloc.h"
#include "common/buf.h"

#include "transport/curl_lib.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

/* libcurl's functions (loaded by the first http_client_new) */
static const struct curl_lib *CL;

#define DEFAULT_CONNECT_TIMEOUT_MS 10000

struct link {
    struct link *prev, *next;
};

struct sock {
    struct http_client *hc;
    uv_poll_t poll;
    curl_socket_t fd;
    int events, closing; /* what libcurl waits for; removed */
    struct link link;
};

struct http_request {
    struct link link; /* first member: in hc->requests */
    struct http_client *hc;
    struct http_request *ready_next;
    int queued;
    CURL *easy;
    struct curl_slist *hdrs;
    char *method, *url, *body;
    size_t body_len;
    struct http_request_options o;
    const struct http_request_events *ev;
    void *ud;
    char errbuf[CURL_ERROR_SIZE];
    int status;
    struct buf resp; /* "name\0value\0" pairs of the final response */
    int headers_done, response_sent, following, too_large;
    struct buf pending; /* body bytes not yet delivered */
    size_t received;
    unsigned redirects;
    int in_cb, cancelled;
    int socket_errno; /* why socket() failed for it, when it did */
};

struct http_client {
    uv_loop_t *loop;
    CURLM *multi;
    char *user_agent;
    uv_timer_t timer;
    struct link requests, socks;
    struct http_request *ready_head, *ready_tail;
    size_t active;
    int open_handles, closing;
};

static void link_init(struct link *l)
{
    l->prev = l->next = l;
}

static void link_push(struct link *head, struct link *l)
{
    l->prev = head->prev;
    l->next = head;
    head->prev->next = l;
    head->prev = l;
}

static void link_unlink(struct link *l)
{
    l->prev->next = l->next;
    l->next->prev = l->prev;
    link_init(l);
}

#define SOCK_OF(l) ((struct sock *) ((char *) (l) -offsetof(struct sock, link)))

/* --- the ready queue ----------------------------------------------------------------------------
 */

static void queue(struct http_request *r)
{
    struct http_client *hc = r->hc;
    if (r->queued)
        return;
    r->queued = 1;
    r->ready_next = NULL;
    if (hc->ready_tail)
        hc->ready_tail->ready_next = r;
    else
        hc->ready_head = r;
    hc->ready_tail = r;
}

static void unqueue(struct http_request *r)
{
    struct http_client *hc = r->hc;
    struct http_request **pp = &hc->ready_head, *prev = NULL;
    if (!r->queued)
        return;
    while (*pp && *pp != r) {
        prev = *pp;
        pp = &(*pp)->ready_next;
    }
    if (*pp)
        *pp = r->ready_next;
    if (hc->ready_tail == r)
        hc->ready_tail = prev;
    r->queued = 0;
}

static struct http_request *pop_ready(struct http_client *hc)
{
    struct http_request *r = hc->ready_head;
    if (r)
        unqueue(r);
    return r;
}

/* --- requests: life ------------------------------------------------------------------------------
 */

static void detach_easy(struct http_request *r)
{
    if (r->easy == NULL)
        return;
    if (r->hc->multi)
        CL->multi_remove_handle(r->hc->multi, r->easy);
    CL->easy_cleanup(r->easy);
    r->easy = NULL;
}

static void request_free(struct http_request *r)
{
    unqueue(r);
    detach_easy(r);
    link_unlink(&r->link);
    CL->slist_free_all(r->hdrs);
    free(r->method);
    free(r->url);
    free(r->body);
    buf_free(&r->resp);
    buf_free(&r->pending);
    free(r);
}

/* The request leaves the active set; freed now, or after its callback returns. */
static void retire(struct http_request *r)
{
    if (r->cancelled)
        return;
    r->cancelled = 1;
    r->hc->active--;
    unqueue(r);
    detach_easy(r);
    if (!r->in_cb)
        request_free(r);
}

void http_request_cancel(struct http_request *r)
{
    retire(r);
}

/* --- libcurl callbacks: store and queue, nothing else
 * --------------------------------------------- */

static void parse_status_line(struct http_request *r, const char *line, size_t len)
{
    const char *sp = memchr(line, ' ', len);
    int status = 0;
    for (const char *p = sp ? sp + 1 : line + len; p < line + len && *p >= '0' && *p <= '9'; p++)
        status = status * 10 + (*p - '0');
    r->status = status;
    buf_reset(&r->resp);
}

static void header_block_end(struct http_request *r)
{
    if (r->status >= 100 && r->status < 200)
        return; /* 100 Continue and friends: the real answer follows */
    if (r->status >= 300 && r->status < 400 && r->o.max_redirects &&
        http_request_header(r, "location")) {
        r->following = 1;
        return;
    }
    r->headers_done = 1;
    queue(r);
}

static void store_header(struct http_request *r, const char *line, size_t len)
{
    const char *colon = memchr(line, ':', len);
    if (colon == NULL || colon == line)
        return;
    const char *v = colon + 1, *end = line + len;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
    buf_append(&r->resp, line, (size_t) (colon - line));
    buf_append_char(&r->resp, '\0');
    buf_append(&r->resp, v, (size_t) (end - v));
    buf_append_char(&r->resp, '\0');
}

static size_t on_header(char *line, size_t size, size_t n, void *ud)
{
    struct http_request *r = ud;
    size_t len = size * n;
    if (len >= 5 && memcmp(line, "HTTP/", 5) == 0)
        parse_status_line(r, line, len);
    else if (len <= 2 && (line[0] == '\r' || line[0] == '\n'))
        header_block_end(r);
    else
        store_header(r, line, len);
    return len;
}

static size_t on_write(char *data, size_t size, size_t n, void *ud)
{
    struct http_request *r = ud;
    size_t len = size * n;
    if (r->following)
        return len; /* the body of a redirect we follow */
    if (r->o.max_body_bytes && r->received + len > r->o.max_body_bytes) {
        r->too_large = 1;
        return 0; /* libcurl stops with CURLE_WRITE_ERROR */
    }
    r->received += len;
    r->headers_done = 1;
    buf_append(&r->pending, data, len);
    queue(r);
    return len;
}

/* --- requests: set-up
 * ----------------------------------------------------------------------------- */

static struct curl_slist *header_list(char *const *headers)
{
    struct curl_slist *l = NULL;
    for (size_t i = 0; headers && headers[i]; i++)
        l = CL->slist_append(l, headers[i]);
    return CL->slist_append(l, "Expect:"); /* no 100-continue round trip for big bodies */
}

static void set_method(struct http_request *r, CURL *e)
{
    if (strcmp(r->method, "GET") == 0) {
        CL->easy_setopt(e, CURLOPT_HTTPGET, 1L);
        return;
    }
    if (strcmp(r->method, "POST") != 0)
        CL->easy_setopt(e, CURLOPT_CUSTOMREQUEST, r->method);
    if (strcmp(r->method, "POST") == 0 || r->body) {
        CL->easy_setopt(e, CURLOPT_POST, 1L);
        CL->easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) r->body_len);
        CL->easy_setopt(e, CURLOPT_POSTFIELDS, r->body ? r->body : "");
    }
}

static void set_timeouts(struct http_request *r, CURL *e)
{
    uint64_t connect =
        r->o.connect_timeout_ms ? r->o.connect_timeout_ms : DEFAULT_CONNECT_TIMEOUT_MS;
    CL->easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long) connect);
    if (r->o.timeout_ms)
        CL->easy_setopt(e, CURLOPT_TIMEOUT_MS, (long) r->o.timeout_ms);
    if (r->o.idle_timeout_ms) {
        CL->easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
        CL->easy_setopt(e, CURLOPT_LOW_SPEED_TIME, (long) ((r->o.idle_timeout_ms + 999) / 1000));
    }
}

/* A PEM file of certificate authorities to trust instead of the system's:
 * CURL_CA_BUNDLE (as the curl tool reads it), else SSL_CERT_FILE. */
static const char *ca_bundle(void)
{
    const char *f = getenv("CURL_CA_BUNDLE");
    if (f == NULL || *f == '\0')
        f = getenv("SSL_CERT_FILE");
    return f && *f ? f : NULL;
}

/* Opens the socket libcurl asks for (close-on-exec: no server we start
 * inherits it), keeping why it could not: libcurl only says "couldn't
 * connect", and running out of descriptors is not the server's fault. */
static curl_socket_t open_socket(void *ud, curlsocktype purpose, struct curl_sockaddr *a)
{
    struct http_request *r = ud;
    (void) purpose;
    curl_socket_t fd = socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
    if (fd == CURL_SOCKET_BAD)
        r->socket_errno = errno;
    return fd;
}

static void setup_easy(struct http_request *r)
{
    CURL *e = CL->easy_init();
    const char *ca = ca_bundle();
    r->easy = e;
    CL->easy_setopt(e, CURLOPT_URL, r->url);
    CL->easy_setopt(e, CURLOPT_PRIVATE, r);
    CL->easy_setopt(e, CURLOPT_WRITEFUNCTION, on_write);
    CL->easy_setopt(e, CURLOPT_WRITEDATA, r);
    CL->easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    CL->easy_setopt(e, CURLOPT_HEADERDATA, r);
    CL->easy_setopt(e, CURLOPT_ERRORBUFFER, r->errbuf);
    CL->easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    CL->easy_setopt(e, CURLOPT_OPENSOCKETDATA, r);
    CL->easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
#if LIBCURL_VERSION_NUM >= 0x075500
    CL->easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    CL->easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    CL->easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    CL->easy_setopt(e, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L);
    CL->easy_setopt(e, CURLOPT_HTTPHEADER, r->hdrs);
    if (r->hc->user_agent)
        CL->easy_setopt(e, CURLOPT_USERAGENT, r->hc->user_agent);
    if (ca)
        CL->easy_setopt(e, CURLOPT_CAINFO, ca);
    set_method(r, e);
    set_timeouts(r, e);
    r->errbuf[0] = '\0';
    r->socket_errno = 0;
}

static void reset_response(struct http_request *r)
{
    r->status = 0;
    buf_reset(&r->resp);
    r->headers_done = r->response_sent = r->following = r->too_large = 0;
    buf_reset(&r->pending);
    r->received = 0;
}

struct http_request *http_request_start(struct http_client *hc,
                                        const struct http_request_options *o,
                                        const struct http_request_events *ev, void *ud)
{
    char *origin = o->url ? http_url_origin(o->url) : NULL;
    if (hc->closing || origin == NULL)
        return NULL;
    free(origin);
    struct http_request *r = xcalloc(1, sizeof *r);
    r->hc = hc;
    r->o = *o;
    r->ev = ev;
    r->ud = ud;
    r->method = xstrdup(o->method ? o->method : "GET");
    r->url = xstrdup(o->url);
    if (o->body) {
        r->body = xmalloc(o->body_len + 1);
        memcpy(r->body, o->body, o->body_len);
        r->body_len = o->body_len;
    }
    r->hdrs = header_list(o->headers);
    buf_init(&r->resp, 0);
    buf_init(&r->pending, 0);
    link_push(&hc->requests, &r->link);
    hc->active++;
    setup_easy(r);
    CL->multi_add_handle(hc->multi, r->easy);
    return r;
}

/* --- delivering events
 * ---------------------------------------------------------------------------- */

/* Sends what is pending (response, then data). Returns 1 when the request
 * was cancelled meanwhile (and is freed). */
static int deliver(struct http_request *r)
{
    unqueue(r);
    r->in_cb = 1;
    if (r->headers_done && !r->response_sent) {
        r->response_sent = 1;
        if (r->ev->response)
            r->ev->response(r->ud, r, r->status);
    }
    if (!r->cancelled && r->pending.len) {
        if (r->ev->data)
            r->ev->data(r->ud, r, r->pending.data, r->pending.len);
        buf_reset(&r->pending);
    }
    r->in_cb = 0;
    if (r->cancelled) {
        request_free(r);
        return 1;
    }
    return 0;
}

static enum http_error classify(CURLcode rc, const struct http_request *r)
{
    switch (rc) {
    case CURLE_OK:
        return HTTP_OK;
    case CURLE_COULDNT_CONNECT:
        if (r->socket_errno == EMFILE || r->socket_errno == ENFILE)
            return HTTP_ERR_NO_FD;
        return HTTP_ERR_CONNECT;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        return HTTP_ERR_CONNECT;
    case CURLE_OPERATION_TIMEDOUT:
        return HTTP_ERR_TIMEOUT;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
        return HTTP_ERR_TLS;
    case CURLE_WRITE_ERROR:
        return r->too_large ? HTTP_ERR_TOO_LARGE : HTTP_ERR_OTHER;
    case CURLE_TOO_MANY_REDIRECTS:
        return HTTP_ERR_REDIRECT;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_WEIRD_SERVER_REPLY:
        return HTTP_ERR_BROKEN;
    default:
        return HTTP_ERR_OTHER;
    }
}

static void done(struct http_request *r, enum http_error err, const char *msg)
{
    if (err == HTTP_OK && !r->response_sent) {
        r->headers_done = 1;
        if (deliver(r))
            return;
    }
    r->hc->active--;
    detach_easy(r);
    r->in_cb = 1;
    r->cancelled = 1; /* a cancel from inside done is a no-op */
    r->ev->done(r->ud, r, err, msg);
    request_free(r);
}

static void fail_redirect(struct http_request *r, const char *fmt, const char *url)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, url ? url : "(none)");
    done(r, HTTP_ERR_REDIRECT, msg);
}

/* A 3xx answer we chose to follow: same origin and under the limit. */
static void follow(struct http_request *r)
{
    char *loc = NULL;
    CL->easy_getinfo(r->easy, CURLINFO_REDIRECT_URL, &loc);
    char *from = http_url_origin(r->url), *to = loc ? http_url_origin(loc) : NULL;
    int same = from && to && strcmp(from, to) == 0;
    free(from);
    free(to);
    if (r->redirects >= r->o.max_redirects) {
        fail_redirect(r, "too many redirects (the last one to %s)", loc);
    } else if (!same) {
        fail_redirect(r, "refused a redirect to another origin (%s)", loc);
    } else {
        char *next = xstrdup(loc);
        if (r->status == 303 && strcmp(r->method, "GET") != 0) {
            free(r->method);
            r->method = xstrdup("GET");
        }
        detach_easy(r);
        free(r->url);
        r->url = next;
        r->redirects++;
        reset_response(r);
        setup_easy(r);
        CL->multi_add_handle(r->hc->multi, r->easy);
    }
}

static void finish(struct http_request *r, CURLcode rc)
{
    if (r->queued && deliver(r))
        return;
    if (rc == CURLE_OK && r->following) {
        follow(r);
        return;
    }
    enum http_error err = classify(rc, r);
    char msg[CURL_ERROR_SIZE + 64];
    if (err == HTTP_OK)
        msg[0] = '\0';
    else if (err == HTTP_ERR_TOO_LARGE)
        snprintf(msg, sizeof msg, "the response body is over the limit of %zu bytes",
                 r->o.max_body_bytes);
    else
        snprintf(msg, sizeof msg, "%s", r->errbuf[0] ? r->errbuf : CL->easy_strerror(rc));
    done(r, err, msg);
}

/* Runs after every libcurl step: events for stored bytes, then for ended transfers. */
static void process(struct http_client *hc)
{
    struct http_request *r;
    CURLMsg *m;
    int left;
    while (!hc->closing && (r = pop_ready(hc)) != NULL)
        deliver(r);
    while (!hc->closing && (m = CL->multi_info_read(hc->multi, &left)) != NULL) {
        if (m->msg != CURLMSG_DONE)
            continue;
        CURLcode rc = m->data.result;
        CL->easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **) &r);
        finish(r, rc);
        while (!hc->closing && (r = pop_ready(hc)) != NULL)
            deliver(r);
    }
}

/* --- libuv glue
 * ----------------------------------------------------------------------------------- */

static void client_release(struct http_client *hc)
{
    if (--hc->open_handles > 0)
        return;
    free(hc->user_agent);
    free(hc);
}

static void timer_closed(uv_handle_t *h)
{
    client_release(h->data);
}

static void sock_closed(uv_handle_t *h)
{
    struct sock *s = h->data;
    struct http_client *hc = s->hc;
    free(s);
    client_release(hc);
}

static void sock_close(struct sock *s)
{
    s->closing = 1;
    link_unlink(&s->link);
    uv_close((uv_handle_t *) &s->poll, sock_closed);
}

static void on_timer(uv_timer_t *t)
{
    struct http_client *hc = t->data;
    int running;
    if (hc->closing)
        return;
    CL->multi_socket_action(hc->multi, CURL_SOCKET_TIMEOUT, 0, &running);
    process(hc);
}

static void on_poll(uv_poll_t *p, int status, int events)
{
    struct sock *s = p->data;
    struct http_client *hc = s->hc;
    int flags = 0, running;
    if (hc->closing)
        return;
    if (status < 0)
        flags = CURL_CSELECT_ERR;
    if (events & UV_READABLE)
        flags |= CURL_CSELECT_IN;
    if (events & UV_WRITABLE)
        flags |= CURL_CSELECT_OUT;
    CL->multi_socket_action(hc->multi, s->fd, flags, &running);
    /* libuv stops a poll handle that reported an error; libcurl expects the
     * socket still watched as long as it has not removed it. */
    if (status < 0 && !s->closing && !hc->closing && s->events)
        uv_poll_start(&s->poll, s->events, on_poll);
    process(hc);
}

static int on_curl_socket(CURL *e, curl_socket_t fd, int what, void *userp, void *socketp)
{
    struct http_client *hc = userp;
    struct sock *s = socketp;
    (void) e;
    if (what == CURL_POLL_REMOVE) {
        if (s) {
            CL->multi_assign(hc->multi, fd, NULL);
            sock_close(s);
        }
        return 0;
    }
    if (s == NULL) {
        s = xcalloc(1, sizeof *s);
        s->hc = hc;
        s->fd = fd;
        if (uv_poll_init_socket(hc->loop, &s->poll, fd) != 0) {
            free(s);
            return -1;
        }
        s->poll.data = s;
        hc->open_handles++;
        link_push(&hc->socks, &s->link);
        CL->multi_assign(hc->multi, fd, s);
    }
    s->events =
        ((what & CURL_POLL_IN) ? UV_READABLE : 0) | ((what & CURL_POLL_OUT) ? UV_WRITABLE : 0);
    uv_poll_start(&s->poll, s->events, on_poll);
    return 0;
}

static int on_curl_timer(CURLM *m, long ms, void *userp)
{
    struct http_client *hc = userp;
    (void) m;
    if (ms < 0)
        uv_timer_stop(&hc->timer);
    else
        uv_timer_start(&hc->timer, on_timer, (uint64_t) ms, 0);
    return 0;
}

/* --- the client
 * ----------------------------------------------------------------------------------- */

struct http_client *http_client_new(uv_loop_t *loop, const char *user_agent, char *err,
                                    size_t errlen)
{
    if ((CL = curl_lib_load(err, errlen)) == NULL)
        return NULL;
    struct http_client *hc = xcalloc(1, sizeof *hc);
    hc->loop = loop;
    hc->user_agent = user_agent ? xstrdup(user_agent) : NULL;
    link_init(&hc->requests);
    link_init(&hc->socks);
    hc->multi = CL->multi_init();
    CL->multi_setopt(hc->multi, CURLMOPT_SOCKETFUNCTION, on_curl_socket);
    CL->multi_setopt(hc->multi, CURLMOPT_SOCKETDATA, hc);
    CL->multi_setopt(hc->multi, CURLMOPT_TIMERFUNCTION, on_curl_timer);
    CL->multi_setopt(hc->multi, CURLMOPT_TIMERDATA, hc);
    uv_timer_init(loop, &hc->timer);
    hc->timer.data = hc;
    hc->open_handles = 1;
    return hc;
}

void http_client_free(struct http_client *hc)
{
    if (hc->closing)
        return;
    while (hc->requests.next != &hc->requests) {
        struct http_request *r = (struct http_request *) hc->requests.next;
        link_unlink(&r->link); /* a request in its callback is freed after it */
        retire(r);
    }
    hc->closing = 1;
    CL->multi_cleanup(hc->multi); /* may report sockets removed */
    hc->multi = NULL;
    while (hc->socks.next != &hc->socks)
        sock_close(SOCK_OF(hc->socks.next));
    uv_close((uv_handle_t *) &hc->timer, timer_closed);
}

size_t http_client_active(const struct http_client *hc)
{
    return hc->active;
}

/* --- queries
 * -------------------------------------------------------------------------------------- */

int http_request_status(const struct http_request *r)
{
    return r->response_sent ? r->status : 0;
}

const char *http_request_header(const struct http_request *r, const char *name)
{
    const char *p = r->resp.data, *end = p + r->resp.len;
    while (p && p < end) {
        const char *v = p + strlen(p) + 1;
        if (strcasecmp(p, name) == 0)
            return v;
        p = v + strlen(v) + 1;
    }
    return NULL;
}

const char *http_request_url(const struct http_request *r)
{
    return r->url;
}

/* --- URLs
 * ----------------------------------------------------------------------------------------- */

static char *url_part(CURLU *u, CURLUPart part, unsigned flags)
{
    char *v = NULL;
    if (CL->url_get(u, part, &v, flags) != CURLUE_OK)
        return NULL;
    char *out = xstrdup(v);
    CL->free(v);
    return out;
}

char *http_url_origin(const char *url)
{
    CURLU *u = CL->url();
    char *scheme = NULL, *host = NULL, *port = NULL, *out = NULL;
    if (CL->url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK) {
        scheme = url_part(u, CURLUPART_SCHEME, 0);
        host = url_part(u, CURLUPART_HOST, 0);
        port = url_part(u, CURLUPART_PORT, CURLU_DEFAULT_PORT);
    }
    if (scheme && host && port &&
        (strcasecmp(scheme, "http") == 0 || strcasecmp(scheme, "https") == 0)) {
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "%s://%s:%s", scheme, host, port);
        for (char *c = b.data; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c = (char) (*c - 'A' + 'a');
        out = buf_steal(&b);
    }
    free(scheme);
    free(host);
    free(port);
    CL->url_cleanup(u);
    return out;
}

char *http_url_resolve(const char *base, const char *ref)
{
    CURLU *u = CL->url();
    char *out = NULL;
    if (CL->url_set(u, CURLUPART_URL, base, 0) == CURLUE_OK &&
        CL->url_set(u, CURLUPART_URL, ref, 0) == CURLUE_OK)
        out = url_part(u, CURLUPART_URL, 0);
    CL->url_cleanup(u);
    return out;
}
