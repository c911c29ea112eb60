/* Host side of one execution: the run message, parsing and checking every
 * worker message (hostile input), console capture with a cap, replies to
 * host calls, the hard deadline, and the outcome when the worker dies. */
#include "sandbox/execution.h"
#include "sandbox/pool.h"
#include "sandbox/worker.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/colocate.h"
#include "common/json.h"
#include "common/log.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

struct sandbox_exec {
    struct sandbox_pool *pool;
    struct sandbox_lease *lease;
    struct sandbox_worker *worker;
    const struct sandbox_exec_events *ev;
    void *ud;
    struct sandbox_exec_request rq;
    char *code, *catalog, *builtins;
    uv_timer_t *timer; /* start trigger, then the hard deadline */
    uint64_t started_ms;
    long max_id;      /* highest call id seen */
    unsigned tool_calls;
    struct sandbox_log_line *logs;
    size_t nlogs, cap_logs;
    uint64_t log_bytes;
    unsigned logs_dropped;
    unsigned worker_dropped; /* lines the worker dropped, as it reported them so far */
    unsigned paused;      /* approvals waiting (sandbox_exec_pause) */
    uint64_t hard_left_ms; /* while paused: what was left of the hard deadline */
    int hard_stopped;      /* ... and the timer is stopped for that */
    int killed_at_deadline, finished;
    int worker_done; /* the worker sent `done` and is exiting, or stays (keep) */
    int keep;        /* `done` said the worker stays for the principal's next run */
    int heard;       /* the worker sent a message during this run */
    int retried;     /* the run was sent again, to another worker (at most once) */
    unsigned in_flight; /* host calls not answered yet */
    uint64_t replied_ns; /* when the last one was answered (uv_hrtime; 0: none yet) */
};

static const struct sandbox_worker_events worker_events;

/* --- teardown ---------------------------------------------------------------------- */

static void timer_free(uv_handle_t *h)
{
    free(h);
}

static void destroy(struct sandbox_exec *x)
{
    if (x->lease)
        sandbox_lease_cancel(x->lease);
    if (x->worker && x->worker_done && x->keep)
        sandbox_worker_keep(x->worker);
    else if (x->worker && x->worker_done)
        sandbox_worker_release_finished(x->worker);
    else if (x->worker)
        sandbox_worker_release(x->worker);
    uv_timer_stop(x->timer);
    uv_close((uv_handle_t *) x->timer, timer_free);
    for (size_t i = 0; i < x->nlogs; i++)
        free(x->logs[i].text);
    free(x->logs);
    free(x->code);
    free(x->catalog);
    free(x->builtins);
    free(x);
}

static void finish(struct sandbox_exec *x, const cJSON *outcome, const cJSON *stats)
{
    if (x->finished)
        return;
    x->finished = 1;
    if (x->worker) /* before the client hears of it */
        colocate_worker_done(sandbox_worker_pid(x->worker));
    struct sandbox_exec_result r;
    r.outcome = outcome;
    r.stats = stats;
    r.logs = x->logs;
    r.nlogs = x->nlogs;
    r.logs_dropped = x->logs_dropped;
    r.logs_dropped_at_least = 0;
    const cJSON *dropped = cJSON_GetObjectItemCaseSensitive(stats, "logsDropped");
    if (cJSON_IsNumber(dropped) && dropped->valuedouble > 0 && dropped->valuedouble < 1e9)
        r.logs_dropped += (unsigned) dropped->valuedouble; /* the worker's cap came first */
    else if (stats == NULL && x->worker_dropped) { /* no final count: the worker died */
        r.logs_dropped += x->worker_dropped;
        r.logs_dropped_at_least = 1;
    }
    r.duration_ms = uv_now(x->timer->loop) - x->started_ms;
    r.tool_calls = x->tool_calls;
    r.worker_pid = x->worker ? sandbox_worker_pid(x->worker) : 0;
    r.worker_run = x->worker ? sandbox_worker_runs(x->worker) : 0;
    x->ev->done(x->ud, x, &r);
    destroy(x);
}

static void finish_error(struct sandbox_exec *x, const char *name, const char *message)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddFalseToObject(o, "ok");
    cJSON *e = cJSON_AddObjectToObject(o, "error");
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "message", message);
    finish(x, o, NULL);
    cJSON_Delete(o);
}

/* --- worker messages ----------------------------------------------------------------- */

