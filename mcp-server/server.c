/* MCP connection: message validation, era selection (legacy session or
 * 2026-07-28 stateless request), the method table, batches and
 * cancellation. Requests and their replies are request.c's. */
#include "mcp-server/server_internal.h"
#include "mcp-server/stash.h"
#include "mcp-server/version.h"
#include "sandbox/host/pool.h"
#include "tools/registry.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/log.h"
#include "common/utf8.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether an error without a known id is written with "id":null (JSON-RPC
 * 2.0) or without an id (allowed from 2025-11-25 on). */
static int null_id_for(const struct mcp_server *s)
{
    return !(s->legacy && mcp_error_id_optional(s->legacy_rev)) && s->legacy;
}

static void send_error(struct mcp_server *s, struct mcp_batch *batch,
                       const struct mcp_channel *ch, const char *id, int code,
                       const char *message, const cJSON *data)
{
    struct buf b;
    buf_init(&b, 0);
    rpc_write_error(&b, id, null_id_for(s), code, message, data);
    mcp_reply_emit(batch, ch, &b);
    buf_free(&b);
}

/* --- method handlers --------------------------------------------------------------------- */

static cJSON *capabilities(int modern)
{
    cJSON *c = cJSON_CreateObject();
    cJSON_AddBoolToObject(cJSON_AddObjectToObject(c, "tools"), "listChanged", 1);
    cJSON_AddObjectToObject(c, "resources");
    cJSON_AddObjectToObject(c, "logging");
    (void) modern;
    return c;
}

/* capabilities.elicitation declared with form mode (an empty object means form). */
static int caps_have_form_elicitation(const cJSON *caps)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(caps, "elicitation");
    if (!cJSON_IsObject(e))
        return 0;
    return cJSON_HasObjectItem(e, "form") || !cJSON_HasObjectItem(e, "url");
}

static int form_elicitation(const cJSON *params)
{
    return caps_have_form_elicitation(cJSON_GetObjectItemCaseSensitive(params, "capabilities"));
}

/* capabilities.elicitation.url declared (2025-11-25, and per request in
 * 2026-07-28): the client can send the person to a URL (a login,
 * docs/oauth.md). */
static int caps_have_url_elicitation(const cJSON *caps)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(caps, "elicitation");
    return cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(e, "url"));
}

static int url_elicitation(const cJSON *params)
{
    return caps_have_url_elicitation(cJSON_GetObjectItemCaseSensitive(params, "capabilities"));
}

static void handle_initialize(struct mcp_request *r, const cJSON *params)
{
    struct mcp_server *s = r->server;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(params, "protocolVersion");
    if (!cJSON_IsObject(params) || !cJSON_IsString(v)) {
        mcp_request_error(r, RPC_INVALID_PARAMS,
                          "initialize: params.protocolVersion (a string) is required", NULL);
        return;
    }
    if (s->legacy) {
        mcp_request_error(r, RPC_INVALID_REQUEST, "initialize: the session is already initialized",
                          NULL);
        return;
    }
    s->legacy = 1;
    s->legacy_rev = mcp_negotiate_legacy(v->valuestring);
    s->can_elicit = form_elicitation(params);
    s->can_elicit_url = url_elicitation(params);
    r->rev = s->legacy_rev;
    cJSON *res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "protocolVersion", mcp_revision_name(s->legacy_rev));
    cJSON_AddItemToObject(res, "capabilities", capabilities(0));
    cJSON *info = cJSON_AddObjectToObject(res, "serverInfo");
    cJSON_AddStringToObject(info, "name", MCP_CODEMODE_NAME);
    cJSON_AddStringToObject(info, "version", MCP_CODEMODE_VERSION);
    if (mcp_has_tool_title(s->legacy_rev))
        cJSON_AddStringToObject(info, "title", "mcp-codemode");
    cJSON_AddStringToObject(res, "instructions", mcp_describe_instructions());
    mcp_request_result(r, res);
}

