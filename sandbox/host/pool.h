/* Host side of the sandbox: the zygote process, a pool of pre-forked idle
 * workers, leases, and each leased worker's message channel. Everything a
 * worker says is hostile input: lines are size-capped; a worker that dies is
 * reported, never trusted. Runs on the host's libuv loop and never blocks.
 * The process must ignore SIGPIPE (as libuv expects): a worker or the zygote
 * may die with writes to it still queued. */
#ifndef SANDBOX_POOL_H
#define SANDBOX_POOL_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct sandbox_pool;
struct sandbox_lease;
/* The host's handle of one worker process it leased (sandbox_proc_*), not
 * to be confused with the worker's own code (sandbox/worker/). */
struct sandbox_proc;

struct sandbox_pool_config {
    const char *exe;              /* the zygote executable, run with __zygote (sandbox/host/image.h) */
    unsigned size;                /* idle workers kept ready */
    uint64_t address_space_bytes; /* worker RLIMIT_AS (0 = none) */
    unsigned cpu_seconds;         /* worker RLIMIT_CPU backstop (0 = none) */
    size_t max_line_bytes;        /* largest line a worker may send */
    const char *log_level;        /* passed to the zygote */
    unsigned cpu_slots;           /* workers presumed on a CPU at once (0: 4 x the CPUs) */
    unsigned max_runs;            /* runs per worker for one principal; 0 or 1: no reuse */
    uint64_t idle_ms;             /* a worker kept for a principal retires after this (0: 60 s) */
    unsigned max_kept;            /* workers kept for principals in all, oldest retired first
                                     (0: SANDBOX_POOL_MAX_KEPT) */
    void (*on_first_ready)(void); /* runs once, when the zygote first reports ready (NULL: none) */
    unsigned max_workers;         /* worker processes alive at once, idle and kept ones included
                                     (0: no cap); `size` is lowered to it */
    unsigned max_per_principal;   /* executions of one principal at once (sandbox_pool_admission;
                                     0: no cap) */
};

#define SANDBOX_POOL_MAX_KEPT 64

/* Admission: a worker is presumed to use a CPU while it is forked and starts
 * up, and after its lease until its first message or for this long. Beyond
 * `size` idle workers, no more than cpu_slots such workers are forked or run
 * at once; further leases wait in FIFO order. */
#define SANDBOX_POOL_BURST_MS 10

/* The cap (max_workers): a worker counts from its fork until the zygote
 * reports its exit, whatever it does meanwhile (idle, kept, leased, exiting).
 * At the cap no worker is forked; a lease that no idle worker or worker kept
 * for its principal can serve retires the least recently used worker kept
 * for another principal, and waits for its exit. Executions are admitted
 * first (sandbox_pool_admission), so that no more leases wait than the cap
 * lets the pool serve. */

/* Starts the zygote and fills the pool. Never fails: when the zygote cannot
 * start or keeps dying it is retried with backoff, and after five failures
 * in a row leases are answered with the reason. */
struct sandbox_pool *sandbox_pool_new(uv_loop_t *loop, const struct sandbox_pool_config *cfg);

/* Kills every worker and the zygote and releases the pool's handles; pending
 * leases are called back with an error. cb (may be NULL) runs once all
 * handles are closed. */
void sandbox_pool_close(struct sandbox_pool *p, void (*cb)(void *ud), void *ud);

/* Called with a worker (owned by the caller until sandbox_proc_release) or
 * with NULL and a reason. */
typedef void sandbox_lease_cb(void *ud, struct sandbox_proc *w, const char *error);

/* Leases an idle worker: cb runs later (never inside this call) once one is
 * ready. The returned handle can cancel a lease still waiting. */
struct sandbox_lease *sandbox_pool_lease(struct sandbox_pool *p, sandbox_lease_cb *cb, void *ud);

/* Reuse within a principal (ARCHITECTURE.md section 2). A principal is a
 * number > 0 that the caller never gives to another client; 0 is none. A
 * worker leased for a principal is either a worker kept for it (preferred)
 * or a fresh one; it never serves another principal. */
struct sandbox_lease *sandbox_pool_lease_for(struct sandbox_pool *p, uint64_t principal,
                                             sandbox_lease_cb *cb, void *ud);

/* Retires the idle workers and those kept for `principal` (0: none) and
 * forks their replacements: after a worker died before it read its run, the
 * others may be dying too (killed together, or with their zygote, and not
 * yet seen to be gone), and the run's second attempt must get a fresh one. */
void sandbox_pool_renew(struct sandbox_pool *p, uint64_t principal);

/* Ends the workers kept for a principal that is gone (session ended, client
 * left); workers of it still leased are not kept afterwards. */
