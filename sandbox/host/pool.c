/* The host's worker pool: asks the zygote (zygote_ctl.c) to fork workers,
 * receives each worker's socket over SCM_RIGHTS, keeps `size` of them idle,
 * hands them out as leases, keeps workers for their principal between
 * runs, and shuts everything down. */
#include "sandbox/host/pool_internal.h"
#include "sandbox/host/admission.h"
#include "common/alloc.h"
#include "common/stream_write.h"
#include "common/buf.h"
#include "common/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void sweep(uv_timer_t *t);
static void refill_if_short(struct sandbox_pool *p);

/* --- writes ------------------------------------------------------------------------ */

/* Writes what the stream takes at once, queues a copy of the rest
 * (common/stream_write.h). Errors are reported as uv_write reports them. */
static int write_copy(uv_stream_t *s, const char *data, size_t len)
{
    long n = stream_write(s, (char *) data, len, 0, NULL, NULL);
    return n < 0 ? (int) n : 0;
}

/* Writes w's kept bytes (sandbox_proc_send_later) and takes it off the
 * pool's list. Errors are dropped as sandbox_exec_reply's were: the worker's
 * end is reported through its read side and its exit. */
static void flush_later(struct sandbox_proc *w)
{
    if (w->in_later) {
        struct sandbox_proc **pp = &w->pool->later;
        while (*pp && *pp != w)
            pp = &(*pp)->next_later;
        if (*pp)
            *pp = w->next_later;
        w->in_later = 0;
        w->next_later = NULL;
    }
    if (w->later.len && !w->eof && !w->closing)
        write_copy((uv_stream_t *) &w->pipe, w->later.data, w->later.len);
    buf_reset(&w->later);
}

static void flush_all_later(uv_prepare_t *h)
{
    struct sandbox_pool *p = h->data;
    while (p->later)
        flush_later(p->later);
    uv_prepare_stop(h);
}

/* Closes w's socket, its kept bytes written first. */
static void close_pipe(struct sandbox_proc *w, uv_close_cb cb)
{
    flush_later(w);
    w->closing = 1;
    uv_close((uv_handle_t *) &w->pipe, cb);
}

/* --- workers ------------------------------------------------------------------------- */

void sandbox__alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    (void) h;
    (void) suggested;
    static char slab[65536];
    *b = uv_buf_init(slab, sizeof slab);
}

static void unlink_worker(struct sandbox_proc *w)
{
    struct sandbox_proc **pp = &w->pool->workers;
    while (*pp && *pp != w)
        pp = &(*pp)->next;
    if (*pp)
        *pp = w->next;
}

static void remove_idle(struct sandbox_proc *w);

static void free_worker(struct sandbox_proc *w)
{
    remove_idle(w); /* no-op unless it was still idle */
    unlink_worker(w);
    buf_reset(&w->later);
    flush_later(w); /* off the list; nothing left to write */
    buf_free(&w->later);
    buf_free(&w->in);
    free(w);
}

/* A worker released after `done` has its socket closed before it exits
 * (sandbox_proc_release_finished): its record stays until the zygote
 * reports the exit, for the grace kill (sweep); otherwise it goes now. */
static void worker_closed(uv_handle_t *h)
{
    struct sandbox_proc *w = h->data;
    struct sandbox_pool *p = w->pool;
    w->pipe_closed = 1;
    p->open_handles--;
    if (w->exited || p->closing)
        free_worker(w);
    sandbox__maybe_finish_close(p);
}

/* Unlinks w from a singly linked list through next_idle; 1 if it was there. */
static int unlink_from(struct sandbox_proc **head, struct sandbox_proc **tail,
                       struct sandbox_proc *w)
{
    struct sandbox_proc **pp = head, *prev = NULL;
    while (*pp && *pp != w) {
        prev = *pp;
        pp = &(*pp)->next_idle;
    }
    if (*pp == NULL)
        return 0;
    *pp = w->next_idle;
    if (*tail == w)
        *tail = prev;
    w->next_idle = NULL;
    return 1;
}

static void append_to(struct sandbox_proc **head, struct sandbox_proc **tail,
                      struct sandbox_proc *w)
{
    w->next_idle = NULL;
    if (*tail)
        (*tail)->next_idle = w;
    else
        *head = w;
    *tail = w;
}