static void handle_discover(struct mcp_request *r, const cJSON *params, int modern)
{
    (void) params;
    (void) modern;
    cJSON *res = cJSON_CreateObject();
    cJSON *versions = cJSON_AddArrayToObject(res, "supportedVersions");
    cJSON_AddItemToArray(versions, cJSON_CreateString(mcp_revision_name(MCP_2026_07_28)));
    cJSON_AddItemToObject(res, "capabilities", capabilities(1));
    cJSON_AddStringToObject(res, "instructions", mcp_describe_instructions());
    cJSON_AddNumberToObject(res, "ttlMs", 60000);
    cJSON_AddStringToObject(res, "cacheScope", "private");
    mcp_request_result(r, res);
}

static void handle_tools_list(struct mcp_request *r, const cJSON *params, int modern)
{
    (void) modern;
    const cJSON *cursor = cJSON_GetObjectItemCaseSensitive(params, "cursor");
    if (cursor) {
        mcp_request_error(r, RPC_INVALID_PARAMS,
                          "tools/list: invalid cursor (this server returns a single page)", NULL);
        return;
    }
    cJSON *res = cJSON_CreateObject();
    cJSON *tools = cJSON_AddArrayToObject(res, "tools");
    cJSON_AddItemToArray(tools, mcp_describe_execute_code(r->server, r->rev));
    mcp_skill_tools_list(r->server, tools);
    if (mcp_is_modern(r->rev)) {
        cJSON_AddNumberToObject(res, "ttlMs", 60000);
        cJSON_AddStringToObject(res, "cacheScope", "private");
    }
    mcp_request_result(r, res);
}

static void handle_tools_call(struct mcp_request *r, const cJSON *params, int modern)
{
    (void) modern;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
    if (!cJSON_IsString(name)) {
        mcp_request_error(r, RPC_INVALID_PARAMS, "tools/call: params.name (a string) is required",
                          NULL);
        return;
    }
    const cJSON *arguments = cJSON_GetObjectItemCaseSensitive(params, "arguments");
    int execute = strcmp(name->valuestring, "execute_code") == 0;
    if (mcp_is_modern(r->rev) && cJSON_HasObjectItem(params, "requestState")) {
        /* the retry after an input_required result, before any dispatch: it
         * resumes the parked run (of execute_code or of a skill tool), never
         * starts another */
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(arguments, "code");
        char *skill = execute ? NULL : mcp_skill_tools_code(r->server, name->valuestring, arguments);
        const char *program = skill                            ? skill
                              : execute && cJSON_IsString(code) ? code->valuestring
                                                                : NULL;
        mcp_park_resume(r, params, program);
        free(skill);
        return;
    }
    if (!execute && mcp_skill_tools_call(r, name->valuestring, arguments))
        return;
    if (!execute) {
        char msg[300];
        snprintf(msg, sizeof msg, "Unknown tool: %.200s (this server has one tool, execute_code)",
                 name->valuestring);
        mcp_request_error(r, RPC_INVALID_PARAMS, msg, NULL);
        return;
    }
    mcp_execute(r, arguments);
}

static void handle_set_level(struct mcp_request *r, const cJSON *params, int modern)
{
    (void) modern;
    const cJSON *level = cJSON_GetObjectItemCaseSensitive(params, "level");
    enum log_level l;
    if (!cJSON_IsString(level) || log_level_parse(level->valuestring, &l) != 0 || l == LOG_OFF) {
        mcp_request_error(r, RPC_INVALID_PARAMS,
                          "logging/setLevel: level must be one of debug, info, notice, warning, "
                          "error, critical, alert, emergency",
                          NULL);
        return;
    }
    r->server->log_level = (int) l;
    cJSON *res = cJSON_CreateObject();
    mcp_request_result(r, res);
}

