/* Sessions of the MCP HTTP binding: a 2025 Streamable HTTP session (from
 * initialize to DELETE or expiry) or a legacy HTTP+SSE session (as long as
 * its event stream is open), each with its own MCP server and a random id;
 * and the SSE responses held open, which get keep-alive comments. */
#include "mcp-server/http/internal.h"
#include "transport/sse.h"
#include "common/alloc.h"
#include "common/log.h"
#include "common/random.h"
#include "common/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/* --- open SSE responses ------------------------------------------------------------------ */

void mcp_http__sse_begin(struct sse_out *so, struct mcp_http *h, struct http_exchange *x,
                         int status, const char *headers)
{
    struct buf b;
    buf_init(&b, 0);
    if (headers)
        buf_append_str(&b, headers);
    buf_append_str(&b, "Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\n");
    so->h = h;
    so->x = x;
    so->last_write = uv_now(h->cfg.server.loop);
    so->prev = NULL;
    so->next = h->streams;
    if (h->streams)
        h->streams->prev = so;
    h->streams = so;
    http_stream_begin(x, status, b.data, "text/event-stream");
    buf_free(&b);
}

static void sse_out_unlist(struct sse_out *so)
{
    if (so->prev)
        so->prev->next = so->next;
    else
        so->h->streams = so->next;
    if (so->next)
        so->next->prev = so->prev;
    so->prev = so->next = NULL;
    so->x = NULL;
}

void mcp_http__sse_lines(struct sse_out *so, const char *type, const char *data, size_t len)
{
    if (so->x == NULL)
        return;
    struct buf b;
    buf_init(&b, 0);
    if (sse_append_lines(&b, type ? type : "message", data, len) > 0)
        http_stream_write(so->x, b.data, b.len);
    buf_free(&b);
    so->last_write = uv_now(so->h->cfg.server.loop);
}

void mcp_http__sse_end(struct sse_out *so)
{
    if (so->x == NULL)
        return;
    struct http_exchange *x = so->x;
    sse_out_unlist(so);
    http_stream_end(x);
}

void mcp_http__sse_gone(struct sse_out *so)
{
    if (so->x)
        sse_out_unlist(so);
}

void mcp_http__sse_keepalive(struct mcp_http *h, uint64_t now)
{
    static const char comment[] = ":\n\n";
    for (struct sse_out *so = h->streams; so; so = so->next) {
        if (now - so->last_write < h->cfg.keepalive_ms)
            continue;
        http_stream_write(so->x, comment, sizeof comment - 1);
        so->last_write = now;
    }
}

/* --- ids ------------------------------------------------------------------------------------ */

/* The length of this instance's ids: "INSTANCE." (when configured) and the hex. */
static size_t id_len(const struct mcp_http *h)
{
    return (h->cfg.instance_id ? strlen(h->cfg.instance_id) + 1 : 0) + HTTP_SESSION_ID_LEN;
}

/* A new session id: the instance's prefix, so that a proxy in front of
 * several instances can route the session's requests back here, then 24
 * random bytes in hex. */
static void new_id(const struct mcp_http *h, char out[HTTP_SESSION_ID_MAX + 1])
{
    size_t at = 0;
    if (h->cfg.instance_id)
        at = (size_t) snprintf(out, HTTP_INSTANCE_ID_MAX + 2, "%s.", h->cfg.instance_id);
    random_hex(out + at, HTTP_SESSION_ID_LEN / 2);
}

/* Hashes the random part (the last 8 hex digits): the prefix is the same
 * for every session of this instance. id is at least HTTP_SESSION_ID_LEN long. */
static unsigned bucket_of(const char *id)
{
    const char *r = id + strlen(id) - 8;
    unsigned v = 0;
    for (int i = 0; i < 8; i++)
        v = v * 31 + (unsigned char) r[i];
    return v % HTTP_SESSION_BUCKETS;
}

/* --- sessions ---------------------------------------------------------------------------- */

/* The session's own messages (tools/list_changed; every message of a legacy
 * SSE session): on its event stream, or dropped when none is open. */
