/* Host side of one execution: the run message, parsing and checking every
 * worker message (hostile input), console capture with a cap, replies to
 * host calls, the hard deadline, and the outcome when the worker dies. */
#include "sandbox/host/execution.h"
#include "sandbox/host/pool.h"
#include "sandbox/ipc.h"
#include "sandbox/host/worker_msg.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/colocate.h"
#include "common/json.h"
#include "common/json_lines.h"
#include "common/log.h"

#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

struct sandbox_exec {
    struct sandbox_pool *pool;
    struct sandbox_lease *lease;
    struct sandbox_proc *worker;
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
    enum worker_msg_kind kind;   /* of the line being read (PENDING: its head is still short) */
    struct worker_msg_scan scan; /* ... checked as it arrives */
    struct buf whole;            /* the `done` line's whole result, copied as it arrives */
    struct json_lines *lines;    /* checked lines, handed on in order */
    int gone_code, gone_signal;  /* the worker's exit, heard while lines still waited */
};

static const struct sandbox_proc_events worker_events;

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
        sandbox_proc_keep(x->worker);
    else if (x->worker && x->worker_done)
        sandbox_proc_release_finished(x->worker);
    else if (x->worker)
        sandbox_proc_release(x->worker);
    uv_timer_stop(x->timer);
    uv_close((uv_handle_t *) x->timer, timer_free);
    for (size_t i = 0; i < x->nlogs; i++)
        free(x->logs[i].text);
    free(x->logs);
    buf_free(&x->whole);
    json_lines_free(x->lines); /* a call still being parsed is dropped */
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
        colocate_worker_done(sandbox_proc_pid(x->worker));
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
    r.worker_pid = x->worker ? sandbox_proc_pid(x->worker) : 0;
    r.worker_run = x->worker ? sandbox_proc_runs(x->worker) : 0;
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
    if (x->log_bytes + len > x->rq.max_log_bytes) { /* 0 keeps none */
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

/* The built-in namespaces' calls (state.*, skills.*, skills.<name>,
 * resources.*, prompts.*); their names and arguments are checked by the
 * gate (tools/gate/). */
static int builtin_op(const char *op)
{
    return !strcmp(op, "state") || !strcmp(op, "skills") || !strcmp(op, "skill") ||
           !strcmp(op, "resources") || !strcmp(op, "prompts");
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
    colocate_call_begin(sandbox_proc_pid(x->worker), x->in_flight++ == 0, computed_us);
    x->ev->call(x->ud, x, x->max_id, op->valuestring, name->valuestring, args);
    colocate_call_end();
    return 0;
}

/* --- limits of what a worker sends (execution.h) -------------------------------------- */

#define CALL_SLACK  (64u << 10) /* a call's id, op and name */
#define LOG_SLACK   1024u       /* a console line's level and framing */
#define DONE_SLACK  (64u << 10) /* the outcome's framing, stats, an error's excerpt */
#define DROPPED_MAX 64u
#define STATS_MAX   4096u
/* A value parsed into a tree when it may be content blocks: no more JSON
 * values than this allows, so the tree costs a small multiple of its text. */
#define TREE_VALUES(len) ((len) / 8 + 4096)

static uint64_t call_argument_cap(const struct sandbox_exec_request *rq)
{
    return rq->max_call_argument_bytes ? rq->max_call_argument_bytes
                                       : SANDBOX_MAX_CALL_ARGUMENT_BYTES;
}

static uint64_t kind_cap(const struct sandbox_exec_request *rq, enum worker_msg_kind k)
{
    switch (k) {
    case WORKER_MSG_CALL:
        return call_argument_cap(rq) + CALL_SLACK;
    case WORKER_MSG_LOG:
        return 6 * rq->max_log_bytes + LOG_SLACK;
    case WORKER_MSG_DONE:
        return 2 * rq->max_result_bytes + 2 * rq->max_whole_bytes + DONE_SLACK;
    default:
        return DROPPED_MAX;
    }
}

uint64_t sandbox_exec_max_line_bytes(const struct sandbox_exec_request *rq)
{
    uint64_t m = kind_cap(rq, WORKER_MSG_CALL);
    if (kind_cap(rq, WORKER_MSG_LOG) > m)
        m = kind_cap(rq, WORKER_MSG_LOG);
    if (kind_cap(rq, WORKER_MSG_DONE) > m)
        m = kind_cap(rq, WORKER_MSG_DONE);
    return m;
}

static const char *kind_noun(enum worker_msg_kind k)
{
    switch (k) {
    case WORKER_MSG_CALL:
        return "a host call";
    case WORKER_MSG_LOG:
        return "a console line";
    case WORKER_MSG_DONE:
        return "a result";
    default:
        return "a dropped-lines count";
    }
}

static const char *kind_limit(enum worker_msg_kind k)
{
    switch (k) {
    case WORKER_MSG_CALL:
        return "maxCallArgumentBytes + 64 KiB";
    case WORKER_MSG_LOG:
        return "6 x maxLogBytes + 1 KiB";
    case WORKER_MSG_DONE:
        return "2 x maxResultBytes + 2 x stash.maxBytes + 64 KiB";
    default:
        return "fixed";
    }
}

/* The worker broke a limit: the execution ends with `message`, the worker
 * is killed (released unfinished), the host goes on. */
static void violation(struct sandbox_exec *x, const char *message)
{
    log_warn("sandbox", "worker %d: %s; killing it", sandbox_proc_pid(x->worker), message);
    char msg[400];
    snprintf(msg, sizeof msg, "the sandbox worker sent %s and was stopped", message);
    finish_error(x, "SandboxError", msg);
}

/* Copies the part of the whole result that arrived since the last read:
 * its pages are touched a read at a time, never all at once on the loop
 * (a fresh page costs a fault, ~20 us on some virtual machines). */
static void gather_whole(struct sandbox_exec *x, const char *data)
{
    const struct worker_msg_member *o = worker_msg_member(&x->scan, data, -1, "outcome");
    if (o == NULL)
        return;
    const struct worker_msg_member *w =
        worker_msg_member(&x->scan, data, worker_msg_index(&x->scan, o), "whole");
    if (w == NULL)
        return;
    size_t end = w->len ? w->at + w->len : x->scan.pos;
    size_t from = w->at + x->whole.len;
    if (end > from)
        buf_append(&x->whole, data + from, end - from);
}

/* Checks the line read so far (complete: all of it). Returns 0, or -1
 * after ending the execution. */
static int check_line(struct sandbox_exec *x, const char *data, size_t len, int complete)
{
    char msg[300];
    if (x->kind == WORKER_MSG_PENDING)
        x->kind = worker_msg_kind(data, len);
    if (x->kind == WORKER_MSG_BAD || (complete && x->kind == WORKER_MSG_PENDING)) {
        violation(x, "a message of no known kind");
        return -1;
    }
    if (x->kind == WORKER_MSG_PENDING)
        return 0;
    uint64_t cap = kind_cap(&x->rq, x->kind);
    if (len > cap) {
        snprintf(msg, sizeof msg, "%s of %s%zu bytes, over its limit of %llu bytes (%s),",
                 kind_noun(x->kind), complete ? "" : "at least ", len, (unsigned long long) cap,
                 kind_limit(x->kind));
        violation(x, msg);
        return -1;
    }
    int rc = complete ? worker_msg_scan_end(&x->scan, data, len)
                      : worker_msg_scan_feed(&x->scan, data, len);
    if (rc == 0 && x->kind == WORKER_MSG_DONE)
        gather_whole(x, data);
    if (rc < 0) {
        snprintf(msg, sizeof msg, "%s that is not valid JSON (at byte %zu)", kind_noun(x->kind),
                 x->scan.pos);
        violation(x, msg);
        return -1;
    }
    return 0;
}

static void on_partial(void *ud, struct sandbox_proc *w, const char *data, size_t len)
{
    struct sandbox_exec *x = ud;
    (void) w;
    x->heard = 1;
    check_line(x, data, len, 0);
}

/* The JSON text of member m as a tree: its value parsed, or (raw) the
 * checked text as it is. */
static cJSON *member_tree(const char *line, const struct worker_msg_member *m)
{
    return json_parse(line + m->at, m->len);
}

static cJSON *member_raw(const char *line, const struct worker_msg_member *m)
{
    cJSON *r = cJSON_CreateRaw("");
    free(r->valuestring);
    r->valuestring = xstrndup(line + m->at, m->len); /* no NUL inside: checked JSON */
    return r;
}

static const struct worker_msg_member *outcome_member(struct sandbox_exec *x, const char *line,
                                                      int oi, const char *key)
{
    return worker_msg_member(&x->scan, line, oi, key);
}

/* The outcome from the checked `done` line: small parts parsed, the value
 * and the whole result kept as text. NULL (and *why) when it is malformed
 * or a part is over its limit. */
static cJSON *done_outcome(struct sandbox_exec *x, const char *line, char *why, size_t whysz)
{
    const struct worker_msg_member *o = worker_msg_member(&x->scan, line, -1, "outcome");
    if (o == NULL || line[o->at] != '{')
        return NULL;
    int oi = worker_msg_index(&x->scan, o);
    const struct worker_msg_member *ok = outcome_member(x, line, oi, "ok");
    const struct worker_msg_member *value = outcome_member(x, line, oi, "value");
    const struct worker_msg_member *trunc = outcome_member(x, line, oi, "truncated");
    const struct worker_msg_member *whole = outcome_member(x, line, oi, "whole");
    const struct worker_msg_member *err = outcome_member(x, line, oi, "error");
    uint64_t max = x->rq.max_result_bytes;
    if (ok == NULL || (ok->len != 4 && ok->len != 5) || (line[ok->at] != 't' && line[ok->at] != 'f'))
        return NULL;
    int success = line[ok->at] == 't';
    if (success && value && value->len > 2 * max + (trunc ? 2 : 0)) {
        snprintf(why, whysz, "a result value of %zu bytes, over its limit of %llu bytes (2 x "
                             "maxResultBytes),", value->len,
                 (unsigned long long) (2 * max + (trunc ? 2 : 0)));
        return NULL;
    }
    if (success && whole && (trunc == NULL || whole->len > 2 * x->rq.max_whole_bytes)) {
        snprintf(why, whysz, "a whole result of %zu bytes, over its limit of %llu bytes (2 x "
                             "stash.maxBytes),", whole->len,
                 (unsigned long long) (trunc ? 2 * x->rq.max_whole_bytes : 0));
        return NULL;
    }
    if (!success && (err == NULL || err->len > 2 * max + DONE_SLACK))
        return NULL;
    if (trunc && trunc->len > 256)
        return NULL;
    cJSON *out = cJSON_CreateObject();
    cJSON_AddBoolToObject(out, "ok", success);
    if (!success) {
        cJSON *e = member_tree(line, err);
        if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "name")) ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "message"))) {
            cJSON_Delete(e);
            cJSON_Delete(out);
            return NULL;
        }
        cJSON_AddItemToObject(out, "error", e);
        return out;
    }
    if (trunc) {
        cJSON *t = member_tree(line, trunc);
        cJSON *v = value ? member_tree(line, value) : NULL;
        if (!cJSON_IsObject(t) || !cJSON_IsString(v)) { /* the preview: a string */
            cJSON_Delete(t);
            cJSON_Delete(v);
            cJSON_Delete(out);
            return NULL;
        }
        cJSON_AddItemToObject(out, "truncated", t);
        cJSON_AddItemToObject(out, "value", v);
        if (whole && x->whole.len == whole->len) { /* gathered as it came */
            cJSON *r = cJSON_CreateRaw("");
            free(r->valuestring);
            r->valuestring = buf_steal(&x->whole);
            cJSON_AddItemToObject(out, "whole", r);
        } else if (whole)
            cJSON_AddItemToObject(out, "whole", member_raw(line, whole));
        return out;
    }
    if (value) /* small trees (content blocks are) parsed, the rest kept as text */
        cJSON_AddItemToObject(out, "value", value->values <= TREE_VALUES(value->len)
                                                ? member_tree(line, value)
                                                : member_raw(line, value));
    return out;
}

