/* Unit tests of the host side of the sandbox (pool.c, execution.c) with real
 * processes: this test binary re-executes itself as the zygote. Covers leasing,
 * runs, host calls, kills at the hard deadline, crashes, the seccomp filter,
 * hostile worker output, a worker that stays after its `done` (its socket
 * closed at release, the worker killed after the grace), workers kept for
 * a principal (reused by it only, up to the run cap, ended when it is
 * forgotten), the start-up hook (once, not again when the zygote is
 * restarted), and a clean shutdown (uv_loop_close == 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sandbox/host/execution.h"
#include "sandbox/host/pool.h"
#include "sandbox/worker/worker.h"
#include "sandbox/worker/zygote.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <dirent.h>
#include <sys/socket.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char exe[PATH_MAX];

/* --- zygote modes of this binary ------------------------------------------------ */

static void probe_forbidden_syscall(void)
{
    /* Never on the allow-list, not even in sanitizer builds: SIGSYS. */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    (void) fd;
    _exit(42);
}

/* A worker that answers its run with a valid `done` (its pid as the value)
 * and then stays, as a compromised worker could. */
static void linger_after_done(void)
{
    char c = 0;
    while (c != '\n')
        if (read(SANDBOX_IPC_FD, &c, 1) != 1)
            _exit(0);
    char msg[96];
    int n = snprintf(msg, sizeof msg, "{\"t\":\"done\",\"outcome\":{\"ok\":true,\"value\":%d}}\n",
                     (int) getpid());
    if (write(SANDBOX_IPC_FD, msg, (size_t) n) != n)
        _exit(0);
    for (;;)
        poll(NULL, 0, -1);
}

static int zygote_mode(int argc, char **argv)
{
    struct sandbox_worker_config wc = {0, 0, NULL};
    if (argc > 2 && strcmp(argv[2], "seccomp-probe") == 0)
        wc.after_lockdown = probe_forbidden_syscall;
    if (argc > 2 && strcmp(argv[2], "linger") == 0)
        wc.after_lockdown = linger_after_done;
    return sandbox_zygote_main(STDIN_FILENO, &wc, 0);
}

/* --- harness ---------------------------------------------------------------------- */

struct run {
    uv_loop_t loop;
    struct sandbox_pool *pool;
    char *outcome;
    struct buf logs;
    int calls;
    int gone_signal;
    uv_timer_t approval; /* a call to "s.approve" waits on it, paused */
    struct sandbox_exec *waiting;
    long waiting_id;
};

/* "s.approve": a person takes 3 x the timeout to decide (sandbox_exec_pause). */
static void approved(uv_timer_t *t)
{
    struct run *r = t->data;
    sandbox_exec_resume(r->waiting);
    sandbox_exec_reply(r->waiting, r->waiting_id, 1, "\"approved\"", 10);
}

static int ask_approval(struct run *r, struct sandbox_exec *x, long id, const char *name)
{
    if (strcmp(name, "s.approve") != 0)
        return 0;
    r->waiting = x;
    r->waiting_id = id;
    sandbox_exec_pause(x);
    uv_timer_start(&r->approval, approved, 450, 0);
    return 1;
}

static void on_call(void *ud, struct sandbox_exec *x, long id, const char *op, const char *name,
                    const cJSON *args)
{
    struct run *r = ud;
    r->calls++;
    if (ask_approval(r, x, id, name))
        return;
    char *a = cJSON_PrintUnformatted(args);
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "{\"op\":\"%s\",\"name\":\"%s\",\"args\":%s}", op, name, a);
    sandbox_exec_reply(x, id, 1, b.data, b.len);
    buf_free(&b);
    free(a);
}

static void on_log(void *ud, struct sandbox_exec *x, const char *level, const char *text)
{
    struct run *r = ud;
    (void) x;
    buf_printf(&r->logs, "%s:%s\n", level, text);
}

static void on_done(void *ud, struct sandbox_exec *x, const struct sandbox_exec_result *res)
{
    struct run *r = ud;
    (void) x;
    r->outcome = cJSON_PrintUnformatted(res->outcome);
    uv_close((uv_handle_t *) &r->approval, NULL);
    sandbox_pool_close(r->pool, NULL, NULL);
}

