/* The policy work of one allowed tool call, in-process and without IPC (the
 * other half of tests/bench/bench_policy.mjs, whose end-to-end ratios a
 * shared machine blurs by +-20% per round): a call reads its tool's
 * decision (worked out when the tool list arrived) and, under a grant,
 * matches the grant's patterns (tools_policy_granted). Prints the median
 * over rounds of the CPU time per check for a grant that matches on its
 * first pattern, one of 8 patterns that matches on the last, and, for
 * comparison, the list-time decision of one tool against 40 rules. Divide
 * by bench_policy.mjs's host CPU per call for the share of a call.
 * Usage: bench_policy_check [N [ROUNDS]]   (2000000, 15; BENCH_QUICK=1:
 * 200000, 5). Build: scripts/run-bench.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/policy/policy.h"
#include "tests/bench/bench_clock.h"

static volatile int sink;

/* The median over rounds of the ns per call of f(arg). */
static double per_call(int (*f)(void *), void *arg, long n, int rounds)
{
    double *r = calloc((size_t) rounds, sizeof *r);
    for (int k = 0; k < rounds; k++) {
        double t0 = bench_cpu_ns();
        int acc = 0;
        for (long i = 0; i < n; i++)
            acc += f(arg);
        r[k] = (bench_cpu_ns() - t0) / (double) n;
        sink = acc;
    }
    double m = bench_median(r, rounds);
    free(r);
    return m;
}

static const struct tools_policy_names ECHO = {"echo", "echo", "echo", "echo"};

static int granted(void *grant)
{
    return tools_policy_granted(grant, &ECHO);
}

static int decide(void *policy)
{
    return (int) tools_policy_decide(policy, NULL, &ECHO, NULL, NULL);
}

static int nothing(void *unused)
{
    (void) unused;
    return ECHO.tool[0] == 'e';
}

int main(int argc, char **argv)
{
    int quick = getenv("BENCH_QUICK") && strcmp(getenv("BENCH_QUICK"), "1") == 0;
    long n = argc > 1 ? atol(argv[1]) : quick ? 200000 : 2000000;
    int rounds = argc > 2 ? atoi(argv[2]) : quick ? 5 : 15;
    char *first[] = {"echo.ec*", "svc1.*", NULL};
    char *last[] = {"a.*", "b.x",    "svc*.y",   "*.delete_*", "crm.*",
                    "x.*", "svc1.*", "echo.ec*", NULL};
    struct tools_policy p;
    tools_policy_init(&p);
    p.nrules = 40;
    p.rules = calloc(p.nrules, sizeof *p.rules);
    char name[32];
    for (size_t i = 0; i < 36; i++) {
        snprintf(name, sizeof name, "svc%zu.*", i);
        p.rules[i] = (struct tools_policy_rule){strdup(name), TOOLS_POLICY_ASK, NULL};
    }
    const char *tail[] = {"*.delete_*", "*", "echo.*", "echo.echo"};
    for (size_t i = 0; i < 4; i++)
        p.rules[36 + i] = (struct tools_policy_rule){strdup(tail[i]), TOOLS_POLICY_ALLOW, NULL};
    double base = per_call(nothing, NULL, n, rounds);
    double g1 = per_call(granted, first, n, rounds) - base;
    double g8 = per_call(granted, last, n, rounds) - base;
    double d40 = per_call(decide, &p, n / 10, rounds) - base;
    printf("policy check of one allowed call (CPU ns, median of %d rounds of %ld):\n", rounds, n);
    printf("  grant, matched by its 1st of 2 patterns   %7.1f ns per call\n", g1);
    printf("  grant, matched by its 8th of 8 patterns   %7.1f ns per call\n", g8);
    printf("  (list time, once per tool: 40 rules       %7.1f ns per tool)\n", d40);
    tools_policy_free(&p);
    return 0;
}
