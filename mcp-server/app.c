/* Wiring and lifetime of the serving process: loop, pool, registry, server,
 * transport (stdio, or HTTP with its sessions), signals, and a clean
 * shutdown: on EOF, SIGTERM or SIGINT over stdio (in-flight work stopped,
 * stdout flushed); over HTTP a drain first (requests in progress may finish
 * within drainTimeoutMs), then the same; every handle closed. */
#include "mcp-server/app.h"
#include "mcp-server/config/config.h"
#include "mcp-server/http/http.h"
#include "mcp-server/http/oauth/verifier.h"
#include "transport/http_client.h"
#include "mcp-server/browser.h"
#include "mcp-server/prompt.h"
#include "mcp-server/run_output.h"
#include "mcp-server/server.h"
#include "mcp-server/stash.h"
#include "mcp-server/version.h"
#include "sandbox/host/admission.h"
#include "sandbox/host/execution.h"
#include "sandbox/host/pool.h"
#include "tools/policy/audit.h"
#include "tools/registry.h"
#include "tools/oauth/tokens.h"
#include "tools/state/service.h"
#include "transport/stdio.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/colocate.h"
#include "common/fd_limit.h"
#include "common/log.h"
#include "common/json.h"
#include "common/readonly_pages.h"
#include "common/utf8.h"

#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct app {
    uv_loop_t loop;
    const struct config *cfg;
    struct sandbox_pool *pool;
    struct tools_registry *tools;
    struct mcp_server *server;
    struct transport_stdio *stdio;
    struct mcp_http *http;
    struct http_oauth_settings oauth; /* codemode.http.oauth, when set */
    uv_signal_t sigterm, sigint, sighup;
    struct tools_audit *audit;
    struct tools_state_service *state; /* state.* and skills.*, or NULL when off */
    struct mcp_stash *stash;
    struct mcp_prompt *prompt; /* run on a terminal: approvals asked there */
    int stopping;
    int draining;
    int exit_code;
    /* run mode */
    struct run_output *output;
    uv_timer_t run_timer;       /* reads the stash (--out), then prints and stops */
    int run_timer_open;
    size_t reads_pending, reads_pending_total;
    int done;
};

static void tools_changed(void *ud)
{
    struct app *a = ud;
    if (a->server && !a->stopping)
        mcp_server_tools_changed(a->server);
    if (a->http && !a->stopping)
        mcp_http_tools_changed(a->http);
}

static struct tools_registry *start_registry(struct app *a, unsigned max_attempts)
{
    struct tools_registry_options o = {
        .servers = a->cfg->servers,
        .nservers = a->cfg->nservers,
        .call_timeout_ms = a->cfg->limits.call_timeout_ms,
        .declarations_budget = a->cfg->limits.declarations_budget,
        .declarations_preferred = a->cfg->declarations_preferred,
        .client_version = MCP_CODEMODE_VERSION,
        .max_attempts = max_attempts,
        .changed = tools_changed,
        .changed_ud = a,
        .policy = &a->cfg->policy,
        .audit = a->audit,
        .state = a->state,
        .learn_result_types = a->cfg->learn_result_types,
    };
    return tools_registry_new(&a->loop, &o);
}

/* Opens the audit log when one is configured. Returns 0, or -1 (reported). */
static int open_audit(struct app *a)
{
    if (a->cfg->audit_path == NULL)
        return 0;
    char *err = NULL;
    a->audit = tools_audit_open(a->cfg->audit_path,
                                (enum tools_audit_arguments) a->cfg->audit_arguments, &err);
    if (a->audit == NULL) {
        log_error("app", "%s", err);
        free(err);
        return -1;
    }
    return 0;
}

/* The state and skills services (NULL when both are off); a saved or
 * deleted skill changes the declarations and, with exposeAsTools, the tools. */