static const struct sandbox_exec_events events = {on_call, on_log, on_done};

static char *run_program_with(const char *mode, const char *code, uint64_t timeout_ms,
                              const char *builtins, unsigned max_calls);

static char *run_program(const char *mode, const char *code, uint64_t timeout_ms)
{
    return run_program_with(mode, code, timeout_ms, NULL, 100);
}

/* run_program with the run's built-in namespaces (their JSON, or NULL) and call limit. */
static char *run_program_with(const char *mode, const char *code, uint64_t timeout_ms,
                              const char *builtins, unsigned max_calls)
{
    struct run r;
    memset(&r, 0, sizeof r);
    buf_init(&r.logs, 0);
    uv_loop_init(&r.loop);
    char exe_and_mode[PATH_MAX + 64];
    snprintf(exe_and_mode, sizeof exe_and_mode, "%s", exe);
    struct sandbox_pool_config pc = {exe, 1, 0, 0, 1u << 20, mode, 0, 0, 0, 0, NULL, 0, 0};
    r.pool = sandbox_pool_new(&r.loop, &pc);
    uv_timer_init(&r.loop, &r.approval);
    r.approval.data = &r;
    struct sandbox_exec_request rq = {
        .code = code, .code_len = strlen(code), .timeout_ms = timeout_ms, .grace_ms = 300,
        .memory_bytes = 32u << 20, .max_result_bytes = 1u << 20, .max_log_bytes = 1u << 16,
        .max_calls = max_calls, .max_concurrent = 16, .builtins_json = builtins};
    sandbox_exec_start(r.pool, &rq, &events, &r);
    uv_run(&r.loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&r.loop), 0);
    buf_free(&r.logs);
    return r.outcome;
}

/* --- tests -------------------------------------------------------------------------- */

static void test_run_in_worker(void **state)
{
    char *o = run_program("warning", "console.log('x'); return 40 + 2;", 5000);
    assert_string_equal(o, "{\"ok\":true,\"value\":42}");
    free(o);
}

static void test_host_calls_over_ipc(void **state)
{
    char *o = run_program("warning",
                          "var a = __await(Promise.all([callTool('s.t', {n: 1}), "
                          "searchTools('q')]));\n"
                          "return [a[0].name, a[0].args.n, a[1].op];",
                          5000);
    assert_string_equal(o, "{\"ok\":true,\"value\":[\"s.t\",1,\"search\"]}");
    free(o);
}

/* resources.* and prompts.* are host calls of ops "resources" and "prompts"
 * that the host accepts and counts against the call limit; they exist only
 * when the run's built-ins say so. */
static void test_resource_and_prompt_calls(void **state)
{
    static const char on[] = "{\"state\":false,\"resources\":true,\"prompts\":true}";
    char *o = run_program_with("warning",
                               "var a = __await(resources.read({uri: 'x://1'}, {server: 's'}));\n"
                               "var b = __await(prompts.get('s', 'p', {k: 'v'}));\n"
                               "var c = __await(resources.list('s', {cursor: 'c'}));\n"
                               "return [a.op, a.name, a.args, b.op, b.name, b.args, c.args];",
                               5000, on, 3);
    assert_string_equal(o, "{\"ok\":true,\"value\":[\"resources\",\"read\",{\"uri\":\"x://1\","
                           "\"server\":\"s\"},\"prompts\",\"get\",{\"server\":\"s\",\"name\":"
                           "\"p\",\"arguments\":{\"k\":\"v\"}},{\"server\":\"s\",\"cursor\":"
                           "\"c\"}]}");
    free(o);
    o = run_program_with("warning",
                         "__await(prompts.list('s')); __await(resources.templates('s'));\n"
                         "return 'third';",
                         5000, on, 1);
    assert_non_null(strstr(o, "tool call limit reached: at most 1 calls per execution"));
    free(o);
    o = run_program_with("warning", "return [typeof resources, typeof prompts];", 5000,
                         "{\"state\":true}", 3);
    assert_string_equal(o, "{\"ok\":true,\"value\":[\"undefined\",\"undefined\"]}");
    free(o);
}

