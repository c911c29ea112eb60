/* Benchmark of the lowering pass (not a timed test: prints medians over
 * repeated runs, since the machine is shared and noisy):
 *  1. lowering throughput on a ~10 KB modern program (MB/s, us per program);
 *  2. lower + compile + run of a ~200-line program in a prepared engine;
 *  3. CPU-bound code (sum of primes below 200000) written in modern style
 *     and lowered, against the same algorithm hand-written in ES5, both run
 *     in the sandbox engine (process CPU time).
 * Build: tests/lower/build.sh (gives build/lower/bench_lower). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/buf.h"
#include "duktape.h"
#include "sandbox/engine.h"
#include "sandbox/lower.h"

static double thread_us(void);

static double cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A modern-style unit of code (~1 KB), repeated to the wanted size. */
static const char *unit_src =
    "class Inventory%d extends Base {\n"
    "  #items = new Map();\n"
    "  static count = 0;\n"
    "  constructor(name, { limit = 10, tags = [] } = {}) { super(name); this.limit = limit; "
    "this.tags = [...tags]; }\n"
    "  add(item, qty = 1) { const cur = this.#items.get(item) ?? 0; this.#items.set(item, cur + "
    "qty); return this; }\n"
    "  *entries() { for (const [k, v] of this.#items) yield { k, v }; }\n"
    "  async sync(api) { for (const { k, v } of this.entries()) { await api?.put?.(k, v); } "
    "return `synced ${this.name}`; }\n"
    "}\n"
    "const totals%d = items.filter(x => x.qty > 0).map(({ name, qty, price = 0 }) => ({ name, "
    "total: qty * price }));\n"
    "let sum%d = 0;\n"
    "for (let i = 0; i < totals%d.length; i++) { sum%d += totals%d[i].total; }\n"
    "const report%d = { ...defaults, sum: sum%d, when: `${new Date(0).getTime()}` };\n"
    "const byName%d = Object.fromEntries(totals%d.map(t => [t.name, t]));\n";

static void make_program(struct buf *b, size_t size)
{
    for (int i = 0; b->len < size; i++)
        buf_printf(b, unit_src, i, i, i, i, i, i, i, i, i, i, i);
}

/* Throughput is measured in thread CPU time: the machine is shared. */
static double thread_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void bench_throughput(void)
{
    struct buf src, out;
    buf_init(&src, 0);
    buf_init(&out, 0);
    make_program(&src, 10 * 1024);
    struct lower_error err;
    enum { RUNS = 15, REPS = 50 };
    double t[RUNS];
    for (int r = 0; r < RUNS; r++) {
        double t0 = thread_us();
        for (int k = 0; k < REPS; k++) {
            buf_reset(&out);
            if (sandbox_lower(src.data, src.len, LOWER_MODE_MAIN, &out, &err) < 0) {
                fprintf(stderr, "lowering failed: %s (line %d)\n", err.message, err.line);
                exit(1);
            }
        }
        t[r] = (thread_us() - t0) / REPS;
    }
    double m = median(t, RUNS);
    printf("lowering: %zu-byte program in %.1f us (median of %d x %d): %.1f MB/s\n", src.len, m,
           RUNS, REPS, src.len / m);
    /* a larger input, for throughput without start-up costs */
    buf_reset(&src);
    make_program(&src, 1 << 20);
    double t2[5];
    for (int r = 0; r < 5; r++) {
        double t0 = thread_us();
        buf_reset(&out);
        sandbox_lower(src.data, src.len, LOWER_MODE_MAIN, &out, &err);
        t2[r] = thread_us() - t0;
    }
    m = median(t2, 5);
    printf("lowering: %zu-byte program in %.2f ms (median of 5): %.1f MB/s\n", src.len, m / 1e3,
           src.len / m);
    buf_free(&src);
    buf_free(&out);
}

static long host_call(void *ud, const char *op, const char *name, const char *args, size_t len,
                      char *msg, size_t msg_size)
{
    (void)ud; (void)op; (void)name; (void)args; (void)len;
    snprintf(msg, msg_size, "no tools");
    return -1;
}

