/* The Streamable HTTP transport of a downstream server: every JSON-RPC
 * message is its own POST; a request's answer comes back as a JSON body or
 * as an SSE stream (notifications first). Legacy era (2025-03-26 ..
 * 2025-11-25): the Mcp-Session-Id of the initialize answer goes on every
 * later request, MCP-Protocol-Version once negotiated, the standalone GET
 * stream carries server messages (reconnected with backoff), a POST stream
 * cut before its answer is resumed with GET + Last-Event-ID, and the session
 * is DELETEd at the end. 2026-07-28: no session, MCP-Protocol-Version,
 * Mcp-Method, Mcp-Name and Mcp-Param-* on every request, and closing the
 * stream is the cancellation. */
#include "tools/downstream/internal.h"
#include "transport/http_client.h"
#include "transport/jsonrpc.h"
#include "transport/sse_parse.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ERROR_BODY_MAX     65536 /* bytes of an error body kept for the message */
#define MAX_RESUMES        3     /* GET + Last-Event-ID attempts for one cut stream */
#define RESUME_DEFAULT_MS  1000  /* when the server sent no retry: */
#define GET_BACKOFF_MAX_MS 30000 /* the standalone stream's reconnect delay cap */
#define CONNECT_TIMEOUT_MS 10000

enum stream_kind { S_POST, S_GET };
enum body_kind { B_NONE, B_JSON, B_SSE, B_ERROR };

struct hconn;

/* One exchange that can carry messages back: a POST, or the GET stream. */
struct hstream {
    struct hstream *prev, *next;
    struct hconn *c;
    struct http_request *req;
    enum stream_kind kind;
    int is_request;      /* a POST of a request (its answer is expected here) */
    int is_notification; /* a POST of a notification (the handshake may wait for it) */
    int taken;           /* its taking was reported (tools__downstream_notified) */
    uint64_t id;         /* that request's id */
    char *method;        /* for messages */
    int status, session_sent;
    char ctype[64]; /* the response's Content-Type, for messages ("" when none) */
    enum body_kind body;
    struct buf text; /* a JSON body, or an error body */
    size_t text_total;
    struct sse_parser sse;
    int sse_on;
    char *last_id;    /* SSE: the last event id, for resuming */
    int64_t retry_ms; /* SSE: the server's retry, or -1 */
    unsigned resumes;
    uint64_t due; /* a resume (POST) or reconnect (GET) is due then; 0: none */
    int answered, busy, dead;
    /* OAuth: a request refused with 401 is sent again once, after a refresh */
    char *again_body; /* its body and headers, kept for that */
    size_t again_len;
    char **again_headers;
    int auth_retried; /* sent again already */
    int auth_wait;    /* waiting for the refresh */
};

struct hconn {
    struct tools_downstream *d; /* NULL once the attempt is over */
    uv_loop_t *loop;
    struct http_client *hc;
    char *url, *label, **headers, *session, *protocol;
    size_t max_message;
    struct hstream streams; /* list head */
    struct hstream *get;
    unsigned get_failures;
    uv_timer_t timer;
    int expired; /* the server said the session is gone */
};

static const struct http_request_events stream_events;
static void get_start(struct hstream *s);
static void resume_start(struct hstream *s);

/* --- streams: life ------------------------------------------------------------------------------
 */

static struct hstream *stream_new(struct hconn *c, enum stream_kind kind, const char *method)
{
    struct hstream *s = xcalloc(1, sizeof *s);
    s->c = c;
    s->kind = kind;
    s->method = xstrdup(method ? method : "message");
    s->retry_ms = -1;
    buf_init(&s->text, 0);
    s->next = &c->streams;
    s->prev = c->streams.prev;
    c->streams.prev->next = s;
    c->streams.prev = s;
    return s;
}

static void body_reset(struct hstream *s)
{
    if (s->sse_on) {
        const char *id = sse_parser_last_id(&s->sse);
        if (*id)
            tools__downstream_replace(&s->last_id, id);
        if (sse_parser_retry(&s->sse) >= 0)
            s->retry_ms = sse_parser_retry(&s->sse);
        sse_parser_free(&s->sse);
        s->sse_on = 0;
    }
    buf_free(&s->text);
    s->text_total = 0;
    s->body = B_NONE;
    s->status = 0;
}

