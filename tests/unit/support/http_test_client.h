/* A test-side HTTP client for the unit tests of the HTTP server: a
 * non-blocking socket to 127.0.0.1, driven by running the server's loop
 * between steps, with responses parsed by llhttp (response mode). Header
 * only (static functions): included by the test files that need it. */
#ifndef TESTS_UNIT_HTTP_TEST_CLIENT_H
#define TESTS_UNIT_HTTP_TEST_CLIENT_H

#include "common/buf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <llhttp.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#define TC_MAX_RESPONSES 16

struct tc_response {
    int status;
    struct buf headers; /* "name: value\n" lines, names lowercased */
    struct buf body;
    int complete;
};

struct tc {
    uv_loop_t *loop;
    int fd;
    int closed; /* the server closed the connection (read returned 0 or an error) */
    llhttp_t parser;
    llhttp_settings_t settings;
    struct tc_response r[TC_MAX_RESPONSES];
    int nresponses; /* responses begun */
    struct buf field;
    struct buf raw; /* every byte received */
};

static inline struct tc_response *tc_cur(struct tc *c)
{
    return &c->r[c->nresponses - 1];
}

static inline int tc_on_begin(llhttp_t *p)
{
    struct tc *c = p->data;
    if (c->nresponses == TC_MAX_RESPONSES)
        return -1;
    c->nresponses++;
    buf_init(&tc_cur(c)->headers, 0);
    buf_init(&tc_cur(c)->body, 0);
    return 0;
}

static inline int tc_on_field(llhttp_t *p, const char *at, size_t n)
{
    struct tc *c = p->data;
    for (size_t i = 0; i < n; i++) {
        char ch = at[i];
        buf_append_char(&c->field, (char) (ch >= 'A' && ch <= 'Z' ? ch + 32 : ch));
    }
    return 0;
}

static inline int tc_on_field_done(llhttp_t *p)
{
    struct tc *c = p->data;
    buf_append(&tc_cur(c)->headers, c->field.data, c->field.len);
    buf_append_str(&tc_cur(c)->headers, ": ");
    buf_reset(&c->field);
    return 0;
}

static inline int tc_on_value(llhttp_t *p, const char *at, size_t n)
{
    struct tc *c = p->data;
    buf_append(&tc_cur(c)->headers, at, n);
    return 0;
}

static inline int tc_on_value_done(llhttp_t *p)
{
    struct tc *c = p->data;
    buf_append_char(&tc_cur(c)->headers, '\n');
    return 0;
}

static inline int tc_on_headers(llhttp_t *p)
{
    struct tc *c = p->data;
    tc_cur(c)->status = p->status_code;
    return p->status_code < 200 ? 1 : 0; /* 1xx: no body, the real response follows */
}

static inline int tc_on_body(llhttp_t *p, const char *at, size_t n)
{
    struct tc *c = p->data;
    buf_append(&tc_cur(c)->body, at, n);
    return 0;
}

static inline int tc_on_complete(llhttp_t *p)
{
    struct tc *c = p->data;
    if (tc_cur(c)->status < 200) { /* 100 Continue: not counted as a response */
        buf_free(&tc_cur(c)->headers);
        buf_free(&tc_cur(c)->body);
        memset(tc_cur(c), 0, sizeof *tc_cur(c));
        c->nresponses--;
        return 0;
    }
    tc_cur(c)->complete = 1;
    return 0;
}

static inline void tc_init(struct tc *c, uv_loop_t *loop, int port)
{
    memset(c, 0, sizeof *c);
    c->loop = loop;
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t) port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(c->fd, F_SETFL, O_NONBLOCK);
    connect(c->fd, (struct sockaddr *) &a, sizeof a);
    llhttp_settings_init(&c->settings);
    c->settings.on_message_begin = tc_on_begin;
    c->settings.on_header_field = tc_on_field;
    c->settings.on_header_field_complete = tc_on_field_done;
    c->settings.on_header_value = tc_on_value;
    c->settings.on_header_value_complete = tc_on_value_done;
    c->settings.on_headers_complete = tc_on_headers;
    c->settings.on_body = tc_on_body;
    c->settings.on_message_complete = tc_on_complete;
    llhttp_init(&c->parser, HTTP_RESPONSE, &c->settings);
    c->parser.data = c;
    buf_init(&c->field, 0);
    buf_init(&c->raw, 0);
}