static void handle_listen(struct mcp_request *r, const cJSON *params, int modern)
{
    (void) modern;
    const cJSON *filter = cJSON_GetObjectItemCaseSensitive(params, "notifications");
    if (!cJSON_IsObject(filter)) {
        mcp_request_error(r, RPC_INVALID_PARAMS,
                          "subscriptions/listen: params.notifications (an object) is required",
                          NULL);
        return;
    }
    r->is_listen = 1;
    r->tools_changed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(filter, "toolsListChanged"));
    cJSON *p = cJSON_CreateObject();
    cJSON *meta = cJSON_AddObjectToObject(p, "_meta");
    cJSON_AddItemToObject(meta, MCP_META_SUBSCRIPTION_ID, cJSON_Parse(r->id));
    cJSON *honoured = cJSON_AddObjectToObject(p, "notifications");
    if (r->tools_changed)
        cJSON_AddTrueToObject(honoured, "toolsListChanged");
    mcp_request_notify(r, "notifications/subscriptions/acknowledged", p);
}

static void handle_ping(struct mcp_request *r, const cJSON *params, int modern)
{
    (void) params;
    (void) modern;
    cJSON *res = cJSON_CreateObject();
    mcp_request_result(r, res);
}

/* --- waiting for downstream servers ------------------------------------------------------ */

/* How long a request that needs the tool catalog waits for the downstream
 * servers' first connection (each still starting gets this much in all). */
#define SETTLE_WAIT_MS 15000

static void dispatch(struct mcp_request *r, const cJSON *params, int modern);

static void settled(void *ud)
{
    struct mcp_server *s = ud;
    s->waiting = 0;
    while (s->deferred) {
        struct mcp_request *r = s->deferred;
        s->deferred = r->next_deferred;
        if (s->deferred == NULL)
            s->deferred_tail = NULL;
        cJSON *params = r->deferred_params;
        r->deferred_params = NULL;
        dispatch(r, params, r->deferred_modern);
        cJSON_Delete(params);
    }
}

static void undefer(struct mcp_request *r);

static void defer(struct mcp_request *r, const cJSON *params, int modern)
{
    struct mcp_server *s = r->server;
    r->on_end = undefer; /* a request ended while it waits leaves the queue */
    r->deferred_params = params ? cJSON_Duplicate(params, 1) : NULL;
    r->deferred_modern = modern;
    if (s->deferred_tail)
        s->deferred_tail->next_deferred = r;
    else
        s->deferred = r;
    s->deferred_tail = r;
    if (!s->waiting) {
        s->waiting = 1;
        tools_registry_when_settled(s->cfg.tools, SETTLE_WAIT_MS, settled, s);
    }
}

static void undefer(struct mcp_request *r)
{
    struct mcp_server *s = r->server;
    struct mcp_request **pp = &s->deferred, *prev = NULL;
    while (*pp && *pp != r) {
        prev = *pp;
        pp = &(*pp)->next_deferred;
    }
    if (*pp == NULL)
        return;
    *pp = r->next_deferred;
    if (s->deferred_tail == r)
        s->deferred_tail = prev;
    cJSON_Delete(r->deferred_params);
    r->deferred_params = NULL;
}

/* --- the methods ---------------------------------------------------------------------------- */

static void method_resources_list(struct mcp_request *r, const cJSON *params, int modern)
{
    (void) params;
    (void) modern;
    mcp_resources_list(r);
}

static void method_resources_read(struct mcp_request *r, const cJSON *params, int modern)
{
    (void) modern;
    mcp_resources_read(r, params);
}

static void handle_resource_templates(struct mcp_request *r, const cJSON *params, int modern)
{
    (void) params;
    cJSON *res = cJSON_CreateObject();
    cJSON_AddArrayToObject(res, "resourceTemplates");
    if (modern) {
        cJSON_AddNumberToObject(res, "ttlMs", 60000);
        cJSON_AddStringToObject(res, "cacheScope", "private");
    }
    mcp_request_result(r, res);
}

enum { ERA_LEGACY = 1, ERA_MODERN = 2, ERA_BOTH = 3 };

