/* JSON-RPC client over lines (see rpc_client.h). Pending requests sit on one
 * intrusive list, found by a linear scan (hundreds at most; parsing the line
 * costs more); one timer serves every deadline and re-arms to the nearest. */
#include "transport/rpc_client.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/log.h"
#include "common/json.h"
#include "common/json_lines.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct link {
    struct link *prev, *next;
};

struct rpc_client_request {
    struct link link; /* first member: a link is a request */
    struct rpc_client *rc;
    uint64_t id;
    char *method;
    uint64_t start, timeout, deadline; /* deadline 0: none */
    unsigned flags;
    rpc_client_reply_cb *cb;
    void *ud;
};

struct rpc_client {
    uv_loop_t *loop;
    char *name;
    const struct rpc_client_events *ev;
    const struct rpc_client_hooks *hooks;
    void *ud;
    struct link pending;
    size_t npending;
    uv_timer_t timer;
    uint64_t next_id, skipped;
    unsigned malformed_own, *malformed; /* unreadable lines seen (the owner's counter, or ours) */
    int closing;
    struct json_lines *lines; /* what came, in order; big lines parsed off the loop */
};

/* --- list ------------------------------------------------------------------------------------- */

static void list_init(struct link *l)
{
    l->prev = l->next = l;
}

static void list_push(struct link *head, struct link *l)
{
    l->prev = head->prev;
    l->next = head;
    head->prev->next = l;
    head->prev = l;
}

static void list_unlink(struct link *l)
{
    l->prev->next = l->next;
    l->next->prev = l->prev;
    list_init(l);
}

static void request_free(struct rpc_client_request *req)
{
    list_unlink(&req->link);
    free(req->method);
    free(req);
}

/* The request leaves the pending set (the owner hears of it unless the
 * client is being freed). */
static void request_done(struct rpc_client_request *req, int answered)
{
    struct rpc_client *rc = req->rc;
    uint64_t id = req->id;
    rc->npending--;
    request_free(req);
    if (!rc->closing && rc->hooks && rc->hooks->request_ended)
        rc->hooks->request_ended(rc->ud, id, answered);
}

/* --- timer ------------------------------------------------------------------------------------ */

static void timer_fired(uv_timer_t *t);

static void arm(struct rpc_client *rc)
{
    uint64_t min = 0;
    for (struct link *l = rc->pending.next; l != &rc->pending; l = l->next) {
        struct rpc_client_request *r = (struct rpc_client_request *) l;
        if (r->deadline && (min == 0 || r->deadline < min))
            min = r->deadline;
    }
    if (min == 0) {
        uv_timer_stop(&rc->timer);
        return;
    }
    uint64_t now = uv_now(rc->loop);
    uv_timer_start(&rc->timer, timer_fired, min > now ? min - now : 0, 0);
}

static struct rpc_client_request *first_expired(struct rpc_client *rc, uint64_t now)
{
    for (struct link *l = rc->pending.next; l != &rc->pending; l = l->next) {
        struct rpc_client_request *r = (struct rpc_client_request *) l;
        if (r->deadline && r->deadline <= now)
            return r;
    }
    return NULL;
}

static void send_cancel(struct rpc_client_request *req, const char *reason)
{
    if (req->flags & RPC_CLIENT_NO_CANCEL)
        return;
    cJSON *p = cJSON_CreateObject();
    cJSON_AddItemToObject(p, "requestId", cJSON_CreateNumber((double) req->id));
    if (reason)
        cJSON_AddStringToObject(p, "reason", reason);
    rpc_client_notify(req->rc, "notifications/cancelled", p);
}

static void expire(struct rpc_client_request *req, uint64_t now)
{
    char msg[256];
    uint64_t waited = now - req->start;
    snprintf(msg, sizeof msg, "no response to %s within %" PRIu64 " ms", req->method,
             req->timeout);
    send_cancel(req, msg);
    struct rpc_client_reply r = {
        .status = RPC_CLIENT_TIMEOUT, .message = msg, .elapsed_ms = waited};
    rpc_client_reply_cb *cb = req->cb;
    void *ud = req->ud;
    request_done(req, 0);
    cb(ud, &r);
}