static void stream_destroy(struct hstream *s)
{
    body_reset(s);
    s->prev->next = s->next;
    s->next->prev = s->prev;
    if (s->c->get == s)
        s->c->get = NULL;
    free(s->method);
    free(s->last_id);
    free(s->again_body);
    tools__downstream_free_vector(s->again_headers);
    free(s);
}

/* Stops the exchange and forgets the stream (later, if it is in a callback). */
static void stream_close(struct hstream *s)
{
    if (s->dead)
        return;
    s->dead = 1;
    s->due = 0;
    if (s->req)
        http_request_cancel(s->req);
    s->req = NULL;
    if (s->c->get == s)
        s->c->get = NULL;
    if (!s->busy)
        stream_destroy(s);
}

static struct hstream *find_request(struct hconn *c, uint64_t id)
{
    for (struct hstream *s = c->streams.next; s != &c->streams; s = s->next)
        if (s->is_request && s->id == id && !s->dead)
            return s;
    return NULL;
}

/* --- timers: resumes and reconnects ----------------------------------------------------------- */

static void timer_fired(uv_timer_t *t);

static void arm(struct hconn *c)
{
    uint64_t min = 0, now = uv_now(c->loop);
    for (struct hstream *s = c->streams.next; s != &c->streams; s = s->next)
        if (s->due && (min == 0 || s->due < min))
            min = s->due;
    if (min == 0)
        uv_timer_stop(&c->timer);
    else
        uv_timer_start(&c->timer, timer_fired, min > now ? min - now : 0, 0);
}

static void schedule(struct hstream *s, uint64_t delay)
{
    s->due = uv_now(s->c->loop) + (delay ? delay : 1);
    arm(s->c);
}

static void timer_fired(uv_timer_t *t)
{
    struct hconn *c = t->data;
    uint64_t now = uv_now(c->loop);
    struct hstream *next;
    for (struct hstream *s = c->streams.next; c->d && s != &c->streams; s = next) {
        if (s->due && s->due <= now) {
            s->due = 0;
            s->busy++;
            if (s->kind == S_GET)
                get_start(s);
            else
                resume_start(s);
            s->busy--;
        }
        next = s->next;
        if (s->dead && !s->busy)
            stream_destroy(s);
    }
    if (c->d)
        arm(c);
}

/* --- headers ---------------------------------------------------------------------------------- */

static const char *modern_version(const cJSON *params)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
    const cJSON *v =
        cJSON_GetObjectItemCaseSensitive(meta, "io.modelcontextprotocol/protocolVersion");
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The protocol version header of a legacy-era message (after initialize). */
static const char *legacy_version(const struct hconn *c)
{
    return c->d && c->d->era == DS_ERA_LEGACY ? c->d->protocol : NULL;
}

static void add_name(struct ds_headers *h, const struct rpc_client_msg *m)
{
    const char *key = strcmp(m->method, "resources/read") == 0 ? "uri" : "name";
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(m->params, key);
    if (!cJSON_IsString(v) || (strcmp(m->method, "tools/call") != 0 &&
                               strcmp(m->method, "prompts/get") != 0 && strcmp(key, "uri") != 0))
        return;
    char *enc = tools__downstream_header_value(v->valuestring, strlen(v->valuestring));
    tools__downstream_hdr_add(h, "Mcp-Name: %s", enc);
    free(enc);
}

/* The 2026-07-28 headers mirrored from a request's body. */
static void add_modern(struct hconn *c, struct ds_headers *h, const struct rpc_client_msg *m)
{
    tools__downstream_hdr_add(h, "Mcp-Method: %s", m->method);
    add_name(h, m);
    if (strcmp(m->method, "tools/call") != 0 || c->d == NULL)
        return;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(m->params, "name");
    const cJSON *tool =
        cJSON_IsString(name) ? tools__downstream_find_tool(c->d, name->valuestring) : NULL;
    if (tool)
        tools__downstream_param_headers(
            tool, cJSON_GetObjectItemCaseSensitive(m->params, "arguments"), &h->v, &h->n);
}

