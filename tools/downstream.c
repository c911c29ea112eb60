/* One stdio downstream server (see downstream.h): the process and its
 * restarts with backoff, the protocol handshake (server/discover probe, then
 * initialize), notifications, and status. The tool list lives in
 * downstream_list.c, tool calls in downstream_call.c. */
#include "tools/downstream_internal.h"
#include "tools/server_config.h"
#include "transport/child.h"
#include "transport/rpc_client.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/log.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const tools_downstream_inherited_env[] = {"HOME", "LOGNAME", "PATH", "SHELL",
                                                      "TERM", "USER",    NULL};

static const char *const legacy_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                              "2024-11-05", NULL};

static void start_attempt(uv_timer_t *t);

/* --- small helpers ---------------------------------------------------------------------------- */

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

static char **dup_vector(char *const *v)
{
    size_t n = 0;
    while (v && v[n])
        n++;
    char **out = xcalloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = xstrdup(v[i]);
    return out;
}

static void free_vector(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

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

static void replace(char **slot, const char *v)
{
    free(*slot);
    *slot = dup_or_null(v);
}

static void notify_state(struct tools_downstream *d)
{
    if (!d->closing && d->ev && d->ev->state_changed)
        d->ev->state_changed(d->ud, d);
}

void tools__downstream_set_state(struct tools_downstream *d, enum tools_downstream_state s)
{
    d->state = s;
    notify_state(d);
}

cJSON *tools__downstream_params(const struct tools_downstream *d, cJSON *params)
{
    if (d->era != DS_ERA_MODERN)
        return params;
    cJSON *meta = cJSON_CreateObject();
    cJSON_AddStringToObject(meta, "io.modelcontextprotocol/protocolVersion",
                            TOOLS_DOWNSTREAM_MODERN_VERSION);
    cJSON_AddItemToObject(meta, "io.modelcontextprotocol/clientCapabilities", cJSON_CreateObject());
    cJSON *info = cJSON_AddObjectToObject(meta, "io.modelcontextprotocol/clientInfo");
    cJSON_AddStringToObject(info, "name", "mcp-codemode");
    cJSON_AddStringToObject(info, "version", d->opt.client_version);
    cJSON_AddItemToObject(params, "_meta", meta);
    return params;
}

/* --- losing the process ----------------------------------------------------------------------- */

static void drop_connection(struct tools_downstream *d, uint64_t grace_ms)
{
    if (d->rpc) {
        rpc_client_free(d->rpc); /* drops every request without callbacks */
        d->rpc = NULL;
    }
    d->hs_req = d->listen_req = NULL;
    tools__downstream_list_reset(d);
    if (d->child) {
        transport_child_close(d->child, grace_ms);
        d->child = NULL;
    }
    d->handshaken = 0;
}

static uint64_t backoff(const struct tools_downstream *d)
{
    uint64_t delay = d->opt.backoff_initial_ms;
    for (unsigned i = 1; i < d->failures && delay < d->opt.backoff_max_ms; i++)
        delay *= 2;
    return delay < d->opt.backoff_max_ms ? delay : d->opt.backoff_max_ms;
}

/* The process is gone or useless: fail its calls, then restart it after a
 * backoff, or give up. */
void tools__downstream_lost(struct tools_downstream *d, const char *why, int permanent)
{
    if (d->closing)
        return;
    uint64_t now = uv_now(d->loop);
    /* Down before the handshake ended, after a probe: the probe may be what
     * it could not take (or its answer came too late); skip it next time. */
    d->skip_probe = d->probed && !d->handshaken;
    drop_connection(d, 0);
    replace(&d->reason, why);
    if (d->ready_at && now - d->ready_at >= d->opt.stable_ms)
        d->failures = 0;
    d->ready_at = 0;
    d->failures++;
    d->permanent = permanent;
    if (permanent || (d->opt.max_attempts && d->failures >= d->opt.max_attempts)) {
        d->state = TOOLS_DOWNSTREAM_FAILED;
        log_error(d->label, "%s; giving up", why);
    } else {
        uint64_t delay = backoff(d);
        d->restart_at = now + delay;
        d->state = TOOLS_DOWNSTREAM_RESTARTING;
        uv_timer_start(&d->timer, start_attempt, delay, 0);
        log_warn(d->label, "%s; restarting in %llu ms", why, (unsigned long long) delay);
    }
    tools__downstream_calls_fail(d, why);
    notify_state(d);
}

static void describe_exit(struct tools_downstream *d, int64_t status, int sig, struct buf *b)
{
    if (sig)
        buf_printf(b, "was killed by signal %d (%s)", sig, strsignal(sig));
    else
        buf_printf(b, "exited with status %lld", (long long) status);
    if (d->state == TOOLS_DOWNSTREAM_CONNECTING)
        buf_append_str(b, " while connecting");
    const char *err = d->child ? transport_child_last_stderr(d->child) : "";
    if (*err) {
        buf_append_str(b, "; its last stderr line: ");
        buf_append_json_string(b, err, strlen(err));
    }
}

/* --- child and rpc events --------------------------------------------------------------------- */

static void child_line(void *ud, char *line, size_t len)
{
    struct tools_downstream *d = ud;
    rpc_client_line(d->rpc, line, len);
}

static void child_oversize(void *ud, const char *head, size_t head_len, const char *tail,
                           size_t tail_len, size_t total)
{
    struct tools_downstream *d = ud;
    rpc_client_oversize(d->rpc, head, head_len, tail, tail_len, total, d->opt.max_message_bytes);
}

static void child_exit(void *ud, int64_t status, int sig)
{
    struct tools_downstream *d = ud;
    struct buf b;
    buf_init(&b, 0);
    describe_exit(d, status, sig, &b);
    tools__downstream_lost(d, b.data, 0);
    buf_free(&b);
}

static const struct transport_child_events child_events = {child_line, child_oversize, child_exit};

static int rpc_write(void *ud, const char *data, size_t len)
{
    struct tools_downstream *d = ud;
    return d->child ? transport_child_write(d->child, data, len) : UV_EPIPE;
}

static void server_log(struct tools_downstream *d, const cJSON *params)
{
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(params, "data");
    const char *level = json_str(params, "level");
    enum log_level lv = LOG_INFO;
    if (level)
        log_level_parse(level, &lv);
    char *text = cJSON_IsString(data) ? NULL : cJSON_PrintUnformatted(data);
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

static const struct rpc_client_events rpc_events = {rpc_write, rpc_notification};

/* --- handshake -------------------------------------------------------------------------------- */

static void take_server_info(struct tools_downstream *d, const cJSON *caps, const cJSON *info,
                             const char *instructions)
{
    cJSON_Delete(d->caps);
    d->caps = cJSON_IsObject(caps) ? cJSON_Duplicate(caps, 1) : NULL;
    replace(&d->server_name, json_str(info, "name"));
    replace(&d->server_version, json_str(info, "version"));
    replace(&d->instructions, instructions);
    const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(d->caps, "tasks");
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(tasks, "requests");
    const cJSON *tools = cJSON_GetObjectItemCaseSensitive(req, "tools");
    d->tasks_call = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(tools, "call"));
    d->tasks_cancel = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(tasks, "cancel"));
}