static void timer_fired(uv_timer_t *t)
{
    struct rpc_client *rc = t->data;
    uint64_t now = uv_now(rc->loop);
    struct rpc_client_request *req;
    while (!rc->closing && (req = first_expired(rc, now)) != NULL)
        expire(req, now);
    if (!rc->closing)
        arm(rc);
}

/* --- life ------------------------------------------------------------------------------------- */

static void line_parsed(void *ud, char *line, size_t len, cJSON *tree, int tag);
static int fail_now(struct rpc_client *rc, uint64_t id, enum rpc_client_status status,
                    const char *why, size_t size);

/* A failure that waited behind lines still being read (its text:
 * "<id> <status> <size> <why>"). */
#define TAG_FAIL 1

struct rpc_client *rpc_client_new(uv_loop_t *loop, const char *name,
                                  const struct rpc_client_events *ev, void *ud)
{
    struct rpc_client *rc = xcalloc(1, sizeof *rc);
    rc->loop = loop;
    rc->name = xstrdup(name);
    rc->malformed = &rc->malformed_own;
    rc->ev = ev;
    rc->ud = ud;
    rc->next_id = 1;
    list_init(&rc->pending);
    rc->lines = json_lines_new(loop, 0, line_parsed, rc);
    uv_timer_init(loop, &rc->timer);
    rc->timer.data = rc;
    return rc;
}

void rpc_client_set_hooks(struct rpc_client *rc, const struct rpc_client_hooks *h)
{
    rc->hooks = h;
}

static void client_closed(uv_handle_t *h)
{
    struct rpc_client *rc = h->data;
    free(rc->name);
    free(rc);
}

void rpc_client_free(struct rpc_client *rc)
{
    rc->closing = 1;
    json_lines_free(rc->lines); /* a parse still running is dropped */
    rc->lines = NULL;
    while (rc->pending.next != &rc->pending)
        request_done((struct rpc_client_request *) rc->pending.next, 0);
    uv_close((uv_handle_t *) &rc->timer, client_closed);
}

/* --- sending ---------------------------------------------------------------------------------- */

static int write_buf(struct rpc_client *rc, struct buf *b, const struct rpc_client_msg *m)
{
    int rc_w = rc->hooks && rc->hooks->send ? rc->hooks->send(rc->ud, b->data, b->len, m)
                                            : rc->ev->write(rc->ud, b->data, b->len);
    buf_free(b);
    return rc_w;
}

int rpc_client_notify(struct rpc_client *rc, const char *method, cJSON *params)
{
    char *p = params ? json_print(params) : NULL;
    struct rpc_client_msg m = {RPC_NOTIFICATION, 0, method, params};
    struct buf b;
    buf_init(&b, 0);
    rpc_write_notification(&b, method, p);
    free(p);
    int rc_w = write_buf(rc, &b, &m);
    cJSON_Delete(params);
    return rc_w;
}

struct rpc_client_request *rpc_client_call(struct rpc_client *rc, const char *method, cJSON *params,
                                           uint64_t timeout_ms, unsigned flags,
                                           rpc_client_reply_cb *cb, void *ud)
{
    char id[24], *p = params ? json_print(params) : NULL;
    uint64_t n = rc->next_id++;
    struct rpc_client_msg m = {RPC_REQUEST, n, method, params};
    snprintf(id, sizeof id, "%" PRIu64, n);
    struct buf b;
    buf_init(&b, 0);
    rpc_write_request(&b, id, method, p);
    free(p);
    int failed = rc->closing || write_buf(rc, &b, &m) != 0;
    buf_free(&b);
    cJSON_Delete(params);
    if (failed)
        return NULL;
    struct rpc_client_request *req = xcalloc(1, sizeof *req);
    req->rc = rc;
    req->id = n;
    req->method = xstrdup(method);
    req->flags = flags;
    req->cb = cb;
    req->ud = ud;
    req->start = uv_now(rc->loop);
    req->timeout = timeout_ms;
    req->deadline = timeout_ms ? req->start + timeout_ms : 0;
    list_push(&rc->pending, &req->link);
    rc->npending++;
    if (req->deadline && (!uv_is_active((uv_handle_t *) &rc->timer) ||
                          req->deadline < req->start + uv_timer_get_due_in(&rc->timer)))
        arm(rc);
    return req;
}

