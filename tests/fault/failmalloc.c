/* An LD_PRELOAD library for allocation-failure tests: makes the Nth call to
 * malloc, calloc, realloc or posix_memalign of the process it is loaded into
 * (MCP_FAULT_ALLOC_AT=N, counted from 1) return NULL with ENOMEM, and every
 * later one succeed. With MCP_FAULT_ALLOC_REPORT=1 it prints the number of
 * allocations at exit ("failmalloc: N allocations"), so a driver knows the
 * range to try. It removes itself from LD_PRELOAD at load, so children
 * (the sandbox zygote, downstream servers) run without it. Allocations are
 * forwarded to glibc's __libc_* entry points. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static unsigned long fail_at;  /* 0: never */
static unsigned long count;
static int active;

static int fail_now(void)
{
    if (!active)
        return 0;
    return ++count == fail_at;
}

static void report(void)
{
    char line[64];
    int n = snprintf(line, sizeof line, "failmalloc: %lu allocations\n", count);
    if (n > 0 && write(2, line, (size_t) n) < 0)
        return;
}

__attribute__((constructor)) static void failmalloc_init(void)
{
    const char *at = getenv("MCP_FAULT_ALLOC_AT");
    const char *rep = getenv("MCP_FAULT_ALLOC_REPORT");
    fail_at = at ? strtoul(at, NULL, 10) : 0;
    if (rep && *rep == '1')
        atexit(report);
    unsetenv("LD_PRELOAD"); /* children run without it */
    active = 1;
}

void *malloc(size_t n)
{
    if (fail_now()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(n);
}

void *calloc(size_t a, size_t b)
{
    if (fail_now()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
    if (n != 0 && fail_now()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(p, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (fail_now())
        return ENOMEM;
    void *p = __libc_memalign(align, n);
    if (p == NULL)
        return ENOMEM;
    *out = p;
    return 0;
}