static void test_hard_deadline_kills_native_loop(void **state)
{
    /* One native call that never reaches a bytecode interrupt. */
    char *o = run_program("warning", "return new Array(3e8).join('x').length;", 200);
    assert_non_null(strstr(o, "\"name\":\"TimeoutError\""));
    free(o);
}

static void test_seccomp_kills_forbidden_syscall(void **state)
{
    char *o = run_program("warning seccomp-probe", "return 1;", 5000);
    assert_string_equal(o, "{\"ok\":false,\"error\":{\"name\":\"SandboxError\",\"message\":\"the "
                           "sandbox stopped the program: it attempted a forbidden system call\"}}");
    free(o);
}

static void test_stall_detected(void **state)
{
    char *o = run_program("warning", "__await(new Promise(function () {}));", 5000);
    assert_non_null(strstr(o, "can never settle"));
    free(o);
}

static void test_wait_deadline_while_waiting_on_timer(void **state)
{
    char *o = run_program("warning", "__await(sleep(100000));", 150);
    assert_non_null(strstr(o, "\"name\":\"TimeoutError\""));
    free(o);
}

/* While the host waits for a person (paused), neither the worker's deadline
 * nor the host's hard deadline runs out; a program that computes meanwhile
 * still spends its own budget. */
static void test_paused_while_approval_waits(void **state)
{
    char *o = run_program("warning",
                          "var a = __await(callTool('s.approve', {}));\n"
                          "var b = __await(callTool('s.approve', {}));\n"
                          "__await(sleep(50)); return [a, b];",
                          150);
    assert_string_equal(o, "{\"ok\":true,\"value\":[\"approved\",\"approved\"]}");
    free(o);
    /* the sleep lets the call out (the worker flushes when it waits) */
    o = run_program("warning", "callTool('s.approve', {}); __await(sleep(20)); for (;;) {}", 150);
    assert_non_null(strstr(o, "\"name\":\"TimeoutError\""));
    free(o);
}

/* Workers the zygote forked for a pool that is already closing arrive late:
 * they must be closed, not queued as idle (ASan caught a use-after-free). */
static void test_close_while_forking(void **state)
{
    for (int i = 0; i < 5; i++) {
        uv_loop_t loop;
        uv_loop_init(&loop);
        struct sandbox_pool_config pc = {exe, 8, 0, 0, 1u << 20, "warning", 0, 0, 0, 0, NULL, 0, 0};
        struct sandbox_pool *p = sandbox_pool_new(&loop, &pc);
        /* close once the first worker is idle and the others are still forking */
        while (sandbox_pool_idle(p) < 1)
            uv_run(&loop, UV_RUN_ONCE);
        usleep(20000); /* more workers are forked and announced, still unread */
        sandbox_pool_close(p, NULL, NULL);
        uv_run(&loop, UV_RUN_DEFAULT);
        assert_int_equal(uv_loop_close(&loop), 0);
    }
}

static void test_random_reseeded_per_worker(void **state)
{
    /* Workers are forked from one template heap: without a reseed after the
     * fork they would all produce the same sequence. */
    char *a = run_program("warning", "return [Math.random(), Math.random()];", 5000);
    char *b = run_program("warning", "return [Math.random(), Math.random()];", 5000);
    assert_non_null(strstr(a, "\"ok\":true"));
    assert_string_not_equal(a, b);
    free(a);
    free(b);
}

/* --- workers kept for a principal ---------------------------------------------------- */

#define CHAIN_STEPS 6

/* Executions one after another, each for principals[step]; records which
 * worker ran each (pid, run number). */
struct chain {
    uv_loop_t loop;
    uv_timer_t next;
    struct sandbox_pool *pool;
    const uint64_t *principals;
    int step;
    int pids[CHAIN_STEPS];
    unsigned runs[CHAIN_STEPS];
    unsigned kept_at_end;
    int forgotten_alive; /* the forgotten principal's worker, 100 ms after sandbox_pool_forget */
    int forgotten_pid;
    int sampling;        /* `sample` runs every ms and records the most workers alive */
    uv_timer_t sample;
    unsigned max_live;
};