void rpc_client_cancel(struct rpc_client_request *req, const char *reason)
{
    send_cancel(req, reason);
    request_done(req, 0);
}

void rpc_client_abandon(struct rpc_client_request *req)
{
    request_done(req, 0);
}

uint64_t rpc_client_request_id(const struct rpc_client_request *req)
{
    return req->id;
}

/* --- receiving -------------------------------------------------------------------------------- */

/* Our ids are decimal integers without sign, leading zeros or fraction. */
static int parse_id(const char *text, size_t len, uint64_t *out)
{
    if (len == 0 || len > 19 || (text[0] == '0' && len > 1))
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return -1;
        v = v * 10 + (uint64_t) (text[i] - '0');
    }
    *out = v;
    return 0;
}

static struct rpc_client_request *find(struct rpc_client *rc, uint64_t id)
{
    for (struct link *l = rc->pending.next; l != &rc->pending; l = l->next)
        if (((struct rpc_client_request *) l)->id == id)
            return (struct rpc_client_request *) l;
    return NULL;
}

/* An unreadable line: the first of a server (a start-up banner, usually) is a
 * warning, the others are logged at info level. */
static void skipped(struct rpc_client *rc, const char *why, const char *line, size_t len)
{
    rc->skipped++;
    int first = (*rc->malformed)++ == 0;
    log_msg(first ? LOG_WARNING : LOG_INFO, rc->name, "skipped a line from the server (%s): %.*s%s%s",
            why, (int) (len < 200 ? len : 200), line, len > 200 ? "..." : "",
            first ? " (later lines it cannot read are logged at level info)" : "");
}
static void fill_error(struct rpc_client_reply *r, const cJSON *err)
{
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(err, "message");
    r->status = RPC_CLIENT_ERROR;
    r->code = cJSON_IsNumber(code) ? code->valueint : RPC_INTERNAL_ERROR;
    r->message = cJSON_IsString(msg) ? msg->valuestring : "(no message)";
    r->data = cJSON_GetObjectItemCaseSensitive(err, "data");
}

static void on_response(struct rpc_client *rc, const struct rpc_message *m, const char *line,
                        size_t len)
{
    uint64_t id;
    struct rpc_client_request *req = NULL;
    if (parse_id(m->id, strlen(m->id), &id) == 0)
        req = find(rc, id);
    if (req == NULL) { /* late (after a timeout or cancel) or never ours */
        rc->skipped++;
        log_debug(rc->name, "response to unknown id %s ignored", m->id);
        return;
    }
    struct rpc_client_reply r = {.status = RPC_CLIENT_OK, .result = m->result};
    char msg[300];
    if (m->error && !cJSON_IsObject(m->error)) {
        skipped(rc, "error is not an object", line, len);
        snprintf(msg, sizeof msg, "its response to %s could not be read (error is not an object)",
                 req->method);
        r.status = RPC_CLIENT_MALFORMED;
        r.result = NULL;
        r.message = msg;
    } else if (m->error) {
        fill_error(&r, m->error);
    }
    r.elapsed_ms = uv_now(rc->loop) - req->start;
    rpc_client_reply_cb *cb = req->cb;
    void *ud = req->ud;
    request_done(req, 1);
    cb(ud, &r);
}

