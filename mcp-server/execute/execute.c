/* execute_code: checks the arguments, runs the program in a sandbox worker,
 * routes its host calls to the tools registry (cancelling them if the run
 * ends first), streams console lines as progress/log notifications, and
 * turns the outcome into a CallToolResult for the request's revision. */
#include "mcp-server/execute/internal.h"
#include "mcp-server/config/config.h"
#include "mcp-server/execute/content.h"
#include "mcp-server/stash.h"
#include "mcp-server/execute/stash_link.h"
#include "sandbox/host/admission.h"
#include "sandbox/host/execution.h"
#include "sandbox/host/pool.h"
#include "tools/gate/gate.h"
#include "tools/policy/audit.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/sha256.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct host_call;

struct mcp_execution {
    struct mcp_request *req;
    struct sandbox_exec *x;
    struct host_call *calls; /* outstanding */
    struct tools_exec *tx;   /* grants, dry run, approvals of this execution */
    int dry_run;
    char id[33]; /* execution id (audit log) */
    struct tools_approver approver;
    struct tools_login_asker login; /* a login while a call waits (login_ask.c) */
    uint64_t t0;
    char code_sha[65]; /* what a 2026-07-28 retry must repeat (park in approval.c) */
    struct sandbox_ticket *ticket; /* its place under the sandbox's caps (admission.h) */
    struct sandbox_pool *pool;
    struct sandbox_exec_request rq; /* while queued: the run, its strings owned here */
    uv_timer_t *wait;               /* while queued: gives up after the run's timeout */
};

struct host_call {
    struct mcp_execution *e;
    long id;
    struct tools_call *handle; /* answers after tools_exec_call returned, never inside */
    struct host_call *prev, *next;
};

/* --- host calls ---------------------------------------------------------------------- */

static void unlink_call(struct host_call *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        c->e->calls = c->next;
    if (c->next)
        c->next->prev = c->prev;
}

static void call_replied(void *ud, int ok, const char *json, size_t len)
{
    struct host_call *c = ud;
    sandbox_exec_reply(c->e->x, c->id, ok, json, len);
    unlink_call(c);
    free(c);
}

/* content.stash(value), once the gate let it through (stash_link.c). */
static int stash_value(void *ud, const cJSON *value, struct buf *out)
{
    struct mcp_execution *e = ud;
    return mcp_stash_link_call(e->req, value, out);
}

static void on_call(void *ud, struct sandbox_exec *x, long id, const char *op, const char *name,
                    const cJSON *args)
{
    struct mcp_execution *e = ud;
    (void) x;
    struct host_call *c = xcalloc(1, sizeof *c);
    c->e = e;
    c->id = id;
    if (e->req->progress_token && strcmp(op, "tool") == 0) { /* formatted only when wanted */
        char msg[300];
        snprintf(msg, sizeof msg, "calling %.250s", name);
        mcp_request_progress(e->req, msg);
    }
    c->handle = tools_exec_call(e->tx, op, name, args, call_replied, c);
    c->next = e->calls;
    if (e->calls)
        e->calls->prev = c;
    e->calls = c;
}

static void cancel_calls(struct mcp_execution *e)
{
    while (e->calls) {
        struct host_call *c = e->calls;
        e->calls = c->next;
        tools_call_cancel(c->handle);
        free(c);
    }
}

static void on_log(void *ud, struct sandbox_exec *x, const char *level, const char *text)
{
    struct mcp_execution *e = ud;
    (void) x;
    mcp_request_progress(e->req, text);
    mcp_request_log(e->req, level, text);
}

/* --- results -------------------------------------------------------------------------- */

static void format_log_line(struct buf *b, const struct sandbox_log_line *l)
{
    if (strcmp(l->level, "log") != 0 && strcmp(l->level, "info") != 0)
        buf_printf(b, "[%s] ", l->level);
    buf_append_str(b, l->text);
}

static cJSON *logs_array(const struct sandbox_exec_result *r, const char *dropped_note)
{
    cJSON *a = cJSON_CreateArray();
    struct buf b;
    buf_init(&b, 0);
    for (size_t i = 0; i < r->nlogs; i++) {
        buf_reset(&b);
        format_log_line(&b, &r->logs[i]);
        cJSON_AddItemToArray(a, cJSON_CreateString(b.data));
    }
    buf_free(&b);
    if (dropped_note)
        cJSON_AddItemToArray(a, cJSON_CreateString(dropped_note));
    return a;
}