static struct tools_state_service *start_state(struct app *a)
{
    const struct config_state *c = &a->cfg->state;
    char *path = config_state_path(a->cfg);
    struct tools_state_service_options o = {
        .state = c->state,
        .skills = c->skills,
        .per_principal = c->per_principal,
        .skills_per_principal = c->skills_per_principal,
        .skill_admins = c->skill_admins,
        .skills_changed = tools_changed,
        .skills_changed_ud = a,
        .loop = &a->loop,
    };
    config_state_store(a->cfg, path, &o.store);
    struct tools_state_service *s = tools_state_service_new(&o);
    free(path);
    return s;
}

/* A PostgreSQL store (codemode.store) is reached once before serving: a
 * misspelt URL, a wrong password or a database of a newer schema stops the
 * start with the reason (later outages only fail the operations). */
static int check_store(struct tools_state_service *s)
{
    struct tools_state *st = tools_state_service_store(s);
    char err[TOOLS_STATE_ERR_MAX];
    if (!tools_state_is_shared(st) || tools_state_connect(st, err) == TOOLS_STATE_OK)
        return 0;
    log_error("app", "%s", err);
    return -1;
}

/* Without state and skills, OAuth tokens may still live on PostgreSQL
 * (codemode.store): that store is reached once before serving too, its
 * tables created or migrated. */
static int reach_oauth_store(const struct config *cfg)
{
    for (size_t i = 0; i < cfg->nservers; i++) {
        const struct tools_oauth_config *o = cfg->servers[i].oauth;
        if (o == NULL || o->store_url == NULL)
            continue;
        char err[TOOLS_STATE_ERR_MAX];
        if (tools_oauth_store_reach(o, err) != 0) {
            log_error("app", "%s", err);
            return -1;
        }
        return 0; /* one store for every server */
    }
    return 0;
}

/* codemode.sandbox.maxWorkers, or its default (sandbox/host/admission.h): each
 * worker may grow to the heap cap plus 16 MiB of engine and page tables. */
static unsigned app_max_workers(const struct config_limits *l)
{
    if (l->max_workers)
        return l->max_workers;
    uint64_t mem = uv_get_total_memory(), limit = uv_get_constrained_memory();
    if (limit && limit < mem)
        mem = limit; /* a cgroup's limit */
    return sandbox_admission_default_workers(uv_available_parallelism(), mem,
                                             l->memory_bytes + (16u << 20));
}

static void app_init(struct app *a, const struct config *cfg, const char *exe)
{
    memset(a, 0, sizeof *a);
    a->cfg = cfg;
    uv_loop_init(&a->loop);
    struct sandbox_pool_config pc = {
        .exe = exe,
        .size = cfg->limits.pool_size,
        .address_space_bytes = cfg->limits.memory_bytes + (1ull << 30),
        .cpu_seconds = (unsigned) (cfg->limits.max_timeout_ms / 1000) + 10,
        /* the largest message of any kind; each kind has its own limit
         * (sandbox_exec_max_line_bytes) */
        .max_line_bytes = (size_t) sandbox_exec_max_line_bytes(&(struct sandbox_exec_request){
            .max_result_bytes = cfg->limits.max_result_bytes,
            .max_whole_bytes = cfg->limits.stash_max_entries ? cfg->limits.stash_max_bytes : 0,
            .max_log_bytes = cfg->limits.max_log_bytes,
            .max_call_argument_bytes = cfg->limits.max_call_argument_bytes,
        }),
        .log_level = log_level_name(log_get_level()),
        .max_runs = cfg->limits.sandbox_reuse ? cfg->limits.max_runs_per_worker : 0,
        .idle_ms = cfg->limits.worker_idle_ms,
        /* start-up is over: drop the page tables of what only it used */
        .on_first_ready = readonly_pages_release,
    };
    /* A reused worker's CPU backstop counts all its runs: twice the longest
     * run, and the worker is reused only while it has used under half
     * (sandbox/worker/worker.c), so a run never meets the backstop before its
     * own deadline. */
    if (pc.max_runs > 1)
        pc.cpu_seconds *= 2;
    pc.max_workers = app_max_workers(&cfg->limits);
    pc.max_per_principal = cfg->limits.max_concurrent_per_principal;
    log_info("app", "sandbox: at most %u workers, %u executions per client at once", pc.max_workers,
             pc.max_per_principal);
#if defined(__SANITIZE_ADDRESS__)
    pc.address_space_bytes = 0; /* ASan reserves terabytes of address space */
#endif
    /* each call in flight to an HTTP server holds a descriptor (fd_limit.h) */
    log_debug("app", "open files allowed: %lu", fd_limit_raise());
    colocate_init(&a->loop, cfg->limits.colocate_calls);
    a->pool = sandbox_pool_new(&a->loop, &pc);
    struct mcp_stash_limits sl = {cfg->limits.stash_max_entries, cfg->limits.stash_max_bytes,
                                  cfg->limits.stash_ttl_ms};
    a->stash = mcp_stash_new(&sl);
    if (open_audit(a) < 0)
        a->exit_code = 1; /* the callers stop at once */
    a->state = start_state(a);
    if (a->state ? check_store(a->state) < 0 : reach_oauth_store(cfg) < 0)
        a->exit_code = 1; /* the callers stop at once */
    a->tools = start_registry(a, 0);
}


