/* The PostgreSQL pool on the loop (tools__pga in internal.h): up to
 * max_connections connections driven by libpq's non-blocking interface,
 * nothing ever waited for. A connection is started with
 * PQconnectStartParams and advanced by PQconnectPoll whenever uv_poll says
 * its socket is ready (a timer bounds it by connect_timeout_ms); a statement
 * is sent with PQsendQueryParams, flushed as the socket takes it, and read
 * with PQconsumeInput/PQgetResult as it answers. An idle connection is
 * watched too, so one the server closed (a restart, pg_terminate_backend)
 * is noticed and dropped before it is used. Statements wait in order for a
 * free connection; while the server cannot be reached they fail at once,
 * a new attempt being made after 100 ms, doubling to 5 s. Callbacks run on
 * the loop, never inside the call that queued the statement. */
#include "tools/state/internal.h"
#include "common/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 5000

enum { FREE, CONNECTING, IDLE, BUSY };

struct tools__pga_req {
    struct tools__pga *a;
    char *sql, *doing;
    int n;
    char **params;
    tools__pga_cb *cb;
    void *ud;
    int cancelled;
    char err[TOOLS_STATE_ERR_MAX]; /* a failure decided before it was sent */
    struct tools__pga_req *next;
};

struct pconn {
    struct tools__pga *a;
    int state;
    PGconn *c;
    uv_poll_t *poll; /* c's socket (fd), while c */
    int fd;
    uv_timer_t timer; /* the connection attempt's deadline */
    int polling, events;
    struct tools__pga_req *req;
    PGresult *last; /* the answer so far */
};

struct tools__pga {
    struct tools__pg *p;
    const struct pg_lib *pq;
    uv_loop_t *loop;
    unsigned n;
    struct pconn *conns;
    struct tools__pga_req *head, *tail; /* waiting, in order */
    struct tools__pga_req *failed;      /* to answer on the next turn */
    uv_timer_t kick;                    /* the next turn */
    uint64_t retry_at;                  /* uv_now: no attempt before */
    unsigned backoff_ms;
    char down[TOOLS_STATE_ERR_MAX - 64];
    unsigned open_handles;
    int closing;
};

static void pump(struct tools__pga *a);

static void req_free(struct tools__pga_req *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->params[i]);
    free(r->params);
    free(r->sql);
    free(r->doing);
    free(r);
}

/* Answers r (on the loop, never inside tools__pga_query) and frees it. */
static void answer(struct tools__pga_req *r, PGresult *res, const char *err)
{
    if (!r->cancelled)
        r->cb(r->ud, res, err);
    req_free(r);
}

static void handle_closed(uv_handle_t *h)
{
    struct tools__pga *a = h->data;
    a->open_handles--;
}

/* --- connections ------------------------------------------------------------------------------ */

static void watch(struct pconn *k, int events);

static void poll_freed(uv_handle_t *h)
{
    struct pconn *k = h->data;
    k->a->open_handles--;
    free(h);
}

/* Watches c's socket with a new handle (0), or -1. */
static int attach(struct pconn *k)
{
    uv_poll_t *h = xcalloc(1, sizeof *h);
    int fd = k->a->pq->socket(k->c);
    if (fd < 0 || uv_poll_init_socket(k->a->loop, h, fd) != 0) {
        free(h);
        return -1;
    }
    h->data = k;
    uv_unref((uv_handle_t *) h); /* an idle connection never keeps the loop alive */
    k->a->open_handles++;
    k->poll = h;
    k->fd = fd;
    k->polling = 0;
    return 0;
}

/* Stops watching (the socket leaves the loop's poll set at once: libpq may
 * close it after this). */
static void detach(struct pconn *k)
{
    if (k->poll == NULL)
        return;
    uv_poll_stop(k->poll);
    uv_close((uv_handle_t *) k->poll, poll_freed);
    k->poll = NULL;
    k->polling = 0;
}

