/* Requests and where their replies go: a request's life (made, detached,
 * ended once, freed), its reply and notifications (progress, console lines
 * as log messages) in the envelope of its revision, on its channel or in its
 * batch; channels repair invalid UTF-8 before anything is written. */
#include "mcp-server/server_internal.h"
#include "mcp-server/version.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"
#include "common/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mcp_batch {
    struct mcp_server *server;
    struct mcp_channel ch;
    struct buf out;  /* responses so far, comma-separated */
    int responses;   /* responses written into out */
    int pending;     /* requests not answered yet, +1 while the batch is being read */
};

/* Sends lines on a channel, repairing invalid UTF-8 (strings from the JS
 * engine or a downstream server may carry it) so no client parser rejects them. */
void mcp_channel_send(const struct mcp_channel *ch, const char *data, size_t len, int final)
{
    if (utf8_is_valid(data, len)) {
        ch->send(ch->ud, data, len, final);
        return;
    }
    struct buf b;
    buf_init(&b, 0);
    utf8_append_repaired(&b, data, len);
    ch->send(ch->ud, b.data, b.len, final);
    buf_free(&b);
}

void mcp_channel_release(const struct mcp_channel *ch)
{
    if (ch->release)
        ch->release(ch->ud);
}

static void batch_add(struct mcp_batch *b, const char *line, size_t len)
{
    if (len && line[len - 1] == '\n')
        len--;
    if (b->responses++)
        buf_append_char(&b->out, ',');
    buf_append(&b->out, line, len);
}

void mcp_batch_release(struct mcp_batch *b)
{
    if (--b->pending > 0)
        return;
    if (b->responses) {
        struct buf line;
        buf_init(&line, 0);
        buf_append_char(&line, '[');
        buf_append(&line, b->out.data, b->out.len);
        buf_append_str(&line, "]\n");
        mcp_channel_send(&b->ch, line.data, line.len, 1);
        buf_free(&line);
    }
    mcp_channel_release(&b->ch);
    buf_free(&b->out);
    free(b);
}

/* Sends a reply: into its batch, or as the final message on its channel. */
void mcp_reply_emit(struct mcp_batch *batch, const struct mcp_channel *ch, struct buf *line)
{
    if (batch)
        batch_add(batch, line->data, line->len);
    else
        mcp_channel_send(ch, line->data, line->len, 1);
}

/* Where a request's notifications go (its batch's channel when batched). */
const struct mcp_channel *mcp_request_channel(const struct mcp_request *r)
{
    return r->batch ? &r->batch->ch : &r->ch;
}

struct mcp_batch *mcp_batch_new(struct mcp_server *s, const struct mcp_channel *ch)
{
    struct mcp_batch *b = xcalloc(1, sizeof *b);
    b->server = s;
    b->ch = *ch;
    buf_init(&b->out, 0);
    b->pending = 1;
    return b;
}

void mcp_batch_discard(struct mcp_batch *b)
{
    buf_free(&b->out);
    free(b);
}

/* Puts r in s's in-flight list (where cancellation finds it). */
static struct mcp_request *track(struct mcp_server *s, struct mcp_request *r)
{
    r->next = s->inflight;
    if (s->inflight)
        s->inflight->prev = r;
    s->inflight = r;
    s->ninflight++;
    return r;
}

struct mcp_request *mcp_request_new(struct mcp_server *s, const struct rpc_message *m,
                                       struct mcp_batch *batch, const struct mcp_channel *ch)
{
    struct mcp_request *r = xcalloc(1, sizeof *r);
    r->server = s;
    r->id = xstrdup(m->id);
    r->key = rpc_id_key_of(cJSON_GetObjectItemCaseSensitive(m->json, "id"));
    r->method = xstrdup(m->method);
    r->log_level = -1;
    r->batch = batch;
    if (batch)
        batch->pending++;
    else
        r->ch = *ch;
    return track(s, r);
}

struct mcp_request *mcp_request_phantom(struct mcp_server *s, enum mcp_revision rev,
                                        const struct mcp_channel *ch)
{
    struct mcp_request *r = xcalloc(1, sizeof *r);
    r->server = s;
    r->id = xstrdup("\"parked\"");
    r->method = xstrdup("tools/call");
    r->rev = rev;
    r->log_level = -1;
    r->ch = *ch;
    return track(s, r);
}

/* Takes the request out of the in-flight list, so nothing (a cancellation
 * triggered while its reply is being written) can end it twice. */
