/* Call colocation: while a program waits on one host call at a time, the
 * host process, the program's worker and the local downstream server the call
 * goes to are kept on one CPU, so that each hand-off along the chain (worker
 * -> host -> server -> host -> worker) is a switch on a running CPU instead
 * of a wake-up of a sleeping one. On a virtual machine waking an idle vCPU
 * costs the hypervisor an interrupt and an exit (10-20 us each on a
 * page-table-shadowing host), and a sequential call makes four of them.
 *
 * The pins are affinity masks set with sched_setaffinity and put back as they
 * were: when the worker makes calls in parallel (they then run on every CPU),
 * when it computed for more than COLOCATE_BUSY_US between an answer and its
 * next call (it would hold the host's CPU), when its execution ends,
 * COLOCATE_IDLE_MS after the last call that renewed them (a slow call, or a
 * program that went on computing), and before the host starts a process
 * (children inherit its mask). One
 * worker is colocated at a time; others run as usual. Everything is a no-op
 * until colocate_init, and on a single-CPU mask. The host's pin is that of
 * its loop thread (the one that calls these); of a server, its main thread.
 *
 * Runs without calls are not colocated: pinning the worker when its run is
 * sent made `return 1+1` over stdio slower (p50 0.178 -> 0.202 ms, same run):
 * four affinity calls per execution for one hand-off saved, while the
 * client's own hand-offs cross CPUs anyway. */
#ifndef COMMON_COLOCATE_H
#define COMMON_COLOCATE_H

#include <stdint.h>
#include <uv.h>

#define COLOCATE_IDLE_MS 10
#define COLOCATE_BUSY_US 500

/* Starts the module on the host's loop (its release timer); enabled = 0
 * leaves everything a no-op. */
void colocate_init(uv_loop_t *loop, int enabled);

/* Puts every mask back and closes the timer (before the loop is closed). */
void colocate_shutdown(void);

/* Brackets the host's handling of one call from worker `worker_pid`; alone
 * says it is the only call of that worker in flight, computed_us how long
 * the worker ran since the host last answered it (0: its first call). A
 * call alone after at most COLOCATE_BUSY_US: the host and the worker are
 * pinned to the host's CPU (unless another worker holds the pins).
 * Otherwise the worker's pins are dropped. */
void colocate_call_begin(int worker_pid, int alone, uint64_t computed_us);
void colocate_call_end(void);

/* Inside colocate_call_begin/end of a colocated worker: the call is being
 * sent to local process `pid` (a stdio server; 0: none), pinned too. */
void colocate_server(int pid);

/* The worker's execution ended (or it died): its pins are dropped. */
void colocate_worker_done(int worker_pid);

/* Process `pid` exited: it is forgotten, so that its number, if reused, is
 * never touched. */
void colocate_forget(int pid);

/* Drops every pin now (before the host starts a process). */
void colocate_release(void);

/* For tests: the CPU the pins hold (-1: none) and whether pid is pinned. */
int colocate_pinned_cpu(void);
int colocate_is_pinned(int pid);

#endif
