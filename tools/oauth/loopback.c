/* The loopback redirect listener (see loopback.h): a tiny HTTP/1.x reader
 * that only needs the request line of one GET. */
#include "tools/oauth/loopback.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REQUEST_MAX 16384

struct tools_oauth_loopback {
    uv_loop_t *loop;
    uv_tcp_t server;
    unsigned port;
    tools_oauth_loopback_cb *cb;
    void *ud;
    int refs; /* the server handle and each open connection */
};

struct conn {
    uv_tcp_t tcp;
    struct tools_oauth_loopback *l;
    struct buf in;
    uv_write_t w;
    char *out;
    int answered;
};

static void release(struct tools_oauth_loopback *l)
{
    if (--l->refs == 0)
        free(l);
}

static void conn_closed(uv_handle_t *h)
{
    struct conn *c = h->data;
    struct tools_oauth_loopback *l = c->l;
    buf_free(&c->in);
    free(c->out);
    free(c);
    release(l);
}

static void written(uv_write_t *w, int status)
{
    struct conn *c = w->data;
    (void) status;
    uv_close((uv_handle_t *) &c->tcp, conn_closed);
}

static void answer(struct conn *c, int status, const char *text)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b,
               "HTTP/1.1 %d %s\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: "
               "no-store\r\nConnection: close\r\nContent-Length: %zu\r\n\r\n%s",
               status,
               status == 200   ? "OK"
               : status == 404 ? "Not Found"
                               : "Bad Request",
               strlen(text), text);
    c->out = buf_steal(&b);
    c->answered = 1;
    uv_read_stop((uv_stream_t *) &c->tcp);
    uv_buf_t ub = uv_buf_init(c->out, (unsigned) strlen(c->out));
    c->w.data = c;
    if (uv_write(&c->w, (uv_stream_t *) &c->tcp, &ub, 1, written) != 0)
        uv_close((uv_handle_t *) &c->tcp, conn_closed);
}

static void request(struct conn *c)
{
    const char *line = c->in.data;
    const char *end = strstr(line, "\r\n");
    size_t n = end ? (size_t) (end - line) : strlen(line);
    if (n < 14 || strncmp(line, "GET /callback", 13) != 0 || (line[13] != '?' && line[13] != ' ')) {
        answer(c, 404, "Not found.");
        return;
    }
    const char *q = line + 13;
    const char *sp = memchr(q, ' ', n - 13);
    size_t qlen = sp ? (size_t) (sp - q) : n - 13;
    char *query = xstrndup(*q == '?' ? q + 1 : q, *q == '?' ? qlen - 1 : 0);
    const char *text = c->l->cb ? c->l->cb(c->l->ud, query) : "This login is over.";
    free(query);
    struct buf page;
    buf_init(&page, 0);
    buf_printf(&page, "<!doctype html><title>mcp-codemode</title><p>%s</p>", text);
    answer(c, 200, page.data);
    buf_free(&page);
}

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    (void) h;
    b->base = xmalloc(suggested);
    b->len = suggested;
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *b)
{
    struct conn *c = s->data;
    if (nread > 0 && !c->answered) {
        buf_append(&c->in, b->base, (size_t) nread);
        if (c->in.len > REQUEST_MAX)
            answer(c, 400, "Request too large.");
        else if (strstr(c->in.data, "\r\n\r\n") || strstr(c->in.data, "\n\n"))
            request(c);
    } else if (nread < 0 && !c->answered) {
        c->answered = 1;
        uv_close((uv_handle_t *) &c->tcp, conn_closed);
    }
    free(b->base);
}

static void on_connection(uv_stream_t *server, int status)
{
    struct tools_oauth_loopback *l = server->data;
    if (status < 0)
        return;
    struct conn *c = xcalloc(1, sizeof *c);
    c->l = l;
    buf_init(&c->in, 0);
    uv_tcp_init(l->loop, &c->tcp);
    c->tcp.data = c;
    l->refs++;
    if (uv_accept(server, (uv_stream_t *) &c->tcp) != 0 ||
        uv_read_start((uv_stream_t *) &c->tcp, alloc_cb, on_read) != 0)
        uv_close((uv_handle_t *) &c->tcp, conn_closed);
}

static void server_closed(uv_handle_t *h)
{
    release(h->data);
}

struct tools_oauth_loopback *tools_oauth_loopback_new(uv_loop_t *loop, unsigned port,
                                                      tools_oauth_loopback_cb *cb, void *ud,
                                                      char *err, size_t errlen)
{
    struct tools_oauth_loopback *l = xcalloc(1, sizeof *l);
    struct sockaddr_in addr;
    l->loop = loop;
    l->cb = cb;
    l->ud = ud;
    l->refs = 1;
    uv_tcp_init(loop, &l->server);
    l->server.data = l;
    uv_ip4_addr("127.0.0.1", (int) port, &addr);
    int rc = uv_tcp_bind(&l->server, (const struct sockaddr *) &addr, 0);
    if (rc == 0)
        rc = uv_listen((uv_stream_t *) &l->server, 8, on_connection);
    if (rc != 0) {
        snprintf(err, errlen, "cannot listen on 127.0.0.1:%u for the login's redirect: %s", port,
                 uv_strerror(rc));
        uv_close((uv_handle_t *) &l->server, server_closed);
        return NULL;
    }
    struct sockaddr_storage ss;
    int len = sizeof ss;
    uv_tcp_getsockname(&l->server, (struct sockaddr *) &ss, &len);
    l->port = ntohs(((struct sockaddr_in *) &ss)->sin_port);
    return l;
}

unsigned tools_oauth_loopback_port(const struct tools_oauth_loopback *l)
{
    return l->port;
}

void tools_oauth_loopback_free(struct tools_oauth_loopback *l)
{
    if (l == NULL)
        return;
    l->cb = NULL;
    uv_close((uv_handle_t *) &l->server, server_closed);
}
