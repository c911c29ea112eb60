/* Benchmark of the lowering pass (issue 3, section 6). Not a timed test: it
 * prints medians over many rounds of thread CPU time and wall time (the
 * machine is shared and noisy), and with `ir` the instruction counts of each
 * workload under callgrind, which repeat exactly from run to run.
 *  throughput: lowering a ~10 KB and a ~1 MB modern program (MB/s);
 *  program:    lower + compile + run of two ~200-line programs in a fresh
 *              engine (tool calls answered by a canned host), against the same
 *              programs hand-written in ES5 run in the same engine;
 *  cpu:        sum of primes below 200000, modern and lowered, against the
 *              same algorithm in ES5, in the engine and in a bare Duktape heap.
 *  scaling:    lowering throughput at 10 KB, 100 KB, 1 MB and 4 MB (not in the default run).
 * Usage: bench_lower [throughput|scaling|program|cpu] | ir [WORKLOAD] | exec FILE
 * (exec: runs FILE with the canned host, BENCH_LOG=1 prints its console)
 * Programs are read from tests/bench/lower/ (run from the repository root).
 * Build: tests/lower/build.sh (gives build/lower/bench_lower). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "duktape.h"
#include "lower/bench_host.h"
#include "sandbox/worker/engine.h"
#include "sandbox/lower/lower.h"

#define DIR "tests/bench/lower/"

/* ---- clocks and statistics -------------------------------------------------- */

static double clock_us(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

struct span {
    double cpu0, wall0;
};

static struct span span_start(void)
{
    struct span s = {clock_us(CLOCK_THREAD_CPUTIME_ID), clock_us(CLOCK_MONOTONIC)};
    return s;
}

static void span_stop(struct span s, double *cpu, double *wall)
{
    *cpu = clock_us(CLOCK_THREAD_CPUTIME_ID) - s.cpu0;
    *wall = clock_us(CLOCK_MONOTONIC) - s.wall0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of v (sorted in place). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- inputs ------------------------------------------------------------------ */

static void read_file(const char *name, struct buf *b)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", strchr(name, '/') ? "" : DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        fprintf(stderr, "bench_lower: run it from the repository root\n");
        exit(2);
    }
    char chunk[65536];
    size_t n;
    buf_init(b, 0);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(b, chunk, n);
    fclose(f);
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

static void make_units(struct buf *b, size_t size)
{
    buf_init(b, 0);
    for (int i = 0; b->len < size; i++)
        buf_printf(b, unit_src, i, i, i, i, i, i, i, i, i, i, i);
}

static void lower_or_die(const struct buf *src, struct buf *out)
{
    struct lower_error err;
    buf_reset(out);
    if (sandbox_lower(src->data, src->len, LOWER_MODE_MAIN, out, &err) < 0) {
        fprintf(stderr, "lowering failed: %s (line %d)\n", err.message, err.line);
        exit(1);
    }
}

/* ---- workloads (each also an `ir` workload) --------------------------------------- */

/* Lowers src reps times. */
static void work_lower(const struct buf *src, int reps)
{
    struct buf out;
    buf_init(&out, 0);
    for (int k = 0; k < reps; k++)
        lower_or_die(src, &out);
    buf_free(&out);
}

/* Duktape's compile of text (as the engine compiles the lowered program) in ctx. */
static void work_compile(duk_context *ctx, const struct buf *text)
{
    duk_push_lstring(ctx, text->data, text->len);
    duk_push_string(ctx, "program.js");
    duk_compile(ctx, DUK_COMPILE_EVAL);
    duk_pop(ctx);
}

/* Lower + compile + run in engine e (created apart); returns the outcome. */
static char *work_run(struct bench_host *h, struct sandbox_engine *e, const struct buf *src)
{
    return bench_host_run(h, e, src->data, src->len);
}

/* The ES5 primes in a bare Duktape heap (the engine's build, no prelude). */
static double work_bare(duk_context *ctx, const struct buf *src)
{
    duk_push_string(ctx, "(function () {\n");
    duk_push_lstring(ctx, src->data, src->len);
    duk_push_string(ctx, "\n})()");
    duk_concat(ctx, 3);
    if (duk_peval(ctx) != 0) {
        fprintf(stderr, "bare: %s\n", duk_safe_to_string(ctx, -1));
        exit(1);
    }
    double v = duk_get_number(ctx, -1);
    duk_pop(ctx);
    return v;
}

/* ---- 1. throughput ---------------------------------------------------------------- */

static void bench_throughput(void)
{
    struct buf src;
    make_units(&src, 10 * 1024);
    enum { RUNS = 31, REPS = 40 };
    double cpu[RUNS], wall[RUNS];
    for (int r = 0; r < RUNS; r++) {
        struct span s = span_start();
        work_lower(&src, REPS);
        span_stop(s, &cpu[r], &wall[r]);
        cpu[r] /= REPS;
        wall[r] /= REPS;
    }
    double c = median(cpu, RUNS), w = median(wall, RUNS);
    printf("lowering %zu bytes: %.0f us thread CPU (%.1f MB/s), %.0f us wall; medians of %d "
           "rounds x %d\n", src.len, c, src.len / c, w, RUNS, REPS);
    buf_free(&src);
    make_units(&src, 1 << 20);
    enum { BIG = 9 };
    for (int r = 0; r < BIG; r++) {
        struct span s = span_start();
        work_lower(&src, 1);
        span_stop(s, &cpu[r], &wall[r]);
    }
    c = median(cpu, BIG);
    w = median(wall, BIG);
    printf("lowering %zu bytes: %.1f ms thread CPU (%.1f MB/s), %.1f ms wall; medians of %d\n",
           src.len, c / 1e3, src.len / c, w / 1e3, BIG);
    buf_free(&src);
}

/* Lowering throughput at 10 KB, 100 KB, 1 MB and 4 MB (it should be flat). */
static void bench_scaling(void)
{
    static const size_t sizes[] = {10u << 10, 100u << 10, 1u << 20, 4u << 20};
    enum { RUNS = 9 };
    double cpu[RUNS], wall[RUNS];
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        struct buf src;
        make_units(&src, sizes[k]);
        int reps = (int)((4u << 20) / sizes[k]); /* ~4 MB lowered per round */
        for (int r = 0; r < RUNS; r++) {
            struct span s = span_start();
            work_lower(&src, reps);
            span_stop(s, &cpu[r], &wall[r]);
            cpu[r] /= reps;
            wall[r] /= reps;
        }
        double c = median(cpu, RUNS), w = median(wall, RUNS);
        printf("lowering %8zu bytes: %9.0f us thread CPU (%5.1f MB/s), %9.0f us wall (%5.1f MB/s); "
               "medians of %d\n", src.len, c, src.len / c, w, src.len / w, RUNS);
        buf_free(&src);
    }
}