static void close_walk(uv_handle_t *h, void *arg)
{
    (void) arg;
    if (!uv_is_closing(h))
        uv_close(h, NULL);
}

/* Runs the loop to completion and releases everything. */
static int app_finish(struct app *a)
{
    uv_run(&a->loop, UV_RUN_DEFAULT);
    colocate_shutdown(); /* when stop() did not run; its handle is closed below */
    mcp_server_free(a->server);
    tools_audit_close(a->audit);
    tools_state_service_free(a->state);
    mcp_stash_free(a->stash);
    uv_run(&a->loop, UV_RUN_DEFAULT); /* the handles they closed (the store's pool) are freed */
    if (uv_loop_close(&a->loop) != 0) {
        log_warn("app", "handles left open at exit; closing them");
        uv_walk(&a->loop, close_walk, NULL);
        uv_run(&a->loop, UV_RUN_DEFAULT);
        uv_loop_close(&a->loop);
    }
    return a->exit_code;
}

static void signals_closed(uv_handle_t *h)
{
    (void) h;
}

static void stop(struct app *a)
{
    if (a->stopping)
        return;
    a->stopping = 1;
    if (a->server) {
        mcp_server_cancel_all(a->server);
        mcp_server_detach_pool(a->server); /* the pool is closed below, the server freed later */
    }
    if (a->http) {
        mcp_http_close(a->http); /* cancels what is left, closes every connection */
        a->http = NULL;
    }
    tools_registry_free(a->tools); /* downstream servers get stdin EOF, then signals */
    a->tools = NULL;
    sandbox_pool_close(a->pool, NULL, NULL);
    a->pool = NULL;
    colocate_shutdown();
    uv_close((uv_handle_t *) &a->sigterm, signals_closed);
    uv_close((uv_handle_t *) &a->sigint, signals_closed);
    uv_close((uv_handle_t *) &a->sighup, signals_closed);
    if (a->run_timer_open)
        uv_close((uv_handle_t *) &a->run_timer, signals_closed);
    a->run_timer_open = 0;
    mcp_prompt_close(a->prompt);
    a->prompt = NULL;
}

static void drained(void *ud)
{
    stop(ud);
}

static void on_signal(uv_signal_t *h, int signum)
{
    struct app *a = h->data;
    if (a->http && !a->draining) { /* first signal: let requests in progress finish */
        uint64_t ms = a->cfg->http_timeouts.drain ? a->cfg->http_timeouts.drain : 5000;
        log_info("app", "signal %d: draining (up to %llu ms)", signum, (unsigned long long) ms);
        a->draining = 1;
        mcp_http_drain(a->http, ms, drained, a);
        return;
    }
    log_info("app", "signal %d: stopping", signum);
    if (a->stdio) {
        transport_stdio_close(a->stdio);
        a->stdio = NULL;
    }
    stop(a);
}