static char *console_text(const struct sandbox_exec_result *r, const char *dropped_note)
{
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, "console output:");
    for (size_t i = 0; i < r->nlogs; i++) {
        buf_append_char(&b, '\n');
        format_log_line(&b, &r->logs[i]);
    }
    if (dropped_note)
        buf_printf(&b, "\n%s", dropped_note);
    return buf_steal(&b);
}

static cJSON *stats_object(const struct mcp_server *server, const struct sandbox_exec_result *r)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddNumberToObject(s, "durationMs", (double) r->duration_ms);
    cJSON_AddNumberToObject(s, "toolCalls", r->tool_calls);
    const cJSON *peak = cJSON_GetObjectItemCaseSensitive(r->stats, "memoryPeakBytes");
    if (cJSON_IsNumber(peak))
        cJSON_AddNumberToObject(s, "memoryPeakBytes", peak->valuedouble);
    if (r->logs_dropped)
        cJSON_AddNumberToObject(s, "logLinesDropped", r->logs_dropped);
    const cJSON *unhandled = cJSON_GetObjectItemCaseSensitive(r->stats, "unhandledRejections");
    if (cJSON_IsNumber(unhandled) && unhandled->valuedouble > 0)
        cJSON_AddNumberToObject(s, "unhandledRejections", unhandled->valuedouble);
    if (server->worker_stats && r->worker_pid) { /* tests of worker reuse */
        cJSON_AddNumberToObject(s, "workerPid", r->worker_pid);
        cJSON_AddNumberToObject(s, "workerRun", r->worker_run);
        const cJSON *pages = cJSON_GetObjectItemCaseSensitive(r->stats, "restoredPages");
        if (cJSON_IsNumber(pages))
            cJSON_AddNumberToObject(s, "restoredPages", pages->valuedouble);
    }
    return s;
}

static void add_text(cJSON *content, const char *text)
{
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "type", "text");
    cJSON_AddStringToObject(t, "text", text);
    cJSON_AddItemToArray(content, t);
}

static char *error_text(const cJSON *err)
{
    struct buf b;
    buf_init(&b, 0);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(err, "name");
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(err, "message");
    const cJSON *line = cJSON_GetObjectItemCaseSensitive(err, "line");
    const cJSON *col = cJSON_GetObjectItemCaseSensitive(err, "column");
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(err, "excerpt");
    const cJSON *stack = cJSON_GetObjectItemCaseSensitive(err, "stack");
    buf_printf(&b, "%s: %s", cJSON_IsString(name) ? name->valuestring : "Error",
               cJSON_IsString(msg) ? msg->valuestring : "");
    const cJSON *skill = cJSON_GetObjectItemCaseSensitive(err, "skill");
    const cJSON *skill_line = cJSON_GetObjectItemCaseSensitive(err, "skillLine");
    if (cJSON_IsNumber(line)) {
        buf_printf(&b, "\n    at line %d", (int) line->valuedouble);
        if (cJSON_IsNumber(col))
            buf_printf(&b, ", column %d", (int) col->valuedouble);
    } else if (cJSON_IsString(skill) && cJSON_IsNumber(skill_line)) {
        buf_printf(&b, "\n    at line %d of skill %.64s", (int) skill_line->valuedouble,
                   skill->valuestring);
    }
    if (cJSON_IsString(ex))
        buf_printf(&b, "\n%s", ex->valuestring);
    if (cJSON_IsString(stack))
        buf_printf(&b, "\nstack:\n%s", stack->valuestring);
    return buf_steal(&b);
}

