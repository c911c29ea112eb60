/* Fuzz target: the host reading what a worker writes (sandbox/host/execution.c).
 * A worker is assumed compromised, so any bytes may come. The real
 * execution runs against a fake pool defined here (one scripted worker, no
 * processes): each input line is a worker line, given first in pieces as
 * partial lines (the limits per kind and the incremental check,
 * sandbox/host/worker_msg.c), then whole; host calls are answered.
 * The execution must end exactly once with a well-formed outcome, killing
 * the worker on anything invalid, and never crash or leak. */
#include "fuzz.h"

#include "sandbox/host/execution.h"
#include "common/json.h"
#include "sandbox/host/pool.h"

#include <string.h>

/* --- the fake pool (replaces sandbox/host/pool.c in this binary) ---------------------------- */

struct sandbox_pool {
    uv_loop_t loop;
};
struct sandbox_lease {
    sandbox_lease_cb *cb;
    void *ud;
};
struct sandbox_proc {
    const struct sandbox_proc_events *ev;
    void *ud;
    int killed, released;
};

static struct sandbox_pool pool;
static struct sandbox_lease the_lease;
static int lease_pending;
static struct sandbox_proc worker;

struct sandbox_lease *sandbox_pool_lease(struct sandbox_pool *p, sandbox_lease_cb *cb, void *ud)
{
    the_lease = (struct sandbox_lease){cb, ud};
    lease_pending = 1;
    return &the_lease;
}
struct sandbox_lease *sandbox_pool_lease_for(struct sandbox_pool *p, uint64_t principal,
                                             sandbox_lease_cb *cb, void *ud)
{
    return sandbox_pool_lease(p, cb, ud);
}
int sandbox_proc_run_begins(struct sandbox_proc *w)
{
    return 0; /* never kept: each input is one execution */
}
unsigned sandbox_proc_runs(const struct sandbox_proc *w)
{
    return 1;
}
void sandbox_proc_keep(struct sandbox_proc *w)
{
    w->released = 1;
}
void sandbox_lease_cancel(struct sandbox_lease *l)
{
    lease_pending = 0;
}
uv_loop_t *sandbox_pool_loop(const struct sandbox_pool *p)
{
    return (uv_loop_t *) &p->loop;
}
void sandbox_proc_attach(struct sandbox_proc *w, const struct sandbox_proc_events *ev,
                           void *ud)
{
    w->ev = ev;
    w->ud = ud;
}
int sandbox_proc_send(struct sandbox_proc *w, const char *data, size_t len)
{
    FUZZ_CHECK(!w->released, "send to a released worker");
    FUZZ_CHECK(len > 0 && data[len - 1] == '\n', "message to the worker is not a line");
    cJSON *j = json_parse(data, len - 1); /* \u0000 and lone surrogates kept */
    FUZZ_CHECK(cJSON_IsObject(j), "message to the worker is not JSON: %.*s", (int) len, data);
    cJSON_Delete(j);
    return 0;
}
void sandbox_proc_send_later(struct sandbox_proc *w, const char *data, size_t len)
{
    (void) sandbox_proc_send(w, data, len); /* the same checks; the order is the caller's */
}
void sandbox_proc_kill(struct sandbox_proc *w)
{
    w->killed = 1;
}
void sandbox_proc_release(struct sandbox_proc *w)
{
    w->released = 1;
}
void sandbox_proc_release_finished(struct sandbox_proc *w)
{
    w->released = 1;
}
int sandbox_proc_pid(const struct sandbox_proc *w)
{
    return 4242;
}
int sandbox_proc_died_externally(const struct sandbox_proc *w)
{
    return 0; /* never retried: each input is one attempt */
}
void sandbox_pool_renew(struct sandbox_pool *p, uint64_t principal)
{
}

/* --- the execution's owner ---------------------------------------------------------------- */

static int dones, calls;

static void on_call(void *ud, struct sandbox_exec *x, long id, const char *op, const char *name,
                    const cJSON *args)
{
    FUZZ_CHECK(op && name && args, "call fields missing");
    calls++;
    /* answer at once, alternately a value and an error */
    if (id % 2)
        sandbox_exec_reply(x, id, 1, "{\"v\":1}", 7);
    else
        sandbox_exec_reply(x, id, 0, "{\"name\":\"ToolError\",\"message\":\"no\"}", 36);
}

static void on_log(void *ud, struct sandbox_exec *x, const char *level, const char *text)
{
    FUZZ_CHECK(level && text, "log fields missing");
}

static void on_done(void *ud, struct sandbox_exec *x, const struct sandbox_exec_result *r)
{
    dones++;
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(r->outcome, "ok");
    FUZZ_CHECK(cJSON_IsObject(r->outcome) && cJSON_IsBool(ok), "outcome malformed");
    for (const cJSON *p = r->outcome->child; p; p = p->next) { /* text kept raw is one JSON value */
        if (!cJSON_IsRaw(p))
            continue;
        cJSON *j = json_parse(p->valuestring, strlen(p->valuestring));
        FUZZ_CHECK(j != NULL, "raw %s is not JSON", p->string);
        cJSON_Delete(j);
    }
    for (size_t i = 0; i < r->nlogs; i++)
        FUZZ_CHECK(r->logs[i].text != NULL, "log line without text");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup();
    uv_loop_init(&pool.loop);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct sandbox_exec_events ev = {on_call, on_log, on_done};
    struct sandbox_exec_request rq = {0};
    rq.code = "return 1";
    rq.code_len = 8;
    rq.max_log_bytes = 256;
    rq.max_result_bytes = 1024;
    rq.max_whole_bytes = 4096;
    rq.max_call_argument_bytes = 2048;
    rq.max_calls = 4;
    dones = calls = 0;
    memset(&worker, 0, sizeof worker);
    struct sandbox_exec *x = sandbox_exec_start(&pool, &rq, &ev, NULL);
    FUZZ_CHECK(lease_pending, "no lease asked for");
    lease_pending = 0;
    the_lease.cb(the_lease.ud, &worker, NULL);
    char *copy = xmalloc(size + 1);
    memcpy(copy, data, size);
    size_t start = 0;
    char *nl;
    while (!dones && !worker.killed && (nl = memchr(copy + start, '\n', size - start)) != NULL) {
        size_t len = (size_t) (nl - (copy + start));
        *nl = '\0';
        size_t step = 1 + len % 13; /* as reads would cut it */
        for (size_t n = step; n < len && !dones && !worker.released; n += step)
            worker.ev->partial(worker.ud, &worker, copy + start, n);
        if (dones || worker.released)
            break;
        worker.ev->line(worker.ud, &worker, copy + start, len);
        start += len + 1;
    }
    free(copy);
    if (!dones) /* the worker died (killed, or the input ended) */
        worker.ev->gone(worker.ud, &worker, worker.killed ? -1 : 0, worker.killed ? 9 : 0);
    FUZZ_CHECK(dones == 1, "done called %d times", dones);
    FUZZ_CHECK(worker.released, "worker not released");
    (void) x;
    uv_run(&pool.loop, UV_RUN_NOWAIT);
    return 0;
}
