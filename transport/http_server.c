/* HTTP/1.1 server on libuv: accepts connections, feeds their bytes to a
 * parser each, hands complete requests to the application one at a time per
 * connection, writes responses (whole, chunked or close-delimited), and
 * enforces the timeouts and caps. A connection is freed only in the close
 * callback of its last handle (libuv's rule), and that is also where an
 * unfinished exchange learns that its client is gone. */
#include "transport/http_server.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/log.h"
#include "common/stream_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define DEFAULT_HEADERS_TIMEOUT_MS 10000
#define DEFAULT_REQUEST_TIMEOUT_MS 60000
#define DEFAULT_IDLE_TIMEOUT_MS    60000
#define DEFAULT_MAX_CONNECTIONS    4096
#define DEFAULT_MAX_WRITE_QUEUE    (64u * 1024 * 1024)
#define PENDING_CAP                (256u * 1024) /* unparsed bytes buffered while a request is answered */
#define LINGER_MS                  2000 /* reading (and dropping) input after our last byte */
#define REFUSING_MAX               64   /* connections refused with 503 still lingering */

struct http_exchange {
    struct conn *c;
    http_server_abort_cb *abort;
    void *abort_ud;
    int active;      /* delivered to the application, response not ended */
    int streaming;   /* a streamed response has begun */
    int chunked;     /* ... with chunked encoding (else close-delimited) */
    int keep_alive;  /* the connection may carry the next request */
    int head_method; /* HEAD: no body */
    int minor;
};

struct conn {
    struct http_server *s;
    uv_tcp_t tcp;
    uv_timer_t timer;
    uv_shutdown_t shutdown;
    struct http_parser *parser;
    struct http_exchange x;
    struct buf pending; /* received, not yet parsed */
    struct conn *prev, *next;
    int handles;     /* open handles: tcp, timer */
    unsigned writes; /* writes not yet completed */
    int closing;     /* uv_close called */
    int finishing;   /* no more requests: close once the writes are done */
    int lingering;   /* our side shut down; dropping input until EOF or timeout */
    int read_paused; /* reading stopped: pending is full */
    int processing;  /* inside conn_process */
    int feed_again;  /* after a head: feed (maybe zero bytes) to complete the request */
    int peer_eof;    /* the client closed its side */
    int timing;      /* a request's deadlines are set */
    int fresh;       /* no request begun yet: the first head is due headers_timeout after accept */
    int refusing;    /* refused with 503 (over the cap): not counted, never evicted */
    uint64_t head_deadline, request_deadline;
    uint64_t idle_deadline; /* waiting for a request: closed at this time */
};

struct http_server {
    uv_loop_t *loop;
    uv_tcp_t listener;
    struct http_server_config cfg;
    http_server_request_cb *on_request;
    void *ud;
    struct conn *conns; /* newest first */
    struct conn *oldest;
    unsigned nconns; /* closing ones included (until their handles are closed) */
    unsigned nclosing;
    unsigned nrefusing;           /* refused with 503, not yet closing */
    uint64_t accept_error_logged; /* loop time of the last "cannot accept" warning */
    int port;
    int listening, draining, closing;
    void (*done)(void *);
    void *done_ud;
    char date[64];
    time_t date_at;
};

static char read_buffer[65536]; /* one loop thread: each read is consumed before the next */

static void conn_close(struct conn *c);
static void conn_process(struct conn *c);
static void conn_arm(struct conn *c);
static void conn_read_start(struct conn *c);

/* --- status line and headers ------------------------------------------------------------ */

const char *http_status_reason(int status)
{
    static const struct {
        int code;
        const char *text;
    } reasons[] = {
        {100, "Continue"},
        {200, "OK"},
        {202, "Accepted"},
        {204, "No Content"},
        {400, "Bad Request"},
        {401, "Unauthorized"},
        {403, "Forbidden"},
        {404, "Not Found"},
        {405, "Method Not Allowed"},
        {406, "Not Acceptable"},
        {408, "Request Timeout"},
        {409, "Conflict"},
        {411, "Length Required"},
        {413, "Content Too Large"},
        {415, "Unsupported Media Type"},
        {417, "Expectation Failed"},
        {431, "Request Header Fields Too Large"},
        {500, "Internal Server Error"},
        {501, "Not Implemented"},
        {503, "Service Unavailable"},
        {505, "HTTP Version Not Supported"},
    };
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (reasons[i].code == status)
            return reasons[i].text;
    return "Unknown";
}