static void add_log(struct sandbox_exec *x, const char *level, const char *text)
{
    size_t len = strlen(text);
    if (x->rq.max_log_bytes && x->log_bytes + len > x->rq.max_log_bytes) {
        x->logs_dropped++;
        return;
    }
    x->log_bytes += len;
    if (x->nlogs == x->cap_logs) {
        x->cap_logs = x->cap_logs ? 2 * x->cap_logs : 16;
        x->logs = xrealloc(x->logs, x->cap_logs * sizeof *x->logs);
    }
    struct sandbox_log_line *l = &x->logs[x->nlogs++];
    snprintf(l->level, sizeof l->level, "%s", level);
    l->text = xstrdup(text);
    if (x->ev->log)
        x->ev->log(x->ud, x, l->level, l->text);
}

static int valid_level(const char *s)
{
    return !strcmp(s, "log") || !strcmp(s, "info") || !strcmp(s, "warn") || !strcmp(s, "error") ||
           !strcmp(s, "debug");
}

/* The built-in namespaces' calls (state.*, skills.*, skills.<name>). */
static int builtin_op(const char *op)
{
    return !strcmp(op, "state") || !strcmp(op, "skills") || !strcmp(op, "skill");
}

static int on_call(struct sandbox_exec *x, const cJSON *m)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(m, "op");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(m, "name");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(m, "args");
    if (!cJSON_IsNumber(id) || id->valuedouble <= x->max_id || id->valuedouble > 1e15 ||
        !cJSON_IsString(op) || !cJSON_IsString(name) || args == NULL)
        return -1;
    if (strcmp(op->valuestring, "tool") && strcmp(op->valuestring, "search") &&
        strcmp(op->valuestring, "describe") && strcmp(op->valuestring, "stash") &&
        !builtin_op(op->valuestring))
        return -1;
    x->max_id = (long) id->valuedouble;
    if (sandbox_call_counts(op->valuestring)) {
        if (x->tool_calls >= x->rq.max_calls)
            return -1; /* the worker enforces this first: exceeding it is a violation */
        x->tool_calls++;
    }
    /* a worker waiting on this call alone stays on the host's CPU meanwhile */
    uint64_t computed_us = x->replied_ns ? (uv_hrtime() - x->replied_ns) / 1000 : 0;
    colocate_call_begin(sandbox_worker_pid(x->worker), x->in_flight++ == 0, computed_us);
    x->ev->call(x->ud, x, x->max_id, op->valuestring, name->valuestring, args);
    colocate_call_end();
    return 0;
}

static int on_done(struct sandbox_exec *x, const cJSON *m)
{
    const cJSON *outcome = cJSON_GetObjectItemCaseSensitive(m, "outcome");
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(m, "stats");
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(outcome, "ok");
    if (!cJSON_IsObject(outcome) || !cJSON_IsBool(ok))
        return -1;
    if (cJSON_IsFalse(ok)) {
        const cJSON *err = cJSON_GetObjectItemCaseSensitive(outcome, "error");
        if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(err, "name")) ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(err, "message")))
            return -1;
    }
    x->worker_done = 1;
    x->keep = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "reuse"));
    finish(x, outcome, cJSON_IsObject(stats) ? stats : NULL);
    return 0;
}

static void on_line(void *ud, struct sandbox_worker *w, char *line, size_t len)
{
    struct sandbox_exec *x = ud;
    x->heard = 1;
    cJSON *m = json_parse(line, len);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "t");
    int rc = -1;
    if (cJSON_IsString(t)) {
        if (strcmp(t->valuestring, "call") == 0)
            rc = on_call(x, m);
        else if (strcmp(t->valuestring, "log") == 0) {
            const cJSON *lv = cJSON_GetObjectItemCaseSensitive(m, "level");
            const cJSON *tx = cJSON_GetObjectItemCaseSensitive(m, "text");
            if (cJSON_IsString(lv) && cJSON_IsString(tx) && valid_level(lv->valuestring)) {
                add_log(x, lv->valuestring, tx->valuestring);
                rc = 0;
            }
        } else if (strcmp(t->valuestring, "dropped") == 0) {
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(m, "n");
            if (cJSON_IsNumber(n) && n->valuedouble >= x->worker_dropped && n->valuedouble < 1e9) {
                x->worker_dropped = (unsigned) n->valuedouble;
                rc = 0;
            }
        } else if (strcmp(t->valuestring, "done") == 0) {
            rc = on_done(x, m); /* x is freed when this succeeded */
        }
    }
    cJSON_Delete(m);
    if (rc < 0) {
        log_warn("sandbox", "worker %d sent an invalid message; killing it",
                 sandbox_worker_pid(w));
        finish_error(x, "Error", "the sandbox worker sent an invalid message and was stopped");
    }
}