/* ---- 2. the 200-line programs ------------------------------------------------------- */

struct prog {
    const char *name;
    struct buf modern, es5, low_modern, low_es5;
};

static void prog_load(struct prog *p, const char *name, const char *modern, const char *es5)
{
    p->name = name;
    read_file(modern, &p->modern);
    read_file(es5, &p->es5);
    buf_init(&p->low_modern, 0);
    buf_init(&p->low_es5, 0);
    lower_or_die(&p->modern, &p->low_modern);
    lower_or_die(&p->es5, &p->low_es5);
}

static void prog_free(struct prog *p)
{
    buf_free(&p->modern);
    buf_free(&p->es5);
    buf_free(&p->low_modern);
    buf_free(&p->low_es5);
}

static int count_lines(const struct buf *b)
{
    int n = 0;
    for (size_t i = 0; i < b->len; i++)
        n += b->data[i] == '\n';
    return n;
}

enum { PRUNS = 41 };

/* One timed engine run (engine creation apart); checks the outcome is `want`
 * (or sets it). */
static void timed_run(const struct buf *src, char **want, double *cpu, double *wall)
{
    struct sandbox_engine *e;
    struct bench_host *h = bench_host_create(&e);
    struct span s = span_start();
    char *o = work_run(h, e, src);
    span_stop(s, cpu, wall);
    bench_host_destroy(h, e);
    if (!*want)
        *want = o;
    else {
        if (strcmp(o, *want) != 0) {
            fprintf(stderr, "outcomes differ:\n%s\n%s\n", *want, o);
            exit(1);
        }
        free(o);
    }
}