/* Ends k's connection; its statement (if any) fails with err. */
static void drop(struct pconn *k, const char *err)
{
    struct tools__pga_req *r = k->req;
    k->req = NULL;
    if (k->last) {
        k->a->pq->clear(k->last);
        k->last = NULL;
    }
    uv_timer_stop(&k->timer);
    detach(k);
    k->a->pq->finish(k->c);
    k->c = NULL;
    k->state = FREE;
    if (r)
        answer(r, NULL, err);
    pump(k->a);
}

/* The attempt failed: the server counts as down until the backoff ends. */
static void connect_failed(struct pconn *k, int timed_out)
{
    struct tools__pga *a = k->a;
    char err[TOOLS_STATE_ERR_MAX];
    tools__pg_cannot_connect(a->p, k->c, timed_out, err);
    a->backoff_ms = a->backoff_ms ? a->backoff_ms * 2 : BACKOFF_MIN_MS;
    if (a->backoff_ms > BACKOFF_MAX_MS)
        a->backoff_ms = BACKOFF_MAX_MS;
    a->retry_at = uv_now(a->loop) + a->backoff_ms;
    snprintf(a->down, sizeof a->down, "%.*s", (int) sizeof a->down - 1, err);
    drop(k, err);
}

static void connect_timeout(uv_timer_t *t)
{
    connect_failed(t->data, 1);
}

static void send_next(struct pconn *k);
static void fail_later(struct tools__pga *a, struct tools__pga_req *r, const char *err);

/* The socket is ready for what k waits for. */
static void ready(uv_poll_t *h, int status, int events)
{
    struct pconn *k = h->data;
    struct tools__pga *a = k->a;
    char err[TOOLS_STATE_ERR_MAX];
    if (k->state == CONNECTING) {
        PostgresPollingStatusType st = a->pq->connectPoll(k->c);
        if (st == PGRES_POLLING_FAILED) {
            connect_failed(k, 0);
        } else if (st == PGRES_POLLING_OK) {
            uv_timer_stop(&k->timer);
            a->pq->setnonblocking(k->c, 1);
            a->backoff_ms = 0;
            a->retry_at = 0;
            k->state = IDLE;
            watch(k, UV_READABLE);
            pump(a);
        } else if (a->pq->socket(k->c) != k->fd) { /* libpq opened another socket */
            detach(k);
            if (attach(k) != 0)
                connect_failed(k, 0);
            else
                watch(k, st == PGRES_POLLING_READING ? UV_READABLE : UV_WRITABLE);
        } else { /* the same number may be a new socket: armed again */
            uv_poll_stop(k->poll);
            k->polling = 0;
            watch(k, st == PGRES_POLLING_READING ? UV_READABLE : UV_WRITABLE);
        }
        return;
    }
    if (status < 0 && k->state != BUSY) {
        drop(k, NULL);
        return;
    }
    if (k->state == BUSY && (events & UV_WRITABLE)) {
        int f = a->pq->flush(k->c);
        if (f < 0) {
            tools__pg_failure(a->p, k->c, NULL, k->req->doing, err);
            drop(k, err);
            return;
        }
        watch(k, f == 0 ? UV_READABLE : UV_READABLE | UV_WRITABLE);
    }
    if (!(events & UV_READABLE) && status >= 0)
        return;
    if (!a->pq->consumeInput(k->c)) {
        if (k->state == BUSY)
            tools__pg_failure(a->p, k->c, NULL, k->req->doing, err);
        drop(k, k->state == BUSY ? err : NULL); /* idle: the server closed it */
        return;
    }
    if (k->state != BUSY)
        return; /* a notice */
    while (!a->pq->isBusy(k->c)) {
        PGresult *res = a->pq->getResult(k->c);
        if (res == NULL) { /* the statement's answer is complete */
            struct tools__pga_req *r = k->req;
            PGresult *last = k->last;
            k->req = NULL;
            k->last = NULL;
            ExecStatusType st = last ? a->pq->resultStatus(last) : PGRES_FATAL_ERROR;
            int good = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
            if (!good)
                tools__pg_failure(a->p, k->c, last, r->doing, err);
            int lost = a->pq->status(k->c) != CONNECTION_OK;
            k->state = IDLE;
            answer(r, good ? last : NULL, good ? NULL : err);
            if (last)
                a->pq->clear(last);
            if (lost)
                drop(k, NULL);
            else
                send_next(k);
            return;
        }
        if (k->last)
            a->pq->clear(k->last);
        k->last = res;
    }
}

