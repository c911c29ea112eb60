/* What the in-process C benchmarks share (header-only): the process's CPU
 * clock, and the sort that gives the median (and other ranks) of their
 * rounds. */
#ifndef TESTS_BENCH_BENCH_CLOCK_H
#define TESTS_BENCH_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

/* The CPU time this process has used, in nanoseconds. */
static inline double bench_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n) and returns its median (v[n / 2]). */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t) n, sizeof *v, bench_cmp_double);
    return v[n / 2];
}

#endif