static void sample_live(uv_timer_t *t)
{
    struct chain *c = t->data;
    unsigned n = sandbox_pool_live(c->pool);
    if (n > c->max_live)
        c->max_live = n;
}

static const struct sandbox_exec_events chain_events;

static void chain_start(uv_timer_t *t)
{
    struct chain *c = t->data;
    if (c->step == CHAIN_STEPS) {
        if (c->forgotten_pid == 0) {
            c->kept_at_end = sandbox_pool_kept(c->pool);
            c->forgotten_pid = c->pids[CHAIN_STEPS - 1];
            sandbox_pool_forget(c->pool, c->principals[CHAIN_STEPS - 1]);
            uv_timer_start(t, chain_start, 100, 0);
            return;
        }
        c->forgotten_alive = kill(c->forgotten_pid, 0) == 0;
        uv_close((uv_handle_t *) t, NULL);
        if (c->sampling)
            uv_close((uv_handle_t *) &c->sample, NULL);
        sandbox_pool_close(c->pool, NULL, NULL);
        return;
    }
    static const char code[] = "globalThis.n = (globalThis.n || 0) + 1; return n";
    struct sandbox_exec_request rq = {
        .code = code, .code_len = sizeof code - 1, .timeout_ms = 5000, .memory_bytes = 32u << 20,
        .max_result_bytes = 1u << 20, .max_log_bytes = 1u << 16, .max_calls = 10,
        .max_concurrent = 4, .principal = c->principals[c->step]};
    sandbox_exec_start(c->pool, &rq, &chain_events, c);
}

static void chain_done(void *ud, struct sandbox_exec *x, const struct sandbox_exec_result *res)
{
    struct chain *c = ud;
    (void) x;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(res->outcome, "value");
    c->pids[c->step] = res->worker_pid;
    c->runs[c->step] = cJSON_IsNumber(v) && v->valueint == 1 ? res->worker_run : 0; /* 0: a leftover */
    c->step++;
    uv_timer_start(&c->next, chain_start, 0, 0); /* after x and its worker are settled */
}

static const struct sandbox_exec_events chain_events = {on_call, on_log, chain_done};

static void test_workers_kept_for_their_principal(void **state)
{
    (void) state;
    static const uint64_t principals[CHAIN_STEPS] = {7, 7, 9, 7, 7, 9};
    struct chain c;
    memset(&c, 0, sizeof c);
    c.principals = principals;
    uv_loop_init(&c.loop);
    struct sandbox_pool_config pc = {exe, 1, 0, 0, 1u << 20, "warning", 0, 3, 60000, 0, NULL, 0, 0};
    c.pool = sandbox_pool_new(&c.loop, &pc);
    uv_timer_init(&c.loop, &c.next);
    c.next.data = &c;
    uv_timer_start(&c.next, chain_start, 0, 0);
    uv_run(&c.loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&c.loop), 0);
    /* Every run saw a fresh global object (n == 1), in these workers: */
    unsigned want_runs[CHAIN_STEPS] = {1, 2, 1, 3, 1, 2};
    for (int i = 0; i < CHAIN_STEPS; i++)
        assert_int_equal(c.runs[i], want_runs[i]);
    assert_int_equal(c.pids[1], c.pids[0]); /* 7 again: its worker */
    assert_int_not_equal(c.pids[2], c.pids[0]); /* 9: never 7's */
    assert_int_equal(c.pids[3], c.pids[0]); /* 7's third run: the cap (3) */
    assert_int_not_equal(c.pids[4], c.pids[0]); /* so a new one */
    assert_int_not_equal(c.pids[4], c.pids[2]);
    assert_int_equal(c.pids[5], c.pids[2]); /* 9's worker waited for it */
    assert_int_equal(c.kept_at_end, 2);
    assert_int_equal(c.forgotten_alive, 0); /* 9 forgotten: its worker exited */
}