static int on_done(struct sandbox_exec *x, const char *line)
{
    char why[300] = "";
    cJSON *outcome = done_outcome(x, line, why, sizeof why);
    if (outcome == NULL) {
        if (why[0]) {
            violation(x, why);
            return 1; /* said */
        }
        return -1;
    }
    const struct worker_msg_member *st = worker_msg_member(&x->scan, line, -1, "stats");
    const struct worker_msg_member *reuse = worker_msg_member(&x->scan, line, -1, "reuse");
    cJSON *stats = st && st->len <= STATS_MAX ? member_tree(line, st) : NULL;
    x->worker_done = 1;
    x->keep = reuse && reuse->len == 4 && memcmp(line + reuse->at, "true", 4) == 0;
    finish(x, outcome, cJSON_IsObject(stats) ? stats : NULL);
    cJSON_Delete(outcome);
    cJSON_Delete(stats);
    return 0;
}

/* Gives the heap's free pages back after a big message's tree was freed:
 * glibc keeps them otherwise, and the host's size would stay at its peak. */
static void trim_after(size_t len)
{
#if defined(__GLIBC__)
    if (len >= (1u << 20))
        malloc_trim(0);
#else
    (void) len;
#endif
}

/* A `done` line that waited behind a call parsed off the loop: its members
 * are found again (the scan has moved on to the lines after it). */