static inline void tc_free(struct tc *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    for (int i = 0; i < c->nresponses; i++) {
        buf_free(&c->r[i].headers);
        buf_free(&c->r[i].body);
    }
    c->nresponses = 0;
    buf_free(&c->field);
    buf_free(&c->raw);
}

/* Runs the loop once without blocking, then reads what arrived (waiting up to ms). */
static inline void tc_step(struct tc *c, int ms)
{
    uv_run(c->loop, UV_RUN_NOWAIT);
    if (c->fd < 0 || c->closed) {
        if (ms > 0)
            usleep((useconds_t) ms * 1000);
        return;
    }
    struct pollfd pfd = {c->fd, POLLIN, 0};
    if (poll(&pfd, 1, ms) <= 0)
        return;
    char b[65536];
    ssize_t n = read(c->fd, b, sizeof b);
    if (n > 0) {
        buf_append(&c->raw, b, (size_t) n);
        llhttp_execute(&c->parser, b, (size_t) n);
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        c->closed = 1;
        llhttp_finish(&c->parser);
    }
}

/* Writes bytes (all at once, or one per loop step), running the loop meanwhile. */
static inline void tc_send(struct tc *c, const char *data, size_t len, int bytewise)
{
    size_t off = 0;
    while (off < len) {
        size_t n = bytewise ? 1 : len - off;
        ssize_t w = write(c->fd, data + off, n);
        if (w > 0)
            off += (size_t) w;
        else if (w < 0 && errno != EAGAIN && errno != EINTR && errno != ENOTCONN)
            return;
        tc_step(c, 0);
        if (bytewise) {
            tc_step(c, 0);
            tc_step(c, 0);
        }
    }
}

static inline void tc_sends(struct tc *c, const char *s)
{
    tc_send(c, s, strlen(s), 0);
}

/* Steps until response i is complete (1), the connection closed, or the time ran out (0). */
static inline int tc_wait(struct tc *c, int i, int timeout_ms)
{
    uint64_t end = uv_hrtime() / 1000000 + (uint64_t) timeout_ms;
    while (uv_hrtime() / 1000000 < end) {
        if (c->nresponses > i && c->r[i].complete)
            return 1;
        if (c->closed)
            return c->nresponses > i && c->r[i].complete;
        tc_step(c, 2);
    }
    return 0;
}

/* Steps until the server closed the connection (1) or the time ran out (0). */
static inline int tc_wait_closed(struct tc *c, int timeout_ms)
{
    uint64_t end = uv_hrtime() / 1000000 + (uint64_t) timeout_ms;
    while (!c->closed && uv_hrtime() / 1000000 < end)
        tc_step(c, 2);
    return c->closed;
}

/* Steps for a while (lets timers fire). */
static inline void tc_pause(struct tc *c, int ms)
{
    uint64_t end = uv_hrtime() / 1000000 + (uint64_t) ms;
    while (uv_hrtime() / 1000000 < end)
        tc_step(c, 2);
}

/* The value of header `name` (lowercase) in response i, copied into out, or NULL. */
static inline const char *tc_header(struct tc *c, int i, const char *name, char *out, size_t outsz)
{
    const char *h = c->r[i].headers.data;
    size_t n = strlen(name);
    while (h && *h) {
        const char *eol = strchr(h, '\n');
        if (strncmp(h, name, n) == 0 && h[n] == ':') {
            size_t vlen = (size_t) (eol - (h + n + 2));
            if (vlen >= outsz)
                vlen = outsz - 1;
            memcpy(out, h + n + 2, vlen);
            out[vlen] = '\0';
            return out;
        }
        h = eol + 1;
    }
    return NULL;
}

#endif