/* SIGHUP: reopen the audit log (logrotate moved it). */
static void on_hangup(uv_signal_t *h, int signum)
{
    struct app *a = h->data;
    (void) signum;
    log_info("app", "SIGHUP: reopening the audit log");
    tools_audit_reopen(a->audit);
}

static void watch_signals(struct app *a)
{
    uv_signal_init(&a->loop, &a->sigterm);
    uv_signal_init(&a->loop, &a->sigint);
    uv_signal_init(&a->loop, &a->sighup);
    a->sigterm.data = a->sigint.data = a->sighup.data = a;
    uv_signal_start(&a->sigterm, on_signal, SIGTERM);
    uv_signal_start(&a->sigint, on_signal, SIGINT);
    uv_signal_start(&a->sighup, on_hangup, SIGHUP);
}

/* After app_init failed (exit_code set): stop and finish. */
static int app_abort(struct app *a)
{
    watch_signals(a);
    stop(a);
    return app_finish(a);
}

/* --- serve over stdio --------------------------------------------------------------------- */

static void stdio_send(void *ud, const char *data, size_t len, int final)
{
    (void) final;
    struct app *a = ud;
    if (a->stdio && transport_stdio_write(a->stdio, data, len) < 0)
        log_warn("app", "stdout is gone");
}

static void stdio_line(void *ud, char *line, size_t len)
{
    struct app *a = ud;
    if (!a->stopping)
        mcp_server_handle(a->server, line, len);
}

static void stdio_oversize(void *ud, const char *head, size_t head_len, size_t total)
{
    struct app *a = ud;
    mcp_server_handle_oversize(a->server, head, head_len, total);
}

static void stdout_flushed(void *ud)
{
    struct app *a = ud;
    if (a->stdio) {
        transport_stdio_close(a->stdio);
        a->stdio = NULL;
    }
}

static void stdio_eof(void *ud)
{
    struct app *a = ud;
    log_debug("app", "stdin closed: stopping");
    stop(a);
    if (a->stdio)
        transport_stdio_flush(a->stdio, stdout_flushed, a);
}

static const struct transport_stdio_events stdio_events = {stdio_line, stdio_oversize, stdio_eof};

int app_serve_stdio(const struct config *cfg, const char *exe)
{
    struct app a;
    app_init(&a, cfg, exe);
    if (a.exit_code)
        return app_abort(&a);
    struct mcp_server_config sc = {
        .loop = &a.loop, .pool = a.pool, .tools = a.tools, .limits = &cfg->limits, .audit = a.audit,
        .state = a.state, .expose_skills = cfg->state.expose_skills,
        .stash = a.stash};
    struct mcp_channel session = {&a, stdio_send, NULL};
    a.server = mcp_server_new(&sc, &session);
    char *err = NULL;
    a.stdio = transport_stdio_start(&a.loop, cfg->limits.max_message_bytes, &stdio_events, &a, &err);
    if (a.stdio == NULL) {
        log_error("app", "%s", err);
        free(err);
        a.exit_code = 1;
        watch_signals(&a);
        stop(&a);
        return app_finish(&a);
    }
    watch_signals(&a);
    log_info("app", "serving MCP on stdio (pool of %u workers)", cfg->limits.pool_size);
    return app_finish(&a);
}

/* --- serve over HTTP ------------------------------------------------------------------------ */

/* The token verifier's settings from codemode.http.oauth (borrowed). */
static struct http_oauth_settings oauth_settings(const struct config_http_oauth *o,
                                                 const char *audience)
{
    return (struct http_oauth_settings){
        .issuer = o->issuer,
        .audience = audience,
        .jwks_uri = o->jwks_uri,
        .introspection_url = o->introspection_url,
        .introspection_client_id = o->introspection_client_id,
        .introspection_client_secret = o->introspection_client_secret,
        .required_scopes = o->required_scopes,
        .scopes_supported = o->scopes_supported,
        .clock_skew_seconds = o->clock_skew_seconds,
    };
}