static void describe_death(char *msg, size_t size, int code, int sig)
{
    if (sig == SIGSYS)
        snprintf(msg, size, "the sandbox stopped the program: it attempted a forbidden system call");
    else if (sig == SIGXCPU)
        snprintf(msg, size, "the program exceeded its CPU time limit");
    else if (sig == 0 && code == SANDBOX_EXIT_LOCKDOWN)
        snprintf(msg, size, "the sandbox worker could not install its seccomp filter or resource "
                            "limits, and refuses to run programs");
    else if (sig == SIGKILL)
        snprintf(msg, size, "the sandbox process was killed");
    else if (sig > 0)
        snprintf(msg, size, "the sandbox process crashed (signal %d, %s)", sig, strsignal(sig));
    else if (code >= 0)
        snprintf(msg, size, "the sandbox process exited unexpectedly (status %d)", code);
    else
        snprintf(msg, size, "the sandbox process ended unexpectedly");
}

static void leased(void *ud, struct sandbox_worker *w, const char *error);

/* The worker was gone before the run message was written, or died with it
 * unread, or died with its zygote, and in each case said nothing: no host
 * call, no console line. Nothing the program could have done is visible (a
 * program acts on the world only through host calls), so the run is sent
 * once more, to a fresh worker (the idle ones may be dying too:
 * sandbox_pool_renew); the caller sees nothing but the delay. A worker
 * killed as it starts (by the OOM killer, an operator, or with its zygote)
 * costs no execution this way. */
static int retry(struct sandbox_exec *x)
{
    if (x->retried || x->heard || x->killed_at_deadline)
        return 0;
    log_info("sandbox", "worker %d ended before its program did anything; running it again",
             sandbox_worker_pid(x->worker));
    x->retried = 1;
    colocate_worker_done(sandbox_worker_pid(x->worker));
    sandbox_worker_release(x->worker);
    x->worker = NULL;
    sandbox_pool_renew(x->pool, x->rq.principal);
    x->lease = sandbox_pool_lease_for(x->pool, x->rq.principal, leased, x);
    return 1;
}

static void on_gone(void *ud, struct sandbox_worker *w, int code, int sig)
{
    struct sandbox_exec *x = ud;
    if (sandbox_worker_died_externally(w) && retry(x))
        return;
    if (x->killed_at_deadline) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "execution timed out after %llu ms and was stopped (a long-running built-in "
                 "call did not yield)",
                 (unsigned long long) x->rq.timeout_ms);
        finish_error(x, "TimeoutError", msg);
        return;
    }
    char msg[200];
    describe_death(msg, sizeof msg, code, sig);
    finish_error(x, "SandboxError", msg);
}

static const struct sandbox_worker_events worker_events = {on_line, on_gone};

/* --- start, deadline ------------------------------------------------------------------- */

static void hard_deadline(uv_timer_t *t)
{
    struct sandbox_exec *x = t->data;
    if (x->worker == NULL) {
        finish_error(x, "TimeoutError", "no sandbox worker became available in time");
        return;
    }
    x->killed_at_deadline = 1;
    sandbox_worker_kill(x->worker);
}

static void send_run(struct sandbox_exec *x)
{
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, "{\"t\":\"run\",\"code\":");
    buf_append_json_string(&b, x->code, x->rq.code_len);
    buf_printf(&b,
               ",\"timeoutMs\":%llu,\"memoryBytes\":%llu,\"maxResultBytes\":%llu,"
               "\"maxLogBytes\":%llu,\"maxCalls\":%u,\"maxConcurrent\":%u",
               (unsigned long long) x->rq.timeout_ms, (unsigned long long) x->rq.memory_bytes,
               (unsigned long long) x->rq.max_result_bytes,
               (unsigned long long) x->rq.max_log_bytes, x->rq.max_calls, x->rq.max_concurrent);
    if (x->rq.max_whole_bytes)
        buf_printf(&b, ",\"maxWholeBytes\":%llu", (unsigned long long) x->rq.max_whole_bytes);
    if (x->catalog) {
        buf_append_str(&b, ",\"catalog\":");
        buf_append_str(&b, x->catalog);
    }
    if (x->builtins) {
        buf_append_str(&b, ",\"builtins\":");
        buf_append_str(&b, x->builtins);
    }
    if (sandbox_worker_run_begins(x->worker))
        buf_append_str(&b, ",\"reuse\":true");
    buf_append_str(&b, "}\n");
    int rc = sandbox_worker_send(x->worker, b.data, b.len);
    buf_free(&b);
    if (rc < 0)
        retry(x); /* otherwise `gone` follows and reports it */
}