static const char *http_date(struct http_server *s)
{
    time_t now = time(NULL);
    if (now != s->date_at) {
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(s->date, sizeof s->date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
        s->date_at = now;
    }
    return s->date;
}

/* The head of a response; length < 0 means streamed. */
static void format_head(struct buf *b, struct http_exchange *x, int status, const char *headers,
                        const char *content_type, long long length)
{
    struct http_server *s = x->c->s;
    buf_printf(b, "HTTP/1.1 %d %s\r\nDate: %s\r\n", status, http_status_reason(status),
               http_date(s));
    if (content_type)
        buf_printf(b, "Content-Type: %s\r\n", content_type);
    if (length >= 0 && status != 204 && status != 304)
        buf_printf(b, "Content-Length: %lld\r\n", length);
    else if (x->chunked)
        buf_append_str(b, "Transfer-Encoding: chunked\r\n");
    if (x->keep_alive)
        buf_printf(b, "Connection: keep-alive\r\nKeep-Alive: timeout=%llu\r\n",
                   (unsigned long long) ((s->cfg.idle_timeout_ms + 999) / 1000));
    else
        buf_append_str(b, "Connection: close\r\n");
    if (headers)
        buf_append_str(b, headers);
    buf_append_str(b, "\r\n");
}

/* --- writing ----------------------------------------------------------------------------- */

static void shutdown_done(uv_shutdown_t *req, int status)
{
    struct conn *c = req->data;
    if (status < 0 || c->closing) {
        conn_close(c);
        return;
    }
    c->lingering = 1; /* keep reading so the client sees our answer, not a reset */
    conn_arm(c);
}

/* After the last response of a connection: half-close, then linger. */
static void conn_finish(struct conn *c)
{
    if (c->closing || c->lingering || c->writes > 0)
        return;
    if (c->peer_eof) {
        conn_close(c);
        return;
    }
    c->shutdown.data = c;
    if (uv_shutdown(&c->shutdown, (uv_stream_t *) &c->tcp, shutdown_done) != 0)
        conn_close(c);
    else
        c->lingering = 1;
}

static void written(void *ud, size_t queued, int status)
{
    struct conn *c = ud;
    (void) queued;
    c->writes--;
    if (status < 0)
        conn_close(c);
    else if (c->finishing && c->writes == 0)
        conn_finish(c);
}

/* Sends the buffer's bytes (taken over): what the socket takes at once,
 * the rest queued (common/stream_write.h). Returns 0 or -1 (connection
 * failing). */
static int conn_write(struct conn *c, struct buf *b)
{
    if (c->closing || c->lingering) {
        buf_free(b);
        return -1;
    }
    if (uv_stream_get_write_queue_size((uv_stream_t *) &c->tcp) > c->s->cfg.max_write_queue) {
        log_info("http", "dropping a client that does not read its responses");
        buf_free(b);
        conn_close(c);
        return -1;
    }
    size_t len = b->len;
    long n = stream_write((uv_stream_t *) &c->tcp, buf_steal(b), len, 1, written, c);
    if (n < 0) {
        conn_close(c);
        return -1;
    }
    if (n > 0)
        c->writes++;
    return 0;
}

static void process_soon(uv_timer_t *t)
{
    conn_process(t->data);
}

/* The response of the current exchange has ended. */
static void exchange_done(struct http_exchange *x)
{
    struct conn *c = x->c;
    x->active = 0;
    x->abort = NULL;
    if (!x->keep_alive || c->s->draining) {
        c->finishing = 1;
        if (c->writes == 0)
            conn_finish(c);
        return;
    }
    if (c->closing)
        return;
    c->idle_deadline = uv_now(c->s->loop) + c->s->cfg.idle_timeout_ms;
    if (!c->processing && c->pending.len > 0)
        uv_timer_start(&c->timer, process_soon, 0, 0); /* the next pipelined request */
    else
        conn_arm(c);
    if (c->read_paused) {
        c->read_paused = 0;
        conn_read_start(c);
    }
}

void http_exchange_on_abort(struct http_exchange *x, http_server_abort_cb *cb, void *ud)
{
    x->abort = cb;
    x->abort_ud = ud;
}

int http_exchange_minor(const struct http_exchange *x)
{
    return x->minor;
}

void http_respond(struct http_exchange *x, int status, const char *headers,
                  const char *content_type, const char *body, size_t len)
{
    struct buf b;
    buf_init(&b, 0);
    format_head(&b, x, status, headers, content_type, (long long) len);
    if (!x->head_method)
        buf_append(&b, body, len);
    conn_write(x->c, &b);
    exchange_done(x);
}

void http_stream_begin(struct http_exchange *x, int status, const char *headers,
                       const char *content_type)
{
    struct buf b;
    buf_init(&b, 0);
    x->streaming = 1;
    x->chunked = x->minor >= 1;
    if (!x->chunked)
        x->keep_alive = 0; /* the end of the connection ends the body */
    format_head(&b, x, status, headers, content_type, -1);
    conn_write(x->c, &b);
}

int http_stream_write(struct http_exchange *x, const char *data, size_t len)
{
    if (len == 0 || x->head_method)
        return x->c->closing ? -1 : 0;
    struct buf b;
    buf_init(&b, 0);
    if (x->chunked)
        buf_printf(&b, "%zx\r\n", len);
    buf_append(&b, data, len);
    if (x->chunked)
        buf_append_str(&b, "\r\n");
    return conn_write(x->c, &b);
}

void http_stream_end(struct http_exchange *x)
{
    if (x->chunked && !x->head_method) {
        struct buf b;
        buf_init(&b, 0);
        buf_append_str(&b, "0\r\n\r\n");
        conn_write(x->c, &b);
    }
    exchange_done(x);
}

/* --- connection lifetime ---------------------------------------------------------------- */

static void server_maybe_done(struct http_server *s);

static void conn_handle_closed(uv_handle_t *h)
{
    struct conn *c = h->data;
    if (--c->handles > 0)
        return;
    if (c->x.active) {
        c->x.active = 0;
        if (c->x.abort)
            c->x.abort(c->x.abort_ud);
    }
    struct http_server *s = c->s;
    if (c->prev)
        c->prev->next = c->next;
    else
        s->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    else
        s->oldest = c->prev;
    s->nconns--;
    s->nclosing--;
    http_parser_free(c->parser);
    buf_free(&c->pending);
    free(c);
    server_maybe_done(s);
}

static void conn_close(struct conn *c)
{
    if (c->closing)
        return;
    c->closing = 1;
    c->s->nclosing++;
    if (c->refusing)
        c->s->nrefusing--;
    uv_close((uv_handle_t *) &c->tcp, conn_handle_closed);
    uv_close((uv_handle_t *) &c->timer, conn_handle_closed);
}

/* Answers a request we cannot serve (malformed, over a cap, too slow) and
 * ends the connection. Only when no response is under way. */
static void conn_reject_with(struct conn *c, int status, const char *headers, const char *reason)
{
    if (c->x.active || c->closing || c->lingering || c->finishing)
        return;
    struct buf b;
    buf_init(&b, 0);
    c->x = (struct http_exchange){.c = c, .minor = 1};
    size_t n = strlen(reason);
    format_head(&b, &c->x, status, headers, "text/plain; charset=utf-8", (long long) n + 1);
    buf_append(&b, reason, n);
    buf_append_char(&b, '\n');
    conn_write(c, &b);
    c->finishing = 1;
    buf_reset(&c->pending);
    if (c->writes == 0)
        conn_finish(c);
}

static void conn_reject(struct conn *c, int status, const char *reason)
{
    conn_reject_with(c, status, NULL, reason);
}

/* --- timers --------------------------------------------------------------------------- */

static void conn_timeout(uv_timer_t *t)
{
    struct conn *c = t->data;
    if (c->timing && !c->finishing && !c->lingering) {
        log_info("http", "dropping a client that sent its request too slowly");
        c->timing = 0;
        conn_reject(c, 408, "request not received in time");
        conn_arm(c);
    } else if (!c->x.active) {
        if (c->fresh)
            log_debug("http", "closing a connection that sent no request in time");
        conn_close(c); /* silent, idle, lingering or flushing for too long */
    }
}

/* Sets the connection's timer for its current state. */
static void conn_arm(struct conn *c)
{
    struct http_server *s = c->s;
    if (c->closing)
        return;
    uint64_t now = uv_now(s->loop), at;
    if (c->lingering)
        at = now + LINGER_MS;
    else if (c->x.active)
        at = 0;
    else if (c->finishing)
        at = now + s->cfg.idle_timeout_ms;
    else if (c->timing)
        at = c->head_deadline < c->request_deadline ? c->head_deadline : c->request_deadline;
    else
        at = c->idle_deadline; /* stray empty lines do not push it back */
    if (at == 0)
        uv_timer_stop(&c->timer);
    else
        uv_timer_start(&c->timer, conn_timeout, at > now ? at - now : 0, 0);
}

/* Starts or updates a request's deadlines after input was parsed. */
static void conn_track_request(struct conn *c, enum http_parse_event ev)
{
    uint64_t now = uv_now(c->s->loop);
    if (!c->timing && http_parser_in_request(c->parser)) {
        c->timing = 1;
        /* the first head is due headers_timeout_ms after accept: idle_deadline */
        c->head_deadline = c->fresh ? c->idle_deadline : now + c->s->cfg.headers_timeout_ms;
        c->request_deadline = now + c->s->cfg.request_timeout_ms;
        c->fresh = 0;
    }
    if (ev == HTTP_PARSE_HEAD)
        c->head_deadline = UINT64_MAX;
    if (ev == HTTP_PARSE_REQUEST || ev == HTTP_PARSE_ERROR)
        c->timing = 0;
}

/* --- requests ----------------------------------------------------------------------------- */

static void on_head(struct conn *c)
{
    const struct http_server_request *r = http_parser_request(c->parser);
    c->feed_again = 1;
    if (r->expect_continue && r->version_minor >= 1) {
        struct buf b;
        buf_init(&b, 0);
        buf_append_str(&b, "HTTP/1.1 100 Continue\r\n\r\n");
        conn_write(c, &b);
    }
}

static void dispatch(struct conn *c)
{
    struct http_server *s = c->s;
    const struct http_server_request *r = http_parser_request(c->parser);
    c->x = (struct http_exchange){
        .c = c,
        .active = 1,
        .keep_alive = r->keep_alive && !s->draining,
        .head_method = strcmp(r->method, "HEAD") == 0,
        .minor = r->version_minor,
    };
    uv_timer_stop(&c->timer);
    s->on_request(s->ud, &c->x, r);
    http_parser_next(c->parser);
}

/* Parses buffered input and dispatches requests, one at a time. */
static void conn_process(struct conn *c)
{
    if (c->processing)
        return;
    c->processing = 1;
    while (!c->closing && !c->lingering && !c->finishing && !c->x.active &&
           (c->pending.len > 0 || c->feed_again)) {
        enum http_parse_event ev;
        c->feed_again = 0;
        size_t used = http_parser_feed(c->parser, c->pending.data, c->pending.len, &ev);
        buf_consume(&c->pending, used);
        conn_track_request(c, ev);
        if (ev == HTTP_PARSE_ERROR)
            conn_reject(c, http_parser_error_status(c->parser),
                        http_parser_error_reason(c->parser));
        else if (ev == HTTP_PARSE_HEAD)
            on_head(c);
        else if (ev == HTTP_PARSE_REQUEST)
            dispatch(c);
    }
    c->processing = 0;
    if (!c->x.active)
        conn_arm(c);
}

/* --- reading ------------------------------------------------------------------------------ */

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    (void) h;
    (void) suggested;
    *b = uv_buf_init(read_buffer, sizeof read_buffer);
}

