/* The tool list of one downstream server: tools/list page by page (an
 * opaque cursor until none comes back), re-listed on list_changed (one
 * listing at a time, a change during it triggers one more), filtered
 * (unnamed and duplicate tools, task-only tools the server cannot run as
 * tasks), and compared so tools_changed fires only on a real change. */
#include "tools/downstream/internal.h"
#include "transport/rpc_client.h"
#include "common/alloc.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAGES 1000
#define MAX_TOOLS 100000

static void request_page(struct tools_downstream *d);

void tools__downstream_list_reset(struct tools_downstream *d)
{
    d->list_req = NULL; /* its rpc client is gone or going */
    cJSON_Delete(d->list_acc);
    d->list_acc = NULL;
    free(d->list_cursor);
    d->list_cursor = NULL;
    d->list_pages = 0;
    d->list_dirty = 0;
}

static const cJSON *find_named(const cJSON *arr, const char *name)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(it, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return it;
    }
    return NULL;
}

const cJSON *tools__downstream_find_tool(const struct tools_downstream *d, const char *name)
{
    return find_named(d->tools, name);
}

const char *tools__downstream_excluded_reason(const struct tools_downstream *d, const char *name)
{
    const cJSON *e = find_named(d->excluded, name);
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(e, "reason");
    return cJSON_IsString(r) ? r->valuestring : NULL;
}

static int task_only(const cJSON *tool)
{
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(tool, "execution");
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(ex, "taskSupport");
    return cJSON_IsString(ts) && strcmp(ts->valuestring, "required") == 0;
}

static const char *task_why = "it runs only as a task (execution.taskSupport \"required\") and "
                              "the server does not offer task-augmented tools/call";

static void exclude(struct tools_downstream *d, cJSON *excluded, const char *name, const char *why)
{
    if (find_named(d->excluded, name) == NULL)
        log_warn(d->label, "tool '%s' left out: %s", name, why);
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "reason", why);
    cJSON_AddItemToArray(excluded, e);
}

/* Moves the usable tools of `all` (consumed) into a new array. */
static cJSON *filter(struct tools_downstream *d, cJSON *all, cJSON *excluded)
{
    cJSON *visible = cJSON_CreateArray();
    cJSON *t;
    char why[256];
    int http = d->ops == &tools__downstream_http;
    while ((t = cJSON_DetachItemFromArray(all, 0)) != NULL) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(t, "name");
        if (!cJSON_IsObject(t) || !cJSON_IsString(n) || n->valuestring[0] == '\0') {
            log_warn(d->label, "skipped a tool without a name in tools/list");
            cJSON_Delete(t);
        } else if (find_named(visible, n->valuestring) || find_named(excluded, n->valuestring)) {
            log_warn(d->label, "skipped a second tool named '%s'", n->valuestring);
            cJSON_Delete(t);
        } else if (task_only(t) && !d->tasks_call) {
            exclude(d, excluded, n->valuestring, task_why);
            cJSON_Delete(t);
        } else if (http && tools__downstream_header_problem(t, why, sizeof why)) {
            exclude(d, excluded, n->valuestring, why); /* 2026-07-28: the client MUST */
            cJSON_Delete(t);
        } else {
            cJSON_AddItemToArray(visible, t);
        }
    }
    cJSON_Delete(all);
    return visible;
}

static void became_ready(struct tools_downstream *d)
{
    uint64_t now = uv_now(d->loop);
    d->ready_at = now;
    d->connect_ms = now - d->started_at;
    log_info(d->label, "ready: %s, %d tools, connected in %llu ms", d->protocol,
             cJSON_GetArraySize(d->tools), (unsigned long long) d->connect_ms);
    tools__downstream_set_state(d, TOOLS_DOWNSTREAM_READY);
    if (!d->closing)
        tools__downstream_calls_flush(d);
}