static void listen_reply(void *ud, const struct rpc_client_reply *r)
{
    struct tools_downstream *d = ud;
    d->listen_req = NULL;
    log_debug(d->label, "subscriptions/listen ended: %s", r->message ? r->message : "completed");
}

static void open_listen(struct tools_downstream *d)
{
    cJSON *p = cJSON_CreateObject();
    cJSON *n = cJSON_AddObjectToObject(p, "notifications");
    cJSON_AddTrueToObject(n, "toolsListChanged");
    d->listen_req = rpc_client_call(d->rpc, "subscriptions/listen", tools__downstream_params(d, p),
                                    0, 0, listen_reply, d);
}

static void handshake_done(struct tools_downstream *d)
{
    d->handshaken = 1;
    log_info(d->label, "speaks %s (%s %s)", d->protocol,
             d->server_name ? d->server_name : "unnamed",
             d->server_version ? d->server_version : "");
    const cJSON *tools = cJSON_GetObjectItemCaseSensitive(d->caps, "tools");
    if (d->era == DS_ERA_MODERN &&
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tools, "listChanged")))
        open_listen(d);
    tools__downstream_list(d);
}

static void init_reply(void *ud, const struct rpc_client_reply *r)
{
    struct tools_downstream *d = ud;
    char msg[512];
    d->hs_req = NULL;
    if (r->status != RPC_CLIENT_OK) {
        if (r->status == RPC_CLIENT_ERROR)
            snprintf(msg, sizeof msg, "initialize failed: %s (JSON-RPC error %d)", r->message,
                     r->code);
        else
            snprintf(msg, sizeof msg, "initialize failed: %s", r->message);
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
    replace(&d->protocol, v);
    take_server_info(d, cJSON_GetObjectItemCaseSensitive(r->result, "capabilities"),
                     cJSON_GetObjectItemCaseSensitive(r->result, "serverInfo"),
                     json_str(r->result, "instructions"));
    rpc_client_notify(d->rpc, "notifications/initialized", NULL);
    handshake_done(d);
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
        tools__downstream_lost(d, "its stdin is closed", 0);
}

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
    replace(&d->protocol, TOOLS_DOWNSTREAM_MODERN_VERSION);
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
        char *list = cJSON_PrintUnformatted(supported), msg[512];
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
        tools__downstream_lost(d, "its stdin is closed", 0);
}

