/* A worker process: executions of one principal, one at a time, in a forked
 * copy of the zygote's template heap restored byte for byte between them,
 * behind rlimits and a seccomp filter, talking to the host over one socket
 * in the messages of sandbox/ipc.h. */
#ifndef SANDBOX_WORKER_H
#define SANDBOX_WORKER_H

#include "sandbox/ipc.h"

#include <stdint.h>

struct sandbox_engine;

struct sandbox_worker_config {
    uint64_t address_space_bytes; /* RLIMIT_AS; 0 = leave as is */
    unsigned cpu_seconds;         /* RLIMIT_CPU backstop; 0 = none */
    void (*after_lockdown)(void); /* tests only: runs once the worker is locked down */
};

/* Locks the process down (fds, rlimits, no_new_privs, seccomp), waits for a
 * run message, runs it to completion in `e` and reports; repeats while runs
 * allow reuse and end normally (sandbox/ipc.h), then exits. Never returns. */
void sandbox_worker_main(struct sandbox_engine *e, int ipc_fd,
                         const struct sandbox_worker_config *cfg) __attribute__((noreturn));

#endif