#define TAG_DONE_AGAIN (-1)
/* The worker exited after lines that were still waiting. */
#define TAG_GONE (-2)

static void gone(struct sandbox_exec *x, int code, int sig);

/* A checked line, in the order the worker sent it (json_lines): calls, console
 * lines and counts with their tree, `done` with the scan of its members. */
static void on_message(void *ud, char *line, size_t len, cJSON *m, int tag)
{
    struct sandbox_exec *x = ud;
    uv_loop_t *loop = sandbox_pool_loop(x->pool);
    int rc;
    if (tag == TAG_GONE) {
        gone(x, x->gone_code, x->gone_signal);
        return;
    }
    if (tag == TAG_DONE_AGAIN) {
        worker_msg_scan_init(&x->scan);
        x->kind = WORKER_MSG_PENDING;
        if (check_line(x, line, len, 1) < 0)
            return; /* x is freed */
        worker_msg_scan_init(&x->scan);
        x->kind = WORKER_MSG_PENDING;
        tag = WORKER_MSG_DONE;
    }
    if (tag == WORKER_MSG_DONE) {
        rc = on_done(x, line); /* x is freed when this succeeded */
        if (rc > 0)
            return;
        if (rc == 0) {
            trim_after(len);
            return;
        }
    }
    rc = -1;
    if (m && tag == WORKER_MSG_CALL)
        rc = on_call(x, m);
    else if (m && tag == WORKER_MSG_LOG) {
        const cJSON *lv = cJSON_GetObjectItemCaseSensitive(m, "level");
        const cJSON *tx = cJSON_GetObjectItemCaseSensitive(m, "text");
        if (cJSON_IsString(lv) && cJSON_IsString(tx) && valid_level(lv->valuestring)) {
            add_log(x, lv->valuestring, tx->valuestring);
            rc = 0;
        }
    } else if (m && tag == WORKER_MSG_DROPPED) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(m, "n");
        if (cJSON_IsNumber(n) && n->valuedouble >= x->worker_dropped && n->valuedouble < 1e9) {
            x->worker_dropped = (unsigned) n->valuedouble;
            rc = 0;
        }
    }
    if (len >= JSON_LINES_OFF_LOOP_BYTES)
        json_release_off_loop(loop, m); /* and trims */
    else
        cJSON_Delete(m);
    if (rc < 0) {
        log_warn("sandbox", "worker %d sent an invalid message; killing it",
                 sandbox_proc_pid(x->worker));
        finish_error(x, "Error", "the sandbox worker sent an invalid message and was stopped");
    }
}