static void watch(struct pconn *k, int events)
{
    if (k->polling && k->events == events)
        return;
    k->events = events;
    k->polling = 1;
    uv_poll_start(k->poll, events, ready);
}

/* Starts a connection attempt on the free slot k. */
static void start(struct pconn *k)
{
    struct tools__pga *a = k->a;
    char options[128];
    const char *values[4];
    tools__pg_start_params(a->p, options, sizeof options, values);
    k->c = a->pq->connectStartParams(tools__pg_start_keys, values, 1);
    k->state = CONNECTING;
    if (k->c == NULL || a->pq->status(k->c) == CONNECTION_BAD || attach(k) != 0) {
        connect_failed(k, 0);
        return;
    }
    uv_timer_start(&k->timer, connect_timeout, tools__pg_options(a->p)->connect_timeout_ms, 0);
    watch(k, UV_WRITABLE); /* PQconnectPoll's first step waits to write */
}

/* Sends the next waiting statement on the idle connection k. */
static void send_next(struct pconn *k)
{
    struct tools__pga *a = k->a;
    while (a->head && a->head->cancelled) { /* cancelled while waiting */
        struct tools__pga_req *r = a->head;
        a->head = r->next;
        req_free(r);
    }
    if (a->head == NULL) {
        a->tail = NULL;
        watch(k, UV_READABLE); /* idle: notice a close */
        return;
    }
    struct tools__pga_req *r = a->head;
    a->head = r->next;
    if (a->head == NULL)
        a->tail = NULL;
    k->req = r;
    k->state = BUSY;
    char err[TOOLS_STATE_ERR_MAX];
    int f = -1;
    if (a->pq->sendQueryParams(k->c, r->sql, r->n, NULL, (const char *const *) r->params, NULL,
                               NULL, 0))
        f = a->pq->flush(k->c);
    if (f < 0) { /* may be inside tools__pga_query: answered on the next turn */
        tools__pg_failure(a->p, k->c, NULL, r->doing, err);
        k->req = NULL;
        drop(k, NULL);
        fail_later(a, r, err);
        return;
    }
    watch(k, f == 0 ? UV_READABLE : UV_READABLE | UV_WRITABLE);
}

/* --- the queue ----------------------------------------------------------------------------- */

static void kicked(uv_timer_t *t)
{
    struct tools__pga *a = t->data;
    while (a->failed) {
        struct tools__pga_req *r = a->failed;
        a->failed = r->next;
        answer(r, NULL, r->err);
    }
}

/* Fails r on the next turn (the server is down). */
static void fail_later(struct tools__pga *a, struct tools__pga_req *r, const char *err)
{
    snprintf(r->err, sizeof r->err, "%s", err);
    r->next = a->failed;
    a->failed = r;
    uv_timer_start(&a->kick, kicked, 0, 0);
}

/* Gives waiting statements to idle connections, opens connections for the
 * rest, or fails them while the server is down and no connection is left. */