struct prog_times {
    double lower[2], compile[2], run_cpu[2], run_wall[2]; /* [0] modern, [1] ES5 */
};

static void time_lowering(struct prog *p, struct prog_times *t)
{
    double cpu[2][PRUNS], wall[PRUNS];
    for (int r = 0; r < PRUNS; r++) {
        struct span s = span_start();
        work_lower(&p->modern, 1);
        span_stop(s, &cpu[0][r], &wall[r]);
        s = span_start();
        work_lower(&p->es5, 1);
        span_stop(s, &cpu[1][r], &wall[r]);
    }
    t->lower[0] = median(cpu[0], PRUNS);
    t->lower[1] = median(cpu[1], PRUNS);
}

static void time_compile(struct prog *p, struct prog_times *t)
{
    double cpu[2][PRUNS], wall[PRUNS];
    duk_context *ctx = duk_create_heap_default();
    for (int r = 0; r < PRUNS; r++) {
        struct span s = span_start();
        work_compile(ctx, &p->low_modern);
        span_stop(s, &cpu[0][r], &wall[r]);
        s = span_start();
        work_compile(ctx, &p->low_es5);
        span_stop(s, &cpu[1][r], &wall[r]);
    }
    duk_destroy_heap(ctx);
    t->compile[0] = median(cpu[0], PRUNS);
    t->compile[1] = median(cpu[1], PRUNS);
}

static void time_runs(struct prog *p, struct prog_times *t)
{
    double cpu[2][PRUNS], wall[2][PRUNS];
    char *want = NULL;
    timed_run(&p->modern, &want, &cpu[0][0], &wall[0][0]); /* fills the host's answers */
    for (int r = 0; r < PRUNS; r++) {
        timed_run(&p->modern, &want, &cpu[0][r], &wall[0][r]);
        timed_run(&p->es5, &want, &cpu[1][r], &wall[1][r]);
    }
    printf("  outcome (both): %.160s%s\n", want, strlen(want) > 160 ? "..." : "");
    free(want);
    for (int k = 0; k < 2; k++) {
        t->run_cpu[k] = median(cpu[k], PRUNS);
        t->run_wall[k] = median(wall[k], PRUNS);
    }
}

static void bench_one_program(struct prog *p)
{
    struct prog_times t;
    time_lowering(p, &t);
    time_compile(p, &t);
    printf("%s program: %d lines, %zu bytes -> lowered %zu bytes; ES5 by hand %zu bytes -> %zu\n",
           p->name, count_lines(&p->modern), p->modern.len, p->low_modern.len, p->es5.len,
           p->low_es5.len);
    time_runs(p, &t);
    printf("  lower + compile + run: %.0f us thread CPU (%.0f us wall); ES5 by hand through the "
           "same engine %.0f us (%.0f us wall): ratio %.2f\n",
           t.run_cpu[0], t.run_wall[0], t.run_cpu[1], t.run_wall[1], t.run_cpu[0] / t.run_cpu[1]);
    printf("  of which lowering %.0f us (ES5: %.0f us); compile alone (bare heap) %.0f us "
           "(ES5: %.0f us, ratio %.2f)\n",
           t.lower[0], t.lower[1], t.compile[0], t.compile[1], t.compile[0] / t.compile[1]);
    double cr0 = t.run_cpu[0] - t.lower[0], cr1 = t.run_cpu[1] - t.lower[1];
    printf("  compile + run without lowering: %.0f us vs %.0f us: ratio %.2f\n", cr0, cr1,
           cr0 / cr1);
}

static void bench_program(void)
{
    struct prog rep, dense;
    prog_load(&rep, "representative", "representative.js", "representative_es5.js");
    prog_load(&dense, "dense", "dense.js", "dense_es5.js");
    printf("(thread CPU medians of %d fresh engines, modern and ES5 interleaved)\n", PRUNS);
    bench_one_program(&rep);
    bench_one_program(&dense);
    prog_free(&rep);
    prog_free(&dense);
    /* the fixed cost of starting any program */
    struct buf trivial;
    buf_init(&trivial, 0);
    buf_append_str(&trivial, "0");
    double cpu[PRUNS], wall[PRUNS];
    char *want = NULL;
    for (int r = 0; r < PRUNS; r++)
        timed_run(&trivial, &want, &cpu[r], &wall[r]);
    printf("a trivial program (`0`): %.0f us thread CPU\n", median(cpu, PRUNS));
    free(want);
    buf_free(&trivial);
}

