/* Copy-on-write warm-up of data pages for forked workers. Every page a run
 * writes that the worker still shares with the zygote (the template heap's
 * header, string table and stacks, the allocator's chunks) costs a copy
 * fault (~2 us here) when the run first writes it. The zygote learns once
 * which pages those are, from a probe worker that ran a trivial program;
 * each worker then writes them while it waits, off the caller's clock. */
#ifndef SANDBOX_WARM_PAGES_H
#define SANDBOX_WARM_PAGES_H

#include <sys/types.h>

/* In the zygote: records the pages of its own private writable mappings
 * that process pid (a child forked from it, still alive) has copied, i.e.
 * written, read from /proc/PID/pagemap (at most a few hundred pages).
 * Returns the number recorded, or -1 when the kernel's files cannot be read
 * (then nothing is recorded and sandbox_warm_pages_touch does nothing). */
int sandbox_warm_pages_learn(pid_t pid);

/* In a worker: makes each recorded page its own, as a write would, without
 * changing its content (MADV_POPULATE_WRITE over runs of adjacent pages:
 * one madvise each, allowed by the worker's seccomp filter). */
void sandbox_warm_pages_touch(void);

/* The number of pages recorded (for tests and diagnostics). */
int sandbox_warm_pages_count(void);

#endif