static char *value_text(const cJSON *outcome, const char *whole_uri)
{
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(outcome, "value");
    const cJSON *trunc = cJSON_GetObjectItemCaseSensitive(outcome, "truncated");
    if (trunc && cJSON_IsString(value)) {
        const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(trunc, "bytes");
        const cJSON *limit = cJSON_GetObjectItemCaseSensitive(trunc, "limit");
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "%s\n[result truncated: its JSON is %.0f bytes, over the limit of %.0f bytes; ",
                   value->valuestring, cJSON_IsNumber(bytes) ? bytes->valuedouble : 0,
                   cJSON_IsNumber(limit) ? limit->valuedouble : 0);
        if (whole_uri)
            buf_printf(&b, "the whole result can be read for a while as the resource %s]", whole_uri);
        else
            buf_append_str(&b, "return less, or a summary]");
        return buf_steal(&b);
    }
    if (value == NULL)
        return xstrdup("undefined (the program returned no value)");
    return json_print(value);
}

/* A result over the limit that came whole: kept in the stash (stash_link.c);
 * the link block, or NULL (no stash, or too big for it). */
static cJSON *keep_whole(struct mcp_request *req, const cJSON *outcome, char *uri)
{
    const cJSON *whole = cJSON_GetObjectItemCaseSensitive(outcome, "whole");
    if (whole == NULL || !cJSON_GetObjectItemCaseSensitive(outcome, "truncated"))
        return NULL;
    if (cJSON_IsRaw(whole) && whole->valuestring) {
        /* the checked JSON text, as the worker sent it: the stash takes it
         * as it is (a copy would touch as many fresh pages, on the loop) */
        char *text = whole->valuestring;
        ((cJSON *) whole)->valuestring = NULL; /* prints as null; the result never shows it */
        return mcp_stash_link_adopt(req, text, strlen(text), uri);
    }
    char *text = json_print(whole);
    cJSON *link = mcp_stash_link_keep(req, text, strlen(text), uri);
    free(text);
    return link;
}

/* structuredContent.result / resultTruncated / content for a success. */
static void structured_value(cJSON *sc, const cJSON *outcome, int is_content, const char *uri)
{
    const cJSON *trunc = cJSON_GetObjectItemCaseSensitive(outcome, "truncated");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(outcome, "value");
    if (trunc) {
        cJSON_AddNullToObject(sc, "result");
        cJSON *t = cJSON_Duplicate(trunc, 1);
        if (uri)
            cJSON_AddStringToObject(t, "uri", uri);
        cJSON_AddItemToObject(sc, "resultTruncated", t);
    } else if (is_content) {
        cJSON_AddItemToObject(sc, "content", mcp_content_summary(value));
    } else if (value) {
        cJSON_AddItemToObject(sc, "result", cJSON_Duplicate(value, 1));
    }
}

static cJSON *build_result(struct mcp_request *req, const struct sandbox_exec_result *r)
{
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(r->outcome, "ok");
    int success = cJSON_IsTrue(ok);
    char note[160], *dropped = NULL, uri[MCP_STASH_URI_MAX];
    if (r->logs_dropped) {
        snprintf(note, sizeof note,
                 "[%s%u more console lines dropped: the console output limit was reached]",
                 r->logs_dropped_at_least ? "at least " : "", r->logs_dropped);
        dropped = note;
    }
    cJSON *res = cJSON_CreateObject();
    cJSON *content = cJSON_AddArrayToObject(res, "content");
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(r->outcome, "error");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(r->outcome, "value");
    cJSON *link = success ? keep_whole(req, r->outcome, uri) : NULL;
    int is_content = success && !cJSON_GetObjectItemCaseSensitive(r->outcome, "truncated") &&
                     mcp_content_is_content(value);
    if (is_content) {
        mcp_content_append(content, value, req->rev);
    } else {
        char *main_text = success ? value_text(r->outcome, link ? uri : NULL) : error_text(err);
        add_text(content, main_text);
        free(main_text);
    }
    if (link)
        cJSON_AddItemToArray(content, link);
    if (r->nlogs || dropped) {
        char *ct = console_text(r, dropped);
        add_text(content, ct);
        free(ct);
    }
    if (!success)
        cJSON_AddTrueToObject(res, "isError");
    if (mcp_has_structured_content(req->rev)) {
        cJSON *sc = cJSON_AddObjectToObject(res, "structuredContent");
        if (success)
            structured_value(sc, r->outcome, is_content, link ? uri : NULL);
        else if (err)
            cJSON_AddItemToObject(sc, "error", cJSON_Duplicate(err, 1));
        cJSON_AddItemToObject(sc, "logs", logs_array(r, dropped));
        cJSON_AddItemToObject(sc, "stats", stats_object(req->server, r));
    }
    return res;
}