/* A whole line: checked against its kind's limits as it came, then handed
 * on in order (a big call is parsed off the loop meanwhile). */
static void on_line(void *ud, struct sandbox_proc *w, char *line, size_t len)
{
    struct sandbox_exec *x = ud;
    (void) w;
    x->heard = 1;
    if (check_line(x, line, len, 1) < 0)
        return; /* x is freed */
    enum worker_msg_kind kind = x->kind;
    x->kind = WORKER_MSG_PENDING; /* the next line starts afresh */
    if (kind == WORKER_MSG_CALL) {
        const struct worker_msg_member *args = worker_msg_member(&x->scan, line, -1, "args");
        if (args && args->len > call_argument_cap(&x->rq)) {
            char msg[300];
            snprintf(msg, sizeof msg,
                     "tool call arguments of %zu bytes, over their limit of %llu bytes "
                     "(maxCallArgumentBytes),",
                     args->len, (unsigned long long) call_argument_cap(&x->rq));
            worker_msg_scan_init(&x->scan);
            violation(x, msg);
            return;
        }
        unsigned long long most = sandbox_call_argument_values(call_argument_cap(&x->rq));
        if (args && args->values > most) { /* its tree would cost ~80 bytes a value */
            char msg[300];
            snprintf(msg, sizeof msg,
                     "tool call arguments holding %zu JSON values, over their limit of %llu "
                     "(one per 16 bytes of maxCallArgumentBytes),",
                     args->values, most);
            worker_msg_scan_init(&x->scan);
            violation(x, msg);
            return;
        }
    }
    int tag = kind;
    if (kind == WORKER_MSG_DONE && json_lines_waiting(x->lines)) {
        buf_free(&x->whole); /* gathered again when its turn comes */
        tag = TAG_DONE_AGAIN;
    }
    if (tag != TAG_DONE_AGAIN && kind == WORKER_MSG_DONE) {
        on_message(x, line, len, NULL, tag); /* uses this scan: before it starts afresh */
        return;
    }
    worker_msg_scan_init(&x->scan);
    json_lines_push(x->lines, line, len, kind != WORKER_MSG_DONE, tag);
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

static void leased(void *ud, struct sandbox_proc *w, const char *error);

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
             sandbox_proc_pid(x->worker));
    x->retried = 1;
    colocate_worker_done(sandbox_proc_pid(x->worker));
    sandbox_proc_release(x->worker);
    x->worker = NULL;
    sandbox_pool_renew(x->pool, x->rq.principal);
    x->lease = sandbox_pool_lease_for(x->pool, x->rq.principal, leased, x);
    return 1;
}

