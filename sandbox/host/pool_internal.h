/* Internals of the host's worker pool, shared by pool.c (workers, leases,
 * workers kept for a principal, shutdown) and zygote_ctl.c (starting,
 * reading and restarting the zygote). Not for use outside sandbox/host/. */
#ifndef SANDBOX_HOST_POOL_INTERNAL_H
#define SANDBOX_HOST_POOL_INTERNAL_H

#include "sandbox/host/pool.h"
#include "common/buf.h"

#include <stdint.h>
#include <uv.h>

struct sandbox_lease {
    struct sandbox_pool *pool;
    uint64_t principal;
    sandbox_lease_cb *cb;
    void *ud;
    struct sandbox_lease *next;
};

struct sandbox_proc {
    struct sandbox_pool *pool;
    uv_pipe_t pipe;
    int pid;
    struct buf in;
    size_t searched; /* bytes of `in` known to hold no newline */
    const struct sandbox_proc_events *ev;
    void *ud;
    int leased, released, eof, exited, gone_sent, closing;
    int unread;   /* its channel ended with ECONNRESET: it died leaving bytes we sent unread */
    int orphaned; /* its zygote died before reporting its exit: it died with it */
    int pipe_closed; /* our end closed; the record waits for the zygote's exit report */
    int code, signal;
    uint64_t kill_at; /* released after its last message: killed then if still there */
    uint64_t burst_until; /* leased, no message yet: counted as on a CPU until then (0: not) */
    uint64_t principal;   /* the only principal it serves, once leased for one (0: none) */
    unsigned runs;        /* runs sent to it */
    int may_keep;         /* its current run was sent asking it to stay */
    int kept;             /* idle, kept for its principal (in the kept list) */
    uint64_t kept_until;  /* retired then if still kept */
    struct sandbox_proc *next; /* all workers */
    struct sandbox_proc *next_idle; /* in the idle list, or in the kept list */
    struct buf later; /* sandbox_proc_send_later's bytes, written before the loop next waits */
    struct sandbox_proc *next_later; /* in the pool's list of workers with bytes in `later` */
    int in_later;
};

struct sandbox_pool {
    uv_loop_t *loop;
    struct sandbox_pool_config cfg;
    char *exe, *log_level;
    uv_process_t zygote;
    uv_pipe_t ctl;
    int zygote_running, zygote_ready, ctl_open, zygote_failures;
    int zygote_lost;       /* its control socket ended: the exit report is still to come */
    int zygote_said_error; /* it sent an error before exiting (kept as last_error) */
    int was_ready;         /* a zygote has reported ready before (on_first_ready ran) */
    uint64_t zygote_ready_at;
    struct buf ctl_in;
    struct sandbox_proc *workers, *idle, *idle_tail;
    struct sandbox_proc *kept, *kept_tail; /* kept for principals, least recently used first */
    unsigned nidle, spawning, nkept;
    unsigned bursting; /* leased workers counted as on a CPU (burst_until != 0) */
    unsigned nleases;
    struct sandbox_lease *leases, *leases_tail;
    uv_timer_t deliver, restart, sweep, burst, keep;
    uv_prepare_t flush;         /* writes the workers' `later` bytes before the loop waits */
    struct sandbox_proc *later; /* workers with bytes in `later` */
    int closing, open_handles;
    void (*close_cb)(void *);
    void *close_ud;
    char *last_error;
    struct sandbox_admission *admission; /* executions admitted to the workers (pool.h) */
};

/* zygote_ctl.c: starts the zygote (again, after it died); asks it for
 * something ("spawn\n", "kill PID\n") on its control socket; the close
 * callback of that socket (restarts the zygote unless the pool closes). */
void sandbox__zygote_start(struct sandbox_pool *p);
void sandbox__zygote_send(struct sandbox_pool *p, const char *cmd);
void sandbox__ctl_closed(uv_handle_t *h);

/* pool.c, for zygote_ctl.c: the zygote reported a new worker (its socket
 * comes over SCM_RIGHTS), a worker's exit (find it, then settle it), or that
 * it is ready (refill); the deferred delivery of leases (a timer callback);
 * idle and kept workers retired; the pool's handles closing; the read
 * buffer of its sockets. */
void sandbox__worker_arrived(struct sandbox_pool *p, int pid);
struct sandbox_proc *sandbox__find_worker(struct sandbox_pool *p, int pid);
void sandbox__worker_settle(struct sandbox_proc *w);
void sandbox__refill(struct sandbox_pool *p);
void sandbox__deliver(uv_timer_t *t);
void sandbox__retire(struct sandbox_proc *w);
void sandbox__handle_closed(uv_handle_t *h);
void sandbox__maybe_finish_close(struct sandbox_pool *p);
void sandbox__alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b);

#endif