static void session_send(void *ud, const char *data, size_t len, int final)
{
    struct http_session *s = ud;
    mcp_http__sse_lines(&s->stream, "message", data, len);
    if (final && s->h->draining)
        mcp_http__check_drained(s->h);
}

struct http_session *mcp_http__session_new(struct mcp_http *h, enum session_kind kind,
                                           const struct mcp_http_identity *id)
{
    uint64_t now = uv_now(h->cfg.server.loop);
    if (h->nsessions >= h->cfg.max_sessions)
        mcp_http__session_expire(h, now);
    if (h->nsessions >= h->cfg.max_sessions)
        return NULL;
    struct http_session *s = xcalloc(1, sizeof *s);
    s->h = h;
    s->kind = kind;
    s->last_used = now;
    do
        new_id(h, s->id);
    while (mcp_http__session_find(h, s->id, SESSION_STREAMABLE) ||
           mcp_http__session_find(h, s->id, SESSION_SSE));
    struct mcp_channel ch = {s, session_send, NULL};
    s->server = mcp_server_new(&h->cfg.server, &ch);
    /* All of the id, digested: the principal is stored (state scope) and
     * logged (audit), and the id itself is the session's credential. */
    char principal[sizeof "http-session:" + 64], digest[65];
    sha256_hex(s->id, strlen(s->id), digest);
    snprintf(principal, sizeof principal, "http-session:%s", digest);
    mcp_server_set_principal(s->server, principal);
    if (h->cfg.auth_token) /* the token is who it is, across sessions and restarts */
        mcp_server_set_state_principal(s->server, "http-token");
    if (id) { /* the token's subject: its state, skills, audit name and rate limits */
        s->owner = id->principal;
        mcp_http__principal_ref(s->owner);
        mcp_server_set_principal(s->server, s->owner->name);
        mcp_server_set_admission_principal(s->server, s->owner->admission_id);
        mcp_server_set_scopes(s->server, id->scopes);
    }
    unsigned b = bucket_of(s->id);
    s->hnext = h->buckets[b];
    h->buckets[b] = s;
    s->next = h->sessions;
    if (h->sessions)
        h->sessions->prev = s;
    h->sessions = s;
    h->nsessions++;
    log_debug("http", "session %.8s... opened (%s)", s->id,
              kind == SESSION_SSE ? "SSE" : "Streamable HTTP");
    return s;
}

struct http_session *mcp_http__session_find(struct mcp_http *h, const char *id,
                                            enum session_kind kind)
{
    if (id == NULL || strlen(id) != id_len(h))
        return NULL;
    for (struct http_session *s = h->buckets[bucket_of(id)]; s; s = s->hnext)
        if (s->kind == kind && !s->closing && strcmp(s->id, id) == 0)
            return s;
    return NULL;
}

static void session_unlist(struct http_session *s)
{
    struct mcp_http *h = s->h;
    struct http_session **pp = &h->buckets[bucket_of(s->id)];
    while (*pp != s)
        pp = &(*pp)->hnext;
    *pp = s->hnext;
    if (s->prev)
        s->prev->next = s->next;
    else
        h->sessions = s->next;
    if (s->next)
        s->next->prev = s->prev;
    h->nsessions--;
}

void mcp_http__session_free(struct http_session *s)
{
    if (s->closing)
        return;
    s->closing = 1;
    session_unlist(s);
    mcp_http__sse_end(&s->stream);
    mcp_server_free(s->server); /* cancels its requests: their POSTs are answered */
    if (s->owner)
        mcp_http__principal_unref(s->h, s->owner);
    log_debug("http", "session %.8s... closed", s->id);
    free(s);
}

unsigned mcp_http__session_expire(struct mcp_http *h, uint64_t now)
{
    unsigned n = 0;
    struct http_session *s = h->sessions;
    while (s) {
        struct http_session *next = s->next;
        if (s->kind == SESSION_STREAMABLE && s->posts == 0 && s->stream.x == NULL &&
            now - s->last_used >= h->cfg.session_timeout_ms) {
            mcp_http__session_free(s);
            n++;
        }
        s = next;
    }
    return n;
}