/* maxWorkers: with a cap of 2 workers alive, kept ones included, a third
 * principal's execution retires the worker kept for the least recently
 * served principal (and waits for its exit) instead of forking a third. */
static void test_cap_evicts_the_oldest_kept_worker(void **state)
{
    (void) state;
    static const uint64_t principals[CHAIN_STEPS] = {1, 2, 3, 2, 1, 3};
    struct chain c;
    memset(&c, 0, sizeof c);
    c.principals = principals;
    uv_loop_init(&c.loop);
    /* max_workers 2: the pool's size (4) is lowered to it */
    struct sandbox_pool_config pc = {exe, 4, 0, 0, 1u << 20, "warning", 0, 100, 60000, 0, NULL, 2, 0};
    c.pool = sandbox_pool_new(&c.loop, &pc);
    uv_timer_init(&c.loop, &c.next);
    c.next.data = &c;
    uv_timer_init(&c.loop, &c.sample);
    c.sample.data = &c;
    c.sampling = 1;
    uv_timer_start(&c.sample, sample_live, 0, 1);
    uv_timer_start(&c.next, chain_start, 0, 0);
    uv_run(&c.loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&c.loop), 0);
    assert_true(c.max_live <= 2);
    assert_int_equal(c.max_live, 2);
    unsigned want_runs[CHAIN_STEPS] = {1, 1, 1, 2, 1, 1};
    for (int i = 0; i < CHAIN_STEPS; i++)
        assert_int_equal(c.runs[i], want_runs[i]);
    assert_int_equal(c.pids[3], c.pids[1]); /* 2's worker stayed: 1's was the oldest */
    assert_int_not_equal(c.pids[2], c.pids[0]);
    assert_int_not_equal(c.pids[2], c.pids[1]);
    assert_int_not_equal(c.pids[4], c.pids[0]); /* 1's was retired for 3 */
    assert_int_not_equal(c.pids[5], c.pids[2]); /* 3's was retired for 1 */
    assert_int_equal(c.kept_at_end, 2);
}

/* --- a worker released after `done` ---------------------------------------------- */

struct lingering {
    uv_loop_t loop;
    uv_timer_t check;
    struct sandbox_pool *pool;
    int pid, alive_at_50ms, checks;
    uint64_t done_at, gone_after; /* loop time (ms) of the outcome; from it to the first check that found no worker */
    int fds_at_done, fds_refilled; /* this process's open fds (-1: not counted) */
    unsigned idle_at_done;
};

static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    if (d == NULL)
        return -1;
    while (readdir(d) != NULL)
        n++;
    closedir(d);
    return n;
}

static void linger_check(uv_timer_t *t)
{
    struct lingering *l = t->data;
    int alive = kill(l->pid, 0) == 0;
    if (l->checks++ == 0)
        l->alive_at_50ms = alive;
    /* Once the replacement is idle, while the finished worker still lives:
     * the host holds the replacement's socket, no longer the finished one's. */
    if (alive && l->fds_refilled < 0 && sandbox_pool_idle(l->pool) == 1)
        l->fds_refilled = count_fds();
    if (!alive || l->checks > 60) {
        l->pid = alive ? -l->pid : 0; /* 0: gone, as it should be */
        l->gone_after = uv_now(&l->loop) - l->done_at;
        uv_close((uv_handle_t *) t, NULL);
        sandbox_pool_close(l->pool, NULL, NULL);
        return;
    }
    uv_timer_start(t, linger_check, 50, 0);
}

static void linger_done(void *ud, struct sandbox_exec *x, const struct sandbox_exec_result *res)
{
    struct lingering *l = ud;
    (void) x;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(res->outcome, "value");
    l->pid = cJSON_IsNumber(v) ? v->valueint : -1;
    l->done_at = uv_now(&l->loop);
    l->fds_at_done = count_fds(); /* the worker's socket open, maybe its replacement's */
    l->idle_at_done = sandbox_pool_idle(l->pool);
    uv_timer_start(&l->check, linger_check, 50, 0);
}

static const struct sandbox_exec_events linger_events = {on_call, on_log, linger_done};

