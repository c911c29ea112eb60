/* What learning result types adds to one tool call, in-process: the
 * registry's step (tools_result_types_observe: the table lookup and the
 * walk of the value into the tool's shape, which a result like the ones
 * before leaves unchanged) for three results, next to what the same call
 * already spends writing the value as JSON for the worker (json_print, the
 * step it rides along with). Prints the median over rounds of the CPU time
 * per call. Usage: bench_result_shape [N [ROUNDS]]   (200000, 11;
 * BENCH_QUICK=1: 20000, 5). Build: scripts/run-bench.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "tools/result_types.h"
#include "tests/bench/bench_clock.h"

static char *list_of(int items)
{
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, "{\"items\":[");
    for (int i = 0; i < items; i++)
        buf_printf(&b,
                   "%s{\"id\":%d,\"name\":\"item %d\",\"price\":%d.5,\"tags\":[\"a\",\"b\"],"
                   "\"owner\":{\"id\":%d,\"login\":\"u%d\"},\"done\":%s,\"note\":null}",
                   i ? "," : "", i, i, i, i, i, i % 2 ? "true" : "false");
    buf_append_str(&b, "],\"total\":1000,\"next\":\"cursor-abc\"}");
    return buf_steal(&b);
}

int main(int argc, char **argv)
{
    alloc_install_cjson_hooks();
    int quick = getenv("BENCH_QUICK") != NULL;
    long n = argc > 1 ? atol(argv[1]) : quick ? 20000 : 200000;
    int rounds = argc > 2 ? atoi(argv[2]) : quick ? 5 : 11;
    char *list = list_of(50);
    const char *const cases[][2] = {
        {"echo result {message, n}", "{\"message\":\"x\",\"n\":42}"},
        {"object of 20 keys",
         "{\"a1\":1,\"a2\":\"s\",\"a3\":true,\"a4\":null,\"a5\":[1,2],\"a6\":{\"x\":1},"
         "\"b1\":1,\"b2\":\"s\",\"b3\":true,\"b4\":null,\"b5\":[1,2],\"b6\":{\"x\":1},"
         "\"c1\":1,\"c2\":\"s\",\"c3\":true,\"c4\":null,\"c5\":[1,2],\"c6\":{\"x\":1},"
         "\"d1\":1,\"d2\":\"s\"}"},
        {"list of 50 objects (24 sampled)", list},
    };
    struct tools_result_types_options o = {0};
    struct tools_result_types *t = tools_result_types_new(&o);
    printf("per call, median of %d rounds of %ld calls (CPU time):\n", rounds, n);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cJSON *v = json_parse(cases[c][1], strlen(cases[c][1]));
        double *learn = calloc((size_t) rounds, sizeof *learn);
        double *print = calloc((size_t) rounds, sizeof *print);
        long calls = c == 2 ? n / 20 : n;
        tools_result_types_observe(t, "bench", cases[c][0], "h", v); /* learnt once */
        for (int r = 0; r < rounds; r++) {
            double t0 = bench_cpu_ns();
            for (long i = 0; i < calls; i++)
                tools_result_types_observe(t, "bench", cases[c][0], "h", v);
            double t1 = bench_cpu_ns();
            for (long i = 0; i < calls; i++)
                free(json_print(v));
            double t2 = bench_cpu_ns();
            learn[r] = (t1 - t0) / (double) calls;
            print[r] = (t2 - t1) / (double) calls;
        }
        double l = bench_median(learn, rounds), p = bench_median(print, rounds);
        printf("  %-34s learning %7.0f ns   json_print %7.0f ns   (%.0f%%)\n", cases[c][0], l, p,
               100.0 * l / p);
        free(learn);
        free(print);
        cJSON_Delete(v);
    }
    tools_result_types_free(t);
    free(list);
    return 0;
}