/* Takes w out of the idle list or the kept list, whichever holds it. */
static void remove_idle(struct sandbox_proc *w)
{
    struct sandbox_pool *p = w->pool;
    if (w->kept) {
        if (unlink_from(&p->kept, &p->kept_tail, w))
            p->nkept--;
        w->kept = 0;
        return;
    }
    if (unlink_from(&p->idle, &p->idle_tail, w))
        p->nidle--;
}

/* Called once the worker's fate is known; frees it if the owner is done. */
void sandbox__worker_settle(struct sandbox_proc *w)
{
    if (w->pipe_closed) {
        if (w->exited)
            free_worker(w);
        return;
    }
    if (!w->eof || !w->exited)
        return;
    if (w->leased && !w->released && !w->gone_sent) {
        w->gone_sent = 1;
        if (w->ev && w->ev->gone)
            w->ev->gone(w->ud, w, w->code, w->signal);
    }
    if (!w->leased)
        remove_idle(w);
    if ((!w->leased || w->released) && !w->closing)
        close_pipe(w, worker_closed);
}

static void worker_lines(struct sandbox_proc *w)
{
    size_t start = 0;
    char *nl;
    while (!w->released && w->ev &&
           (nl = memchr(w->in.data + w->searched, '\n', w->in.len - w->searched)) != NULL) {
        size_t len = (size_t) (nl - (w->in.data + start));
        *nl = '\0';
        w->ev->line(w->ud, w, w->in.data + start, len);
        start += len + 1;
        w->searched = start;
    }
    if (!w->released && w->ev) { /* no newline in the rest: it is searched once */
        w->searched = w->in.len;
        if (w->ev->partial && w->in.len > start)
            w->ev->partial(w->ud, w, w->in.data + start, w->in.len - start);
    }
    buf_consume(&w->in, start);
    w->searched -= start;
    if (w->kept && w->in.len)
        sandbox_proc_kill(w); /* spoke after its `done`: hostile */
}

/* The worker spoke (or was released): it no longer holds a CPU slot, and a
 * lease waiting for one may get a worker now. */
static void end_burst(struct sandbox_proc *w)
{
    if (w->burst_until == 0)
        return;
    w->burst_until = 0;
    w->pool->bursting--;
    refill_if_short(w->pool);
}

static void worker_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    struct sandbox_proc *w = s->data;
    if (n > 0) {
        if (!w->leased || w->released) {
            /* An idle or released worker has nothing to say: treat as hostile. */
            sandbox_proc_kill(w);
            return;
        }
        end_burst(w);
        if (buf_append(&w->in, b->base, (size_t) n) < 0) {
            log_warn("sandbox", "worker %d sent a message over the size limit; killing it", w->pid);
            buf_reset(&w->in);
            w->searched = 0;
            sandbox_proc_kill(w);
            return;
        }
        worker_lines(w);
        return;
    }
    if (n < 0) {
        uv_read_stop(s);
        w->eof = 1;
        w->unread = n == UV_ECONNRESET;
        if (w->pool->zygote_running == 0 || w->pool->zygote_lost) {
            w->exited = 1; /* no zygote left to report the exit status */
            w->code = -1;
            w->orphaned = 1;
        }
        sandbox__worker_settle(w);
    }
}

void sandbox__worker_arrived(struct sandbox_pool *p, int pid)
{
    if (p->spawning)
        p->spawning--;
    struct sandbox_proc *w = xcalloc(1, sizeof *w);
    w->pool = p;
    w->pid = pid;
    buf_init(&w->in, p->cfg.max_line_bytes ? p->cfg.max_line_bytes : (64u << 20));
    uv_pipe_init(p->loop, &w->pipe, 0);
    w->pipe.data = w;
    p->open_handles++;
    w->next = p->workers;
    p->workers = w;
    int accepted = uv_accept((uv_stream_t *) &p->ctl, (uv_stream_t *) &w->pipe) == 0;
    if (!accepted || p->closing) {
        if (!accepted)
            log_error("sandbox", "worker %d: no socket received from the zygote", pid);
        /* Not usable, or not wanted: announced before sandbox_pool_close
         * killed the zygote and read after it. Closing our end at once lets
         * the worker exit (EOF) and the loop finish. */
        w->eof = w->exited = 1;
        w->leased = 1;
        w->released = 1;
        sandbox__worker_settle(w);
        return;
    }
    uv_read_start((uv_stream_t *) &w->pipe, sandbox__alloc_cb, worker_read);
    append_to(&p->idle, &p->idle_tail, w);
    p->nidle++;
    uv_timer_start(&p->deliver, sandbox__deliver, 0, 0);
}

