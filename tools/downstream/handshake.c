/* The protocol handshake of one downstream connection attempt, whatever the
 * transport: probe with server/discover (2026-07-28) and fall back to
 * initialize (2024-11-05 .. 2025-11-25), what the server said about itself,
 * the 2026 subscriptions/listen stream, and the server's notifications. */
#include "tools/downstream/internal.h"
#include "transport/jsonrpc.h"
#include "transport/rpc_client.h"
#include "common/alloc.h"
#include "common/log.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const legacy_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                              "2024-11-05", NULL};

static const char *json_str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int in_list(const char *v, const char *const *list)
{
    for (size_t i = 0; v && list[i]; i++)
        if (strcmp(v, list[i]) == 0)
            return 1;
    return 0;
}

/* --- the JSON-RPC client's events ------------------------------------------------------------- */

static int rpc_write(void *ud, const char *data, size_t len)
{
    struct tools_downstream *d = ud; /* unused while the hooks are installed */
    struct rpc_client_msg m = {RPC_INVALID, 0, NULL, NULL};
    return d->tp ? d->ops->send(d, data, len, &m) : UV_EPIPE;
}

static int rpc_send(void *ud, const char *data, size_t len, const struct rpc_client_msg *m)
{
    struct tools_downstream *d = ud;
    return d->tp ? d->ops->send(d, data, len, m) : UV_EPIPE;
}

static void rpc_request_ended(void *ud, uint64_t id, int answered)
{
    struct tools_downstream *d = ud;
    if (d->tp && d->ops->request_ended)
        d->ops->request_ended(d, id, answered);
}

static void server_log(struct tools_downstream *d, const cJSON *params)
{
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(params, "data");
    const char *level = json_str(params, "level");
    enum log_level lv = LOG_INFO;
    if (level)
        log_level_parse(level, &lv);
    char *text = cJSON_IsString(data) ? NULL : json_print(data);
    log_msg(lv < LOG_INFO ? lv : LOG_INFO, d->label, "log: %.1000s",
            text ? text : (data ? data->valuestring : ""));
    free(text);
}

static void rpc_notification(void *ud, const char *method, const cJSON *params)
{
    struct tools_downstream *d = ud;
    if (strcmp(method, "notifications/tools/list_changed") == 0) {
        if (d->handshaken)
            tools__downstream_list(d);
    } else if (strcmp(method, "notifications/message") == 0) {
        server_log(d, params);
    } else {
        log_debug(d->label, "notification %s", method);
    }
}

const struct rpc_client_events tools__downstream_rpc_events = {rpc_write, rpc_notification};
const struct rpc_client_hooks tools__downstream_rpc_hooks = {rpc_send, rpc_request_ended};

/* --- what the server told us ------------------------------------------------------------------ */

static void take_server_info(struct tools_downstream *d, const cJSON *caps, const cJSON *info,
                             const char *instructions)
{
    cJSON_Delete(d->caps);
    d->caps = cJSON_IsObject(caps) ? cJSON_Duplicate(caps, 1) : NULL;
    tools__downstream_replace(&d->server_name, json_str(info, "name"));
    tools__downstream_replace(&d->server_version, json_str(info, "version"));
    tools__downstream_replace(&d->instructions, instructions);
    const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(d->caps, "tasks");
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(tasks, "requests");
    const cJSON *tools = cJSON_GetObjectItemCaseSensitive(req, "tools");
    d->tasks_call = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(tools, "call"));
    d->tasks_cancel = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(tasks, "cancel"));
}

void tools__downstream_handshake_reset(struct tools_downstream *d)
{
    d->era = DS_ERA_NONE;
    tools__downstream_replace(&d->protocol, NULL);
    d->tasks_call = d->tasks_cancel = 0;
}

static void open_listen(struct tools_downstream *d);

/* The listen stream ended (the server closed it, or a proxy did): open it
 * again and list once, in case a change was missed; unless it lasted less
 * than a second, which would make a loop. */
static void listen_reply(void *ud, const struct rpc_client_reply *r)
{
    struct tools_downstream *d = ud;
    uint64_t lasted = uv_now(d->loop) - d->listen_at;
    const char *why = r->message ? r->message : "completed";
    d->listen_req = NULL;
    if (d->closing || !d->handshaken || d->rpc == NULL)
        return;
    if (lasted < 1000) {
        log_warn(d->label,
                 "subscriptions/listen ended after %llu ms (%s); tool list changes will "
                 "not be seen until it reconnects",
                 (unsigned long long) lasted, why);
        return;
    }
    log_debug(d->label, "subscriptions/listen ended (%s); listening again", why);
    open_listen(d);
    tools__downstream_list(d);
}

static void open_listen(struct tools_downstream *d)
{
    d->listen_at = uv_now(d->loop);
    cJSON *p = cJSON_CreateObject();
    cJSON *n = cJSON_AddObjectToObject(p, "notifications");
    cJSON_AddTrueToObject(n, "toolsListChanged");
    d->listen_req = rpc_client_call(d->rpc, "subscriptions/listen", tools__downstream_params(d, p),
                                    0, 0, listen_reply, d);
}

static void handshake_done(struct tools_downstream *d)
{
    d->handshaken = 1;
    log_info(d->label, "speaks %s over %s (%s %s)", d->protocol, d->ops->kind,
             d->server_name ? d->server_name : "unnamed",
             d->server_version ? d->server_version : "");
    if (d->ops->handshake_done)
        d->ops->handshake_done(d);
    const cJSON *tools = cJSON_GetObjectItemCaseSensitive(d->caps, "tools");
    if (d->era == DS_ERA_MODERN &&
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tools, "listChanged")))
        open_listen(d);
    tools__downstream_list(d);
}