static void post_headers(struct hconn *c, struct ds_headers *h, const struct rpc_client_msg *m,
                         const char *modern)
{
    const char *version = modern ? modern : legacy_version(c);
    tools__downstream_hdr_add(h, "Content-Type: application/json");
    tools__downstream_hdr_add(h, "Accept: application/json, text/event-stream");
    if (c->session && !modern)
        tools__downstream_hdr_add(h, "Mcp-Session-Id: %s", c->session);
    if (version)
        tools__downstream_hdr_add(h, "MCP-Protocol-Version: %s", version);
    if (modern && m->kind == RPC_REQUEST && m->method)
        add_modern(c, h, m);
    tools__downstream_hdr_config(h, c->headers);
}

/* --- delivering messages ---------------------------------------------------------------------- */

static void deliver(struct hstream *s, const char *text, size_t len)
{
    if (!s->dead && s->c->d)
        tools__downstream_line(s->c->d, text, len);
}

static void on_sse_event(void *ud, const struct sse_event *e)
{
    struct hstream *s = ud;
    if (*e->id)
        tools__downstream_replace(&s->last_id, e->id);
    if (e->len > 0 && strcmp(e->type, "message") == 0)
        deliver(s, e->data, e->len);
}

static void on_sse_oversize(void *ud, const char *type, const char *head, size_t head_len,
                            const char *tail, size_t tail_len, size_t total)
{
    struct hstream *s = ud;
    struct hconn *c = s->c;
    char msg[256];
    if (s->dead || c->d == NULL || strcmp(type, "message") != 0)
        return;
    tools__downstream_oversize(c->d, head, head_len, tail, tail_len, total);
    snprintf(msg, sizeof msg, "the response to %s is %zu bytes, over the limit of %zu bytes",
             s->method, total, c->max_message);
    if (s->is_request && !s->dead && c->d)
        tools__downstream_fail_request(c->d, s->id, RPC_CLIENT_TOO_LARGE, msg, total);
}

static const struct sse_parse_events sse_events = {on_sse_event, on_sse_oversize};

static int is_event_stream(const char *ct)
{
    return ct && strncasecmp(ct, "text/event-stream", 17) == 0;
}

/* Session ids are visible ASCII (0x21-0x7E); anything else is not echoed back. */
static int session_ok(const char *sid)
{
    size_t n = 0;
    for (; sid[n]; n++)
        if ((unsigned char) sid[n] < 0x21 || (unsigned char) sid[n] > 0x7e)
            return 0;
    return n > 0 && n <= 1024;
}

/* A notification's POST got its answer: the server has it (2xx, reported
 * as soon as the status arrives: the body, if any, does not matter) or
 * refused it (reported once the refusal was dealt with). */
static void taken(struct hstream *s)
{
    if (s->is_notification && !s->taken && s->c->d && !s->dead) {
        s->taken = 1;
        tools__downstream_notified(s->c->d, s->method);
    }
}

static void on_response(void *ud, struct http_request *r, int status)
{
    struct hstream *s = ud;
    struct hconn *c = s->c;
    const char *sid = http_request_header(r, "mcp-session-id");
    const char *ct = http_request_header(r, "content-type");
    s->status = status;
    snprintf(s->ctype, sizeof s->ctype, "%s", ct ? ct : "");
    for (char *p = s->ctype; *p; p++) /* printable ASCII only: it goes into messages */
        if (*p < 0x20 || *p > 0x7e)
            *p = '?';
    if (sid && session_ok(sid) && c->session == NULL && c->d && c->d->era != DS_ERA_MODERN)
        c->session = xstrdup(sid);
    if (status < 200 || status >= 300) {
        s->body = B_ERROR;
    } else if (is_event_stream(http_request_header(r, "content-type"))) {
        s->body = B_SSE;
        sse_parser_init(&s->sse, c->max_message);
        s->sse_on = 1;
    } else {
        s->body = B_JSON;
    }
    if (status >= 200 && status < 300) {
        s->busy++;
        taken(s);
        s->busy--;
        if (s->dead && !s->busy)
            stream_destroy(s);
    }
}