/* --- starting --------------------------------------------------------------------------------- */

static int spawn(struct tools_downstream *d, char *err, size_t errlen)
{
    if (d->cwd && access(d->cwd, X_OK) != 0) {
        snprintf(err, errlen, "cannot use its working directory \"%s\": %s", d->cwd,
                 strerror(errno));
        return -1;
    }
    struct transport_child_options o = {.name = d->label,
                                        .file = d->command,
                                        .args = d->args,
                                        .env = d->env,
                                        .cwd = d->cwd,
                                        .max_line = d->opt.max_message_bytes,
                                        .stderr_level = d->opt.stderr_level};
    int rc = transport_child_spawn(d->loop, &o, &child_events, d, &d->child);
    if (rc == UV_ENOENT && strchr(d->command, '/') == NULL)
        snprintf(err, errlen, "cannot start \"%s\": command not found in PATH", d->command);
    else if (rc != 0)
        snprintf(err, errlen, "cannot start \"%s\": %s", d->command, uv_strerror(rc));
    return rc;
}

static void reset_handshake(struct tools_downstream *d)
{
    d->era = DS_ERA_NONE;
    replace(&d->protocol, NULL);
    d->tasks_call = d->tasks_cancel = 0;
}

static void start_attempt(uv_timer_t *t)
{
    struct tools_downstream *d = t->data;
    char err[512];
    d->attempts++;
    d->started_at = uv_now(d->loop);
    d->restart_at = 0;
    reset_handshake(d);
    tools__downstream_set_state(d, TOOLS_DOWNSTREAM_CONNECTING);
    if (d->closing)
        return;
    if (spawn(d, err, sizeof err) != 0) {
        tools__downstream_lost(d, err, 0);
        return;
    }
    d->rpc = rpc_client_new(d->loop, d->label, &rpc_events, d);
    d->probed = !d->skip_probe;
    if (d->probed)
        send_probe(d);
    else
        send_initialize(d);
}

/* --- life ------------------------------------------------------------------------------------- */

static void apply_defaults(struct tools_downstream_options *o)
{
    if (!o->call_timeout_ms)
        o->call_timeout_ms = 60000;
    if (!o->request_timeout_ms)
        o->request_timeout_ms = 30000;
    if (!o->probe_timeout_ms)
        o->probe_timeout_ms = 3000;
    if (!o->backoff_initial_ms)
        o->backoff_initial_ms = 500;
    if (!o->backoff_max_ms)
        o->backoff_max_ms = 30000;
    if (!o->stable_ms)
        o->stable_ms = 10000;
    if (!o->close_grace_ms)
        o->close_grace_ms = 2000;
    if (!o->max_message_bytes)
        o->max_message_bytes = (size_t) 32 << 20;
    if (!o->client_version)
        o->client_version = "unknown";
    o->stderr_level = o->stderr_level == 0  ? LOG_INFO
                      : o->stderr_level < 0 ? LOG_DEBUG
                                            : o->stderr_level;
}