/* The methods served after the handshake (initialize is the session's own:
 * serve_request), for which eras, and whether they wait for the downstream
 * servers' first connection (they need the tool catalog). */
static const struct method {
    const char *name;
    unsigned eras;
    int needs_catalog;
    void (*handler)(struct mcp_request *r, const cJSON *params, int modern);
} methods[] = {
    {"tools/list", ERA_BOTH, 1, handle_tools_list},
    {"tools/call", ERA_BOTH, 1, handle_tools_call},
    {"resources/list", ERA_BOTH, 1, method_resources_list},
    {"resources/read", ERA_BOTH, 1, method_resources_read},
    {"resources/templates/list", ERA_BOTH, 0, handle_resource_templates},
    {"ping", ERA_LEGACY, 0, handle_ping},
    {"logging/setLevel", ERA_LEGACY, 0, handle_set_level},
    {"server/discover", ERA_MODERN, 0, handle_discover},
    {"subscriptions/listen", ERA_MODERN, 0, handle_listen},
};

static const struct method *find_method(const char *name, int modern)
{
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if ((methods[i].eras & (modern ? ERA_MODERN : ERA_LEGACY)) &&
            strcmp(methods[i].name, name) == 0)
            return &methods[i];
    return NULL;
}

static void dispatch(struct mcp_request *r, const cJSON *params, int modern)
{
    const struct method *m = find_method(r->method, modern);
    if (m == NULL) {
        char msg[200];
        snprintf(msg, sizeof msg, "Method not found: %.120s", r->method);
        mcp_request_error(r, RPC_METHOD_NOT_FOUND, msg, NULL);
        return;
    }
    if (m->needs_catalog && !tools_registry_settled(r->server->cfg.tools)) {
        defer(r, params, modern);
        return;
    }
    m->handler(r, params, modern);
}

/* --- era selection -------------------------------------------------------------------- */

static const cJSON *request_meta(const cJSON *params)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
    return cJSON_IsObject(meta) ? meta : NULL;
}

static void take_progress_token(struct mcp_request *r, const cJSON *meta)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(meta, "progressToken");
    if (cJSON_IsString(t) || cJSON_IsNumber(t))
        r->progress_token = json_print(t);
}

/* A 2026-07-28 request: checks the per-request metadata, then serves it. */
static void serve_modern(struct mcp_request *r, const cJSON *params, const cJSON *meta)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(meta, MCP_META_PROTOCOL_VERSION);
    enum mcp_revision rev;
    if (!cJSON_IsString(v)) {
        mcp_request_error(r, RPC_INVALID_PARAMS,
                          "_meta[\"" MCP_META_PROTOCOL_VERSION "\"] must be a string", NULL);
        return;
    }
    if (mcp_revision_parse(v->valuestring, &rev) != 0 || !mcp_is_modern(rev)) {
        cJSON *data = cJSON_CreateObject();
        cJSON *sup = cJSON_AddArrayToObject(data, "supported");
        cJSON_AddItemToArray(sup, cJSON_CreateString(mcp_revision_name(MCP_2026_07_28)));
        cJSON_AddStringToObject(data, "requested", v->valuestring);
        mcp_request_error(r, MCP_ERR_UNSUPPORTED_VERSION, "Unsupported protocol version", data);
        cJSON_Delete(data);
        return;
    }
    r->rev = rev;
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(meta, MCP_META_CLIENT_CAPABILITIES);
    r->can_elicit = caps_have_form_elicitation(caps);
    r->can_elicit_url = caps_have_url_elicitation(caps);
    if (!cJSON_IsObject(caps)) {
        mcp_request_error(r, RPC_INVALID_PARAMS,
                          "_meta[\"" MCP_META_CLIENT_CAPABILITIES "\"] (an object) is required",
                          NULL);
        return;
    }
    const cJSON *lvl = cJSON_GetObjectItemCaseSensitive(meta, MCP_META_LOG_LEVEL);
    if (lvl) {
        enum log_level l;
        if (!cJSON_IsString(lvl) || log_level_parse(lvl->valuestring, &l) != 0 || l == LOG_OFF) {
            mcp_request_error(r, RPC_INVALID_PARAMS,
                              "_meta[\"" MCP_META_LOG_LEVEL "\"] is not a logging level", NULL);
            return;
        }
        r->log_level = (int) l;
    }
    take_progress_token(r, meta);
    dispatch(r, params, 1);
}