struct sandbox_proc *sandbox__find_worker(struct sandbox_pool *p, int pid)
{
    for (struct sandbox_proc *w = p->workers; w; w = w->next)
        if (w->pid == pid)
            return w;
    return NULL;
}

/* --- leases ------------------------------------------------------------------------------ */

/* Whether one more worker may be forked: the idle, forking and bursting
 * workers beyond `size` stay within the CPU slots (see pool.h). Forking a
 * worker for every waiting lease made a burst of 50 HTTP calls start 50
 * processes at once: they shared the 2 cores with the server and the
 * clients, and calls finished in no particular order (p99 2.4x the mean). */
static int cpu_slot_free(const struct sandbox_pool *p)
{
    return p->nidle + p->spawning + p->bursting < p->cfg.size + p->cfg.cpu_slots;
}

/* Worker processes alive: forked (not reported gone) or being forked. */
unsigned sandbox_pool_live(const struct sandbox_pool *p)
{
    unsigned n = p->spawning;
    for (const struct sandbox_proc *w = p->workers; w; w = w->next)
        n += !w->exited;
    return n;
}

/* Whether one more worker may be forked under max_workers. */
static int under_cap(const struct sandbox_pool *p)
{
    return p->cfg.max_workers == 0 || sandbox_pool_live(p) < p->cfg.max_workers;
}

/* Fresh idle workers to keep: `size`, less one for each worker kept for a
 * principal, down to one. A kept worker is a ready worker too, for the one
 * client whose next call is the likeliest (a stdio client's only one); the
 * fresh ones serve new principals and a principal's concurrent calls. */
static unsigned fresh_target(const struct sandbox_pool *p)
{
    unsigned kept = p->nkept < p->cfg.size ? p->nkept : p->cfg.size - 1;
    return p->cfg.size - kept;
}

/* Keeps fresh_target workers idle plus one for every lease waiting, within
 * the CPU slots. */
void sandbox__refill(struct sandbox_pool *p)
{
    while (p->zygote_ready && !p->closing &&
           p->nidle + p->spawning < fresh_target(p) + p->nleases && cpu_slot_free(p) &&
           under_cap(p)) {
        p->spawning++;
        sandbox__zygote_send(p, "spawn\n");
    }
}

/* Refills at once only when the idle workers do not cover the waiting
 * leases; otherwise the replacement of a leased worker is forked when it is
 * released (sandbox_proc_release). Forking (~110 us) and starting a worker
 * (~400 us of CPU) while the call it replaces runs made them compete for the
 * cores: on 2 cores, p50 of a trivial call 674 -> 498 us back to back and
 * 952 -> 408 us with calls 5 ms apart once deferred. */
static void refill_if_short(struct sandbox_pool *p)
{
    if (p->nidle <= p->nleases)
        sandbox__refill(p);
}

/* Ends the bursts that lasted SANDBOX_POOL_BURST_MS and re-arms for the
 * earliest one left. */
static void burst_timeout(uv_timer_t *t)
{
    struct sandbox_pool *p = t->data;
    uint64_t now = uv_now(p->loop), next = 0;
    for (struct sandbox_proc *w = p->workers; w; w = w->next) {
        if (w->burst_until && w->burst_until <= now)
            end_burst(w);
        else if (w->burst_until && (next == 0 || w->burst_until < next))
            next = w->burst_until;
    }
    if (next && !p->closing)
        uv_timer_start(&p->burst, burst_timeout, next - now, 0);
}

static void start_burst(struct sandbox_proc *w)
{
    struct sandbox_pool *p = w->pool;
    w->burst_until = uv_now(p->loop) + SANDBOX_POOL_BURST_MS;
    p->bursting++;
    if (!uv_is_active((uv_handle_t *) &p->burst))
        uv_timer_start(&p->burst, burst_timeout, SANDBOX_POOL_BURST_MS, 0);
}