/* The redirect URI of logins while calls wait (docs/oauth.md): the public
 * URL with its /mcp replaced by /oauth/callback. */
static void set_login_redirect(struct app *a, const char *public_url)
{
    struct buf b;
    buf_init(&b, 0);
    size_t n = strlen(public_url);
    while (n > 0 && public_url[n - 1] == '/')
        n--;
    if (n >= 4 && strncmp(public_url + n - 4, "/mcp", 4) == 0)
        n -= 4;
    buf_printf(&b, "%.*s/oauth/callback", (int) n, public_url);
    tools_registry_set_oauth_redirect(a->tools, b.data);
    buf_free(&b);
}

int app_serve_http(const struct config *cfg, const char *exe)
{
    struct app a;
    app_init(&a, cfg, exe);
    if (a.exit_code)
        return app_abort(&a);
    struct mcp_http_config hc = {
        .server = {.loop = &a.loop,
                   .pool = a.pool,
                   .tools = a.tools,
                   .limits = &cfg->limits,
                   .audit = a.audit,
                   .state = a.state,
                   .expose_skills = cfg->state.expose_skills,
                   .stash = a.stash},
        .listen = cfg->http_listen,
        .auth_token = cfg->http_auth_token,
        .public_url = cfg->http_public_url,
        .allowed_origins = cfg->http_allowed_origins,
        .instance_id = cfg->http_instance_id,
        .max_body_bytes = cfg->limits.max_message_bytes,
        .session_timeout_ms = cfg->http_timeouts.session,
        .idle_timeout_ms = cfg->http_timeouts.idle,
        .headers_timeout_ms = cfg->http_timeouts.headers,
        .request_timeout_ms = cfg->http_timeouts.request,
        .max_connections = cfg->http_max_connections,
    };
    if (cfg->http_public_url) /* logins while calls wait come back to /oauth/callback */
        set_login_redirect(&a, cfg->http_public_url);
    const struct config_http_oauth *o = &cfg->http_oauth;
    if (o->enabled) {
        a.oauth = oauth_settings(o, o->audience);
        hc.oauth = &a.oauth;
    }
    char *err = NULL;
    watch_signals(&a);
    if (mcp_http_start(&hc, &a.http, &err) != 0) {
        log_error("app", "%s", err);
        free(err);
        a.exit_code = 1;
        stop(&a);
        return app_finish(&a);
    }
    /* Always printed (whatever the log level): how scripts learn the port. */
    fprintf(stderr, "mcp-codemode: listening on %s (Streamable HTTP: /mcp, legacy SSE: /sse)\n",
            mcp_http_url(a.http));
    log_info("app", "serving MCP over HTTP (pool of %u workers)", cfg->limits.pool_size);
    return app_finish(&a);
}

/* --- run one program -------------------------------------------------------------------------- */

/* Writes a string of a message (internal form, common/utf8.h) and a newline
 * to f as its own bytes: a NUL in a console line is a NUL on the terminal. */
static void print_text(FILE *f, const char *prefix, const char *s)
{
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, prefix);
    utf8_append_external(&b, s, strlen(s));
    buf_append_char(&b, '\n');
    fwrite(b.data, 1, b.len, f);
    buf_free(&b);
}

static void print_log_notification(const cJSON *params)
{
    const cJSON *level = cJSON_GetObjectItemCaseSensitive(params, "level");
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(params, "data");
    if (!cJSON_IsString(data))
        return;
    const char *l = cJSON_IsString(level) ? level->valuestring : "info";
    char prefix[32] = "";
    if (strcmp(l, "info") != 0)
        snprintf(prefix, sizeof prefix, "[%.20s] ", strcmp(l, "warning") == 0 ? "warn" : l);
    print_text(stderr, prefix, data->valuestring);
}