static void serve_request(struct mcp_server *s, const struct rpc_message *m,
                          struct mcp_batch *batch, const struct mcp_channel *ch)
{
    struct mcp_request *r = mcp_request_new(s, m, batch, ch);
    const cJSON *params = m->params;
    if (params && !cJSON_IsObject(params)) {
        mcp_request_error(r, RPC_INVALID_PARAMS, "params must be an object", NULL);
        return;
    }
    const cJSON *meta = request_meta(params);
    if (strcmp(m->method, "initialize") == 0) {
        if (batch) {
            mcp_request_error(r, RPC_INVALID_REQUEST, "initialize must not be part of a batch",
                              NULL);
            return;
        }
        handle_initialize(r, params);
        return;
    }
    if (meta && cJSON_HasObjectItem(meta, MCP_META_PROTOCOL_VERSION)) {
        serve_modern(r, params, meta);
        return;
    }
    if (s->legacy) {
        r->rev = s->legacy_rev;
        take_progress_token(r, meta);
        dispatch(r, params, 0);
        return;
    }
    if (strcmp(m->method, "ping") == 0) {
        r->rev = MCP_LATEST_LEGACY;
        handle_ping(r, NULL, 0);
        return;
    }
    mcp_request_error(r, RPC_INVALID_PARAMS,
                      "no session: send initialize first (protocol 2024-11-05 to 2025-11-25), "
                      "or give _meta[\"" MCP_META_PROTOCOL_VERSION
                      "\"] = \"2026-07-28\" with every request",
                      NULL);
}

static struct mcp_request *find_inflight(struct mcp_server *s, const char *key)
{
    for (struct mcp_request *r = s->inflight; r; r = r->next)
        if (r->key && strcmp(r->key, key) == 0)
            return r;
    return NULL;
}

static void cancel_request(struct mcp_request *r)
{
    if (r->exec)
        mcp_execute_cancel(r->exec); /* drops r */
    else
        mcp_request_drop(r);
}

static void serve_notification(struct mcp_server *s, const struct rpc_message *m)
{
    if (strcmp(m->method, "notifications/initialized") == 0) {
        s->initialized = 1;
    } else if (strcmp(m->method, "notifications/cancelled") == 0) {
        char *key = rpc_id_key_of(cJSON_GetObjectItemCaseSensitive(m->params, "requestId"));
        struct mcp_request *r = key ? find_inflight(s, key) : NULL;
        free(key);
        if (r && strcmp(r->method, "initialize") != 0) {
            log_debug("server", "request %s cancelled by the client", r->id);
            cancel_request(r);
        }
    }
    /* Other notifications need nothing from us. */
}

/* Handles one message; returns 1 when it gets (or got) a reply, 0 if not.
 * Outside a batch, a reply sent here at once is followed by the release. */
static int handle_one(struct mcp_server *s, const char *text, size_t len, struct mcp_batch *batch,
                      const struct mcp_channel *ch)
{
    struct rpc_message m;
    int replies = 1;
    rpc_parse(text, len, &m);
    switch (m.kind) {
    case RPC_REQUEST:
        serve_request(s, &m, batch, ch);
        break;
    case RPC_NOTIFICATION:
        serve_notification(s, &m);
        replies = 0;
        break;
    case RPC_RESPONSE:
        replies = 0; /* answers to our elicitation requests; others are ignored */
        if (!mcp_approval_response(s, &m))
            mcp_login_response(s, &m);
        break;
    case RPC_INVALID:
        send_error(s, batch, ch, m.invalid_code == RPC_PARSE_ERROR ? NULL : m.id, m.invalid_code,
                   m.invalid_reason, NULL);
        if (!batch)
            mcp_channel_release(ch);
        break;
    }
    rpc_message_free(&m);
    return replies;
}