static struct sandbox_lease *pop_lease(struct sandbox_pool *p)
{
    struct sandbox_lease *l = p->leases;
    p->leases = l->next;
    if (p->leases == NULL)
        p->leases_tail = NULL;
    p->nleases--;
    return l;
}

/* The worker kept for this principal that has waited least (warmest), or NULL. */
static struct sandbox_proc *kept_for(struct sandbox_pool *p, uint64_t principal)
{
    struct sandbox_proc *found = NULL;
    if (principal == 0)
        return NULL;
    for (struct sandbox_proc *w = p->kept; w; w = w->next_idle)
        if (w->principal == principal)
            found = w;
    return found;
}

/* Whether an idle or kept worker can be handed out: its socket has not
 * ended (it died while idle: killed, or with its zygote, before we read its
 * EOF) and holds no bytes (an idle worker has nothing to say). One recv with
 * MSG_PEEK per lease, against a run sent to a process that is gone. */
static int still_there(struct sandbox_proc *w)
{
    uv_os_fd_t fd;
    char c;
    if (w->eof || w->closing || uv_fileno((const uv_handle_t *) &w->pipe, &fd) != 0)
        return 0;
    ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
}

static void hand_over(struct sandbox_lease *l, struct sandbox_proc *w)
{
    remove_idle(w);
    w->leased = 1;
    w->principal = l->principal;
    start_burst(w);
    sandbox_lease_cb *cb = l->cb;
    void *ud = l->ud;
    free(l);
    cb(ud, w, NULL);
}

/* Serves the waiting leases whose principal has a worker kept for it, in
 * order; they do not wait behind leases that need a fresh worker. */
static void deliver_kept(struct sandbox_pool *p)
{
    struct sandbox_lease **pp = &p->leases, *prev = NULL;
    while (*pp && p->kept) {
        struct sandbox_lease *l = *pp;
        struct sandbox_proc *w = kept_for(p, l->principal);
        if (w && !still_there(w)) {
            sandbox__retire(w);
            continue; /* this lease again: another kept worker, or none */
        }
        if (w == NULL) {
            prev = l;
            pp = &l->next;
            continue;
        }
        *pp = l->next;
        if (p->leases_tail == l)
            p->leases_tail = prev;
        p->nleases--;
        hand_over(l, w); /* may lease again: the list is re-read from pp */
    }
}

/* Workers forked for leases that others served meanwhile (a kept worker,
 * one that came back), or before a worker was kept and lowered the target,
 * are surplus: idle beyond the target they would stay for good. A client
 * whose first call came while the pool was still filling kept one more
 * worker than the pool's size, 2.4 MiB of RSS, until the server ended. */
static void retire_surplus(struct sandbox_pool *p)
{
    while (!p->closing && p->idle && p->nidle > fresh_target(p) + p->nleases)
        sandbox__retire(p->idle);
}

/* At max_workers, leases that the idle workers, those being forked and
 * those already ending will not cover take the place of workers kept for
 * other principals (deliver_kept served the leases of principals with a kept
 * worker first), least recently used first: retired now, replaced (sandbox__refill)
 * once the zygote reports them gone. */
static void evict_for_leases(struct sandbox_pool *p)
{
    if (p->cfg.max_workers == 0 || p->closing)
        return;
    unsigned live = p->spawning, ending = 0;
    for (const struct sandbox_proc *w = p->workers; w; w = w->next) {
        live += !w->exited;
        ending += !w->exited && w->released;
    }
    while (p->kept && live >= p->cfg.max_workers && p->nleases > p->nidle + p->spawning + ending) {
        sandbox__retire(p->kept);
        ending++;
    }
}

void sandbox__deliver(uv_timer_t *t)
{
    struct sandbox_pool *p = t->data;
    deliver_kept(p);
    while (p->leases && p->idle) {
        if (!still_there(p->idle))
            sandbox__retire(p->idle); /* its replacement: refill_if_short below */
        else
            hand_over(pop_lease(p), p->idle);
    }
    retire_surplus(p);
    evict_for_leases(p);
    /* Leases waiting with no zygote able to serve them fail. */
    while (p->leases && (p->closing || (!p->zygote_running && p->zygote_failures >= 5))) {
        struct sandbox_lease *l = pop_lease(p);
        sandbox_lease_cb *cb = l->cb;
        void *ud = l->ud;
        free(l);
        cb(ud, NULL, p->closing ? "the server is shutting down"
                                : (p->last_error ? p->last_error : "the sandbox is unavailable"));
    }
    refill_if_short(p);
}