static void send_to_server(struct app *a, cJSON *msg)
{
    char *text = json_print(msg);
    mcp_server_handle(a->server, text, strlen(text));
    free(text);
    cJSON_Delete(msg);
}

/* The request ids of run's in-process client: execute_code, then one
 * resources/read per stashed resource that --out writes to a file. */
#define RUN_EXECUTE_ID 3
#define RUN_READ_ID0 100

/* Prints the result and stops (on the loop's turn after the last answer). */
static void run_finish(uv_timer_t *t)
{
    struct app *a = t->data;
    a->exit_code = run_output_print(a->output);
    a->done = 1;
    stop(a); /* closes t */
}

static void run_finish_soon(struct app *a)
{
    a->run_timer.data = a;
    uv_timer_start(&a->run_timer, run_finish, 0, 0);
}

/* Asks the server for each stashed resource of the result (--out). */
static void run_read_stash(uv_timer_t *t)
{
    struct app *a = t->data;
    for (size_t i = 0; i < a->reads_pending_total; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "jsonrpc", "2.0");
        cJSON_AddNumberToObject(m, "id", RUN_READ_ID0 + (double) i);
        cJSON_AddStringToObject(m, "method", "resources/read");
        cJSON_AddStringToObject(cJSON_AddObjectToObject(m, "params"), "uri",
                                run_output_stash_uri(a->output, i));
        send_to_server(a, m);
    }
}

/* The in-process client's side of the server's output. */
static void run_sink(void *ud, const char *data, size_t len, int final)
{
    (void) final;
    struct app *a = ud;
    cJSON *m = json_parse(data, len);
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(m, "method");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(m, "result");
    if (cJSON_IsString(method) && strcmp(method->valuestring, "notifications/message") == 0) {
        print_log_notification(cJSON_GetObjectItemCaseSensitive(m, "params"));
    } else if (cJSON_IsNumber(id) && id->valueint == RUN_EXECUTE_ID && result) {
        a->reads_pending = a->reads_pending_total = run_output_take(a->output, result);
        uv_timer_init(&a->loop, &a->run_timer);
        a->run_timer.data = a;
        a->run_timer_open = 1;
        if (a->reads_pending)
            uv_timer_start(&a->run_timer, run_read_stash, 0, 0);
        else
            run_finish_soon(a);
    } else if (cJSON_IsNumber(id) && id->valueint == RUN_EXECUTE_ID) {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(m, "error");
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(e, "message");
        fprintf(stderr, "mcp-codemode: %s\n", cJSON_IsString(msg) ? msg->valuestring : "error");
        a->exit_code = 2;
        a->done = 1;
        stop(a);
    } else if (cJSON_IsNumber(id) && id->valuedouble >= RUN_READ_ID0 &&
               id->valuedouble < RUN_READ_ID0 + (double) a->reads_pending_total &&
               a->reads_pending > 0) {
        run_output_stash_read(a->output, (size_t) (id->valuedouble - RUN_READ_ID0), result);
        if (--a->reads_pending == 0)
            run_finish_soon(a);
    }
    cJSON_Delete(m);
}

/* Who approves `ask` tools in run: --approve, else the terminal when stderr
 * is one (and /dev/tty opens), else nobody. */
static enum mcp_approve run_approver(struct app *a, int flags)
{
    if (flags & APP_RUN_APPROVE_ALL)
        return MCP_APPROVE_ALL;
    if (flags & APP_RUN_APPROVE_NONE)
        return MCP_APPROVE_NONE;
    if (isatty(STDERR_FILENO) && (a->prompt = mcp_prompt_open(&a->loop)) != NULL)
        return MCP_APPROVE_TERMINAL;
    return MCP_APPROVE_NONE;
}

