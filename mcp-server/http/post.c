/* The channel of one POSTed message that gets a reply. Nothing is sent
 * until the first message comes: a reply first gives a plain JSON response
 * (its status from the JSON-RPC error, if any); a notification first (a
 * progress or log line of a long execution) starts an SSE stream that
 * carries the notifications and ends with the reply. A client that goes
 * away cancels a 2026-07-28 request; a 2025 one keeps running unheard. */
#include "mcp-server/http/internal.h"
#include "mcp-server/protocol.h"
#include "transport/json_scan.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

/* The error code of a reply line, or 0 for a result (or a batch). */
static long reply_code(const char *data, size_t len)
{
    static const char *const path[] = {"error", "code"};
    size_t vlen;
    const char *v = json_scan_member(data, len, path, 2, &vlen);
    return v ? strtol(v, NULL, 10) : 0;
}

/* The HTTP status of a reply sent as JSON: errors the transport pages give
 * a status (2026-07-28: streamable-http.mdx; malformed messages in every
 * revision) get it, anything else is 200. */
static int reply_status(long code, int modern)
{
    if (code == RPC_PARSE_ERROR || code == RPC_INVALID_REQUEST)
        return 400;
    if (!modern)
        return 200;
    if (code == RPC_METHOD_NOT_FOUND)
        return 404;
    if (code == RPC_INVALID_PARAMS || code == MCP_ERR_HEADER_MISMATCH ||
        code == MCP_ERR_MISSING_CAPABILITY || code == MCP_ERR_UNSUPPORTED_VERSION)
        return 400;
    return 200;
}

/* Header lines of the response: CORS, and the session id once it exists. */
static void response_headers(const struct http_post *p, struct buf *b)
{
    if (p->cors)
        buf_append_str(b, p->cors);
    if (p->session && !p->init_failed)
        buf_printf(b, "Mcp-Session-Id: %s\r\n", p->session->id);
}

static void begin_sse(struct http_post *p, int status)
{
    struct buf b;
    buf_init(&b, 0);
    response_headers(p, &b);
    mcp_http__sse_begin(&p->sse, p->h, p->x, status, b.data);
    buf_free(&b);
}

static void send_final(struct http_post *p, const char *data, size_t len)
{
    long code = reply_code(data, len);
    if (p->initialize && code != 0)
        p->init_failed = 1;
    if (p->sse.x) {
        mcp_http__sse_lines(&p->sse, "message", data, len);
        mcp_http__sse_end(&p->sse);
    } else if (p->allow_json) {
        struct buf b;
        buf_init(&b, 0);
        response_headers(p, &b);
        http_respond(p->x, reply_status(code, p->modern), b.data, "application/json", data, len);
        buf_free(&b);
    } else {
        begin_sse(p, reply_status(code, p->modern));
        mcp_http__sse_lines(&p->sse, "message", data, len);
        mcp_http__sse_end(&p->sse);
    }
    p->x = NULL;
}

static void post_send(void *ud, const char *data, size_t len, int final)
{
    struct http_post *p = ud;
    if (final)
        p->ended = 1;
    if (p->x == NULL)
        return; /* the client is gone: the output is dropped */
    if (final) {
        send_final(p, data, len);
        return;
    }
    if (!p->allow_sse)
        return; /* the client takes JSON only: notifications cannot be delivered */
    if (p->sse.x == NULL)
        begin_sse(p, 200);
    mcp_http__sse_lines(&p->sse, "message", data, len);
}

void mcp_http__post_unref(struct http_post *p)
{
    if (--p->refs > 0)
        return;
    free(p->cors);
    free(p);
}

static void post_unlist(struct http_post *p)
{
    struct mcp_http *h = p->h;
    if (p->prev)
        p->prev->next = p->next;
    else
        h->posts = p->next;
    if (p->next)
        p->next->prev = p->prev;
    if (p->session) {
        p->session->posts--;
        p->session->last_used = uv_now(h->cfg.server.loop);
    }
}

/* The server holds no further reference. Without a reply (a cancelled
 * request, a session ended, a shutdown) the response still has to end:
 * an empty event stream tells an SDK client there is nothing more. */
static void post_release(void *ud)
{
    struct http_post *p = ud;
    p->released = 1;
    if (p->x && p->sse.x) {
        mcp_http__sse_end(&p->sse);
    } else if (p->x) {
        struct buf b;
        buf_init(&b, 0);
        response_headers(p, &b);
        http_respond(p->x, 200, b.data, "text/event-stream", "", 0);
        buf_free(&b);
    }
    p->x = NULL;
    post_unlist(p);
    if (p->h->draining)
        mcp_http__check_drained(p->h);
    mcp_http__post_unref(p);
}

static void post_abort(void *ud)
{
    struct http_post *p = ud;
    p->x = NULL;
    mcp_http__sse_gone(&p->sse);
    if (p->modern && !p->released) { /* 2026-07-28: a disconnect is a cancellation */
        p->refs++;
        mcp_server_cancel_channel(p->server, p);
        mcp_http__post_unref(p);
    }
}

struct http_post *mcp_http__post_new(struct mcp_http *h, struct http_exchange *x,
                                     struct http_session *session, const char *cors)
{
    struct http_post *p = xcalloc(1, sizeof *p);
    p->h = h;
    p->x = x;
    p->session = session;
    p->refs = 2;
    p->allow_json = p->allow_sse = 1;
    p->cors = cors && *cors ? xstrdup(cors) : NULL;
    p->next = h->posts;
    if (h->posts)
        h->posts->prev = p;
    h->posts = p;
    if (session)
        session->posts++;
    http_exchange_on_abort(x, post_abort, p);
    return p;
}

void mcp_http__post_channel(struct http_post *p, struct mcp_channel *ch)
{
    ch->ud = p;
    ch->send = post_send;
    ch->release = post_release;
}

void mcp_http__post_discard(struct http_post *p)
{
    if (p->x)
        http_exchange_on_abort(p->x, NULL, NULL);
    p->x = NULL;
    p->released = 1;
    post_unlist(p);
    mcp_http__post_unref(p);
}

void mcp_http__post_end_listens(struct mcp_http *h)
{
    struct http_post *p = h->posts;
    while (p) {
        if (p->listen && !p->released) {
            mcp_server_cancel_channel(p->server, p); /* released: the stream ends */
            p = h->posts;                            /* the list changed */
        } else {
            p = p->next;
        }
    }
}

unsigned mcp_http__post_working(const struct mcp_http *h)
{
    unsigned n = 0;
    for (const struct http_post *p = h->posts; p; p = p->next)
        n += !p->listen;
    return n;
}