struct sandbox_lease *sandbox_pool_lease(struct sandbox_pool *p, sandbox_lease_cb *cb, void *ud)
{
    return sandbox_pool_lease_for(p, 0, cb, ud);
}

struct sandbox_lease *sandbox_pool_lease_for(struct sandbox_pool *p, uint64_t principal,
                                             sandbox_lease_cb *cb, void *ud)
{
    struct sandbox_lease *l = xcalloc(1, sizeof *l);
    l->pool = p;
    l->principal = p->cfg.max_runs > 1 ? principal : 0;
    l->cb = cb;
    l->ud = ud;
    if (p->leases_tail)
        p->leases_tail->next = l;
    else
        p->leases = l;
    p->leases_tail = l;
    p->nleases++;
    uv_timer_start(&p->deliver, sandbox__deliver, 0, 0);
    if (kept_for(p, l->principal) == NULL)
        refill_if_short(p);
    return l;
}

void sandbox_lease_cancel(struct sandbox_lease *l)
{
    struct sandbox_pool *p = l->pool;
    struct sandbox_lease **pp = &p->leases, *prev = NULL;
    while (*pp && *pp != l) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (*pp == NULL)
        return;
    *pp = l->next;
    if (p->leases_tail == l)
        p->leases_tail = prev;
    p->nleases--;
    free(l);
}

uv_loop_t *sandbox_pool_loop(const struct sandbox_pool *p)
{
    return p->loop;
}

struct sandbox_admission *sandbox_pool_admission(struct sandbox_pool *p)
{
    return p->admission;
}

unsigned sandbox_pool_idle(const struct sandbox_pool *p)
{
    return p->nidle;
}

unsigned sandbox_pool_kept(const struct sandbox_pool *p)
{
    return p->nkept;
}

/* --- the worker handle API ------------------------------------------------------------------- */

void sandbox_proc_attach(struct sandbox_proc *w, const struct sandbox_proc_events *ev,
                           void *ud)
{
    w->ev = ev;
    w->ud = ud;
}

int sandbox_proc_send(struct sandbox_proc *w, const char *data, size_t len)
{
    if (w->eof || w->closing)
        return UV_EPIPE;
    if (w->later.len)
        flush_later(w); /* in the order sent */
    return write_copy((uv_stream_t *) &w->pipe, data, len);
}

void sandbox_proc_send_later(struct sandbox_proc *w, const char *data, size_t len)
{
    if (w->eof || w->closing)
        return;
    if (w->pool->closing) { /* its flush handle is closing too */
        write_copy((uv_stream_t *) &w->pipe, data, len);
        return;
    }
    buf_append(&w->later, data, len);
    if (!w->in_later) {
        w->in_later = 1;
        w->next_later = w->pool->later;
        w->pool->later = w;
        uv_prepare_start(&w->pool->flush, flush_all_later);
    }
}

void sandbox_proc_kill(struct sandbox_proc *w)
{
    char cmd[32];
    snprintf(cmd, sizeof cmd, "kill %d\n", w->pid);
    sandbox__zygote_send(w->pool, cmd);
}

void sandbox_proc_release(struct sandbox_proc *w)
{
    struct sandbox_pool *p = w->pool;
    w->released = 1;
    w->ev = NULL;
    end_burst(w);
    if (!w->eof || !w->exited)
        sandbox_proc_kill(w);
    sandbox__worker_settle(w);
    sandbox__refill(p); /* the replacement deferred by refill_if_short */
}

/* Kills the finished workers still there at their kill_at and re-arms for
 * the earliest one left. */
static void sweep(uv_timer_t *t)
{
    struct sandbox_pool *p = t->data;
    uint64_t now = uv_now(p->loop), next = 0;
    for (struct sandbox_proc *w = p->workers; w; w = w->next) {
        if (w->kill_at == 0 || (w->eof && w->exited))
            continue;
        if (w->kill_at <= now) {
            w->kill_at = 0;
            sandbox_proc_kill(w);
        } else if (next == 0 || w->kill_at < next) {
            next = w->kill_at;
        }
    }
    if (next && !p->closing)
        uv_timer_start(&p->sweep, sweep, next - now, 0);
}

