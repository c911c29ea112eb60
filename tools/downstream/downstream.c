/* One downstream server (see downstream.h), whatever carries it: connection
 * attempts and restarts with backoff, the JSON-RPC client of each attempt
 * and the reports of its transport, and status. The handshake lives in
 * handshake.c, the tool list in list.c, tool calls in
 * call.c, the transports in stdio.c,
 * http.c and sse.c. */
#include "tools/downstream/internal.h"
#include "tools/server_config.h"
#include "transport/child.h"
#include "transport/rpc_client.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tools_downstream_inherited_env[] = {"HOME", "LOGNAME", "PATH", "SHELL",
                                                      "TERM", "USER",    NULL};

static void start_attempt(uv_timer_t *t);

/* --- small helpers ---------------------------------------------------------------------------- */

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

char **tools__downstream_dup_vector(char *const *v)
{
    size_t n = 0;
    while (v && v[n])
        n++;
    char **out = xcalloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = xstrdup(v[i]);
    return out;
}

void tools__downstream_free_vector(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

void tools__downstream_replace(char **slot, const char *v)
{
    char *copy = dup_or_null(v); /* v may be *slot itself */
    free(*slot);
    *slot = copy;
}

static void notify_state(struct tools_downstream *d)
{
    if (!d->closing && d->ev && d->ev->state_changed)
        d->ev->state_changed(d->ud, d);
}

void tools__downstream_set_state(struct tools_downstream *d, enum tools_downstream_state s)
{
    if (s == TOOLS_DOWNSTREAM_READY)
        d->relogin = 0;
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

/* --- reports from the transport --------------------------------------------------------------- */

void tools__downstream_up(struct tools_downstream *d)
{
    if (!d->closing && d->rpc && d->hs_req == NULL && !d->handshaken && !d->await_initialized)
        tools__downstream_handshake(d);
}

void tools__downstream_line(struct tools_downstream *d, const char *line, size_t len)
{
    if (d->rpc)
        rpc_client_line(d->rpc, line, len);
}

void tools__downstream_oversize(struct tools_downstream *d, const char *head, size_t head_len,
                                const char *tail, size_t tail_len, size_t total)
{
    if (d->rpc)
        rpc_client_oversize(d->rpc, head, head_len, tail, tail_len, total,
                            d->opt.max_message_bytes);
}

int tools__downstream_fail_request(struct tools_downstream *d, uint64_t id,
                                   enum rpc_client_status status, const char *why, size_t size)
{
    return d->rpc ? rpc_client_fail(d->rpc, id, status, why, size) : -1;
}

/* --- losing the connection -------------------------------------------------------------------- */

static void drop_connection(struct tools_downstream *d, uint64_t grace_ms)
{
    if (d->rpc) {
        rpc_client_free(d->rpc); /* drops every request without callbacks */
        d->rpc = NULL;
    }
    d->hs_req = d->listen_req = NULL;
    tools__downstream_list_reset(d);
    if (d->tp)
        d->ops->close(d, grace_ms);
    d->tp = NULL;
    d->handshaken = d->await_initialized = 0;
}

static uint64_t backoff(const struct tools_downstream *d)
{
    uint64_t delay = d->opt.backoff_initial_ms;
    for (unsigned i = 1; i < d->failures && delay < d->opt.backoff_max_ms; i++)
        delay *= 2;
    return delay < d->opt.backoff_max_ms ? delay : d->opt.backoff_max_ms;
}

/* The connection is gone or useless: fail its calls, then try again after
 * a backoff, or give up. */
void tools__downstream_lost(struct tools_downstream *d, const char *why_in, int permanent)
{
    if (d->closing)
        return;
    char *why = xstrdup(why_in); /* it may point into what is dropped */
    uint64_t now = uv_now(d->loop);
    if (d->relogin && d->state == TOOLS_DOWNSTREAM_CONNECTING) {
        /* an attempt begun before a login stored the tokens (it may have read
         * none): another one now; the calls queued for it wait (none was sent) */
        d->relogin = 0;
        d->needs_login = 0;
        drop_connection(d, 0);
        tools__downstream_replace(&d->reason, why);
        log_info(d->label, "%s; connecting again with the tokens of the new login", why);
        uv_timer_start(&d->timer, start_attempt, 0, 0);
        free(why);
        return;
    }
    /* A process down before the handshake ended, after a probe: the probe
     * may be what it could not take; skip it next time. (An HTTP server
     * that cannot be reached is no sign of that.) */
    d->skip_probe = d->ops == &tools__downstream_stdio && d->probed && !d->handshaken;
    drop_connection(d, 0);
    tools__downstream_replace(&d->reason, why);
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
        log_warn(d->label, "%s; %s in %llu ms", why, d->ops->restart, (unsigned long long) delay);
    }
    tools__downstream_calls_fail(d, why);
    notify_state(d);
    free(why);
}

/* --- attempts --------------------------------------------------------------------------------- */

static void open_attempt(struct tools_downstream *d)
{
    char err[512];
    int rc = d->ops->open(d, err, sizeof err);
    if (rc < 0)
        tools__downstream_lost(d, err, 0);
    else if (rc > 0)
        tools__downstream_handshake(d);
}

static void start_attempt(uv_timer_t *t)
{
    struct tools_downstream *d = t->data;
    d->attempts++;
    d->started_at = uv_now(d->loop);
    d->restart_at = 0;
    tools__downstream_handshake_reset(d);
    tools__downstream_set_state(d, TOOLS_DOWNSTREAM_CONNECTING);
    if (d->closing)
        return;
    d->rpc = rpc_client_new(d->loop, d->label, &tools__downstream_rpc_events, d);
    rpc_client_set_hooks(d->rpc, &tools__downstream_rpc_hooks);
    rpc_client_share_unreadable_count(d->rpc, &d->unreadable_lines);
    if (tools__downstream_auth_prepare(d, open_attempt))
        open_attempt(d);
}

void tools_downstream_reconnect(struct tools_downstream *d)
{
    if (d->closing)
        return;
    if (d->state == TOOLS_DOWNSTREAM_READY) {
        tools__downstream_auth_reload(d); /* a step-up: the new token for later requests */
        return;
    }
    d->needs_login = 0; /* calls wait for the attempt, which reads the tokens again */
    if (d->state == TOOLS_DOWNSTREAM_CONNECTING) {
        d->relogin = 1; /* this attempt may have read no token: lost, it starts again */
        return;
    }
    d->failures = 0;
    d->permanent = 0;
    d->restart_at = 0;
    uv_timer_stop(&d->timer);
    tools__downstream_set_state(d, TOOLS_DOWNSTREAM_CONNECTING);
    uv_timer_start(&d->timer, start_attempt, 0, 0);
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

/* The entry, copied; returns why it cannot be used, or NULL. */
static const char *copy_entry(struct tools_downstream *d, const struct tools_server_config *s)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "server '%s'", s->name);
    d->label = buf_steal(&b);
    d->name = xstrdup(s->name);
    d->entry_timeout_ms = s->timeout_ms;
    if (s->transport == TOOLS_TRANSPORT_STDIO) {
        d->ops = &tools__downstream_stdio;
        d->command = xstrdup(s->command ? s->command : "");
        d->args = tools__downstream_dup_vector(s->args);
        d->env = transport_child_env(tools_downstream_inherited_env, s->env);
        d->cwd = dup_or_null(s->cwd);
        return d->command[0] ? NULL : "is a stdio server without a \"command\"";
    }
    d->ops = s->transport == TOOLS_TRANSPORT_SSE ? &tools__downstream_sse : &tools__downstream_http;
    d->url = xstrdup(s->url ? s->url : "");
    d->headers = tools__downstream_dup_vector(s->headers);
    return d->url[0] ? NULL : "is a remote server without a \"url\"";
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
    d->opt.client_version = xstrdup(d->opt.client_version);
    const char *unusable = copy_entry(d, s);
    if (unusable == NULL)
        tools__downstream_auth_init(d, s);
    d->tools = cJSON_CreateArray();
    d->excluded = cJSON_CreateArray();
    tools__downstream_calls_init(d);
    uv_timer_init(loop, &d->timer);
    d->timer.data = d;
    d->open_timers = 3; /* timer, and the call timer and refusals of call.c */
    d->state = TOOLS_DOWNSTREAM_CONNECTING;
    if (unusable) {
        d->failures = 1;
        d->permanent = 1;
        d->state = TOOLS_DOWNSTREAM_FAILED;
        d->reason = xstrdup(unusable);
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
    tools__downstream_free_vector(d->args);
    transport_child_env_free(d->env);
    free(d->cwd);
    free(d->url);
    tools__downstream_free_vector(d->headers);
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
    tools__downstream_auth_free(d);
    drop_connection(d, d->opt.close_grace_ms);
    tools__downstream_calls_fail(d, NULL);
    tools__downstream_calls_close(d, timer_closed);
    uv_close((uv_handle_t *) &d->timer, timer_closed);
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

int tools_downstream_pid(const struct tools_downstream *d)
{
    return d->tp ? d->ops->pid(d) : 0;
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
    st->pid = tools_downstream_pid(d);
    st->tools = (size_t) cJSON_GetArraySize(d->tools);
    st->calls_in_flight = d->ncalls;
    st->transport = d->ops->kind;
    st->url = d->url;
}

const cJSON *tools_downstream_tools(const struct tools_downstream *d)
{
    return d->tools;
}

const cJSON *tools_downstream_excluded(const struct tools_downstream *d)
{
    return d->excluded;
}