/* A JSON body over the cap: the request fails now, the rest is not read. */
static void json_too_large(struct hstream *s, struct http_request *r)
{
    const char *cl = http_request_header(r, "content-length");
    size_t size = cl ? (size_t) strtoull(cl, NULL, 10) : s->text_total;
    char msg[256];
    snprintf(msg, sizeof msg, "the response to %s is %s%zu bytes, over the limit of %zu bytes",
             s->method, cl ? "" : "over ", size, s->c->max_message);
    if (s->is_request && s->c->d)
        tools__downstream_fail_request(s->c->d, s->id, RPC_CLIENT_TOO_LARGE, msg, size);
    stream_close(s);
}

static void on_data(void *ud, struct http_request *r, const char *data, size_t len)
{
    struct hstream *s = ud;
    s->busy++;
    s->text_total += len;
    if (s->body == B_SSE) {
        sse_parser_feed(&s->sse, data, len, &sse_events, s);
    } else if (s->body == B_JSON && s->text_total > s->c->max_message) {
        json_too_large(s, r);
    } else if (s->body == B_JSON || s->text.len < ERROR_BODY_MAX) {
        buf_append(&s->text, data, len);
    }
    s->busy--;
    if (s->dead && !s->busy)
        stream_destroy(s);
}

/* --- how an exchange ended -------------------------------------------------------------------- */

static int pending(struct hstream *s)
{
    struct tools_downstream *d = s->c->d;
    return d && d->rpc && s->is_request && !s->dead && rpc_client_is_pending(d->rpc, s->id);
}

static void fail_request(struct hstream *s, const char *why)
{
    if (s->c->d && s->is_request)
        tools__downstream_fail_request(s->c->d, s->id, RPC_CLIENT_CLOSED, why, 0);
}

static int can_resume(const struct hstream *s)
{
    const struct tools_downstream *d = s->c->d;
    return d && d->era != DS_ERA_MODERN && s->body == B_SSE && s->last_id &&
           s->resumes < MAX_RESUMES;
}

static void resume_later(struct hstream *s)
{
    s->resumes++;
    log_debug(s->c->label,
              "the event stream of %s ended before its answer; resuming after "
              "event %s",
              s->method, s->last_id);
    body_reset(s);
    schedule(s, s->retry_ms >= 0 ? (uint64_t) s->retry_ms : RESUME_DEFAULT_MS);
}

static void ended_ok(struct hstream *s)
{
    char msg[256];
    if (s->body == B_JSON && s->text.len)
        deliver(s, s->text.data, s->text.len);
    if (!pending(s))
        return;
    if (can_resume(s)) {
        resume_later(s);
        return;
    }
    if (s->status == 202)
        snprintf(msg, sizeof msg, "the server accepted %s (HTTP 202) without answering it",
                 s->method);
    else if (s->body == B_SSE)
        snprintf(msg, sizeof msg, "the server closed the event stream of %s without answering it",
                 s->method);
    else
        snprintf(msg, sizeof msg,
                 "the server answered %s with HTTP %d (Content-Type: %s) and no JSON-RPC response",
                 s->method, s->status, s->ctype[0] ? s->ctype : "none");
    fail_request(s, msg);
}

/* A JSON-RPC message in an error body: delivered when it answers our
 * request; otherwise its error message is returned (malloc'd) or NULL. */
static char *rpc_error_body(struct hstream *s)
{
    cJSON *j = s->text.len ? json_parse(s->text.data, s->text.len) : NULL;
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(err, "message");
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
    char *out = NULL;
    if (cJSON_IsNumber(id) && (uint64_t) id->valuedouble == s->id &&
        (err || cJSON_GetObjectItemCaseSensitive(j, "result"))) {
        deliver(s, s->text.data, s->text.len);
    } else if (cJSON_IsString(m)) {
        struct buf b;
        buf_init(&b, 0);
        tools__downstream_excerpt(&b, m->valuestring, strlen(m->valuestring), 300);
        if (cJSON_IsNumber(code))
            buf_printf(&b, " (JSON-RPC error %d)", code->valueint);
        out = buf_steal(&b);
    }
    cJSON_Delete(j);
    return out;
}