static void on_request(struct rpc_client *rc, const struct rpc_message *m)
{
    struct buf b;
    buf_init(&b, 0);
    if (strcmp(m->method, "ping") == 0) {
        rpc_write_result(&b, m->id, "{}");
    } else if (strcmp(m->method, "roots/list") == 0) {
        rpc_write_result(&b, m->id, "{\"roots\":[]}");
    } else {
        char msg[256];
        snprintf(msg, sizeof msg,
                 "Method not found: %.120s (mcp-codemode declares no client "
                 "capabilities)",
                 m->method);
        rpc_write_error(&b, m->id, 0, RPC_METHOD_NOT_FOUND, msg, NULL);
    }
    struct rpc_client_msg out = {RPC_RESPONSE, 0, NULL, NULL};
    write_buf(rc, &b, &out);
}

static int oversize_id(const char *head, size_t head_len, const char *tail, size_t tail_len,
                       uint64_t *id);

/* A line we cannot read (not JSON, or not JSON-RPC) that still names one of
 * our pending requests by its id (at its head, or `"id":N}` at its end):
 * that request fails now, rather than waiting for its timeout. Returns -1
 * when no pending request is named (the line is skipped). */
static int fail_unreadable(struct rpc_client *rc, const struct rpc_message *m, const char *line,
                           size_t len)
{
    uint64_t id;
    int found =
        m->id ? parse_id(m->id, strlen(m->id), &id) : oversize_id(line, len, line, len, &id);
    struct rpc_client_request *req = found == 0 ? find(rc, id) : NULL;
    if (req == NULL)
        return -1;
    skipped(rc, m->invalid_reason, line, len);
    char msg[300];
    snprintf(msg, sizeof msg, "its response to %s could not be read (%s)", req->method,
             m->invalid_reason);
    struct rpc_client_reply r = {.status = RPC_CLIENT_MALFORMED, .message = msg};
    r.elapsed_ms = uv_now(rc->loop) - req->start;
    rpc_client_reply_cb *cb = req->cb;
    void *ud = req->ud;
    request_done(req, 1);
    cb(ud, &r);
    return 0;
}

static void line_parsed(void *ud, char *line, size_t len, cJSON *tree, int tag)
{
    struct rpc_client *rc = ud;
    if (tag == TAG_FAIL) {
        char *end;
        uint64_t id = strtoull(line, &end, 10);
        int status = (int) strtol(end, &end, 10);
        size_t size = strtoull(end, &end, 10);
        fail_now(rc, id, (enum rpc_client_status) status, end + 1, size);
        return;
    }
    uv_loop_t *loop = rc->loop; /* rc may be freed by what the message causes */
    struct rpc_message m;
    rpc_parse_tree(line, len, tree, &m);
    switch (m.kind) {
    case RPC_RESPONSE:
        on_response(rc, &m, line, len);
        break;
    case RPC_REQUEST:
        on_request(rc, &m);
        break;
    case RPC_NOTIFICATION:
        if (rc->ev->notification)
            rc->ev->notification(rc->ud, m.method, m.params);
        break;
    case RPC_INVALID:
        if (fail_unreadable(rc, &m, line, len) != 0)
            skipped(rc, m.invalid_reason, line, len);
        break;
    }
    if (len >= JSON_LINES_OFF_LOOP_BYTES) { /* a big tree: freed off the loop */
        json_release_off_loop(loop, m.json);
        m.json = NULL;
    }
    rpc_message_free(&m);
}

void rpc_client_line(struct rpc_client *rc, const char *line, size_t len)
{
    if (!rc->closing)
        json_lines_push(rc->lines, line, len, 1, 0);
}

/* The id of a message whose text ends with `"id":<integer>}`: the last
 * member of the outermost object (the TS SDK writes the id after the
 * result, so the head of an oversized response does not hold it). */