/* The client closed its side. Answers already queued are still sent; an
 * answer still being prepared is aborted (the client is taken to be gone). */
static void conn_eof(struct conn *c)
{
    c->peer_eof = 1;
    uv_read_stop((uv_stream_t *) &c->tcp);
    if (c->x.active || c->lingering) {
        conn_close(c);
        return;
    }
    if (http_parser_in_request(c->parser))
        log_debug("http", "a client closed its connection in the middle of a request");
    c->finishing = 1;
    if (c->writes == 0)
        conn_close(c);
}

static void read_cb(uv_stream_t *stream, ssize_t n, const uv_buf_t *b)
{
    struct conn *c = stream->data;
    if (n < 0) {
        if (n == UV_EOF)
            conn_eof(c);
        else
            conn_close(c);
        return;
    }
    if (n == 0 || c->lingering || c->finishing)
        return;
    buf_append(&c->pending, b->base, (size_t) n);
    if (c->x.active && c->pending.len > PENDING_CAP) {
        uv_read_stop(stream); /* pipelined input piles up: wait for the response */
        c->read_paused = 1;
    }
    conn_process(c);
}

/* --- admission ------------------------------------------------------------------------- */

/* Whether a connection may be closed to make room for a new one: 0 never (a
 * response is being produced or written), 1 first (nothing under way: it
 * has sent nothing yet, waits between requests, or is ending), 2 next (it
 * is still sending a request). */