int app_run_program(const struct config *cfg, const char *exe, const char *code, size_t len,
                    const struct app_run_options *ro)
{
    struct app a;
    int json = ro->flags;
    app_init(&a, cfg, exe);
    if (a.exit_code)
        return app_abort(&a);
    a.output = run_output_new(json & APP_RUN_JSON, ro->out_dir);
    struct mcp_server_config sc = {
        .loop = &a.loop, .pool = a.pool, .tools = a.tools, .limits = &cfg->limits, .audit = a.audit,
        .state = a.state, .expose_skills = cfg->state.expose_skills,
        .stash = a.stash};
    sc.approve = run_approver(&a, json);
    sc.prompt = a.prompt;
    /* a person is there to log in (docs/oauth.md), unless --no-login */
    sc.login_here = !(json & APP_RUN_NO_LOGIN) && (isatty(STDIN_FILENO) || mcp_browser_set());
    struct mcp_channel session = {&a, run_sink, NULL};
    a.server = mcp_server_new(&sc, &session);
    mcp_server_set_principal(a.server, ro->principal ? ro->principal : APP_RUN_PRINCIPAL);
    watch_signals(&a);

    send_to_server(&a, cJSON_Parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                                   "\"params\":{\"protocolVersion\":\"2025-11-25\","
                                   "\"capabilities\":{},\"clientInfo\":{\"name\":\"mcp-codemode "
                                   "run\",\"version\":\"1\"}}}"));
    send_to_server(&a, cJSON_Parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
    send_to_server(&a, cJSON_Parse("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"logging/setLevel\","
                                   "\"params\":{\"level\":\"debug\"}}"));
    cJSON *call = cJSON_Parse("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                              "\"params\":{\"name\":\"execute_code\",\"arguments\":{}}}");
    cJSON *args = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(call, "params"),
                                                   "arguments");
    char *copy = xstrndup(code, len);
    cJSON_AddStringToObject(args, "code", copy);
    if (json & APP_RUN_DRY_RUN)
        cJSON_AddTrueToObject(args, "dryRun");
    free(copy);
    send_to_server(&a, call);
    int rc = app_finish(&a);
    run_output_free(a.output);
    return rc;
}

/* --- types, check ---------------------------------------------------------------------------- */

struct inspect {
    struct app *a;
    int check;
    int full; /* types --full */
    uv_timer_t later;
    int scoped;    /* check --token: decisions for the token's scopes */
    char **scopes; /* the token's scopes (NULL-terminated), or NULL */
};

static void inspect_closed(uv_handle_t *h)
{
    (void) h;
}

/* Frees the registry outside the waiter callback that reported it settled
 * (the registry is still walking its waiters there). */
static void inspect_done(uv_timer_t *t)
{
    struct inspect *in = t->data;
    tools_registry_free(in->a->tools);
    in->a->tools = NULL;
    uv_close((uv_handle_t *) t, inspect_closed);
}

static void inspected(void *ud)
{
    struct inspect *in = ud;
    struct app *a = in->a;
    char *text = in->scoped  ? tools_registry_report_scoped(a->tools, in->scopes)
                 : in->check ? tools_registry_report(a->tools)
                 : in->full  ? tools_registry_declarations_full(a->tools, NULL)
                             : tools_registry_declarations(a->tools, NULL);
    fputs(text, stdout);
    fflush(stdout);
    free(text);
    if (in->check && !tools_registry_all_ready(a->tools))
        a->exit_code = 1;
    uv_timer_start(&in->later, inspect_done, 0, 0);
}

/* check --token: the verifier's answer. */
struct token_check {
    uv_loop_t *loop;
    int done, status;
    char *line;    /* what to print */
    char **scopes; /* granted (NULL-terminated) */
};