static void ended_error(struct hstream *s)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "HTTP %d %s", s->status, tools__downstream_http_reason(s->status));
    char *rpc = s->is_request ? rpc_error_body(s) : NULL;
    if (rpc)
        buf_printf(&b, ": %s", rpc);
    else if (s->text.len) {
        buf_append_str(&b, ": ");
        tools__downstream_excerpt(&b, s->text.data, s->text.len, 300);
    }
    /* A legacy server refusing the probe is expected: not worth a warning. */
    log_msg(strcmp(s->method, "server/discover") == 0 ? LOG_DEBUG : LOG_WARNING, s->c->label,
            "POST %s: %s", s->method, b.data);
    if (pending(s)) {
        struct buf why;
        buf_init(&why, 0);
        buf_printf(&why, "the server answered %s with %s", s->method, b.data);
        if (strcmp(s->method, "initialize") == 0 && (s->status == 404 || s->status == 405))
            buf_append_str(&why, " (if it is a legacy HTTP+SSE server, set \"type\": \"sse\" "
                                 "and the URL of its event stream)");
        fail_request(s, why.data);
        buf_free(&why);
    }
    free(rpc);
    buf_free(&b);
}

/* The bearer token a kept request carried (malloc'd), or NULL. */
static char *sent_token(const struct hstream *s)
{
    static const char prefix[] = "Authorization: Bearer ";
    for (size_t i = 0; s->again_headers && s->again_headers[i]; i++)
        if (strncasecmp(s->again_headers[i], prefix, sizeof prefix - 1) == 0)
            return xstrdup(s->again_headers[i] + sizeof prefix - 1);
    return NULL;
}

static void auth_failed(struct hstream *s, struct http_request *r)
{
    struct tools_downstream *d = s->c->d;
    struct buf b;
    buf_init(&b, 0);
    if (s->status == 403 && s->kind == S_POST &&
        tools__downstream_auth_forbidden(d, http_request_header(r, "www-authenticate"), &b)) {
        log_warn(s->c->label, "%s: %s", s->method, b.data); /* step-up: this call only */
        fail_request(s, b.data);
        buf_free(&b);
        return;
    }
    if (s->status == 401 && d->oauth && s->kind == S_POST && s->again_body && !s->auth_retried &&
        pending(s) && d->state == TOOLS_DOWNSTREAM_READY) {
        /* refused before it reached the tool: refreshed, then sent again once */
        buf_free(&b);
        s->auth_retried = 1;
        s->auth_wait = 1;
        body_reset(s);
        char *stale = sent_token(s);
        log_info(s->c->label, "%s: its access token was refused (HTTP 401); refreshing it",
                 s->method);
        tools__downstream_auth_retry(d, stale);
        free(stale);
        return;
    }
    tools__downstream_auth_failure(&b, s->c->url, s->status,
                                   http_request_header(r, "www-authenticate"));
    if (s->status == 401)
        tools__downstream_auth_rejected(d);
    if (d->oauth && s->status == 401) {
        tools__downstream_auth_refused(d, &b, s->c->url);
        /* reconnect: the next attempt refreshes the token (or says to log in) */
        if (s->kind == S_POST)
            fail_request(s, b.data);
        tools__downstream_lost(d, b.data, 0);
    } else if (d->state == TOOLS_DOWNSTREAM_CONNECTING) {
        tools__downstream_lost(d, b.data, 1);
    } else if (s->kind == S_GET) {
        log_warn(s->c->label, "its event stream: %s", b.data);
    } else {
        log_warn(s->c->label, "%s: %s", s->method, b.data);
        fail_request(s, b.data);
    }
    buf_free(&b);
}

static void session_expired(struct hstream *s)
{
    s->c->expired = 1;
    tools__downstream_lost(s->c->d, "its session expired (HTTP 404 Not Found); starting a new one",
                           0);
}

/* The GET stream is over: open it again after the server's retry time,
 * doubled per consecutive failure. */