static int conn_evictable(const struct conn *c)
{
    if (c->closing || c->refusing || c->x.active || c->writes > 0)
        return 0;
    if (c->lingering || c->finishing || !http_parser_in_request(c->parser))
        return 1;
    return 2;
}

/* Closes the oldest connection of the first rank that has one (see
 * conn_evictable), other than `except`. Its descriptor is released at once
 * (uv_close closes a stream's socket before its callback). Returns 0, or -1
 * when every connection is producing or writing a response. */
static int evict_one(struct http_server *s, const struct conn *except)
{
    for (int rank = 1; rank <= 2; rank++)
        for (struct conn *c = s->oldest; c; c = c->prev)
            if (c != except && conn_evictable(c) == rank) {
                log_info("http",
                         "%u connections: closing the oldest one with %s to admit a new one",
                         s->nconns - s->nclosing - s->nrefusing,
                         rank == 1 ? "no request" : "an unfinished request");
                conn_close(c);
                return 0;
            }
    return -1;
}

/* Every connection is busy answering: the new one gets 503 and is closed
 * like any rejected request (its input read and dropped for at most
 * LINGER_MS, so that the client reads the answer rather than a reset). It
 * does not count against the cap; past REFUSING_MAX of them lingering at
 * once, a newcomer is closed at once instead. */