void sandbox_pool_forget(struct sandbox_pool *p, uint64_t principal);

/* Number of workers kept idle for principals. */
unsigned sandbox_pool_kept(const struct sandbox_pool *p);
void sandbox_lease_cancel(struct sandbox_lease *l);

uv_loop_t *sandbox_pool_loop(const struct sandbox_pool *p);

/* The admission of executions to this pool's workers (sandbox/host/admission.h),
 * with the limits of sandbox_admission_limits_for(max_workers,
 * max_per_principal). Owned by the pool; valid until it is closed. */
struct sandbox_admission *sandbox_pool_admission(struct sandbox_pool *p);

/* Worker processes alive (forked or being forked, not yet reported gone). */
unsigned sandbox_pool_live(const struct sandbox_pool *p);

/* Number of idle workers and of workers being forked (for tests and stats). */
unsigned sandbox_pool_idle(const struct sandbox_pool *p);

/* Events of a leased worker. `line` is one message without its newline,
 * NUL-terminated, valid during the call. `gone` runs once, when the worker
 * has exited (code >= 0) or was killed (signal > 0) or its channel broke
 * (both -1/0); no event follows it. `partial` (optional) runs after a read
 * that left a line unfinished, with that line's bytes so far, from its
 * first (the same bytes again, and more, at the next call; they may have
 * moved): the owner may check a message as it arrives, and release the
 * worker (sandbox_proc_release) as soon as it is over a limit. Each
 * read adds at most 64 KiB. */
struct sandbox_proc_events {
    void (*line)(void *ud, struct sandbox_proc *w, char *line, size_t len);
    void (*gone)(void *ud, struct sandbox_proc *w, int code, int signal);
    void (*partial)(void *ud, struct sandbox_proc *w, const char *data, size_t len);
};

void sandbox_proc_attach(struct sandbox_proc *w, const struct sandbox_proc_events *ev,
                           void *ud);

/* Writes bytes to the worker: what its socket takes at once, the rest copied
 * and queued. Returns 0 or a negative libuv error (UV_EPIPE: the worker is
 * gone and got none of these bytes). */
int sandbox_proc_send(struct sandbox_proc *w, const char *data, size_t len);

/* Like sandbox_proc_send, without an answer: the bytes are kept and written
 * with every other kept byte for this worker in one write before the loop
 * next waits (a uv_prepare), or before anything sent with sandbox_proc_send
 * after them. A burst of tool results then costs the host one write, and
 * the worker one wake-up, instead of one per result. Dropped, as
 * sandbox_proc_send refuses them, once the worker is gone. */
void sandbox_proc_send_later(struct sandbox_proc *w, const char *data, size_t len);

/* Asks the zygote to SIGKILL the worker; `gone` follows. */
void sandbox_proc_kill(struct sandbox_proc *w);

/* The caller is done: kills the worker if it still runs, drops the events,
 * frees it once its channel is closed, and tops the pool up (a lease that
 * left idle workers behind defers its replacement to this point). */
void sandbox_proc_release(struct sandbox_proc *w);

/* Like sandbox_proc_release, for a worker that sent its last message
 * (`done`) and exits by itself: closes our end of its socket at once (the
 * worker exits at that EOF) and sends no kill (one zygote wake-up and two
 * system calls less per call); a worker whose exit report has not arrived
 * SANDBOX_FINISH_GRACE_MS later is killed as usual. */
#define SANDBOX_FINISH_GRACE_MS 250
void sandbox_proc_release_finished(struct sandbox_proc *w);

int sandbox_proc_pid(const struct sandbox_proc *w);

/* 1 when the worker's end came from outside what it ran: its channel ended
 * with bytes we sent it still unread (the kernel reports ECONNRESET for a
 * socket whose peer closed with data in its receive queue), or its zygote
 * died first (it dies with it: PR_SET_PDEATHSIG). Valid in `gone`. */
int sandbox_proc_died_externally(const struct sandbox_proc *w);

/* Counts a run about to be sent to a leased worker and says whether the
 * worker may be kept for its principal after it (reuse on, a principal,
 * under the run cap): the run message then asks the worker to stay. */
int sandbox_proc_run_begins(struct sandbox_proc *w);

/* Runs sent to this worker so far (sandbox_proc_run_begins). */
unsigned sandbox_proc_runs(const struct sandbox_proc *w);

/* For a worker whose `done` said it stays (and whose run was begun with
 * reuse allowed): keeps it idle for its principal until its next lease, the
 * idle period, the principal's end or eviction; otherwise behaves as
 * sandbox_proc_release_finished. The caller must not use w afterwards. */
void sandbox_proc_keep(struct sandbox_proc *w);

#endif