static void host_log(void *ud, const char *level, const char *text, size_t len)
{
    (void)ud; (void)level; (void)text; (void)len;
}

/* Lowers and runs src; returns the outcome text (caller frees). */
static char *run_program(struct sandbox_engine *e, const char *src, size_t len, double *lower_us)
{
    struct buf low, out;
    struct lower_error err;
    buf_init(&low, 0);
    buf_init(&out, 0);
    double t0 = thread_us();
    if (sandbox_lower(src, len, LOWER_MODE_MAIN, &low, &err) < 0) {
        fprintf(stderr, "lowering failed: %s (line %d)\n", err.message, err.line);
        exit(1);
    }
    if (lower_us)
        *lower_us = thread_us() - t0;
    struct sandbox_run_limits l = {60000, 512u << 20, 256};
    /* the engine lowers again (the lowering above is timed apart) */
    sandbox_engine_start(e, src, len, NULL, &l);
    while (sandbox_engine_state(e) == SANDBOX_RUNNING) {
        if (sandbox_engine_next_timer(e) < 0) {
            sandbox_engine_abort(e, "Error", "stalled");
            break;
        }
        sandbox_engine_run_timers(e);
    }
    sandbox_engine_outcome(e, 1 << 20, &out);
    buf_free(&low);
    return buf_steal(&out);
}

static const char *program_200 =
    "const users = [];\n"
    "for (let i = 0; i < 50; i++) users.push({ id: i, name: `user${i}`, age: 20 + (i %% 30), "
    "tags: i %% 3 ? ['a'] : ['a', 'b'] });\n"
    "%s"
    "const adults = users.filter(({ age }) => age >= 30);\n"
    "const byTag = {};\n"
    "for (const { tags, name } of users) for (const t of tags) (byTag[t] ?\?= []).push(name);\n"
    "({ adults: adults.length, a: byTag.a.length, b: byTag.b?.length ?? 0 })\n";

static void bench_program(void)
{
    struct buf filler, src;
    buf_init(&filler, 0);
    buf_init(&src, 0);
    /* a mix of typical model-written lines */
    static const char *lines[] = {
        "const f%d = (x, { k = %d } = {}) => x?.v ?? k + users.length;\n",
        "let s%d = 0; for (const u of users) { if (u.age > %d) s%d += u.id; }\n",
        "const names%d = users.map(u => `${u.name}:%d`).join(',');\n",
        "const o%d = { id: %d, ...users[0], tags: [...users[1].tags, 'x'] };\n",
        "function g%d(a, b = %d) { return a > b ? a - b : b - a; }\n",
        "if (users.length > %d) { const [first, ...others] = users; console.log(first.name, others.length); }\n",
        "const m%d = users.slice(0, 3 + %d % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});\n",
        "class C%d { constructor(v) { this.v = v ?? %d; } get double() { return this.v * 2; } }\n",
        "const r%d = await Promise.resolve(%d).then(v => v + 1);\n",
        "try { JSON.parse('{\"a\":%d}'); } catch { console.log('bad %d'); }\n",
    };
    for (int i = 0; i < 195; i++)
        buf_printf(&filler, lines[i % 10], i, i, i, i);
    buf_printf(&src, program_200, filler.data);
    enum { RUNS = 41 };
    double total[RUNS], lowering[RUNS], create[RUNS];
    struct sandbox_engine_host eh = {NULL, host_call, host_log};
    for (int r = 0; r < RUNS; r++) {
        char *cerr = NULL;
        double t0 = thread_us();
        struct sandbox_engine *e = sandbox_engine_create(&eh, &cerr);
        if (!e) {
            fprintf(stderr, "engine: %s\n", cerr);
            exit(1);
        }
        double t1 = thread_us();
        char *o = run_program(e, src.data, src.len, &lowering[r]);
        /* the engine lowers the program itself: the first lowering is apart */
        total[r] = thread_us() - t1 - lowering[r];
        create[r] = t1 - t0;
        if (r == 0)
            printf("200-line program outcome: %s\n", o);
        free(o);
        sandbox_engine_destroy(e);
    }
    /* Duktape's compile of the lowered text alone (a bare heap) */
    struct buf low;
    struct lower_error lerr;
    buf_init(&low, 0);
    sandbox_lower(src.data, src.len, LOWER_MODE_MAIN, &low, &lerr);
    duk_context *ctx = duk_create_heap_default();
    double comp[RUNS];
    for (int r = 0; r < RUNS; r++) {
        double t1 = thread_us();
        duk_push_lstring(ctx, low.data, low.len);
        duk_push_string(ctx, "program.js");
        duk_compile(ctx, DUK_COMPILE_EVAL);
        comp[r] = thread_us() - t1;
        duk_pop(ctx);
    }
    duk_destroy_heap(ctx);
    printf("200-line program: lowered text %zu bytes, Duktape compile alone %.0f us\n", low.len,
           median(comp, RUNS));
    buf_free(&low);
    /* the fixed cost of starting any program, for comparison */
    double trivial[RUNS];
    for (int r = 0; r < RUNS; r++) {
        char *cerr = NULL;
        struct sandbox_engine *e = sandbox_engine_create(&eh, &cerr);
        double l, t1 = thread_us();
        free(run_program(e, "0", 1, &l));
        trivial[r] = thread_us() - t1 - l;
        sandbox_engine_destroy(e);
    }
    printf("200-line program (%zu bytes): lower %.0f us, lower+compile+run %.0f us; a trivial "
           "program %.0f us (thread CPU, medians of %d; heap creation apart: %.0f us)\n",
           src.len, median(lowering, RUNS), median(total, RUNS), median(trivial, RUNS), RUNS,
           median(create, RUNS));
    buf_free(&filler);
    buf_free(&src);
}