static void audit_done(struct mcp_execution *e, const struct sandbox_exec_result *r)
{
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(r->outcome, "error");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(err, "name");
    int ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r->outcome, "ok"));
    mcp_authority_audit_end(e->req, e->id, ok ? "ok" : "error",
                            cJSON_IsString(name) ? name->valuestring : NULL,
                            (double) ((uv_hrtime() - e->t0) / 1000) / 1000.0, r->tool_calls);
}

static void on_done(void *ud, struct sandbox_exec *x, const struct sandbox_exec_result *r)
{
    struct mcp_execution *e = ud;
    (void) x;
    cancel_calls(e);
    struct mcp_request *req = e->req;
    req->exec = NULL;
    audit_done(e, r);
    cJSON *res = build_result(req, r);
    if (e->dry_run)
        mcp_authority_add_planned(res, tools_exec_planned(e->tx));
    tools_exec_free(e->tx);
    struct sandbox_ticket *t = e->ticket;
    free(e);
    mcp_stash_link_finish(req, res); /* once its stash writes are shared (PostgreSQL) */
    sandbox_admission_leave(t); /* may start the next queued execution */
}

static const struct sandbox_exec_events exec_events = {on_call, on_log, on_done};

/* --- start / cancel ---------------------------------------------------------------------- */

/* Answers invalid arguments as a tool error the model can correct. */
static void argument_error(struct mcp_request *r, const char *message)
{
    cJSON *res = cJSON_CreateObject();
    add_text(cJSON_AddArrayToObject(res, "content"), message);
    cJSON_AddTrueToObject(res, "isError");
    mcp_request_result(r, res);
}

static int read_timeout(const cJSON *t, const struct config_limits *l, uint64_t *out, char *msg,
                        size_t msgsz)
{
    if (t == NULL) {
        *out = l->timeout_ms;
        return 0;
    }
    if (!cJSON_IsNumber(t) || t->valuedouble != floor(t->valuedouble) || t->valuedouble < 1 ||
        t->valuedouble > (double) l->max_timeout_ms) {
        snprintf(msg, msgsz,
                 "execute_code: timeoutMs must be an integer from 1 to %llu (milliseconds)",
                 (unsigned long long) l->max_timeout_ms);
        return -1;
    }
    *out = (uint64_t) t->valuedouble;
    return 0;
}

/* --- admission (sandbox/host/admission.h) ----------------------------------------------------- */

static void wait_closed(uv_handle_t *h)
{
    free(h);
}

/* Frees what a queued execution kept for its run, and its wait timer. */
static void forget_queued_run(struct mcp_execution *e)
{
    free((char *) e->rq.code);
    free((char *) e->rq.catalog_json);
    free((char *) e->rq.builtins_json);
    e->rq.code = e->rq.catalog_json = e->rq.builtins_json = NULL;
    if (e->wait) {
        uv_timer_stop(e->wait);
        uv_close((uv_handle_t *) e->wait, wait_closed);
        e->wait = NULL;
    }
}

/* The run starts on a worker (sandbox_exec_start copies the strings). */
static void start(struct mcp_execution *e)
{
    e->x = sandbox_exec_start(e->pool, &e->rq, &exec_events, e);
    forget_queued_run(e);
}

/* A queued execution's turn came (inside sandbox_admission_leave). */
static void admitted(void *ud)
{
    start(ud);
}

/* An isError result for an execution that never ran: content text, and
 * (where the revision has it) structuredContent with the error and empty
 * logs and stats, like an execution's own errors. */