static void request_detach(struct mcp_request *r)
{
    struct mcp_server *s = r->server;
    if (r->prev)
        r->prev->next = r->next;
    else
        s->inflight = r->next;
    if (r->next)
        r->next->prev = r->prev;
    r->prev = r->next = NULL;
    s->ninflight--;
}

static void request_free(struct mcp_request *r)
{
    if (r->on_end)
        r->on_end(r);
    if (r->batch)
        mcp_batch_release(r->batch);
    else
        mcp_channel_release(&r->ch);
    free(r->id);
    free(r->key);
    free(r->method);
    free(r->progress_token);
    free(r);
}

/* Ends a request with an optional reply line. */
static void request_end(struct mcp_request *r, struct buf *reply)
{
    request_detach(r);
    if (reply)
        mcp_reply_emit(r->batch, &r->ch, reply);
    request_free(r);
}

static void add_server_info(cJSON *meta)
{
    cJSON *info = cJSON_AddObjectToObject(meta, MCP_META_SERVER_INFO);
    cJSON_AddStringToObject(info, "name", MCP_CODEMODE_NAME);
    cJSON_AddStringToObject(info, "version", MCP_CODEMODE_VERSION);
}

void mcp_request_result(struct mcp_request *r, cJSON *result)
{
    if (mcp_is_modern(r->rev)) {
        if (!cJSON_HasObjectItem(result, "resultType"))
            cJSON_AddStringToObject(result, "resultType", "complete");
        cJSON *meta = cJSON_GetObjectItemCaseSensitive(result, "_meta");
        if (meta == NULL)
            meta = cJSON_AddObjectToObject(result, "_meta");
        if (!cJSON_HasObjectItem(meta, MCP_META_SERVER_INFO))
            add_server_info(meta);
    }
    char *text = json_print(result);
    cJSON_Delete(result);
    struct buf b;
    buf_init(&b, 0);
    rpc_write_result(&b, r->id, text);
    free(text);
    request_end(r, &b);
    buf_free(&b);
}

void mcp_request_error(struct mcp_request *r, int code, const char *message, const cJSON *data)
{
    struct buf b;
    buf_init(&b, 0);
    rpc_write_error(&b, r->id, 0, code, message, data);
    request_end(r, &b);
    buf_free(&b);
}

void mcp_request_drop(struct mcp_request *r)
{
    request_end(r, NULL);
}

void mcp_request_send(struct mcp_request *r, const char *data, size_t len)
{
    mcp_channel_send(mcp_request_channel(r), data, len, 0);
}

void mcp_request_notify(struct mcp_request *r, const char *method, cJSON *params)
{
    char *text = json_print(params);
    cJSON_Delete(params);
    struct buf b;
    buf_init(&b, 0);
    rpc_write_notification(&b, method, text);
    free(text);
    mcp_channel_send(mcp_request_channel(r), b.data, b.len, 0);
    buf_free(&b);
}

void mcp_request_progress(struct mcp_request *r, const char *message)
{
    if (r->progress_token == NULL)
        return;
    r->progress += 1;
    cJSON *p = cJSON_CreateObject();
    cJSON_AddItemToObject(p, "progressToken", cJSON_Parse(r->progress_token));
    cJSON_AddNumberToObject(p, "progress", r->progress);
    if (message && mcp_has_progress_message(r->rev)) {
        size_t n = strlen(message);
        char *m = xstrndup(message, n > 1000 ? 1000 : n);
        cJSON_AddStringToObject(p, "message", m);
        free(m);
    }
    mcp_request_notify(r, "notifications/progress", p);
}

static int console_to_log_level(const char *level)
{
    if (strcmp(level, "error") == 0)
        return LOG_ERROR;
    if (strcmp(level, "warn") == 0)
        return LOG_WARNING;
    if (strcmp(level, "debug") == 0)
        return LOG_DEBUG;
    return LOG_INFO;
}

void mcp_request_log(struct mcp_request *r, const char *console_level, const char *text)
{
    int threshold = mcp_is_modern(r->rev) ? r->log_level : r->server->log_level;
    int level = console_to_log_level(console_level);
    if (threshold < 0 || level < threshold)
        return;
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "level", log_level_name((enum log_level) level));
    cJSON_AddStringToObject(p, "logger", "execute_code");
    cJSON_AddStringToObject(p, "data", text);
    mcp_request_notify(r, "notifications/message", p);
}

