/* A worker process: one execution in a forked copy of the zygote's template
 * heap, behind rlimits and a seccomp filter, talking newline-delimited JSON
 * to the host over one socket (ARCHITECTURE.md section 2):
 *   host -> worker  {"t":"run",...} {"t":"result","id":N,"ok":true,"value":V}
 *                   {"t":"result","id":N,"ok":false,"error":E} {"t":"cancel"}
 *   worker -> host  {"t":"call","id":N,"op":"tool","name":"srv.tool","args":A}
 *                   {"t":"log","level":"info","text":"..."}  (written at once: a kill
 *                   cannot lose it) {"t":"dropped","n":N}  (lines over the log cap so
 *                   far, at N = 1, 2, 4, ...) {"t":"done","outcome":O,"stats":{...}}
 * Strings hold U+0000 and lone surrogates as \u0000 and \udXXX escapes; the host
 * reads them with json_parse (common/json.h).
 */
#ifndef SANDBOX_WORKER_H
#define SANDBOX_WORKER_H

#include <stdint.h>

struct sandbox_engine;

/* The descriptor number the IPC socket has inside a worker. */
#define SANDBOX_IPC_FD 3

struct sandbox_worker_config {
    uint64_t address_space_bytes; /* RLIMIT_AS; 0 = leave as is */
    unsigned cpu_seconds;         /* RLIMIT_CPU backstop; 0 = none */
    int require_seccomp;          /* exit when the filter cannot be installed */
    void (*after_lockdown)(void); /* tests only: runs once the worker is locked down */
};

/* Locks the process down (fds, rlimits, no_new_privs, seccomp), waits for a
 * run message, runs it to completion in `e`, reports, and exits. Never returns. */
void sandbox_worker_main(struct sandbox_engine *e, int ipc_fd,
                         const struct sandbox_worker_config *cfg) __attribute__((noreturn));

#endif