static void conn_refuse_busy(struct conn *c)
{
    struct http_server *s = c->s;
    log_info("http", "%u connections, all of them busy: refusing a new one with 503",
             s->nconns - s->nclosing - s->nrefusing - 1);
    if (s->nrefusing >= REFUSING_MAX) {
        conn_close(c);
        return;
    }
    c->refusing = 1;
    s->nrefusing++;
    conn_read_start(c);
    conn_reject_with(c, 503, "Retry-After: 1\r\n", "too many connections");
    conn_arm(c);
}

/* accept() failed: libuv has already accepted and closed what waited in the
 * backlog when it could (its spare descriptor), so this is a failure it
 * could not absorb, and it calls again at once while the backlog is not
 * empty. Releasing a descriptor lets the next accept succeed (and stops
 * that loop); the warning is printed at most once a second. */
static void on_accept_error(struct http_server *s, int status)
{
    uint64_t now = uv_now(s->loop);
    int freed = (status == UV_EMFILE || status == UV_ENFILE) && evict_one(s, NULL) == 0;
    if (now - s->accept_error_logged >= 1000 || s->accept_error_logged == 0) {
        s->accept_error_logged = now ? now : 1;
        log_warn("http", "cannot accept a connection: %s%s", uv_strerror(status),
                 freed ? " (closed an idle connection to make room)" : "");
    }
}

static void on_connection(uv_stream_t *listener, int status)
{
    struct http_server *s = listener->data;
    if (status < 0) {
        on_accept_error(s, status);
        return;
    }
    struct conn *c = xcalloc(1, sizeof *c);
    c->s = s;
    uv_tcp_init(s->loop, &c->tcp);
    uv_timer_init(s->loop, &c->timer);
    c->tcp.data = c->timer.data = c;
    c->handles = 2;
    c->parser = http_parser_new(&s->cfg.limits);
    buf_init(&c->pending, 0);
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    else
        s->oldest = c;
    s->conns = c;
    s->nconns++;
    if (uv_accept(listener, (uv_stream_t *) &c->tcp) != 0 || s->draining) {
        conn_close(c);
        return;
    }
    if (s->nconns - s->nclosing - s->nrefusing > s->cfg.max_connections && evict_one(s, c) < 0) {
        conn_refuse_busy(c);
        return;
    }
    c->fresh = 1;
    c->idle_deadline = uv_now(s->loop) + s->cfg.headers_timeout_ms;
    uv_tcp_nodelay(&c->tcp, 1);
    conn_read_start(c);
    conn_arm(c);
}

static void conn_read_start(struct conn *c)
{
    if (uv_read_start((uv_stream_t *) &c->tcp, alloc_cb, read_cb) != 0)
        conn_close(c);
}

/* --- server --------------------------------------------------------------------------------- */

