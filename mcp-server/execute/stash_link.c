/* execute_code and the stash (see stash_link.h): the link blocks, the
 * content.stash host call, and the resources/read side. On PostgreSQL
 * (codemode.store) every entry is also written to the shared stash
 * (tools_state_service_stash_put, off the loop), and the execution's result
 * is sent once those writes are done, so that a link is readable through
 * any instance as soon as the client has it; a resources/read this
 * instance cannot answer from memory asks the shared stash. The request
 * holds what it waits for (r->stash_wait) and cancels it when it ends. */
#include "mcp-server/execute/stash_link.h"
#include "mcp-server/config/config.h"
#include "mcp-server/execute/content.h"
#include "mcp-server/execute/internal.h"
#include "mcp-server/stash.h"
#include "tools/result_map.h"
#include "tools/state/service.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"

#include <stdlib.h>
#include <string.h>

#define WHOLE_NAME "whole-result.json"
#define WHOLE_NOTE "the whole result of an execute_code run"

/* --- the shared stash ------------------------------------------------------------------- */

struct stash_op {
    struct mcp_stash_wait *w;
    struct tools_state_job *job;
    char *uri;                     /* a read's */
    mcp_stash_fetched_cb *fetched; /* a read's */
    struct stash_op *prev, *next;
};

struct mcp_stash_wait {
    struct mcp_request *r;
    struct stash_op *ops;
    cJSON *result; /* execute_code's, sent once the writes are done */
    char *warn;    /* why a write failed: told in the result */
    void (*prev_on_end)(struct mcp_request *r);
};

static struct tools_state_service *shared(const struct mcp_request *r)
{
    struct tools_state_service *st = r->server->cfg.state;
    return tools_state_service_shares_stash(st) ? st : NULL;
}

static void unlink_op(struct stash_op *op)
{
    struct mcp_stash_wait *w = op->w;
    if (op->prev)
        op->prev->next = op->next;
    else
        w->ops = op->next;
    if (op->next)
        op->next->prev = op->prev;
    free(op->uri);
    free(op);
}

/* The request ended (answered, dropped, cancelled): what it waited for is
 * not answered. */
static void wait_ended(struct mcp_request *r)
{
    struct mcp_stash_wait *w = r->stash_wait;
    while (w->ops) {
        tools_state_job_cancel(w->ops->job); /* a write in flight still completes */
        unlink_op(w->ops);
    }
    cJSON_Delete(w->result);
    free(w->warn);
    r->stash_wait = NULL;
    r->on_end = w->prev_on_end;
    free(w);
    if (r->on_end)
        r->on_end(r);
}

static struct stash_op *new_op(struct mcp_request *r)
{
    struct mcp_stash_wait *w = r->stash_wait;
    if (w == NULL) {
        w = xcalloc(1, sizeof *w);
        w->r = r;
        w->prev_on_end = r->on_end;
        r->on_end = wait_ended;
        r->stash_wait = w;
    }
    struct stash_op *op = xcalloc(1, sizeof *op);
    op->w = w;
    op->next = w->ops;
    if (w->ops)
        w->ops->prev = op;
    w->ops = op;
    return op;
}

/* The result says when a link in it cannot be read through the other
 * instances (a text block at the end of its content). */
static void tell_warning(const struct mcp_stash_wait *w, cJSON *result)
{
    cJSON *content = cJSON_GetObjectItemCaseSensitive(result, "content");
    if (w->warn == NULL || !cJSON_IsArray(content))
        return;
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b,
               "[warning: a stash link of this result can be read through this server instance "
               "only, for as long as it keeps it: the shared stash (codemode.store) did not take "
               "it: %s]",
               w->warn);
    cJSON *block = cJSON_CreateObject();
    cJSON_AddStringToObject(block, "type", "text");
    cJSON_AddStringToObject(block, "text", b.data);
    cJSON_AddItemToArray(content, block);
    buf_free(&b);
}

static void written(void *ud, int ok, const char *json, size_t len)
{
    struct stash_op *op = ud;
    struct mcp_stash_wait *w = op->w;
    if (!ok) {
        log_warn("stash", "a stashed value is readable through this instance only: %s", json);
        cJSON *e = json_parse(json, len);
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "message");
        if (w->warn == NULL)
            w->warn = xstrdup(cJSON_IsString(m) ? m->valuestring : "the write failed");
        cJSON_Delete(e);
    }
    unlink_op(op);
    if (w->ops == NULL && w->result) {
        cJSON *res = w->result;
        w->result = NULL;
        tell_warning(w, res);
        mcp_request_result(w->r, res); /* ends r: w is freed */
    }
}

/* Writes the entry just kept in this instance's memory to the shared stash. */
static void write_through(struct mcp_request *r, const char *uri)
{
    struct tools_state_service *st = shared(r);
    if (st == NULL)
        return;
    size_t len;
    const char *mime;
    int blob;
    const char *data = mcp_stash_get(r->server->cfg.stash, r->server->stash_owner, uri,
                                     uv_now(r->server->cfg.loop), &len, &mime, &blob);
    if (data == NULL)
        return;
    const struct config_limits *l = r->server->cfg.limits;
    struct tools_state_stash_entry e = {
        .uri = uri,
        .owner = mcp_state_principal(r->server),
        .mime = mime,
        .blob = blob,
        .data = data,
        .len = len,
        .ttl_ms = l->stash_ttl_ms,
        .max_entries = l->stash_max_entries,
        .max_bytes = l->stash_max_bytes,
    };
    struct stash_op *op = new_op(r);
    op->job = tools_state_service_stash_put(st, r->server->cfg.loop, &e, written, op);
}