static int tail_id(const char *t, size_t n, uint64_t *out)
{
    const char *p = t + n;
    while (p > t && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\r' || p[-1] == '\n'))
        p--;
    if (p == t || *--p != '}')
        return -1;
    while (p > t && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    const char *end = p;
    while (p > t && p[-1] >= '0' && p[-1] <= '9')
        p--;
    const char *start = p;
    while (p > t && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    if (start == end || p - t < 6 || memcmp(p - 5, "\"id\"", 4) != 0 || p[-1] != ':')
        return -1;
    return parse_id(start, (size_t) (end - start), out);
}

static int oversize_id(const char *head, size_t head_len, const char *tail, size_t tail_len,
                       uint64_t *id)
{
    char *text = rpc_recover_id(head, head_len);
    int rc = text ? parse_id(text, strlen(text), id) : -1;
    free(text);
    if (rc != 0)
        rc = tail_id(tail, tail_len, id);
    return rc;
}

void rpc_client_oversize(struct rpc_client *rc, const char *head, size_t head_len, const char *tail,
                         size_t tail_len, size_t total, size_t limit)
{
    uint64_t id;
    struct rpc_client_request *req = NULL;
    if (rc->closing)
        return;
    if (oversize_id(head, head_len, tail, tail_len, &id) == 0)
        req = find(rc, id);
    if (req == NULL) {
        rc->skipped++;
        log_warn(rc->name, "skipped a %zu-byte message from the server (the limit is %zu bytes)",
                 total, limit);
        return;
    }
    char msg[256];
    snprintf(msg, sizeof msg, "the response to %s is %zu bytes, over the limit of %zu bytes",
             req->method, total, limit);
    struct rpc_client_reply r = {.status = RPC_CLIENT_TOO_LARGE, .message = msg, .size = total};
    r.elapsed_ms = uv_now(rc->loop) - req->start;
    rpc_client_reply_cb *cb = req->cb;
    void *ud = req->ud;
    request_done(req, 0);
    cb(ud, &r);
}

static int fail_now(struct rpc_client *rc, uint64_t id, enum rpc_client_status status,
                    const char *why_in, size_t size)
{
    struct rpc_client_request *req = rc->closing ? NULL : find(rc, id);
    if (req == NULL)
        return -1;
    char *why = xstrdup(why_in);
    struct rpc_client_reply r = {.status = status, .message = why, .size = size};
    r.elapsed_ms = uv_now(rc->loop) - req->start;
    rpc_client_reply_cb *cb = req->cb;
    void *ud = req->ud;
    request_done(req, 0);
    cb(ud, &r);
    free(why);
    return 0;
}

int rpc_client_fail(struct rpc_client *rc, uint64_t id, enum rpc_client_status status,
                    const char *why, size_t size)
{
    if (rc->closing || find(rc, id) == NULL)
        return -1;
    if (json_lines_waiting(rc->lines) == 0)
        return fail_now(rc, id, status, why, size);
    /* the answer may be among the lines still being read: judged after them */
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "%" PRIu64 " %d %zu %s", id, (int) status, size, why);
    json_lines_push(rc->lines, b.data, b.len, 0, TAG_FAIL);
    buf_free(&b);
    return 0;
}

int rpc_client_is_pending(const struct rpc_client *rc, uint64_t id)
{
    return find((struct rpc_client *) rc, id) != NULL;
}

void rpc_client_fail_all(struct rpc_client *rc, const char *why_in)
{
    char *why = xstrdup(why_in); /* the callbacks may free the caller's text */
    struct link failing;
    list_init(&failing);
    while (rc->pending.next != &rc->pending) {
        struct link *l = rc->pending.next;
        list_unlink(l);
        list_push(&failing, l);
    }
    while (failing.next != &failing) {
        struct rpc_client_request *req = (struct rpc_client_request *) failing.next;
        if (rc->closing) { /* a callback freed the client: no more callbacks */
            request_done(req, 0);
            continue;
        }
        struct rpc_client_reply r = {.status = RPC_CLIENT_CLOSED, .message = why};
        r.elapsed_ms = uv_now(rc->loop) - req->start;
        rpc_client_reply_cb *cb = req->cb;
        void *ud = req->ud;
        request_done(req, 0);
        cb(ud, &r);
    }
    free(why);
}

size_t rpc_client_pending(const struct rpc_client *rc)
{
    return rc->npending;
}

void rpc_client_share_unreadable_count(struct rpc_client *rc, unsigned *count)
{
    rc->malformed = count ? count : &rc->malformed_own;
}

uint64_t rpc_client_skipped(const struct rpc_client *rc)
{
    return rc->skipped;
}