void sandbox_proc_release_finished(struct sandbox_proc *w)
{
    struct sandbox_pool *p = w->pool;
    w->released = 1;
    w->ev = NULL;
    end_burst(w);
    if (!w->exited) {
        w->kill_at = uv_now(p->loop) + SANDBOX_FINISH_GRACE_MS;
        if (!uv_is_active((uv_handle_t *) &p->sweep))
            uv_timer_start(&p->sweep, sweep, SANDBOX_FINISH_GRACE_MS, 0);
    }
    /* The worker waits for EOF before it exits: its exit (tearing down its
     * address space) then runs after the caller has its answer, not before.
     * Closing our end now, rather than shutting it down and closing at the
     * worker's EOF, saves the host a wake-up and 3 system calls per call; the
     * record stays until the zygote reports the exit (worker_closed). */
    if (!w->closing) {
        close_pipe(w, worker_closed);
        w->eof = 1;
    }
    sandbox__refill(p);
}

int sandbox_proc_pid(const struct sandbox_proc *w)
{
    return w->pid;
}

int sandbox_proc_died_externally(const struct sandbox_proc *w)
{
    return w->unread || w->orphaned;
}

int sandbox_proc_run_begins(struct sandbox_proc *w)
{
    w->runs++;
    w->may_keep = w->principal != 0 && w->pool->cfg.max_runs > 1 && w->runs < w->pool->cfg.max_runs;
    return w->may_keep;
}

unsigned sandbox_proc_runs(const struct sandbox_proc *w)
{
    return w->runs;
}

/* --- workers kept for their principal ------------------------------------------------------- */

/* Ends a kept worker as a finished one: our end of its socket closes, and
 * the worker, waiting for its next run, exits at that EOF. */
void sandbox__retire(struct sandbox_proc *w)
{
    remove_idle(w);
    w->leased = 1;
    sandbox_proc_release_finished(w);
}

/* Retires the kept workers whose idle period ended; re-arms for the next. */
static void keep_timeout(uv_timer_t *t)
{
    struct sandbox_pool *p = t->data;
    uint64_t now = uv_now(p->loop);
    while (p->kept && p->kept->kept_until <= now)
        sandbox__retire(p->kept); /* the list is in order of kept_until */
    if (p->kept && !p->closing)
        uv_timer_start(&p->keep, keep_timeout, p->kept->kept_until - now, 0);
}

void sandbox_proc_keep(struct sandbox_proc *w)
{
    struct sandbox_pool *p = w->pool;
    if (!w->may_keep || w->principal == 0 || w->eof || w->exited || w->closing || p->closing) {
        sandbox_proc_release_finished(w);
        return;
    }
    w->ev = NULL;
    w->ud = NULL;
    end_burst(w);
    w->leased = 0;
    w->may_keep = 0;
    w->kept = 1;
    w->kept_until = uv_now(p->loop) + (p->cfg.idle_ms ? p->cfg.idle_ms : 60000);
    append_to(&p->kept, &p->kept_tail, w);
    p->nkept++;
    unsigned max = p->cfg.max_kept ? p->cfg.max_kept : SANDBOX_POOL_MAX_KEPT;
    while (p->nkept > max)
        sandbox__retire(p->kept);
    if (!uv_is_active((uv_handle_t *) &p->keep))
        uv_timer_start(&p->keep, keep_timeout, p->kept->kept_until - uv_now(p->loop), 0);
    if (p->leases)
        uv_timer_start(&p->deliver, sandbox__deliver, 0, 0);
    else
        retire_surplus(p);
    sandbox__refill(p);
}

void sandbox_pool_renew(struct sandbox_pool *p, uint64_t principal)
{
    while (p->idle)
        sandbox__retire(p->idle);
    for (struct sandbox_proc *w = p->kept, *next; w; w = next) {
        next = w->next_idle;
        if (principal != 0 && w->principal == principal)
            sandbox__retire(w);
    }
    sandbox__refill(p);
}

