/* The worker's share of a proxied tool call, without IPC (part of the proxy
 * benchmark, tests/bench/bench_proxy.mjs): the sandbox engine runs in-process
 * with a host whose `call` queues the request and whose driver settles each
 * call at once with its own arguments as the value (what the echo server's
 * structuredContent gives back). What is left is the JavaScript side of a
 * call: the tools proxy, argument JSON, the call message, the promise,
 * `await` on a coroutine, and the settle with its JSON parse and microtasks.
 * Prints the median over rounds of the process CPU time per call for
 *   1. N sequential `await tools.echo.echo({message: 'x', n: i})`, and
 *   2. Promise.all over PAR calls,
 * each minus the same program with no calls. Not a timed test.
 * Usage: bench_engine_calls [N [PAR [ROUNDS]]]   (10000, 1000, 7; with
 * BENCH_QUICK=1: 2000, 1000, 3)
 * Build: scripts/run-bench.sh (gives B/bench/bench_engine_calls). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/buf.h"
#include "sandbox/worker/engine.h"
#include "tests/bench/bench_clock.h"

#define MAX_QUEUED 4096

static const char CATALOG[] = "{\"echo\":{\"name\":\"echo\",\"tools\":{\"echo\":\"echo\"}}}";

struct queued {
    long id;
    char *args;
    size_t len;
};

static struct queued queue[MAX_QUEUED];
static size_t nqueued;
static long next_id;
static unsigned long calls_made;

static long host_call(void *ud, const char *op, const char *name, const char *args, size_t len,
                      char *msg, size_t msg_size)
{
    (void) ud;
    if (strcmp(op, "tool") != 0 || strcmp(name, "echo.echo") != 0 || nqueued == MAX_QUEUED) {
        snprintf(msg, msg_size, "unexpected call %s %s", op, name);
        return -1;
    }
    queue[nqueued].id = ++next_id;
    queue[nqueued].args = strndup(args, len);
    queue[nqueued].len = len;
    nqueued++;
    calls_made++;
    return next_id;
}

static void host_log(void *ud, const char *level, const char *text, size_t len)
{
    (void) ud;
    fprintf(stderr, "[%s] %.*s\n", level, (int) len, text);
}

/* Settles everything queued (a settle may queue more calls). */
static void settle_all(struct sandbox_engine *e)
{
    while (nqueued > 0 && sandbox_engine_state(e) == SANDBOX_RUNNING) {
        struct queued q = queue[0];
        memmove(queue, queue + 1, (nqueued - 1) * sizeof *queue);
        nqueued--;
        sandbox_engine_settle(e, q.id, 1, q.args, q.len);
        free(q.args);
    }
}

/* Runs one program in a fresh engine; returns the CPU time (us) from start to
 * outcome, or -1 when it failed. */
static double run(const char *code, unsigned long want_calls)
{
    struct sandbox_engine_host host = {NULL, host_call, host_log};
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&host, &err);
    if (e == NULL) {
        fprintf(stderr, "bench_engine_calls: %s\n", err);
        free(err);
        return -1;
    }
    struct sandbox_run_limits l = {300000, 256u << 20, 4096};
    calls_made = 0;
    double t0 = bench_cpu_ns() / 1e3;
    sandbox_engine_start(e, code, strlen(code), CATALOG, &l);
    settle_all(e);
    double t = bench_cpu_ns() / 1e3 - t0;
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 1 << 20, &out);
    int ok = strncmp(out.data, "{\"ok\":true", 10) == 0 && calls_made == want_calls;
    if (!ok)
        fprintf(stderr, "bench_engine_calls: the program failed: %.300s\n", out.data);
    buf_free(&out);
    for (size_t i = 0; i < nqueued; i++)
        free(queue[i].args);
    nqueued = 0;
    sandbox_engine_destroy(e);
    return ok ? t : -1;
}

static char *sequential(unsigned long n)
{
    char *s;
    if (asprintf(&s,
                 "for (let i = 0; i < %lu; i++) {\n"
                 "    const r = await tools.echo.echo({ message: 'x', n: i });\n"
                 "    if (r.n !== i) throw new Error('bad echo');\n"
                 "}\nreturn 1;",
                 n) < 0)
        abort();
    return s;
}

static char *burst(unsigned long par)
{
    char *s;
    if (asprintf(
            &s,
            "const calls = [];\n"
            "for (let i = 0; i < %lu; i++) calls.push(tools.echo.echo({ message: 'x', n: i }));\n"
            "const rs = await Promise.all(calls);\n"
            "for (let i = 0; i < %lu; i++) if (rs[i].n !== i) throw new Error('bad echo');\n"
            "return 1;",
            par, par) < 0)
        abort();
    return s;
}

/* Median over rounds of (program with n calls - program with none) / n, in
 * us, with the p10 and p90 of the rounds. Returns -1 when a run failed. */
static double per_call(char *(*make)(unsigned long), unsigned long n, int rounds, double *p10,
                       double *p90)
{
    char *full = make(n), *empty = make(0);
    double *v = calloc((size_t) rounds, sizeof *v);
    double result = -1;
    for (int r = 0; r < rounds; r++) {
        double a = run(full, n), b = run(empty, 0);
        if (a < 0 || b < 0)
            goto out;
        v[r] = (a - b) / (double) n;
    }
    result = bench_median(v, rounds);
    *p10 = v[rounds / 10];
    *p90 = v[rounds - 1 - rounds / 10];
out:
    free(v);
    free(full);
    free(empty);
    return result;
}

int main(int argc, char **argv)
{
    int quick = getenv("BENCH_QUICK") && strcmp(getenv("BENCH_QUICK"), "1") == 0;
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : quick ? 2000 : 10000;
    unsigned long par = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000;
    int rounds = argc > 3 ? atoi(argv[3]) : quick ? 3 : 7;
    if (n == 0 || par == 0 || par > MAX_QUEUED || rounds < 1) {
        fprintf(stderr, "usage: bench_engine_calls [N [PAR (<= %d) [ROUNDS]]]\n", MAX_QUEUED);
        return 2;
    }
    printf("The engine's share of a tool call: in-process, no IPC, each call settled at once with "
           "its arguments;\nprocess CPU time per call, median over %d rounds [p10-p90]\n",
           rounds);
    double lo, hi;
    double seq = per_call(sequential, n, rounds, &lo, &hi);
    if (seq < 0)
        return 1;
    printf("   sequential, %lu awaited calls:  %.2f us [%.2f-%.2f]\n", n, seq, lo, hi);
    double burst_us = per_call(burst, par, rounds, &lo, &hi);
    if (burst_us < 0)
        return 1;
    printf("   Promise.all over %lu calls:   %.2f us [%.2f-%.2f], %.2f ms per burst\n", par,
           burst_us, lo, hi, burst_us * (double) par / 1e3);
    return 0;
}