static void not_run(struct mcp_request *r, const char *name, const char *message, double waited_ms)
{
    cJSON *res = cJSON_CreateObject();
    char text[600];
    snprintf(text, sizeof text, "%s: %s", name, message); /* as error_text words it */
    add_text(cJSON_AddArrayToObject(res, "content"), text);
    cJSON_AddTrueToObject(res, "isError");
    if (mcp_has_structured_content(r->rev)) {
        cJSON *sc = cJSON_AddObjectToObject(res, "structuredContent");
        cJSON *err = cJSON_AddObjectToObject(sc, "error");
        cJSON_AddStringToObject(err, "name", name);
        cJSON_AddStringToObject(err, "message", message);
        cJSON_AddArrayToObject(sc, "logs");
        cJSON *stats = cJSON_AddObjectToObject(sc, "stats");
        cJSON_AddNumberToObject(stats, "durationMs", waited_ms);
        cJSON_AddNumberToObject(stats, "toolCalls", 0);
    }
    mcp_request_result(r, res);
}

/* The queue had no room: the execution is refused before anything ran. */
static void refused(struct mcp_request *r, struct sandbox_pool *pool, enum sandbox_admit why)
{
    const struct sandbox_admission_limits *l =
        sandbox_admission_limits(sandbox_pool_admission(pool));
    char msg[400];
    if (why == SANDBOX_ADMIT_PRINCIPAL_FULL)
        snprintf(msg, sizeof msg,
                 "too many executions of this client at once: %u run "
                 "(codemode.sandbox.maxConcurrentPerPrincipal) and %u more wait, the most "
                 "allowed; the program did not run. Wait for some to finish and try again.",
                 l->max_per_principal, l->max_queued_per_principal);
    else
        snprintf(msg, sizeof msg,
                 "the server is at capacity: %u executions wait for one of its "
                 "%u sandbox workers (codemode.sandbox.maxWorkers), the most allowed; the "
                 "program did not run. Try again later.",
                 l->max_queued, l->max_active);
    not_run(r, "CapacityError", msg, 0);
}

/* A queued execution waited as long as its timeout: it ends without running. */
static void waited_too_long(uv_timer_t *t)
{
    struct mcp_execution *e = t->data;
    struct mcp_request *req = e->req;
    double ms = (double) ((uv_hrtime() - e->t0) / 1000) / 1000.0;
    char msg[400];
    snprintf(msg, sizeof msg,
             "no sandbox worker became free within the execution's timeout "
             "(%llu ms): the server runs at most codemode.sandbox.maxConcurrentPerPrincipal "
             "executions of one client and codemode.sandbox.maxWorkers in all; the program did "
             "not run.",
             (unsigned long long) e->rq.timeout_ms);
    req->exec = NULL;
    mcp_authority_audit_end(req, e->id, "error", "TimeoutError", ms, 0);
    tools_exec_free(e->tx);
    struct sandbox_ticket *tk = e->ticket;
    forget_queued_run(e);
    free(e);
    not_run(req, "TimeoutError", msg, ms);
    sandbox_admission_leave(tk);
}