static const char *primes_modern =
    "const isPrime = (n, primes) => {\n"
    "  for (const p of primes) {\n"
    "    if (p * p > n) return true;\n"
    "    if (n % p === 0) return false;\n"
    "  }\n"
    "  return true;\n"
    "};\n"
    "const primes = [];\n"
    "for (let n = 2; n < 200000; n++) {\n"
    "  if (isPrime(n, primes)) primes.push(n);\n"
    "}\n"
    "let sum = 0;\n"
    "for (const p of primes) sum += p;\n"
    "sum\n";

static const char *primes_es5 =
    "function isPrime(n, primes) {\n"
    "  for (var i = 0; i < primes.length; i++) {\n"
    "    var p = primes[i];\n"
    "    if (p * p > n) return true;\n"
    "    if (n % p === 0) return false;\n"
    "  }\n"
    "  return true;\n"
    "}\n"
    "var primes = [];\n"
    "for (var n = 2; n < 200000; n++) {\n"
    "  if (isPrime(n, primes)) primes.push(n);\n"
    "}\n"
    "var sum = 0;\n"
    "for (var j = 0; j < primes.length; j++) sum += primes[j];\n"
    "return sum;\n";

static double run_cpu(const char *src, char **outcome)
{
    struct sandbox_engine_host eh = {NULL, host_call, host_log};
    char *cerr = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&eh, &cerr);
    double t0 = cpu_us();
    *outcome = run_program(e, src, strlen(src), NULL);
    double t = cpu_us() - t0;
    sandbox_engine_destroy(e);
    return t;
}

static void bench_cpu(void)
{
    enum { RUNS = 9 };
    double modern[RUNS], es5[RUNS];
    char *o1 = NULL, *o2 = NULL;
    for (int r = 0; r < RUNS; r++) {
        free(o1);
        free(o2);
        modern[r] = run_cpu(primes_modern, &o1);
        es5[r] = run_cpu(primes_es5, &o2);
    }
    double m = median(modern, RUNS), h = median(es5, RUNS);
    printf("primes < 200000: modern lowered %.1f ms, hand-written ES5 %.1f ms: ratio %.2f "
           "(medians of %d, interleaved; outcomes %s / %s)\n",
           m / 1e3, h / 1e3, m / h, RUNS, o1, o2);
    free(o1);
    free(o2);
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : "";
    if (!*only || strcmp(only, "throughput") == 0)
        bench_throughput();
    if (!*only || strcmp(only, "program") == 0)
        bench_program();
    if (!*only || strcmp(only, "cpu") == 0)
        bench_cpu();
    return 0;
}