static void gone(struct sandbox_exec *x, int code, int sig)
{
    if (sandbox_proc_died_externally(x->worker) && retry(x))
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

static void on_gone(void *ud, struct sandbox_proc *w, int code, int sig)
{
    struct sandbox_exec *x = ud;
    (void) w;
    if (json_lines_waiting(x->lines)) { /* after the lines it sent before it went */
        x->gone_code = code;
        x->gone_signal = sig;
        json_lines_push(x->lines, "", 0, 0, TAG_GONE);
        return;
    }
    gone(x, code, sig);
}

static const struct sandbox_proc_events worker_events = {on_line, on_gone, on_partial};

/* --- start, deadline ------------------------------------------------------------------- */

static void hard_deadline(uv_timer_t *t)
{
    struct sandbox_exec *x = t->data;
    if (x->worker == NULL) {
        finish_error(x, "TimeoutError", "no sandbox worker became available in time");
        return;
    }
    x->killed_at_deadline = 1;
    sandbox_proc_kill(x->worker);
}

static void send_run(struct sandbox_exec *x)
{
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, "{\"t\":\"run\",\"code\":");
    json_append_string(&b, x->code, x->rq.code_len);
    buf_printf(&b,
               ",\"timeoutMs\":%llu,\"memoryBytes\":%llu,\"maxResultBytes\":%llu,"
               "\"maxLogBytes\":%llu,\"maxCalls\":%u,\"maxConcurrent\":%u",
               (unsigned long long) x->rq.timeout_ms, (unsigned long long) x->rq.memory_bytes,
               (unsigned long long) x->rq.max_result_bytes,
               (unsigned long long) x->rq.max_log_bytes, x->rq.max_calls, x->rq.max_concurrent);
    buf_printf(&b, ",\"maxCallArgumentBytes\":%llu",
               (unsigned long long) call_argument_cap(&x->rq));
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
    if (sandbox_proc_run_begins(x->worker))
        buf_append_str(&b, ",\"reuse\":true");
    buf_append_str(&b, "}\n");
    int rc = sandbox_proc_send(x->worker, b.data, b.len);
    buf_free(&b);
    if (rc < 0)
        retry(x); /* otherwise `gone` follows and reports it */
}

static void leased(void *ud, struct sandbox_proc *w, const char *error)
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
    x->kind = WORKER_MSG_PENDING;
    worker_msg_scan_init(&x->scan);
    sandbox_proc_attach(w, &worker_events, x);
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
    worker_msg_scan_init(&x->scan);
    buf_init(&x->whole, 0);
    if (x->rq.grace_ms == 0)
        x->rq.grace_ms = 500;
    x->timer = xmalloc(sizeof *x->timer);
    uv_loop_t *loop = sandbox_pool_loop(pool);
    x->lines = json_lines_new(loop, 0, on_message, x);
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
    sandbox_proc_send_later(x->worker, b.data, b.len); /* one write for a burst's results */
    buf_free(&b);
}

static void send_control(struct sandbox_exec *x, const char *line)
{
    if (x->worker && !x->finished && !x->worker_done)
        sandbox_proc_send(x->worker, line, strlen(line));
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
        colocate_worker_done(sandbox_proc_pid(x->worker));
    x->finished = 1;
    destroy(x);
}