static void get_retry(struct hstream *s)
{
    struct hconn *c = s->c;
    body_reset(s);
    uint64_t delay = s->retry_ms >= 0 ? (uint64_t) s->retry_ms : 1000;
    for (unsigned i = 0; i < c->get_failures && delay < GET_BACKOFF_MAX_MS; i++)
        delay *= 2;
    c->get_failures++;
    schedule(s, delay < GET_BACKOFF_MAX_MS ? delay : GET_BACKOFF_MAX_MS);
}

/* The GET stream ended with a complete response. */
static void get_ended(struct hstream *s)
{
    struct hconn *c = s->c;
    if (s->status == 405) {
        log_debug(c->label, "no standalone event stream (HTTP 405)");
        stream_close(s);
        return;
    }
    if (s->status >= 200 && s->status < 300)
        c->get_failures = 0;
    else
        log_warn(c->label, "its event stream: HTTP %d %s", s->status,
                 tools__downstream_http_reason(s->status));
    get_retry(s);
}

static void ended(struct hstream *s, struct http_request *r)
{
    if (s->status == 401 || s->status == 403)
        auth_failed(s, r);
    else if (s->status == 404 && s->session_sent)
        session_expired(s);
    else if (s->kind == S_GET)
        get_ended(s);
    else if (s->status >= 200 && s->status < 300)
        ended_ok(s);
    else
        ended_error(s);
}

/* The exchange failed below HTTP. */
static void failed(struct hstream *s, enum http_error err, const char *msg)
{
    struct hconn *c = s->c;
    struct buf b;
    buf_init(&b, 0);
    tools__downstream_http_failure(&b, c->url, err, msg);
    if (s->kind == S_GET && err != HTTP_ERR_CONNECT) {
        log_info(c->label, "its event stream: %s", b.data);
        get_retry(s);
    } else if (s->kind == S_POST && (s->answered || s->taken || (s->is_request && !pending(s)))) {
        log_debug(c->label, "%s after the answer to %s", b.data, s->method);
    } else if (err == HTTP_ERR_NO_FD && pending(s)) {
        fail_request(s, b.data); /* the server is fine: only this call failed */
    } else if (err != HTTP_ERR_CONNECT && can_resume(s) && pending(s)) {
        resume_later(s);
    } else {
        if (s->is_notification) /* no call names it */
            buf_printf(&b, " (sending %s)", s->method);
        tools__downstream_lost(c->d, b.data, 0);
    }
    buf_free(&b);
}

static void on_done(void *ud, struct http_request *r, enum http_error err, const char *msg)
{
    struct hstream *s = ud;
    s->req = NULL;
    s->busy++;
    if (s->c->d && !s->dead && err == HTTP_OK)
        ended(s, r);
    else if (s->c->d && !s->dead)
        failed(s, err, msg);
    taken(s); /* refused, when the attempt survived that */
    s->busy--;
    if (s->dead)
        stream_destroy(s);
    else if (s->due == 0 && !s->auth_wait)
        stream_close(s);
}

static const struct http_request_events stream_events = {on_response, on_data, on_done};

/* --- sending ---------------------------------------------------------------------------------- */

static int start(struct hstream *s, const char *method, struct ds_headers *h, const char *body,
                 size_t len, uint64_t timeout_ms)
{
    struct http_request_options o = {.method = method,
                                     .url = s->c->url,
                                     .headers = h->v,
                                     .body = body,
                                     .body_len = len,
                                     .connect_timeout_ms = CONNECT_TIMEOUT_MS,
                                     .timeout_ms = timeout_ms,
                                     .max_redirects = 3};
    s->session_sent = s->c->session != NULL && s->c->d && s->c->d->era != DS_ERA_MODERN;
    s->req = http_request_start(s->c->hc, &o, &stream_events, s);
    tools__downstream_hdr_free(h);
    return s->req ? 0 : UV_EINVAL;
}