/* ---- 3. CPU-bound code ------------------------------------------------------------ */

static void bench_cpu(void)
{
    enum { RUNS = 11 };
    struct buf modern, es5;
    read_file("primes.js", &modern);
    read_file("primes_es5.js", &es5);
    double cpu[3][RUNS], wall;
    char *want = NULL;
    for (int r = 0; r < RUNS; r++) {
        timed_run(&modern, &want, &cpu[0][r], &wall);
        timed_run(&es5, &want, &cpu[1][r], &wall);
        duk_context *ctx = duk_create_heap_default();
        struct span s = span_start();
        double v = work_bare(ctx, &es5);
        span_stop(s, &cpu[2][r], &wall);
        duk_destroy_heap(ctx);
        if (v != 1709600813.0) {
            fprintf(stderr, "bare heap: wrong sum %.0f\n", v);
            exit(1);
        }
    }
    double m = median(cpu[0], RUNS), h = median(cpu[1], RUNS), b = median(cpu[2], RUNS);
    printf("primes < 200000 (%s): modern lowered %.1f ms; ES5 in the engine %.1f ms (ratio "
           "%.3f); ES5 in a bare heap %.1f ms (ratio %.3f); thread CPU medians of %d, "
           "interleaved\n", want, m / 1e3, h / 1e3, m / h, b / 1e3, m / b, RUNS);
    free(want);
    buf_free(&modern);
    buf_free(&es5);
}

/* ---- instruction counts (callgrind) ------------------------------------------------- */

/* Every workload runs inside ir_region, the only function callgrind collects
 * (extern and never cloned, so that callgrind finds it by name). */
void ir_region(void (*fn)(void *), void *arg);
void __attribute__((noinline, noclone)) ir_region(void (*fn)(void *), void *arg)
{
    fn(arg);
}

struct ir_arg {
    const char *what; /* lower, compile, run, bare */
    struct buf src, low;
    duk_context *ctx;
    struct bench_host *h;
    struct sandbox_engine *e;
};

static void ir_body(void *p)
{
    struct ir_arg *a = p;
    if (strcmp(a->what, "lower") == 0)
        work_lower(&a->src, 1);
    else if (strcmp(a->what, "compile") == 0)
        work_compile(a->ctx, &a->low);
    else if (strcmp(a->what, "bare") == 0)
        work_bare(a->ctx, &a->src);
    else
        free(work_run(a->h, a->e, &a->src));
}

/* Workload names: lower-10k, lower-1m (lower-100k and lower-4m when named), {lower,compile,run}-{rep,rep-es5,dense,dense-es5},
 * run-primes, run-primes-es5, bare-primes-es5, run-trivial. */
static const char *const ir_workloads[] = {
    "lower-10k", "lower-1m",
    "lower-rep", "lower-rep-es5", "compile-rep", "compile-rep-es5", "run-rep", "run-rep-es5",
    "lower-dense", "lower-dense-es5", "compile-dense", "compile-dense-es5", "run-dense",
    "run-dense-es5", "run-trivial", "run-primes", "run-primes-es5", "bare-primes-es5", NULL};

static void ir_input(const char *subject, struct buf *src)
{
    char file[128];
    if (strcmp(subject, "10k") == 0)
        make_units(src, 10 * 1024);
    else if (strcmp(subject, "100k") == 0)
        make_units(src, 100 * 1024);
    else if (strcmp(subject, "1m") == 0)
        make_units(src, 1 << 20);
    else if (strcmp(subject, "4m") == 0)
        make_units(src, 4 << 20);
    else if (strcmp(subject, "trivial") == 0) {
        buf_init(src, 0);
        buf_append_str(src, "0");
    } else {
        size_t n = strlen(subject);
        int es5 = n > 4 && strcmp(subject + n - 4, "-es5") == 0;
        const char *base = strncmp(subject, "rep", 3) == 0 ? "representative"
                           : strncmp(subject, "dense", 5) == 0 ? "dense" : "primes";
        snprintf(file, sizeof file, "%s%s.js", base, es5 ? "_es5" : "");
        read_file(file, src);
    }
}