static void copy_entry(struct tools_downstream *d, const struct tools_server_config *s)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "server '%s'", s->name);
    d->label = buf_steal(&b);
    d->name = xstrdup(s->name);
    d->command = xstrdup(s->command ? s->command : "");
    d->args = dup_vector(s->args);
    d->env = transport_child_env(tools_downstream_inherited_env, s->env);
    d->cwd = dup_or_null(s->cwd);
    d->entry_timeout_ms = s->timeout_ms;
}

struct tools_downstream *tools_downstream_new(uv_loop_t *loop, const struct tools_server_config *s,
                                              const struct tools_downstream_options *o,
                                              const struct tools_downstream_events *ev, void *ud)
{
    struct tools_downstream *d = xcalloc(1, sizeof *d);
    d->loop = loop;
    d->ev = ev;
    d->ud = ud;
    if (o)
        d->opt = *o;
    apply_defaults(&d->opt);
    if (d->opt.client_version)
        d->opt.client_version = xstrdup(d->opt.client_version);
    copy_entry(d, s);
    d->tools = cJSON_CreateArray();
    d->excluded = cJSON_CreateArray();
    tools__downstream_calls_init(d);
    uv_timer_init(loop, &d->timer);
    d->timer.data = d;
    d->open_timers = 2;
    d->state = TOOLS_DOWNSTREAM_CONNECTING;
    if (s->transport != TOOLS_TRANSPORT_STDIO || d->command[0] == '\0') {
        d->failures = 1;
        d->permanent = 1;
        d->state = TOOLS_DOWNSTREAM_FAILED;
        d->reason = xstrdup("is not a stdio server (no \"command\")");
        return d;
    }
    uv_timer_start(&d->timer, start_attempt, 0, 0);
    return d;
}

static void timer_closed(uv_handle_t *h)
{
    struct tools_downstream *d = h->data;
    if (--d->open_timers > 0)
        return;
    free(d->name);
    free(d->label);
    free(d->command);
    free_vector(d->args);
    transport_child_env_free(d->env);
    free(d->cwd);
    free(d->reason);
    free(d->protocol);
    cJSON_Delete(d->caps);
    free(d->server_name);
    free(d->server_version);
    free(d->instructions);
    cJSON_Delete(d->tools);
    cJSON_Delete(d->excluded);
    free((char *) d->opt.client_version);
    free(d);
}

void tools_downstream_free(struct tools_downstream *d)
{
    if (d->closing)
        return;
    d->closing = 1;
    drop_connection(d, d->opt.close_grace_ms);
    tools__downstream_calls_fail(d, NULL);
    uv_close((uv_handle_t *) &d->timer, timer_closed);
    uv_close((uv_handle_t *) &d->call_timer, timer_closed);
}

/* --- queries ---------------------------------------------------------------------------------- */

const char *tools_downstream_name(const struct tools_downstream *d)
{
    return d->name;
}

const char *tools_downstream_state_name(enum tools_downstream_state s)
{
    switch (s) {
    case TOOLS_DOWNSTREAM_CONNECTING:
        return "connecting";
    case TOOLS_DOWNSTREAM_READY:
        return "ready";
    case TOOLS_DOWNSTREAM_RESTARTING:
        return "restarting";
    case TOOLS_DOWNSTREAM_FAILED:
        return "failed";
    }
    return "unknown";
}

void tools_downstream_status(const struct tools_downstream *d, struct tools_downstream_status *st)
{
    memset(st, 0, sizeof *st);
    st->state = d->state;
    st->reason = d->reason;
    if (d->state == TOOLS_DOWNSTREAM_RESTARTING) {
        uint64_t now = uv_now(d->loop);
        st->retry_in_ms = d->restart_at > now ? d->restart_at - now : 0;
    }
    st->protocol_version = d->protocol;
    st->server_name = d->server_name;
    st->server_version = d->server_version;
    st->instructions = d->instructions;
    st->attempts = d->attempts;
    st->failures = d->failures;
    st->connect_ms = d->connect_ms;
    st->pid = d->child ? transport_child_pid(d->child) : 0;
    st->tools = (size_t) cJSON_GetArraySize(d->tools);
    st->calls_in_flight = d->ncalls;
}

const cJSON *tools_downstream_tools(const struct tools_downstream *d)
{
    return d->tools;
}

const cJSON *tools_downstream_excluded(const struct tools_downstream *d)
{
    return d->excluded;
}
