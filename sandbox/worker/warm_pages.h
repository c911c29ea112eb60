/* Copy-on-write warm-up of the template heap for forked workers. Every page
 * of it a run writes (the heap's header, string table, value stack,
 * property tables) costs a copy fault (~2 us here) when the run first
 * writes it. The zygote learns once which pages those are, from a probe
 * worker that ran a trivial program; each worker then copies them while it
 * waits, off the caller's clock. (Only the template heap: the zygote never
 * writes it again, so every page the probe owns there is one a run wrote.) */
#ifndef SANDBOX_WARM_PAGES_H
#define SANDBOX_WARM_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* In the zygote: records the pages of [start, start + len), a range of its
 * own private memory that it no longer writes (the template heap), that
 * process pid (a child forked from it, still alive) has copied, i.e.
 * written, read from /proc/PID/pagemap. Returns the number recorded (at
 * most 512), or -1 when pagemap cannot be read (then nothing is recorded
 * and sandbox_warm_pages_touch does nothing). */
int sandbox_warm_pages_learn(pid_t pid, uintptr_t start, size_t len);

/* In a worker: makes each recorded page its own, as a write would, without
 * changing its content (MADV_POPULATE_WRITE over runs of adjacent pages:
 * one madvise each, allowed by the worker's seccomp filter). */
void sandbox_warm_pages_touch(void);

/* The number of pages recorded (for tests and diagnostics). */
int sandbox_warm_pages_count(void);

#endif