/* A reply sent at once, ending the exchange on ch. */
static int reply_now(struct mcp_server *s, const struct mcp_channel *ch, int code, const char *msg)
{
    send_error(s, NULL, ch, NULL, code, msg, NULL);
    mcp_channel_release(ch);
    return 1;
}

static int handle_batch(struct mcp_server *s, const char *text, size_t len,
                        const struct mcp_channel *ch)
{
    struct rpc_span *spans;
    int n = rpc_split_batch(text, len, &spans);
    if (n < 0)
        return reply_now(s, ch, RPC_PARSE_ERROR, "Parse error: the message is not valid JSON");
    if (!(s->legacy && mcp_allows_batches(s->legacy_rev)) || n == 0) {
        free(spans);
        return reply_now(s, ch, RPC_INVALID_REQUEST,
                         n == 0 ? "Invalid Request: empty batch"
                                : "Invalid Request: JSON-RPC batches are not supported in this "
                                  "protocol revision (only 2025-03-26 has them)");
    }
    struct mcp_batch *b = mcp_batch_new(s, ch);
    int replies = 0;
    for (int i = 0; i < n; i++)
        replies |= handle_one(s, spans[i].start, spans[i].len, b, ch);
    free(spans);
    if (!replies) { /* only notifications and responses: no reply, no release */
        mcp_batch_discard(b);
        return 0;
    }
    mcp_batch_release(b);
    return 1;
}

/* --- public API ----------------------------------------------------------------------- */

struct mcp_server *mcp_server_new(const struct mcp_server_config *cfg,
                                  const struct mcp_channel *session)
{
    static uint64_t last_principal;
    struct mcp_server *s = xcalloc(1, sizeof *s);
    s->cfg = *cfg;
    s->worker_principal = ++last_principal; /* one connection: the stdio client, a session, or all
                                        stateless requests (one bearer token at most) */
    char owner[40];
    snprintf(owner, sizeof owner, "connection %llu", (unsigned long long) s->worker_principal);
    s->stash_owner = xstrdup(owner);
    s->session = *session;
    s->session.release = NULL;
    s->log_level = -1;
    s->worker_stats = getenv("MCP_CODEMODE_TEST_WORKER_STATS") != NULL;
    return s;
}

int mcp_server_handle_on(struct mcp_server *s, const char *text, size_t len,
                         const struct mcp_channel *ch)
{
    if (rpc_is_batch(text, len))
        return handle_batch(s, text, len, ch);
    return handle_one(s, text, len, NULL, ch);
}

void mcp_server_handle(struct mcp_server *s, const char *text, size_t len)
{
    mcp_server_handle_on(s, text, len, &s->session);
}

void mcp_server_handle_oversize(struct mcp_server *s, const char *head, size_t head_len,
                                size_t total)
{
    char *id = rpc_recover_id(head, head_len);
    char msg[200];
    snprintf(msg, sizeof msg, "Invalid Request: the message is %zu bytes, over the limit", total);
    if (id) {
        send_error(s, NULL, &s->session, id, RPC_INVALID_REQUEST, msg, NULL);
        free(id);
    } else {
        log_error("server", "dropped a %zu-byte message over the size limit (no id found in its "
                            "first bytes, so no error reply could be sent)",
                  total);
    }
}

void mcp_server_cancel_channel(struct mcp_server *s, void *ud)
{
    struct mcp_request *r = s->inflight;
    while (r) {
        struct mcp_request *next = r->next;
        if (mcp_request_channel(r)->ud == ud) {
            cancel_request(r);
            next = s->inflight; /* the list may have changed: start over */
        }
        r = next;
    }
}