void mcp_execute(struct mcp_request *r, const cJSON *arguments)
{
    const struct config_limits *l = r->server->cfg.limits;
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(arguments, "code");
    if (!cJSON_IsObject(arguments) || !cJSON_IsString(code)) {
        argument_error(r, "execute_code: arguments must be an object with \"code\" (a string of "
                          "JavaScript)");
        return;
    }
    for (const cJSON *a = arguments->child; a; a = a->next) {
        if (strcmp(a->string, "code") != 0 && strcmp(a->string, "timeoutMs") != 0 &&
            strcmp(a->string, "allow") != 0 && strcmp(a->string, "dryRun") != 0 &&
            strcmp(a->string, "maxToolCalls") != 0) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "execute_code: unknown argument \"%.100s\" (expected code, timeoutMs, "
                     "allow, dryRun, maxToolCalls)",
                     a->string);
            argument_error(r, msg);
            return;
        }
    }
    uint64_t timeout;
    char msg[300];
    struct mcp_authority au;
    if (read_timeout(cJSON_GetObjectItemCaseSensitive(arguments, "timeoutMs"), l, &timeout, msg,
                     sizeof msg) != 0) {
        argument_error(r, msg);
        return;
    }
    if (r->server->cfg.pool == NULL) { /* the server is stopping (mcp_server_detach_pool) */
        argument_error(r, "execute_code: the server is shutting down");
        return;
    }
    if (mcp_authority_read(arguments, l->max_tool_calls, &au, msg, sizeof msg) != 0) {
        argument_error(r, msg);
        mcp_authority_free(&au);
        return;
    }
    struct sandbox_pool *pool = r->server->cfg.pool;
    struct mcp_execution *e = xcalloc(1, sizeof *e);
    enum sandbox_admit admit =
        sandbox_admission_enter(sandbox_pool_admission(pool),
                                r->server->admission_principal ? r->server->admission_principal
                                                               : r->server->worker_principal,
                                admitted, e, &e->ticket);
    if (admit == SANDBOX_ADMIT_PRINCIPAL_FULL || admit == SANDBOX_ADMIT_SERVER_FULL) {
        free(e);
        mcp_authority_free(&au);
        refused(r, pool, admit);
        return;
    }
    e->req = r;
    e->pool = pool;
    r->exec = e;
    e->dry_run = au.dry_run;
    e->t0 = uv_hrtime();
    tools_audit_new_id(e->id);
    if (mcp_is_modern(r->rev))
        sha256_hex(code->valuestring, strlen(code->valuestring), e->code_sha);
    e->approver = mcp_approval_approver(e);
    e->login = r->server->cfg.login_here ? mcp_login_here_asker(e)
               : mcp_is_modern(r->rev)   ? mcp_login_park_asker(e)
                                         : mcp_login_asker(e);
    struct tools_exec_options xo = {.allow = au.allow,
                                    .dry_run = au.dry_run,
                                    .execution_id = e->id,
                                    .approver = &e->approver,
                                    .login = &e->login,
                                    .principal = mcp_state_principal(r->server),
                                    .scopes = r->server->scopes,
                                    .stash = stash_value,
                                    .stash_ud = e};
    e->tx = tools_exec_new(r->server->cfg.tools, &xo);
    mcp_authority_audit_start(r, e->id, code->valuestring, &au);
    struct sandbox_exec_request rq = {
        .code = xstrdup(code->valuestring),
        .code_len = strlen(code->valuestring),
        .catalog_json = tools_exec_catalog(e->tx),
        .timeout_ms = timeout,
        .memory_bytes = l->memory_bytes,
        .max_result_bytes = l->max_result_bytes,
        .max_whole_bytes = l->stash_max_entries ? l->stash_max_bytes : 0,
        .max_log_bytes = l->max_log_bytes,
        .max_call_argument_bytes = l->max_call_argument_bytes,
        .max_calls = au.max_calls,
        .max_concurrent = l->max_concurrent_calls,
        .principal = r->server->worker_principal,
        .builtins_json = tools_exec_builtins(e->tx),
    };
    e->rq = rq;
    mcp_authority_free(&au);
    if (admit == SANDBOX_ADMIT_NOW) {
        start(e);
        return;
    }
    e->wait = xmalloc(sizeof *e->wait);
    uv_timer_init(r->server->cfg.loop, e->wait);
    e->wait->data = e;
    uv_timer_start(e->wait, waited_too_long, timeout, 0);
}

void mcp_execute_cancel(struct mcp_execution *e)
{
    struct mcp_request *req = e->req;
    cancel_calls(e);
    if (e->x)
        sandbox_exec_cancel(e->x);
    req->exec = NULL;
    mcp_authority_audit_end(req, e->id, "cancelled", NULL,
                            (double) ((uv_hrtime() - e->t0) / 1000) / 1000.0, 0);
    tools_exec_free(e->tx);
    struct sandbox_ticket *t = e->ticket;
    forget_queued_run(e);
    free(e);
    mcp_request_drop(req);
    sandbox_admission_leave(t);
}

struct mcp_request *mcp_execute_request(const struct mcp_execution *e)
{
    return e->req;
}

const char *mcp_execute_code_sha(const struct mcp_execution *e)
{
    return e->code_sha;
}

void mcp_execute_rebind(struct mcp_execution *e, struct mcp_request *r)
{
    e->req->exec = NULL;
    e->req = r;
    r->exec = e;
}

int mcp_execute_pause(struct mcp_execution *e, int on)
{
    if (e->x == NULL || sandbox_admission_hold(e->ticket, on) < 0)
        return -1; /* queued (no program runs yet), or too many wait for a person already */
    if (on)
        sandbox_exec_pause(e->x);
    else
        sandbox_exec_resume(e->x);
    return 0;
}