static int http_send(struct tools_downstream *d, const char *data, size_t len,
                     const struct rpc_client_msg *m)
{
    struct hconn *c = d->tp;
    const char *modern = modern_version(m->params);
    if (m->kind == RPC_NOTIFICATION && d->era == DS_ERA_MODERN &&
        strcmp(m->method, "notifications/cancelled") == 0)
        return 0; /* 2026-07-28: closing the stream is the cancellation (request_ended) */
    struct hstream *s = stream_new(c, S_POST, m->method);
    s->is_request = m->kind == RPC_REQUEST;
    s->is_notification = m->kind == RPC_NOTIFICATION;
    s->id = m->id;
    struct ds_headers h = {0};
    post_headers(c, &h, m, modern);
    if (d->oauth && s->is_request) { /* sent again after a 401 */
        s->again_body = xmalloc(len + 1);
        memcpy(s->again_body, data, len);
        s->again_len = len;
        s->again_headers = tools__downstream_dup_vector(h.v);
    }
    /* the handshake waits for notifications/initialized: not for ever */
    int gate = s->is_notification && strcmp(m->method, "notifications/initialized") == 0;
    int rc = start(s, "POST", &h, data, len, gate ? d->opt.request_timeout_ms : 0);
    if (rc != 0)
        stream_close(s);
    return rc;
}

static void resume_start(struct hstream *s)
{
    struct hconn *c = s->c;
    struct ds_headers h = {0};
    tools__downstream_hdr_add(&h, "Accept: text/event-stream");
    if (c->session)
        tools__downstream_hdr_add(&h, "Mcp-Session-Id: %s", c->session);
    if (legacy_version(c))
        tools__downstream_hdr_add(&h, "MCP-Protocol-Version: %s", legacy_version(c));
    if (s->last_id)
        tools__downstream_hdr_add(&h, "Last-Event-ID: %s", s->last_id);
    tools__downstream_hdr_config(&h, c->headers);
    if (start(s, "GET", &h, NULL, 0, 0) != 0)
        fail_request(s, "could not resume its event stream");
}

static void get_start(struct hstream *s)
{
    resume_start(s); /* the same request: GET with the session and the last event id */
}

static void http_handshake_done(struct tools_downstream *d)
{
    struct hconn *c = d->tp;
    if (d->era != DS_ERA_LEGACY || c->get)
        return;
    c->get = stream_new(c, S_GET, "the event stream");
    get_start(c->get);
}

static void http_request_ended(struct tools_downstream *d, uint64_t id, int answered)
{
    struct hconn *c = d->tp;
    struct hstream *s = find_request(c, id);
    if (s == NULL)
        return;
    if (answered && s->req) {
        s->answered = 1; /* the server ends the stream */
        s->is_request = 0;
    } else {
        stream_close(s); /* 2026: this is the cancellation; before: stop reading */
    }
}

/* --- the attempt ------------------------------------------------------------------------------ */

static void conn_closed(uv_handle_t *h)
{
    struct hconn *c = h->data;
    free(c->url);
    free(c->label);
    tools__downstream_free_vector(c->headers);
    free(c->session);
    free(c->protocol);
    free(c);
}

static void conn_release(struct hconn *c)
{
    http_client_free(c->hc);
    uv_close((uv_handle_t *) &c->timer, conn_closed);
}

static void delete_done(void *ud, struct http_request *r, enum http_error err, const char *msg)
{
    struct hconn *c = ud;
    log_debug(c->label, "DELETE of its session: %s", err == HTTP_OK ? "done" : msg);
    (void) r;
    conn_release(c);
}

static const struct http_request_events delete_events = {NULL, NULL, delete_done};

/* Ends the session politely (2025: DELETE; a 405 answer is fine too). */
static int delete_session(struct hconn *c, uint64_t grace_ms)
{
    struct ds_headers h = {0};
    tools__downstream_hdr_add(&h, "Mcp-Session-Id: %s", c->session);
    if (c->protocol)
        tools__downstream_hdr_add(&h, "MCP-Protocol-Version: %s", c->protocol);
    tools__downstream_hdr_config(&h, c->headers);
    uint64_t t = grace_ms < 200 ? 200 : grace_ms > 2000 ? 2000 : grace_ms;
    struct http_request_options o = {.method = "DELETE",
                                     .url = c->url,
                                     .headers = h.v,
                                     .connect_timeout_ms = t,
                                     .timeout_ms = t};
    struct http_request *r = http_request_start(c->hc, &o, &delete_events, c);
    tools__downstream_hdr_free(&h);
    return r ? 0 : -1;
}