void mcp_server_cancel_all(struct mcp_server *s)
{
    while (s->inflight)
        cancel_request(s->inflight);
}

unsigned mcp_server_inflight(const struct mcp_server *s)
{
    return s->ninflight;
}

int mcp_server_busy(const struct mcp_server *s)
{
    return s->ninflight > 0 || s->parks != NULL;
}

void mcp_server_tools_changed(struct mcp_server *s)
{
    struct buf b;
    buf_init(&b, 0);
    if (s->legacy && s->initialized) {
        rpc_write_notification(&b, "notifications/tools/list_changed", NULL);
        mcp_channel_send(&s->session, b.data, b.len, 0);
        buf_reset(&b);
    }
    for (struct mcp_request *r = s->inflight; r; r = r->next) {
        if (!r->is_listen || !r->tools_changed)
            continue;
        buf_reset(&b);
        buf_printf(&b, "{\"_meta\":{\"" MCP_META_SUBSCRIPTION_ID "\":%s}}", r->id);
        char *params = buf_steal(&b);
        rpc_write_notification(&b, "notifications/tools/list_changed", params);
        free(params);
        mcp_channel_send(&r->ch, b.data, b.len, 0);
    }
    buf_free(&b);
}

void mcp_server_detach_pool(struct mcp_server *s)
{
    if (s->cfg.pool)
        sandbox_pool_forget(s->cfg.pool, s->worker_principal);
    s->cfg.pool = NULL;
}

void mcp_server_free(struct mcp_server *s)
{
    if (s == NULL)
        return;
    mcp_server_cancel_all(s);
    if (s->waiting && s->cfg.tools)
        tools_registry_cancel_wait(s->cfg.tools, settled, s);
    mcp_server_detach_pool(s); /* its kept workers end */
    if (s->cfg.stash && !s->stash_shared)
        mcp_stash_forget(s->cfg.stash, s->stash_owner); /* and what it stashed */
    free(s->stash_owner);
    free(s->principal);
    free(s->state_principal);
    for (char **sc = s->scopes; sc && *sc; sc++)
        free(*sc);
    free(s->scopes);
    mcp_approval_free_session(s);
    mcp_login_free_session(s);
    mcp_park_free_all(s);
    free(s);
}

const char *mcp_state_principal(const struct mcp_server *s)
{
    if (s->state_principal)
        return s->state_principal;
    return s->principal ? s->principal : "stdio";
}

void mcp_server_set_state_principal(struct mcp_server *s, const char *principal)
{
    free(s->state_principal);
    s->state_principal = xstrdup(principal);
}

void mcp_server_set_admission_principal(struct mcp_server *s, uint64_t id)
{
    s->admission_principal = id;
}

void mcp_server_share_stash(struct mcp_server *s)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "principal %s", mcp_state_principal(s));
    free(s->stash_owner);
    s->stash_owner = buf_steal(&b);
    s->stash_shared = 1;
}

static int same_list(char *const *a, char *const *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    size_t i = 0;
    for (; a[i] && b[i]; i++)
        if (strcmp(a[i], b[i]) != 0)
            return 0;
    return a[i] == b[i];
}

void mcp_server_set_scopes(struct mcp_server *s, char *const *scopes)
{
    if (same_list(s->scopes, scopes))
        return; /* the common case: the same token again */
    for (char **sc = s->scopes; sc && *sc; sc++)
        free(*sc);
    free(s->scopes);
    s->scopes = NULL;
    size_t n = 0;
    while (scopes && scopes[n])
        n++;
    if (scopes == NULL)
        return;
    s->scopes = xcalloc(n + 1, sizeof *s->scopes);
    for (size_t i = 0; i < n; i++)
        s->scopes[i] = xstrdup(scopes[i]);
}

void mcp_server_set_principal(struct mcp_server *s, const char *principal)
{
    free(s->principal);
    s->principal = xstrdup(principal);
}