/* --- initialize (legacy) ---------------------------------------------------------------------- */

static void init_reply(void *ud, const struct rpc_client_reply *r)
{
    struct tools_downstream *d = ud;
    char msg[640];
    d->hs_req = NULL;
    if (r->status != RPC_CLIENT_OK) {
        if (r->status == RPC_CLIENT_ERROR)
            snprintf(msg, sizeof msg, "initialize failed: %.500s (JSON-RPC error %d)", r->message,
                     r->code);
        else
            snprintf(msg, sizeof msg, "initialize failed: %.500s", r->message);
        tools__downstream_lost(d, msg, 0);
        return;
    }
    const char *v = json_str(r->result, "protocolVersion");
    if (!in_list(v, legacy_versions)) {
        snprintf(msg, sizeof msg,
                 "answered initialize with protocol version \"%.40s\", which "
                 "mcp-codemode does not speak (it speaks 2024-11-05 to 2025-11-25, and 2026-07-28)",
                 v ? v : "(none)");
        tools__downstream_lost(d, msg, 1);
        return;
    }
    d->era = DS_ERA_LEGACY;
    tools__downstream_replace(&d->protocol, v);
    take_server_info(d, cJSON_GetObjectItemCaseSensitive(r->result, "capabilities"),
                     cJSON_GetObjectItemCaseSensitive(r->result, "serverInfo"),
                     json_str(r->result, "instructions"));
    /* Requests wait until the server has taken the notification: over HTTP
     * a later POST may otherwise overtake it, and servers that refuse
     * requests before initialization (the Python SDK's) would fail them. */
    d->await_initialized = d->ops->reports_notified;
    rpc_client_notify(d->rpc, "notifications/initialized", NULL);
    if (d->rpc && !d->await_initialized) /* the notification may have failed the connection */
        handshake_done(d);
}

void tools__downstream_notified(struct tools_downstream *d, const char *method)
{
    if (d->await_initialized && d->rpc && strcmp(method, "notifications/initialized") == 0) {
        d->await_initialized = 0;
        handshake_done(d);
    }
}

static void send_initialize(struct tools_downstream *d)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "protocolVersion", TOOLS_DOWNSTREAM_LEGACY_VERSION);
    cJSON_AddObjectToObject(p, "capabilities");
    cJSON *info = cJSON_AddObjectToObject(p, "clientInfo");
    cJSON_AddStringToObject(info, "name", "mcp-codemode");
    cJSON_AddStringToObject(info, "version", d->opt.client_version);
    d->hs_req = rpc_client_call(d->rpc, "initialize", p, d->opt.request_timeout_ms,
                                RPC_CLIENT_NO_CANCEL, init_reply, d);
    if (d->hs_req == NULL)
        tools__downstream_lost(d, d->ops->closed, 0);
}

/* --- server/discover (2026-07-28) ------------------------------------------------------------- */

static int has_version(const cJSON *arr, const char *v)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        if (cJSON_IsString(it) &&
            (v ? strcmp(it->valuestring, v) == 0 : in_list(it->valuestring, legacy_versions)))
            return 1;
    }
    return 0;
}

/* A DiscoverResult offering our modern revision: the server is modern. */
static int discovered(struct tools_downstream *d, const cJSON *res)
{
    const cJSON *versions = cJSON_GetObjectItemCaseSensitive(res, "supportedVersions");
    if (!has_version(versions, TOOLS_DOWNSTREAM_MODERN_VERSION))
        return 0;
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(res, "_meta");
    d->era = DS_ERA_MODERN;
    tools__downstream_replace(&d->protocol, TOOLS_DOWNSTREAM_MODERN_VERSION);
    take_server_info(d, cJSON_GetObjectItemCaseSensitive(res, "capabilities"),
                     cJSON_GetObjectItemCaseSensitive(meta, "io.modelcontextprotocol/serverInfo"),
                     json_str(res, "instructions"));
    return 1;
}

static void probe_reply(void *ud, const struct rpc_client_reply *r)
{
    struct tools_downstream *d = ud;
    d->hs_req = NULL;
    if (r->status == RPC_CLIENT_OK && discovered(d, r->result)) {
        handshake_done(d);
        return;
    }
    const cJSON *supported = cJSON_GetObjectItemCaseSensitive(r->data, "supported");
    if (r->status == RPC_CLIENT_ERROR && r->code == -32022 && cJSON_IsArray(supported) &&
        !has_version(supported, NULL)) {
        char *list = json_print(supported), msg[512];
        snprintf(msg, sizeof msg,
                 "speaks only protocol versions %.300s, none of which "
                 "mcp-codemode speaks",
                 list);
        free(list);
        tools__downstream_lost(d, msg, 1);
        return;
    }
    log_debug(d->label, "server/discover: %s; falling back to initialize",
              r->status == RPC_CLIENT_OK ? "no common modern version" : r->message);
    send_initialize(d);
}

static void send_probe(struct tools_downstream *d)
{
    d->era = DS_ERA_MODERN; /* for the _meta of the probe */
    cJSON *p = tools__downstream_params(d, cJSON_CreateObject());
    d->era = DS_ERA_NONE;
    d->hs_req = rpc_client_call(d->rpc, "server/discover", p, d->opt.probe_timeout_ms,
                                RPC_CLIENT_NO_CANCEL, probe_reply, d);
    if (d->hs_req == NULL)
        tools__downstream_lost(d, d->ops->closed, 0);
}

void tools__downstream_handshake(struct tools_downstream *d)
{
    d->probed = d->ops->probe && !d->skip_probe;
    if (d->probed)
        send_probe(d);
    else
        send_initialize(d);
}