void mcp_stash_link_finish(struct mcp_request *r, cJSON *result)
{
    if (r->stash_wait && r->stash_wait->ops) {
        r->stash_wait->result = result;
        return;
    }
    if (r->stash_wait)
        tell_warning(r->stash_wait, result);
    mcp_request_result(r, result);
}

static void fetched(void *ud, int ok, const char *json, size_t len)
{
    struct stash_op *op = ud;
    struct mcp_request *r = op->w->r;
    mcp_stash_fetched_cb *cb = op->fetched;
    char *uri = op->uri;
    op->uri = NULL;
    unlink_op(op);
    if (!ok) {
        cJSON *e = json_parse(json, len);
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "message");
        mcp_request_error(r, RPC_INTERNAL_ERROR,
                          cJSON_IsString(m) ? m->valuestring : "the shared stash cannot be read",
                          NULL);
        cJSON_Delete(e);
    } else
        cb(r, uri, strcmp(json, "null") == 0 ? NULL : cJSON_CreateRaw(json));
    free(uri);
}

int mcp_stash_link_fetch(struct mcp_request *r, const char *uri, mcp_stash_fetched_cb *cb)
{
    struct tools_state_service *st = shared(r);
    if (st == NULL)
        return 0;
    struct stash_op *op = new_op(r);
    op->uri = xstrdup(uri);
    op->fetched = cb;
    op->job = tools_state_service_stash_get(st, r->server->cfg.loop, uri,
                                            mcp_state_principal(r->server), fetched, op);
    return 1;
}

/* --- this instance's stash ------------------------------------------------------------------ */

static int put(struct mcp_request *r, const char *mime, int blob, const char *data, size_t len,
               char uri[MCP_STASH_URI_MAX])
{
    struct mcp_stash *s = r->server->cfg.stash;
    if (s == NULL)
        return -1;
    if (mcp_stash_put(s, r->server->stash_owner, mime, blob, data, len, uv_now(r->server->cfg.loop),
                      uri) != 0)
        return -1;
    write_through(r, uri);
    return 0;
}

cJSON *mcp_stash_link_adopt(struct mcp_request *r, char *text, size_t len, char *uri)
{
    struct mcp_stash *s = r->server->cfg.stash;
    if (s == NULL) {
        free(text);
        return NULL;
    }
    if (mcp_stash_adopt(s, r->server->stash_owner, "application/json", 0, text, len,
                        uv_now(r->server->cfg.loop), uri) != 0)
        return NULL;
    write_through(r, uri);
    return mcp_content_link(r->rev, uri, WHOLE_NAME, "application/json", (double) len, WHOLE_NOTE);
}

cJSON *mcp_stash_link_keep(struct mcp_request *r, const char *text, size_t len, char *uri)
{
    if (put(r, "application/json", 0, text, len, uri) != 0)
        return NULL;
    return mcp_content_link(r->rev, uri, WHOLE_NAME, "application/json", (double) len, WHOLE_NOTE);
}

int mcp_stash_link_call(struct mcp_request *r, const cJSON *value, struct buf *out)
{
    const char *mime;
    int blob;
    char *owned, uri[MCP_STASH_URI_MAX];
    const char *data = mcp_content_stash_form(value, &mime, &blob, &owned);
    size_t len = strlen(data);
    const struct config_limits *l = r->server->cfg.limits;
    int ok = put(r, mime, blob, data, len, uri) == 0;
    if (ok) {
        cJSON *link = mcp_content_link(MCP_LATEST, uri, "stashed value", mime,
                                       blob ? (double) (len / 4 * 3) : (double) len, NULL);
        char *text = json_print(link);
        buf_append_str(out, text);
        free(text);
        cJSON_Delete(link);
    } else {
        struct buf msg;
        buf_init(&msg, 0);
        if (r->server->cfg.stash == NULL || l->stash_max_entries == 0)
            buf_append_str(&msg,
                           "content.stash: the stash is off (codemode.stash.maxEntries is 0)");
        else
            buf_printf(&msg,
                       "content.stash: the value is %zu bytes, over the stash's limit of %llu "
                       "bytes (codemode.stash.maxBytes)",
                       len, (unsigned long long) l->stash_max_bytes);
        tools_result_error("Error", msg.data, NULL, out);
        buf_free(&msg);
    }
    free(owned);
    return ok;
}

cJSON *mcp_stash_link_contents(struct mcp_request *r, const char *uri)
{
    struct mcp_stash *s = r->server->cfg.stash;
    size_t len;
    const char *mime;
    int blob;
    const char *data = s ? mcp_stash_get(s, r->server->stash_owner, uri,
                                         uv_now(r->server->cfg.loop), &len, &mime, &blob)
                         : NULL;
    if (data == NULL)
        return NULL;
    struct tools_state_service *st = shared(r);
    if (st) /* the shared entry is used too: least recently used goes first */
        tools_state_service_stash_touch(st, r->server->cfg.loop, uri,
                                        mcp_state_principal(r->server));
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "uri", uri);
    cJSON_AddStringToObject(c, "mimeType", mime);
    cJSON_AddStringToObject(c, blob ? "blob" : "text", data);
    return c;
}