static void pump(struct tools__pga *a)
{
    if (a->closing)
        return;
    for (unsigned i = 0; i < a->n && a->head; i++)
        if (a->conns[i].state == IDLE)
            send_next(&a->conns[i]);
    if (a->head == NULL)
        return;
    unsigned waiting = 0, opening = 0, live = 0;
    for (struct tools__pga_req *r = a->head; r; r = r->next)
        waiting++;
    for (unsigned i = 0; i < a->n; i++) {
        opening += a->conns[i].state == CONNECTING;
        live += a->conns[i].state == BUSY || a->conns[i].state == CONNECTING;
    }
    uint64_t now = uv_now(a->loop);
    if (now >= a->retry_at) {
        for (unsigned i = 0; i < a->n && opening < waiting; i++)
            if (a->conns[i].state == FREE) {
                opening++;
                live++;
                start(&a->conns[i]); /* may fail at once: then the server is down */
                if (now < a->retry_at)
                    break;
            }
    }
    if (a->head && now < a->retry_at && opening == 0 && live == 0) {
        char err[TOOLS_STATE_ERR_MAX];
        snprintf(err, sizeof err, "%s; retrying in %llu ms", a->down,
                 (unsigned long long) (a->retry_at - now));
        while (a->head) {
            struct tools__pga_req *r = a->head;
            a->head = r->next;
            fail_later(a, r, err);
        }
        a->tail = NULL;
    }
}

struct tools__pga *tools__pga_new(struct tools__pg *p, uv_loop_t *loop, char *err)
{
    const struct pg_lib *pq = tools__pg_load(p, err);
    if (pq == NULL)
        return NULL;
    struct tools__pga *a = xcalloc(1, sizeof *a);
    a->p = p;
    a->pq = pq;
    a->loop = loop;
    a->n = tools__pg_parallelism(p);
    a->conns = xcalloc(a->n, sizeof *a->conns);
    for (unsigned i = 0; i < a->n; i++) {
        a->conns[i].a = a;
        uv_timer_init(loop, &a->conns[i].timer);
        a->conns[i].timer.data = &a->conns[i];
        uv_unref((uv_handle_t *) &a->conns[i].timer);
    }
    uv_timer_init(loop, &a->kick);
    a->kick.data = a;
    a->open_handles = a->n + 1;
    return a;
}

struct tools__pga_req *tools__pga_query(struct tools__pga *a, const char *sql, int n,
                                        const char *const *params, const char *doing,
                                        tools__pga_cb *cb, void *ud)
{
    struct tools__pga_req *r = xcalloc(1, sizeof *r);
    r->a = a;
    r->sql = xstrdup(sql);
    r->doing = xstrdup(doing);
    r->n = n;
    r->params = xcalloc(n ? (size_t) n : 1, sizeof *r->params);
    for (int i = 0; i < n; i++)
        r->params[i] = params[i] ? xstrdup(params[i]) : NULL;
    r->cb = cb;
    r->ud = ud;
    if (a->tail)
        a->tail->next = r;
    else
        a->head = r;
    a->tail = r;
    /* never answered inside this call: the statement goes out now, its
     * answer (or an outage's failure) comes on a later turn */
    pump(a);
    return r;
}

void tools__pga_cancel(struct tools__pga_req *r)
{
    r->cancelled = 1; /* a statement sent still completes: a write is not torn */
}

void tools__pga_free(struct tools__pga *a)
{
    if (a == NULL)
        return;
    a->closing = 1;
    while (a->failed) {
        struct tools__pga_req *r = a->failed;
        a->failed = r->next;
        req_free(r);
    }
    while (a->head) {
        struct tools__pga_req *r = a->head;
        a->head = r->next;
        req_free(r);
    }
    for (unsigned i = 0; i < a->n; i++) {
        struct pconn *k = &a->conns[i];
        if (k->req) {
            k->req->cancelled = 1;
            req_free(k->req);
            k->req = NULL;
        }
        if (k->last)
            a->pq->clear(k->last);
        k->last = NULL;
        detach(k);
        k->timer.data = a;
        uv_close((uv_handle_t *) &k->timer, handle_closed);
    }
    a->kick.data = a;
    uv_close((uv_handle_t *) &a->kick, handle_closed);
    while (a->open_handles > 0) /* the loop has stopped: let the handles close */
        uv_run(a->loop, UV_RUN_ONCE);
    for (unsigned i = 0; i < a->n; i++)
        if (a->conns[i].c)
            a->pq->finish(a->conns[i].c);
    free(a->conns);
    free(a);
}