static void apply_defaults(struct http_server_config *c)
{
    if (!c->headers_timeout_ms)
        c->headers_timeout_ms = DEFAULT_HEADERS_TIMEOUT_MS;
    if (!c->request_timeout_ms)
        c->request_timeout_ms = DEFAULT_REQUEST_TIMEOUT_MS;
    if (!c->idle_timeout_ms)
        c->idle_timeout_ms = DEFAULT_IDLE_TIMEOUT_MS;
    if (!c->max_connections)
        c->max_connections = DEFAULT_MAX_CONNECTIONS;
    /* At most half the descriptors this process may open: the cap, not the
     * descriptor limit, must be what a flood of connections runs into, so
     * that the oldest idle one is closed for a newcomer instead of accept()
     * failing (and workers and downstream connections need descriptors). */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur / 2 < c->max_connections) {
        unsigned cap = rl.rlim_cur / 2 > 0 ? (unsigned) (rl.rlim_cur / 2) : 1;
        log_info("http", "at most %u connections (half the limit on open files, %llu)", cap,
                 (unsigned long long) rl.rlim_cur);
        c->max_connections = cap;
    }
    if (!c->max_write_queue)
        c->max_write_queue = DEFAULT_MAX_WRITE_QUEUE;
}

static int resolve(uv_loop_t *loop, const char *host, int port, struct sockaddr_storage *out)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    uv_getaddrinfo_t req;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int rc = uv_getaddrinfo(loop, &req, NULL, host, service, &hints);
    if (rc != 0)
        return rc;
    memcpy(out, req.addrinfo->ai_addr, req.addrinfo->ai_addrlen);
    uv_freeaddrinfo(req.addrinfo);
    return 0;
}

static int bound_port(uv_tcp_t *t)
{
    struct sockaddr_storage ss;
    int len = sizeof ss;
    if (uv_tcp_getsockname(t, (struct sockaddr *) &ss, &len) != 0)
        return -1;
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *) &ss)->sin6_port);
    return ntohs(((struct sockaddr_in *) &ss)->sin_port);
}

static void start_failed(uv_handle_t *h)
{
    free(h->data);
}

int http_server_start(uv_loop_t *loop, const struct http_server_config *cfg,
                      http_server_request_cb *on_request, void *ud, struct http_server **out,
                      char **err)
{
    struct http_server *s = xcalloc(1, sizeof *s);
    struct sockaddr_storage addr;
    s->loop = loop;
    s->cfg = *cfg;
    apply_defaults(&s->cfg);
    s->on_request = on_request;
    s->ud = ud;
    int rc = resolve(loop, cfg->host, cfg->port, &addr);
    if (rc != 0) {
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "cannot resolve %s: %s", cfg->host, uv_strerror(rc));
        *err = buf_steal(&b);
        free(s);
        return rc;
    }
    uv_tcp_init(loop, &s->listener);
    s->listener.data = s;
    rc = uv_tcp_bind(&s->listener, (struct sockaddr *) &addr, 0);
    if (rc == 0)
        rc = uv_listen((uv_stream_t *) &s->listener, 511, on_connection);
    if (rc != 0) {
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "cannot listen on %s port %d: %s", cfg->host, cfg->port, uv_strerror(rc));
        *err = buf_steal(&b);
        uv_close((uv_handle_t *) &s->listener, start_failed);
        return rc;
    }
    s->listening = 1;
    s->port = bound_port(&s->listener);
    *out = s;
    return 0;
}

int http_server_port(const struct http_server *s)
{
    return s->port;
}

unsigned http_server_connections(const struct http_server *s)
{
    return s->nconns;
}

static void listener_closed(uv_handle_t *h)
{
    struct http_server *s = h->data;
    s->listening = 0;
    server_maybe_done(s);
}

static void stop_listening(struct http_server *s)
{
    if (s->listening && !uv_is_closing((uv_handle_t *) &s->listener))
        uv_close((uv_handle_t *) &s->listener, listener_closed);
}

void http_server_drain(struct http_server *s)
{
    s->draining = 1;
    stop_listening(s);
    for (struct conn *c = s->conns; c; c = c->next) {
        if (c->x.active)
            c->x.keep_alive = 0;
        else if (!c->finishing && !c->lingering)
            conn_close(c); /* idle, or a request not complete yet */
    }
}

static void server_maybe_done(struct http_server *s)
{
    if (!s->closing || s->listening || s->nconns > 0)
        return;
    void (*done)(void *) = s->done;
    void *ud = s->done_ud;
    free(s);
    if (done)
        done(ud);
}

void http_server_close(struct http_server *s, void (*done)(void *ud), void *ud)
{
    s->draining = s->closing = 1;
    s->done = done;
    s->done_ud = ud;
    stop_listening(s);
    for (struct conn *c = s->conns; c; c = c->next)
        conn_close(c);
    server_maybe_done(s);
}
