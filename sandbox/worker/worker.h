/* A worker process: executions of one principal, one at a time, in a forked
 * copy of the zygote's template heap restored byte for byte between them,
 * behind rlimits and a seccomp filter, talking newline-delimited JSON to the
 * host over one socket (ARCHITECTURE.md section 2):
 *   host -> worker  {"t":"run",...,"reuse":true?} {"t":"result","id":N,"ok":true,"value":V}
 *                   {"t":"result","id":N,"ok":false,"error":E} {"t":"cancel"}
 *                   {"t":"pause"} {"t":"resume"}  (a person is deciding on an
 *                   approval: the idle time in between is not charged to timeoutMs)
 *   worker -> host  {"t":"call","id":N,"op":"tool","name":"srv.tool","args":A}
 *                   {"t":"log","level":"info","text":"..."}  (written at once: a kill
 *                   cannot lose it) {"t":"dropped","n":N}  (lines over the log cap so
 *                   far, at N = 1, 2, 4, ...)
 *                   {"t":"done","outcome":O,"stats":{...},"reuse":true?}
 * "reuse" in a run: the host will keep the worker for its principal after
 * this run; in done: the worker restores its heap and waits for the next
 * run (otherwise it exits once the host closes the socket).
 * Strings hold U+0000 and lone surrogates as \u0000 and \ud800-\udfff escapes; the host
 * reads them with json_parse (common/json.h).
 */
#ifndef SANDBOX_WORKER_H
#define SANDBOX_WORKER_H

#include <stdint.h>
#include <string.h>

struct sandbox_engine;

/* A worker's exit status when its lock-down (rlimits, no_new_privs, the
 * seccomp filter) could not be installed: it runs nothing. */
#define SANDBOX_EXIT_LOCKDOWN 5

/* The descriptor number the IPC socket has inside a worker. */
#define SANDBOX_IPC_FD 3
/* The worker's /proc/self/pagemap (read with pread only; see sandbox/worker/zone.h). */
#define SANDBOX_PAGEMAP_FD (SANDBOX_IPC_FD + 1)
/* The template heap's snapshot (read with pread only; see sandbox/worker/zone.h). */
#define SANDBOX_SNAPSHOT_FD (SANDBOX_IPC_FD + 2)

/* 1 when a host call of this op ("tool", "state", "skills", "skill",
 * "stash", "search", "describe") counts against the run's maxCalls
 * (execute_code's maxToolCalls): every op but the read-only discovery calls
 * searchTools and describeTool. The worker refuses a call past the limit
 * and the host treats one as a violation. */
static inline int sandbox_call_counts(const char *op)
{
    return strcmp(op, "search") != 0 && strcmp(op, "describe") != 0;
}

struct sandbox_worker_config {
    uint64_t address_space_bytes; /* RLIMIT_AS; 0 = leave as is */
    unsigned cpu_seconds;         /* RLIMIT_CPU backstop; 0 = none */
    void (*after_lockdown)(void); /* tests only: runs once the worker is locked down */
};

/* Locks the process down (fds, rlimits, no_new_privs, seccomp), waits for a
 * run message, runs it to completion in `e` and reports; repeats while runs
 * allow reuse and end normally (see above), then exits. Never returns. */
void sandbox_worker_main(struct sandbox_engine *e, int ipc_fd,
                         const struct sandbox_worker_config *cfg) __attribute__((noreturn));

#endif
