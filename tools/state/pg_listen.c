/* Skill changes of other instances on PostgreSQL (tools_state_listen_skills
 * in store.h): one connection of its own that LISTENs on codemode_skills
 * (which a skill's save or delete NOTIFYs, pg.c). It is opened on libuv's
 * thread pool (a connection attempt may wait), then watched on the loop
 * with uv_poll on PQsocket in non-blocking mode: reading a notification
 * never blocks the loop. Lost, it is opened again with a backoff of 100 ms
 * doubling to 5 s, and the caller hears of it then too (changes may have
 * been missed meanwhile). Its handles are unreferenced: they never keep the
 * loop alive. */
#include "tools/state/internal.h"
#include "tools/state/pg_lib.h"
#include "common/alloc.h"
#include "common/log.h"

#include <stdlib.h>

#define LISTEN_BACKOFF_MIN_MS 100
#define LISTEN_BACKOFF_MAX_MS 5000

struct tools_state_listener {
    struct tools__pg *p;
    uv_loop_t *loop;
    void (*cb)(void *ud);
    void *ud;
    PGconn *c;        /* set by the thread, then watched */
    uv_work_t work;   /* the connection attempt */
    uv_poll_t poll;   /* c's socket, while c */
    uv_timer_t timer; /* the next attempt */
    unsigned backoff_ms;
    int working, polling, closing, opened_before;
    unsigned handles; /* open handles (closed before the free) */
    char err[TOOLS_STATE_ERR_MAX];
};

static void attempt(struct tools_state_listener *l);

static void handle_closed(uv_handle_t *h)
{
    struct tools_state_listener *l = h->data;
    l->handles--;
}

static void retry(uv_timer_t *t)
{
    attempt(t->data);
}

/* The connection is gone (or never came): tries again after the backoff. */
static void later(struct tools_state_listener *l)
{
    if (l->closing)
        return;
    l->backoff_ms = l->backoff_ms ? l->backoff_ms * 2 : LISTEN_BACKOFF_MIN_MS;
    if (l->backoff_ms > LISTEN_BACKOFF_MAX_MS)
        l->backoff_ms = LISTEN_BACKOFF_MAX_MS;
    uv_timer_start(&l->timer, retry, l->backoff_ms, 0);
}

static void poll_closed(uv_handle_t *h)
{
    struct tools_state_listener *l = h->data;
    l->handles--;
    tools__pg_close_conn(l->p, l->c); /* after the poll let go of its socket */
    l->c = NULL;
    later(l);
}

static void lost(struct tools_state_listener *l)
{
    if (!l->polling)
        return;
    l->polling = 0;
    uv_poll_stop(&l->poll);
    uv_close((uv_handle_t *) &l->poll, poll_closed);
}

static void readable(uv_poll_t *h, int status, int events)
{
    struct tools_state_listener *l = h->data;
    const struct pg_lib *pq = tools__pg_lib(l->p);
    (void) events;
    if (status < 0 || !pq->consumeInput(l->c)) {
        log_warn("state", "the listener of skill changes lost its PostgreSQL connection; "
                          "opening another");
        lost(l);
        return;
    }
    while (!pq->isBusy(l->c)) { /* the LISTEN's own result, once */
        PGresult *r = pq->getResult(l->c);
        if (r == NULL)
            break;
        pq->clear(r);
    }
    int changed = 0;
    PGnotify *n;
    while ((n = pq->notifies(l->c)) != NULL) {
        changed = 1;
        pq->freemem(n);
    }
    if (changed)
        l->cb(l->ud);
}

static void work(uv_work_t *w)
{
    struct tools_state_listener *l = w->data;
    l->c = tools__pg_open_listener(l->p, "codemode_skills", l->err);
}

static void worked(uv_work_t *w, int status)
{
    struct tools_state_listener *l = w->data;
    (void) status;
    l->working = 0;
    if (l->c == NULL) {
        later(l);
        return;
    }
    if (l->closing) {
        tools__pg_close_conn(l->p, l->c);
        l->c = NULL;
        return;
    }
    const struct pg_lib *pq = tools__pg_lib(l->p);
    pq->setnonblocking(l->c, 1);
    if (uv_poll_init_socket(l->loop, &l->poll, pq->socket(l->c)) != 0) {
        tools__pg_close_conn(l->p, l->c);
        l->c = NULL;
        later(l);
        return;
    }
    l->handles++;
    l->poll.data = l;
    uv_unref((uv_handle_t *) &l->poll);
    uv_poll_start(&l->poll, UV_READABLE, readable);
    l->polling = 1;
    l->backoff_ms = 0;
    if (l->opened_before) /* changes may have been missed while it was away */
        l->cb(l->ud);
    l->opened_before = 1;
}

static void attempt(struct tools_state_listener *l)
{
    if (l->closing || l->working)
        return;
    l->working = 1;
    l->work.data = l;
    uv_queue_work(l->loop, &l->work, work, worked);
}

struct tools_state_listener *tools_state_listen_skills(struct tools_state *s, uv_loop_t *loop,
                                                       void (*cb)(void *ud), void *ud)
{
    if (s->pg == NULL || loop == NULL)
        return NULL;
    struct tools_state_listener *l = xcalloc(1, sizeof *l);
    l->p = s->pg;
    l->loop = loop;
    l->cb = cb;
    l->ud = ud;
    uv_timer_init(loop, &l->timer);
    l->timer.data = l;
    l->handles = 1;
    uv_unref((uv_handle_t *) &l->timer);
    attempt(l);
    return l;
}

void tools_state_listen_stop(struct tools_state_listener *l)
{
    if (l == NULL)
        return;
    l->closing = 1;
    uv_timer_stop(&l->timer);
    uv_close((uv_handle_t *) &l->timer, handle_closed);
    if (l->polling) {
        l->polling = 0;
        uv_poll_stop(&l->poll);
        uv_close((uv_handle_t *) &l->poll, handle_closed);
    }
    while (l->working || l->handles > 0) /* the loop has stopped: finish the attempt */
        uv_run(l->loop, UV_RUN_ONCE);
    if (l->c)
        tools__pg_close_conn(l->p, l->c);
    free(l);
}
