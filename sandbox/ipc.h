/* The wire between the host and a worker (shared by sandbox/host/ and
 * sandbox/worker/, and nothing else): the message catalogue, the descriptor
 * numbers a worker has, its exit codes, which host calls count against a
 * run's call limit, and the tag of a build. Newline-delimited compact JSON over one socket
 * (docs/architecture.md):
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
 * run (otherwise it exits once the host closes the socket). Each message
 * kind has a size limit the host checks as it arrives (sandbox/host/
 * worker_msg.h). Strings hold U+0000 and lone surrogates as \u0000 and
 * \ud800-\udfff escapes; the host reads them with json_parse (common/json.h).
 * Characters outside the BMP travel as 4-byte UTF-8 both ways; the worker
 * makes them surrogate pairs as the text enters its engine (engine.c). */
#ifndef SANDBOX_IPC_H
#define SANDBOX_IPC_H

#include <string.h>

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
 * "stash", "resources", "prompts", "search", "describe") counts against the run's maxCalls
 * (execute_code's maxToolCalls): every op but the read-only discovery calls
 * searchTools and describeTool. The worker refuses a call past the limit
 * and the host treats one as a violation. */
static inline int sandbox_call_counts(const char *op)
{
    return strcmp(op, "search") != 0 && strcmp(op, "describe") != 0;
}

/* The most JSON values a host call's arguments may hold (objects, arrays
 * and scalars, the arguments themselves included) under a limit of
 * max_bytes on their text: one per 16 bytes, at least 4096. The host checks
 * arguments as a tree, about 80 bytes a value: bounded this way, a call
 * costs the host a small multiple of its byte limit, however the bytes are
 * spent. The worker refuses a call past it (the program can catch that);
 * the host treats one as a violation. */
static inline unsigned long long sandbox_call_argument_values(unsigned long long max_bytes)
{
    unsigned long long n = max_bytes / 16;
    return n < 4096 ? 4096 : n;
}

/* What both executables of one build carry (sandbox/ipc.c), so that the host
 * starts only a sandbox image of its own build (sandbox/host/image.h). */
extern const char sandbox_build_tag[];

#endif