static void test_finished_worker_that_stays_is_killed(void **state)
{
    (void) state;
    struct lingering l;
    memset(&l, 0, sizeof l);
    l.fds_refilled = -1;
    uv_loop_init(&l.loop);
    uv_timer_init(&l.loop, &l.check);
    l.check.data = &l;
    struct sandbox_pool_config pc = {exe, 1, 0, 0, 1u << 20, "warning linger", 0, 0, 0, 0, NULL, 0, 0};
    l.pool = sandbox_pool_new(&l.loop, &pc);
    struct sandbox_exec_request rq = {
        .code = "return 1", .code_len = 8, .timeout_ms = 5000, .grace_ms = 300,
        .memory_bytes = 32u << 20, .max_result_bytes = 1u << 20, .max_log_bytes = 1u << 16,
        .max_calls = 100, .max_concurrent = 16};
    sandbox_exec_start(l.pool, &rq, &linger_events, &l);
    uv_run(&l.loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&l.loop), 0);
    assert_int_equal(l.alive_at_50ms, 1); /* released after done: not killed at once */
    assert_int_equal(l.pid, 0);           /* but killed once the grace ran out */
    /* not before the grace ran out; measured in time, not in checks (a
     * loaded machine delays the 50 ms checks, so fewer of them fit) */
    assert_true(l.gone_after + 50 >= SANDBOX_FINISH_GRACE_MS);
    assert_true(l.fds_at_done > 0);
    /* The finished worker's socket closed, the replacement's open. */
    assert_int_equal(l.fds_refilled, l.fds_at_done - 1 + (l.idle_at_done == 0));
}

/* --- admission: CPU slots ------------------------------------------------------------- */

struct admitted {
    uv_loop_t loop;
    struct sandbox_pool *pool;
    int done, order[3];
    uint64_t duration[3];
};

struct admitted_run {
    struct admitted *a;
    int index;
};

static void admitted_done(void *ud, struct sandbox_exec *x, const struct sandbox_exec_result *res)
{
    struct admitted_run *r = ud;
    (void) x;
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res->outcome, "ok")));
    r->a->duration[r->index] = res->duration_ms;
    r->a->order[r->a->done++] = r->index;
    if (r->a->done == 3)
        sandbox_pool_close(r->a->pool, NULL, NULL);
}

static const struct sandbox_exec_events admitted_events = {on_call, on_log, admitted_done};

/* Pool of 1 with 1 CPU slot: two programs that send nothing (they sleep,
 * which the host cannot tell from computing) take both; the third waits
 * until a burst ends (SANDBOX_POOL_BURST_MS), no longer, and then finishes
 * long before them. Without the slots it would get a worker at once. */
static void test_cpu_slots_admit_after_a_burst(void **state)
{
    (void) state;
    static const char *const code[3] = {
        "__await(sleep(400)); return 1;",
        "__await(sleep(400)); return 2;",
        "return 3;",
    };
    struct admitted a;
    memset(&a, 0, sizeof a);
    uv_loop_init(&a.loop);
    struct sandbox_pool_config pc = {exe, 1, 0, 0, 1u << 20, "warning", 1, 0, 0, 0, NULL, 0, 0};
    a.pool = sandbox_pool_new(&a.loop, &pc);
    while (sandbox_pool_idle(a.pool) < 1) /* the zygote is up: time only the admission */
        uv_run(&a.loop, UV_RUN_ONCE);
    struct admitted_run runs[3];
    for (int i = 0; i < 3; i++) {
        runs[i] = (struct admitted_run){&a, i};
        struct sandbox_exec_request rq = {
            .code = code[i], .code_len = strlen(code[i]), .timeout_ms = 5000, .grace_ms = 300,
            .memory_bytes = 32u << 20, .max_result_bytes = 1u << 20, .max_log_bytes = 1u << 16,
            .max_calls = 100, .max_concurrent = 16};
        sandbox_exec_start(a.pool, &rq, &admitted_events, &runs[i]);
    }
    uv_run(&a.loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&a.loop), 0);
    assert_int_equal(a.done, 3);
    assert_int_equal(a.order[0], 2);                         /* not behind the loops */
    assert_true(a.duration[2] + 1 >= SANDBOX_POOL_BURST_MS); /* it did wait for a slot */
    assert_true(a.duration[2] < 400);
}