static void leased(void *ud, struct sandbox_worker *w, const char *error)
{
    struct sandbox_exec *x = ud;
    x->lease = NULL;
    if (w == NULL) {
        char msg[300];
        snprintf(msg, sizeof msg, "no sandbox worker is available: %s", error ? error : "unknown");
        finish_error(x, "SandboxError", msg);
        return;
    }
    x->worker = w;
    sandbox_worker_attach(w, &worker_events, x);
    send_run(x);
}

struct sandbox_exec *sandbox_exec_start(struct sandbox_pool *pool,
                                        const struct sandbox_exec_request *rq,
                                        const struct sandbox_exec_events *ev, void *ud)
{
    struct sandbox_exec *x = xcalloc(1, sizeof *x);
    x->pool = pool;
    x->ev = ev;
    x->ud = ud;
    x->rq = *rq;
    x->code = xstrndup(rq->code, rq->code_len);
    x->catalog = rq->catalog_json ? xstrdup(rq->catalog_json) : NULL;
    x->rq.code = x->code;
    x->rq.catalog_json = x->catalog;
    x->builtins = rq->builtins_json ? xstrdup(rq->builtins_json) : NULL;
    x->rq.builtins_json = x->builtins;
    if (x->rq.grace_ms == 0)
        x->rq.grace_ms = 500;
    x->timer = xmalloc(sizeof *x->timer);
    uv_loop_t *loop = sandbox_pool_loop(pool);
    uv_timer_init(loop, x->timer);
    x->timer->data = x;
    x->started_ms = uv_now(loop);
    if (x->rq.timeout_ms)
        uv_timer_start(x->timer, hard_deadline, x->rq.timeout_ms + x->rq.grace_ms, 0);
    x->lease = sandbox_pool_lease_for(pool, rq->principal, leased, x);
    return x;
}

void sandbox_exec_reply(struct sandbox_exec *x, long id, int ok, const char *json, size_t len)
{
    if (x->worker == NULL || id <= 0 || id > x->max_id)
        return;
    if (x->in_flight)
        x->in_flight--;
    x->replied_ns = uv_hrtime();
    struct buf b;
    buf_init(&b, 0); /* appends, no printf: this runs once per tool call */
    buf_append_str(&b, "{\"t\":\"result\",\"id\":");
    json_append_number(&b, (double) id);
    buf_append_str(&b, ok ? ",\"ok\":true,\"value\":" : ",\"ok\":false,\"error\":");
    if (len == 0)
        buf_append_str(&b, "null");
    else
        buf_append(&b, json, len);
    buf_append_str(&b, "}\n");
    sandbox_worker_send(x->worker, b.data, b.len);
    buf_free(&b);
}

static void send_control(struct sandbox_exec *x, const char *line)
{
    if (x->worker && !x->finished && !x->worker_done)
        sandbox_worker_send(x->worker, line, strlen(line));
}

void sandbox_exec_pause(struct sandbox_exec *x)
{
    if (x->paused++ || x->finished)
        return;
    if (x->rq.timeout_ms && uv_is_active((uv_handle_t *) x->timer)) {
        x->hard_left_ms = uv_timer_get_due_in(x->timer);
        x->hard_stopped = 1;
        uv_timer_stop(x->timer);
    }
    send_control(x, "{\"t\":\"pause\"}\n");
}

void sandbox_exec_resume(struct sandbox_exec *x)
{
    if (x->paused == 0 || --x->paused || x->finished)
        return;
    if (x->hard_stopped)
        uv_timer_start(x->timer, hard_deadline, x->hard_left_ms, 0);
    x->hard_stopped = 0;
    send_control(x, "{\"t\":\"resume\"}\n");
}

void sandbox_exec_cancel(struct sandbox_exec *x)
{
    if (x->worker)
        colocate_worker_done(sandbox_worker_pid(x->worker));
    x->finished = 1;
    destroy(x);
}