static int ir_one(const char *workload)
{
    struct ir_arg a = {0};
    char what[32];
    const char *dash = strchr(workload, '-');
    if (!dash || (size_t)(dash - workload) >= sizeof what)
        return 2;
    snprintf(what, sizeof what, "%.*s", (int)(dash - workload), workload);
    a.what = what;
    ir_input(dash + 1, &a.src);
    buf_init(&a.low, 0);
    lower_or_die(&a.src, &a.low);
    if (strcmp(what, "compile") == 0 || strcmp(what, "bare") == 0)
        a.ctx = duk_create_heap_default();
    else if (strcmp(what, "run") == 0) {
        a.h = bench_host_create(&a.e); /* a first run fills the host's answers */
        free(work_run(a.h, a.e, &a.src));
        bench_host_destroy(a.h, a.e);
        a.h = bench_host_create(&a.e);
    }
    ir_region(ir_body, &a);
    if (a.ctx)
        duk_destroy_heap(a.ctx);
    if (a.h)
        bench_host_destroy(a.h, a.e);
    buf_free(&a.src);
    buf_free(&a.low);
    return 0;
}

/* Runs workload under callgrind; returns the instructions of ir_region, or -1. */
static double ir_count(const char *self, const char *workload)
{
    char out[64], cmd[1024];
    snprintf(out, sizeof out, "/tmp/bench_lower.%d.cg", (int)getpid());
    snprintf(cmd, sizeof cmd,
             "valgrind --tool=callgrind --callgrind-out-file=%s --collect-atstart=no "
             "--toggle-collect=ir_region '%s' ir1 %s >/dev/null 2>&1",
             out, self, workload);
    if (system(cmd) != 0)
        return -1;
    FILE *f = fopen(out, "r");
    double v = -1;
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "totals:", 7) == 0 || strncmp(line, "summary:", 8) == 0)
            v = atof(line + (line[0] == 't' ? 7 : 8));
    if (f)
        fclose(f);
    unlink(out);
    return v;
}

static int bench_ir(const char *self, const char *only)
{
    printf("instructions (callgrind Ir of one run of each workload, engine creation apart)\n");
    const char *one[] = {only, NULL};
    const char *const *list = only ? one : ir_workloads;
    for (int i = 0; list[i]; i++) {
        double v = ir_count(self, list[i]);
        if (v < 0) {
            fprintf(stderr, "callgrind failed for %s\n", list[i]);
            return 1;
        }
        printf("  %-18s %14.0f\n", list[i], v);
        fflush(stdout);
    }
    return 0;
}

/* Runs one program file with the canned host (twice: the second run, in
 * ir_region, is the one callgrind counts); prints its outcome. */
static int exec_file(const char *path)
{
    struct ir_arg a = {0};
    a.what = "run";
    read_file(path, &a.src);
    a.h = bench_host_create(&a.e);
    char *o = work_run(a.h, a.e, &a.src);
    printf("%s\n", o);
    free(o);
    bench_host_destroy(a.h, a.e);
    a.h = bench_host_create(&a.e);
    ir_region(ir_body, &a);
    bench_host_destroy(a.h, a.e);
    buf_free(&a.src);
    return 0;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : "";
    if (strcmp(only, "ir") == 0) /* drives callgrind, which runs `ir1 WORKLOAD` */
        return bench_ir(argv[0], argc > 2 ? argv[2] : NULL);
    if (strcmp(only, "ir1") == 0 && argc > 2)
        return ir_one(argv[2]);
    if (strcmp(only, "exec") == 0 && argc > 2)
        return exec_file(argv[2]);
    if (!*only || strcmp(only, "throughput") == 0)
        bench_throughput();
    if (strcmp(only, "scaling") == 0)
        bench_scaling();
    if (!*only || strcmp(only, "program") == 0)
        bench_program();
    if (!*only || strcmp(only, "cpu") == 0)
        bench_cpu();
    return 0;
}