static void http_close(struct tools_downstream *d, uint64_t grace_ms)
{
    struct hconn *c = d->tp;
    d->tp = NULL;
    if (d->era == DS_ERA_LEGACY && d->protocol)
        c->protocol = xstrdup(d->protocol);
    c->d = NULL;
    while (c->streams.next != &c->streams) {
        struct hstream *s = c->streams.next;
        s->prev->next = s->next; /* off the list first: a busy one is freed later */
        s->next->prev = s->prev;
        s->next = s->prev = s;
        stream_close(s);
    }
    uv_timer_stop(&c->timer);
    if (c->session == NULL || c->expired || delete_session(c, grace_ms) != 0)
        conn_release(c);
}

static int http_open(struct tools_downstream *d, char *err, size_t errlen)
{
    char ua[96];
    snprintf(ua, sizeof ua, "mcp-codemode/%s", d->opt.client_version);
    struct http_client *hc = http_client_new(d->loop, ua, err, errlen);
    if (hc == NULL)
        return -1;
    struct hconn *c = xcalloc(1, sizeof *c);
    c->d = d;
    c->loop = d->loop;
    c->hc = hc;
    c->url = xstrdup(d->url);
    c->label = xstrdup(d->label);
    c->headers = tools__downstream_dup_vector(d->headers);
    c->max_message = d->opt.max_message_bytes;
    c->streams.next = c->streams.prev = &c->streams;
    uv_timer_init(d->loop, &c->timer);
    c->timer.data = c;
    d->tp = c;
    return 1;
}

static size_t http_backlog(const struct tools_downstream *d)
{
    (void) d;
    return 0;
}

static int http_pid(const struct tools_downstream *d)
{
    (void) d;
    return 0;
}

/* The requests refused with 401 go again with the refreshed token, or fail. */
static void http_auth_retried(struct tools_downstream *d, int ok)
{
    struct hconn *c = d->tp;
    struct buf why;
    buf_init(&why, 0);
    tools__downstream_auth_refused(d, &why, c->url);
    for (struct hstream *s = c->streams.next, *next; s != &c->streams; s = next) {
        if (!s->auth_wait || s->dead) {
            next = s->next;
            continue;
        }
        s->auth_wait = 0;
        s->busy++; /* failing a request may close its stream */
        if (ok && pending(s)) {
            struct ds_headers h = {0};
            for (size_t i = 0; s->again_headers[i]; i++)
                if (strncasecmp(s->again_headers[i], "Authorization:", 14) != 0)
                    tools__downstream_hdr_add(&h, "%s", s->again_headers[i]);
            for (size_t i = 0; c->headers && c->headers[i]; i++)
                if (strncasecmp(c->headers[i], "Authorization:", 14) == 0)
                    tools__downstream_hdr_add(&h, "%s", c->headers[i]);
            if (start(s, "POST", &h, s->again_body, s->again_len, 0) != 0)
                fail_request(s, "could not send it again after refreshing its access token");
        } else if (pending(s)) {
            fail_request(s, why.data);
        }
        s->busy--;
        next = s->next;
        if (s->dead)
            stream_destroy(s);
        else if (s->req == NULL)
            stream_close(s);
    }
    if (!ok)
        tools__downstream_lost(d, why.data, 0);
    buf_free(&why);
}

static void http_set_headers(struct tools_downstream *d)
{
    struct hconn *c = d->tp;
    tools__downstream_free_vector(c->headers);
    c->headers = tools__downstream_dup_vector(d->headers);
}

const struct ds_transport_ops tools__downstream_http = {
    .kind = "http",
    .restart = "reconnecting",
    .closed = "its connection is closed",
    .probe = 1,
    .reports_notified = 1,
    .open = http_open,
    .send = http_send,
    .request_ended = http_request_ended,
    .handshake_done = http_handshake_done,
    .close = http_close,
    .set_headers = http_set_headers,
    .auth_retried = http_auth_retried,
    .backlog = http_backlog,
    .pid = http_pid,
};