/* on_first_ready: once, when the first zygote is ready; a zygote started
 * again after a crash is not a new start-up. */
static int first_ready_calls;

static void count_first_ready(void)
{
    first_ready_calls++;
}

/* The zygote: this process's only child; -1 when there is none. */
static pid_t zygote_child(void)
{
    pid_t found = -1;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        char *close = strrchr(buf, ')');
        char state;
        int ppid;
        if (close && sscanf(close + 2, "%c %d", &state, &ppid) == 2 && ppid == getpid() &&
            state != 'Z')
            found = atoi(e->d_name);
    }
    if (d)
        closedir(d);
    return found;
}

static void wake(uv_timer_t *t)
{
    (void) t;
}

/* Runs the loop until the pool holds an idle worker from a zygote other
 * than `not` (-1: any); the zygote's pid, or -1 after 10 s. tick, a
 * repeating timer, wakes the loop while the pool waits on nothing. */
static pid_t until_ready(uv_loop_t *loop, struct sandbox_pool *pool, pid_t not)
{
    uint64_t until = uv_now(loop) + 10000;
    while (uv_now(loop) < until) {
        uv_run(loop, UV_RUN_ONCE);
        pid_t z = zygote_child();
        if (z > 0 && z != not && sandbox_pool_idle(pool) >= 1)
            return z;
    }
    return -1;
}

static void test_first_ready_runs_once(void **state)
{
    (void) state;
    first_ready_calls = 0;
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct sandbox_pool_config pc = {exe, 1, 0, 0, 1u << 20, "warning", 0, 0, 0, 0, count_first_ready, 0, 0};
    struct sandbox_pool *pool = sandbox_pool_new(&loop, &pc);
    uv_timer_t tick;
    uv_timer_init(&loop, &tick);
    uv_timer_start(&tick, wake, 20, 20);
    pid_t first = until_ready(&loop, pool, -1);
    assert_true(first > 0);
    assert_int_equal(first_ready_calls, 1);
    kill(first, SIGKILL);
    pid_t second = until_ready(&loop, pool, first);
    assert_true(second > 0); /* started again, and ready: its workers are idle */
    assert_int_equal(first_ready_calls, 1);
    uv_close((uv_handle_t *) &tick, NULL);
    sandbox_pool_close(pool, NULL, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&loop), 0);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "__zygote") == 0) {
        /* argv: exe __zygote --log-level LEVEL [MODE] ...: the pool passes the
         * log level; the tests smuggle the mode in after it. */
        char *mode = argc > 3 ? strchr(argv[3], ' ') : NULL;
        char *fake[3] = {argv[0], argv[1], mode ? mode + 1 : (char *) ""};
        return zygote_mode(3, fake);
    }
    signal(SIGPIPE, SIG_IGN); /* as mcp-codemode's main does: see pool.h */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 1;
    exe[n] = '\0';
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_in_worker),
        cmocka_unit_test(test_host_calls_over_ipc),
        cmocka_unit_test(test_resource_and_prompt_calls),
        cmocka_unit_test(test_hard_deadline_kills_native_loop),
        cmocka_unit_test(test_seccomp_kills_forbidden_syscall),
        cmocka_unit_test(test_stall_detected),
        cmocka_unit_test(test_wait_deadline_while_waiting_on_timer),
        cmocka_unit_test(test_paused_while_approval_waits),
        cmocka_unit_test(test_random_reseeded_per_worker),
        cmocka_unit_test(test_close_while_forking),
        cmocka_unit_test(test_finished_worker_that_stays_is_killed),
        cmocka_unit_test(test_cpu_slots_admit_after_a_burst),
        cmocka_unit_test(test_workers_kept_for_their_principal),
        cmocka_unit_test(test_cap_evicts_the_oldest_kept_worker),
        cmocka_unit_test(test_first_ready_runs_once),
    };
    return cmocka_run_group_tests_name("sandbox_pool", tests, NULL, NULL);
}