static void token_checked(void *ud, enum http_token_status status,
                          const struct http_token_identity *id, const char *reason)
{
    struct token_check *tc = ud;
    struct buf b;
    buf_init(&b, 0);
    tc->done = 1;
    tc->status = (int) status;
    if (status == HTTP_TOKEN_VALID && id && id->iss && id->sub) {
        char *who = mcp_http_principal_name(id->iss, id->sub);
        size_t n = 0;
        while (id->scopes && id->scopes[n])
            n++;
        tc->scopes = xcalloc(n + 1, sizeof *tc->scopes);
        buf_printf(&b, "token: valid: principal %s, scopes:", who);
        for (size_t i = 0; i < n; i++) {
            tc->scopes[i] = xstrdup(id->scopes[i]);
            buf_printf(&b, " %s", id->scopes[i]);
        }
        if (n == 0)
            buf_printf(&b, " (none)");
        if (id->client_id)
            buf_printf(&b, ", client %s", id->client_id);
        free(who);
    } else {
        tc->status = status == HTTP_TOKEN_VALID ? HTTP_TOKEN_INVALID : (int) status;
        buf_printf(&b, "token: refused%s: %s",
                   status == HTTP_TOKEN_UNAVAILABLE ? " (it cannot be checked now)" : "",
                   reason ? reason : "it names no subject");
    }
    tc->line = buf_steal(&b);
    uv_stop(tc->loop);
}

/* Checks the token as the HTTP endpoint would. Returns 0 with *scopes set,
 * or 1 (refused) / 2 (cannot check: no oauth settings), reported. */
static int check_token(struct app *a, const char *token, char ***scopes)
{
    const struct config *cfg = a->cfg;
    const struct config_http_oauth *o = &cfg->http_oauth;
    const char *audience = o->audience ? o->audience : cfg->http_public_url;
    if (!o->enabled || audience == NULL) {
        fprintf(stderr, "mcp-codemode: check --token: %s\n",
                !o->enabled ? "the config has no codemode.http.oauth to check a token against"
                            : "set codemode.http.publicUrl (or codemode.http.oauth.audience): "
                              "the resource tokens must be issued for");
        return 2;
    }
    struct http_oauth_settings s = oauth_settings(o, audience);
    char why[300] = "";
    struct http_client *hc = http_client_new(&a->loop, "mcp-codemode", why, sizeof why);
    struct http_token_verifier *v =
        hc ? http_token_verifier_new(&a->loop, hc, &s, why, sizeof why) : NULL;
    if (v == NULL) {
        fprintf(stderr, "mcp-codemode: check --token: %s\n", why);
        if (hc)
            http_client_free(hc);
        return 2;
    }
    struct token_check tc = {.loop = &a->loop};
    http_token_verify(v, token, strlen(token), token_checked, &tc);
    while (!tc.done)
        uv_run(&a->loop, UV_RUN_DEFAULT);
    http_token_verifier_free(v);
    http_client_free(hc); /* its handles close while the loop runs on */
    printf("%s\n", tc.line);
    fflush(stdout);
    free(tc.line);
    *scopes = tc.scopes;
    return tc.status == HTTP_TOKEN_VALID ? 0 : 1;
}

int app_inspect(const struct config *cfg, int check, int full, const char *token)
{
    struct app a;
    memset(&a, 0, sizeof a);
    a.cfg = cfg;
    uv_loop_init(&a.loop);
    struct inspect in = {&a, check, full, {0}, token != NULL, NULL};
    if (token) {
        int rc = check_token(&a, token, &in.scopes);
        if (rc != 0) {
            uv_run(&a.loop, UV_RUN_DEFAULT); /* the HTTP client's handles close */
            uv_loop_close(&a.loop);
            return rc;
        }
    }
    /* `types` shows state and skills; both show the types learned from results */
    a.state = start_state(&a);
    a.tools = start_registry(&a, check ? 1 : 3);
    uv_timer_init(&a.loop, &in.later);
    in.later.data = &in;
    tools_registry_when_settled(a.tools, 60000, inspected, &in);
    int rc = app_finish(&a);
    for (char **sc = in.scopes; sc && *sc; sc++)
        free(*sc);
    free(in.scopes);
    return rc;
}
