/* The zygote: a small single-threaded process (this binary, hidden mode)
 * that holds a warmed template heap and forks single-use workers from it on
 * the host's request, so an execution never pays for process start-up or
 * prelude loading (research/duktape.md section 5.5). Control protocol on one
 * socket, newline-delimited:
 *   host -> zygote   spawn | kill PID
 *   zygote -> host   {"t":"ready"} | {"t":"error","message":M}
 *                    {"t":"worker","pid":N}  (carrying the worker's socket, SCM_RIGHTS)
 *                    {"t":"exit","pid":N,"code":C,"signal":S}
 */
#ifndef SANDBOX_ZYGOTE_H
#define SANDBOX_ZYGOTE_H

#include "sandbox/worker/worker.h"

/* Runs the zygote on control socket ctl_fd until the host (process host_pid,
 * its parent; 0 if unknown) closes it or dies. Returns the exit status. */
int sandbox_zygote_main(int ctl_fd, const struct sandbox_worker_config *cfg, int host_pid);

#endif