void sandbox_pool_forget(struct sandbox_pool *p, uint64_t principal)
{
    if (principal == 0)
        return;
    for (struct sandbox_proc *w = p->workers; w; w = w->next) {
        if (w->principal != principal)
            continue;
        w->principal = 0; /* a worker still leased is not kept after its run */
    }
    for (struct sandbox_proc *w = p->kept, *next; w; w = next) {
        next = w->next_idle;
        if (w->principal == 0)
            sandbox__retire(w);
    }
}

struct sandbox_pool *sandbox_pool_new(uv_loop_t *loop, const struct sandbox_pool_config *cfg)
{
    struct sandbox_pool *p = xcalloc(1, sizeof *p);
    p->loop = loop;
    p->cfg = *cfg;
    p->exe = xstrdup(cfg->exe);
    p->log_level = xstrdup(cfg->log_level ? cfg->log_level : "warning");
    if (p->cfg.size == 0)
        p->cfg.size = 1;
    if (p->cfg.max_workers && p->cfg.size > p->cfg.max_workers)
        p->cfg.size = p->cfg.max_workers;
    struct sandbox_admission_limits al =
        sandbox_admission_limits_for(p->cfg.max_workers, p->cfg.max_per_principal);
    p->admission = sandbox_admission_new(&al);
    if (p->cfg.cpu_slots == 0)
        p->cfg.cpu_slots = 4 * uv_available_parallelism();
    buf_init(&p->ctl_in, 1 << 16);
    uv_timer_init(loop, &p->deliver);
    uv_timer_init(loop, &p->restart);
    uv_timer_init(loop, &p->sweep);
    uv_timer_init(loop, &p->burst);
    uv_timer_init(loop, &p->keep);
    uv_prepare_init(loop, &p->flush);
    p->deliver.data = p->restart.data = p->sweep.data = p->burst.data = p->keep.data = p;
    p->flush.data = p;
    sandbox__zygote_start(p);
    return p;
}

/* --- shutdown ---------------------------------------------------------------------------------- */

void sandbox__handle_closed(uv_handle_t *h)
{
    struct sandbox_pool *p = h->data;
    p->open_handles--;
    sandbox__maybe_finish_close(p);
}

void sandbox__maybe_finish_close(struct sandbox_pool *p)
{
    if (!p->closing || p->open_handles > 0 || p->zygote_running)
        return;
    void (*cb)(void *) = p->close_cb;
    void *ud = p->close_ud;
    buf_free(&p->ctl_in);
    free(p->exe);
    free(p->log_level);
    free(p->last_error);
    sandbox_admission_free(p->admission);
    free(p);
    if (cb)
        cb(ud);
}

void sandbox_pool_close(struct sandbox_pool *p, void (*cb)(void *ud), void *ud)
{
    p->closing = 1;
    p->close_cb = cb;
    p->close_ud = ud;
    sandbox__deliver(&p->deliver);
    for (struct sandbox_proc *w = p->workers, *next; w; w = next) {
        next = w->next;
        if (w->pipe_closed) { /* waiting for an exit report that may never come */
            free_worker(w);
            continue;
        }
        w->released = 1;
        w->ev = NULL;
        if (!w->closing)
            close_pipe(w, worker_closed);
    }
    p->idle = p->idle_tail = NULL; /* every worker is closing */
    p->nidle = 0;
    for (struct sandbox_proc *w = p->workers; w; w = w->next)
        w->kept = 0;
    p->kept = p->kept_tail = NULL;
    p->nkept = 0;
    p->open_handles += 6;
    uv_close((uv_handle_t *) &p->flush, sandbox__handle_closed);
    uv_close((uv_handle_t *) &p->deliver, sandbox__handle_closed);
    uv_close((uv_handle_t *) &p->restart, sandbox__handle_closed);
    uv_close((uv_handle_t *) &p->sweep, sandbox__handle_closed);
    uv_close((uv_handle_t *) &p->burst, sandbox__handle_closed);
    uv_close((uv_handle_t *) &p->keep, sandbox__handle_closed);
    /* SIGTERM: the zygote kills and reaps its workers, then exits (before it
     * is ready, SIGTERM's default action ends it just as well). */
    if (p->zygote_running)
        uv_process_kill(&p->zygote, SIGTERM);
    else if (p->ctl_open)
        uv_close((uv_handle_t *) &p->ctl, sandbox__ctl_closed);
}