/* Installs a complete list (consumed) and tells the owner. */
static void install(struct tools_downstream *d, cJSON *all)
{
    cJSON *excluded = cJSON_CreateArray();
    cJSON *visible = filter(d, all, excluded);
    int changed = !cJSON_Compare(visible, d->tools, 1);
    cJSON_Delete(d->excluded);
    d->excluded = excluded;
    if (changed) {
        cJSON_Delete(d->tools);
        d->tools = visible;
    } else {
        cJSON_Delete(visible);
    }
    if (changed)
        tools__downstream_auth_keep_tools(d);
    if (changed && d->ev && d->ev->tools_changed)
        d->ev->tools_changed(d->ud, d);
    if (!d->closing && d->state == TOOLS_DOWNSTREAM_CONNECTING && d->handshaken)
        became_ready(d);
    if (!d->closing && d->handshaken && d->list_dirty) {
        d->list_dirty = 0;
        tools__downstream_list(d);
    }
}

static void list_failed(struct tools_downstream *d, const struct rpc_client_reply *r)
{
    char msg[512];
    snprintf(msg, sizeof msg, "tools/list failed: %s", r->message);
    cJSON_Delete(d->list_acc);
    d->list_acc = NULL;
    if (d->state == TOOLS_DOWNSTREAM_CONNECTING && r->status == RPC_CLIENT_TIMEOUT) {
        tools__downstream_lost(d, msg, 0);
        return;
    }
    if (d->state == TOOLS_DOWNSTREAM_CONNECTING) {
        log_warn(d->label, "%s; it has no tools", msg);
        install(d, cJSON_CreateArray());
        return;
    }
    log_warn(d->label, "%s; keeping the previous list", msg);
    if (d->list_dirty) {
        d->list_dirty = 0;
        tools__downstream_list(d);
    }
}

/* Appends one page; returns 1 when another page must be fetched. */
static int take_page(struct tools_downstream *d, const cJSON *res, const char **problem)
{
    const cJSON *tools = cJSON_GetObjectItemCaseSensitive(res, "tools");
    const cJSON *next = cJSON_GetObjectItemCaseSensitive(res, "nextCursor");
    const cJSON *t;
    if (!cJSON_IsArray(tools)) {
        *problem = "the result has no \"tools\" array";
        return -1;
    }
    cJSON_ArrayForEach(t, tools)
    {
        cJSON_AddItemToArray(d->list_acc, cJSON_Duplicate(t, 1));
    }
    if (!cJSON_IsString(next))
        return 0;
    if (++d->list_pages >= MAX_PAGES || cJSON_GetArraySize(d->list_acc) > MAX_TOOLS) {
        *problem = "more than 1000 pages or 100000 tools";
        return -1;
    }
    if (d->list_cursor && strcmp(d->list_cursor, next->valuestring) == 0) {
        *problem = "the server returned the same cursor twice";
        return -1;
    }
    free(d->list_cursor);
    d->list_cursor = xstrdup(next->valuestring);
    return 1;
}

static void page_reply(void *ud, const struct rpc_client_reply *r)
{
    struct tools_downstream *d = ud;
    d->list_req = NULL;
    if (r->status != RPC_CLIENT_OK) {
        list_failed(d, r);
        return;
    }
    const char *problem = NULL;
    int more = take_page(d, r->result, &problem);
    if (more < 0) {
        struct rpc_client_reply bad = {.status = RPC_CLIENT_ERROR, .message = problem};
        list_failed(d, &bad);
    } else if (more) {
        request_page(d);
    } else {
        cJSON *all = d->list_acc;
        d->list_acc = NULL;
        install(d, all);
    }
}

static void request_page(struct tools_downstream *d)
{
    cJSON *p = cJSON_CreateObject();
    if (d->list_cursor)
        cJSON_AddStringToObject(p, "cursor", d->list_cursor);
    d->list_req = rpc_client_call(d->rpc, "tools/list", tools__downstream_params(d, p),
                                  d->opt.request_timeout_ms, 0, page_reply, d);
    if (d->list_req == NULL)
        tools__downstream_lost(d, d->ops->closed, 0);
}

void tools__downstream_list(struct tools_downstream *d)
{
    if (d->list_req || d->list_acc) {
        d->list_dirty = 1; /* list again once this one is done */
        return;
    }
    d->list_acc = cJSON_CreateArray();
    free(d->list_cursor);
    d->list_cursor = NULL;
    d->list_pages = 0;
    request_page(d);
}
