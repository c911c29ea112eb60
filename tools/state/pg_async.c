/* The PostgreSQL pool on the loop (pg_async.h): up to max_connections
 * connections driven by libpq's non-blocking interface, nothing ever waited
 * for. A connection is started with PQconnectStartParams and advanced by
 * PQconnectPoll whenever uv_poll says its socket is ready (a timer bounds it
 * by connect_timeout_ms); statements are sent with PQsendQueryParams,
 * flushed as the socket takes them, and read with PQconsumeInput and
 * PQgetResult as they answer. An idle connection is watched too, so one the
 * server closed (a restart, pg_terminate_backend) is noticed and dropped
 * before it is used. Operations wait in order for a free connection and
 * keep it for all their statements; while the server cannot be reached
 * they fail at once, a new attempt being made after 100 ms, doubling to
 * 5 s. With pipeline mode (libpq 14+) a batch of statements goes out in one
 * round trip, closed by a sync; and while every connection is busy, the
 * single statements waiting share the next free connection's pipeline,
 * each behind its own sync (its own transaction). Callbacks run on the
 * loop, never inside the call that queued the operation. */
#include "tools/state/pg_async.h"
#include "common/alloc.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 5000
#define PIPE_MAX       32 /* single statements sharing one connection's pipeline */

enum { FREE, CONNECTING, IDLE, BUSY };

struct stmt {
    char *sql;
    int n;
    char **params;
};

struct tools__pga_req {
    struct tools__pga *a;
    char *doing;
    struct stmt *batch; /* the batch in flight (or waiting) */
    int n;
    PGresult **res; /* its answers so far */
    int sent, got;  /* statements sent (one at a time without a pipeline), answered */
    int have;       /* the statement being read has a result */
    char err[TOOLS_STATE_ERR_MAX]; /* the first failure, "" while none */
    struct stmt *then;             /* the next batch, given by step */
    int then_n, has_then;
    tools__pga_step *step;
    tools__pga_cb *cb; /* a single statement's (tools__pga_query) */
    void *ud;
    int cancelled, single;
    struct tools__pga_req *next; /* in the queue, or on its connection */
};

struct pconn {
    struct tools__pga *a;
    int state;
    PGconn *c;
    uv_poll_t *poll; /* c's socket (fd), while c */
    int fd;
    uv_timer_t *timer; /* the connection attempt's deadline */
    int polling, events;
    int piped;                          /* in pipeline mode */
    struct tools__pga_req *head, *tail; /* in flight, in the order of their answers */
};

struct tools__pga {
    struct tools__pg *p;
    const struct pg_lib *pq;
    uv_loop_t *loop;
    unsigned n;
    struct pconn *conns;
    struct tools__pga_req *head, *tail; /* waiting, in order */
    struct tools__pga_req *failed;      /* to answer on the next turn */
    uv_timer_t *kick;                   /* the next turn */
    uint64_t retry_at;                  /* uv_now: no attempt before */
    unsigned backoff_ms;
    int pipeline;
    char down[TOOLS_STATE_ERR_MAX - 64];
    int closing;
    int depth;  /* callbacks of the pool running (tools__pga_free waits for them) */
    int doomed; /* tools__pga_free was called inside one */
};

static void pump(struct tools__pga *a);
static void send_next(struct pconn *k);

/* --- operations ------------------------------------------------------------------------------- */

static struct stmt *copy_batch(const struct tools__pga_stmt *s, int n)
{
    struct stmt *b = xcalloc(n ? (size_t) n : 1, sizeof *b);
    for (int i = 0; i < n; i++) {
        b[i].sql = xstrdup(s[i].sql);
        b[i].n = s[i].n;
        b[i].params = xcalloc(s[i].n ? (size_t) s[i].n : 1, sizeof *b[i].params);
        for (int j = 0; j < s[i].n; j++)
            b[i].params[j] = s[i].params[j] ? xstrdup(s[i].params[j]) : NULL;
    }
    return b;
}

static void free_batch(struct stmt *b, int n)
{
    for (int i = 0; b && i < n; i++) {
        for (int j = 0; j < b[i].n; j++)
            free(b[i].params[j]);
        free(b[i].params);
        free(b[i].sql);
    }
    free(b);
}

static void clear_results(struct tools__pga_req *r)
{
    for (int i = 0; r->res && i < r->n; i++)
        if (r->res[i])
            r->a->pq->clear(r->res[i]);
    free(r->res);
    r->res = NULL;
}

static void req_free(struct tools__pga_req *r)
{
    clear_results(r);
    free_batch(r->batch, r->n);
    free_batch(r->then, r->then_n);
    free(r->doing);
    free(r);
}

/* Makes the next batch the current one (after step gave one): 1, or 0 when
 * there is none. */
static int take_then(struct tools__pga_req *r)
{
    if (!r->has_then)
        return 0;
    clear_results(r);
    free_batch(r->batch, r->n);
    r->batch = r->then;
    r->n = r->then_n;
    r->then = NULL;
    r->then_n = 0;
    r->has_then = 0;
    r->res = xcalloc(r->n ? (size_t) r->n : 1, sizeof *r->res);
    r->sent = r->got = r->have = 0;
    r->err[0] = '\0';
    return 1;
}

/* Gives r its batch's answers (err: the failure, or NULL): 1 when it sent
 * another batch, else 0 (r is then to be freed by the caller). */
static int deliver(struct tools__pga_req *r, const char *err)
{
    if (!r->cancelled) {
        if (r->cb)
            r->cb(r->ud, err ? NULL : r->res[0], err);
        else
            r->step(r->ud, r, r->res, r->n, err);
    }
    return take_then(r);
}

/* Answers r with err, as often as its step asks for more (the pool is
 * closing, or the server is down), and frees it. */
static void fail_all(struct tools__pga_req *r, const char *err)
{
    for (int i = 0; i < r->n && r->res; i++)
        if (r->res[i]) {
            r->a->pq->clear(r->res[i]);
            r->res[i] = NULL;
        }
    int rounds = 0;
    while (deliver(r, err) && ++rounds < 64)
        ;
    req_free(r);
}

static struct tools__pga_req *req_new(struct tools__pga *a, const char *doing,
                                      const struct tools__pga_stmt *stmts, int n)
{
    struct tools__pga_req *r = xcalloc(1, sizeof *r);
    r->a = a;
    r->doing = xstrdup(doing);
    r->batch = copy_batch(stmts, n);
    r->n = n;
    r->res = xcalloc(n ? (size_t) n : 1, sizeof *r->res);
    return r;
}

static void enqueue(struct tools__pga *a, struct tools__pga_req *r)
{
    if (a->closing) { /* nothing is sent any more: answered on the next turn (never here) */
        snprintf(r->err, sizeof r->err, "state database (PostgreSQL, codemode.store): closed");
        r->next = a->failed;
        a->failed = r;
        return;
    }
    if (a->tail)
        a->tail->next = r;
    else
        a->head = r;
    a->tail = r;
    /* never answered inside this call: the statements go out now, their
     * answers (or an outage's failure) come on a later turn */
    pump(a);
}

/* --- handles ---------------------------------------------------------------------------------- */

static void handle_freed(uv_handle_t *h)
{
    free(h);
}

static void watch(struct pconn *k, int events);

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
    uv_close((uv_handle_t *) k->poll, handle_freed);
    k->poll = NULL;
    k->polling = 0;
}

/* --- connections ------------------------------------------------------------------------------ */

/* Ends k's connection; the operations on it fail with err (or the
 * connection's own sentence). */
static void drop(struct pconn *k, const char *err)
{
    struct tools__pga *a = k->a;
    struct tools__pga_req *r = k->head;
    k->head = k->tail = NULL;
    uv_timer_stop(k->timer);
    detach(k);
    a->pq->finish(k->c);
    k->c = NULL;
    k->state = FREE;
    k->piped = 0;
    while (r) {
        struct tools__pga_req *next = r->next;
        r->next = NULL;
        if (r->step || r->cb) /* not our own ROLLBACK */
            fail_all(r,
                     err ? err
                         : "state database (PostgreSQL, codemode.store): the connection was lost");
        else
            req_free(r);
        r = next;
    }
    pump(a);
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

static void enter(struct tools__pga *a);
static void leave(struct tools__pga *a);

static void connect_timeout(uv_timer_t *t)
{
    struct pconn *k = t->data;
    struct tools__pga *a = k->a;
    enter(a);
    if (!a->doomed)
        connect_failed(k, 1);
    leave(a);
}

/* The connection is up. */
static void connected(struct pconn *k)
{
    struct tools__pga *a = k->a;
    uv_timer_stop(k->timer);
    a->pq->setnonblocking(k->c, 1);
    k->piped = a->pipeline && a->pq->enterPipelineMode(k->c) == 1;
    a->backoff_ms = 0;
    a->retry_at = 0;
    k->state = IDLE;
    watch(k, UV_READABLE);
    pump(a);
}

static void connecting(struct pconn *k)
{
    struct tools__pga *a = k->a;
    PostgresPollingStatusType st = a->pq->connectPoll(k->c);
    if (st == PGRES_POLLING_FAILED) {
        connect_failed(k, 0);
    } else if (st == PGRES_POLLING_OK) {
        connected(k);
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
}

/* --- sending ---------------------------------------------------------------------------------- */

static int send_stmt(struct pconn *k, const struct stmt *s)
{
    return k->a->pq->sendQueryParams(k->c, s->sql, s->n, NULL, (const char *const *) s->params,
                                     NULL, NULL, 0);
}

/* Sends what r has to send now: its whole batch and a sync in pipeline
 * mode, else its next statement. 0, or -1 when libpq refused. */
static int send_req(struct pconn *k, struct tools__pga_req *r)
{
    if (k->piped) {
        for (int i = 0; i < r->n; i++)
            if (!send_stmt(k, &r->batch[i]))
                return -1;
        r->sent = r->n;
        return k->a->pq->pipelineSync(k->c) == 1 ? 0 : -1;
    }
    return send_stmt(k, &r->batch[r->sent++]) ? 0 : -1;
}

static void fail_later(struct tools__pga *a, struct tools__pga_req *r, const char *err);

/* Flushes what was sent and watches for the answers; on a failure the
 * connection is dropped (its operations answered on the next turn: this
 * may run inside tools__pga_begin). */
static void flush_out(struct pconn *k, int ok)
{
    struct tools__pga *a = k->a;
    int f = ok ? a->pq->flush(k->c) : -1;
    if (f >= 0) {
        watch(k, f == 0 ? UV_READABLE : UV_READABLE | UV_WRITABLE);
        return;
    }
    char err[TOOLS_STATE_ERR_MAX];
    tools__pg_failure(a->p, k->c, NULL, k->head ? k->head->doing : "send", err);
    struct tools__pga_req *r = k->head;
    k->head = k->tail = NULL;
    drop(k, NULL);
    while (r) {
        struct tools__pga_req *next = r->next;
        if (r->step || r->cb)
            fail_later(a, r, err);
        else
            req_free(r);
        r = next;
    }
}

static void put_on(struct pconn *k, struct tools__pga_req *r)
{
    r->next = NULL;
    if (k->tail)
        k->tail->next = r;
    else
        k->head = r;
    k->tail = r;
}

/* Rolls back the transaction an operation left open on k. */
static void send_rollback(struct pconn *k)
{
    static const struct tools__pga_stmt rb = {"ROLLBACK", 0, NULL};
    struct tools__pga_req *r = req_new(k->a, "roll back", &rb, 1);
    put_on(k, r);
    k->state = BUSY;
    flush_out(k, send_req(k, r) == 0);
}

/* How many other connections could take a statement now. */
static unsigned others_free(struct pconn *k)
{
    unsigned n = 0;
    for (unsigned i = 0; i < k->a->n; i++)
        n += &k->a->conns[i] != k && k->a->conns[i].state == IDLE;
    return n;
}

/* Sends the next waiting operation on the idle connection k; with a
 * pipeline and no other connection free, the single statements waiting
 * behind it too. */
static void send_next(struct pconn *k)
{
    struct tools__pga *a = k->a;
    int ok = 1, taken = 0;
    while (a->head && taken < PIPE_MAX) {
        struct tools__pga_req *r = a->head;
        if (r->cancelled) { /* cancelled while waiting */
            a->head = r->next;
            req_free(r);
            continue;
        }
        if (taken > 0 && (!k->piped || !r->single || !k->head->single || others_free(k) > 0))
            break;
        a->head = r->next;
        put_on(k, r);
        taken++;
        if (send_req(k, r) != 0) {
            ok = 0;
            break;
        }
    }
    if (a->head == NULL)
        a->tail = NULL;
    if (taken == 0) {
        watch(k, UV_READABLE); /* idle: notice a close */
        return;
    }
    k->state = BUSY;
    flush_out(k, ok);
}

/* --- answers ---------------------------------------------------------------------------------- */

/* The operation at k's head has all its answers. */
static void complete(struct pconn *k)
{
    struct tools__pga *a = k->a;
    struct tools__pga_req *r = k->head;
    k->head = r->next;
    if (k->head == NULL)
        k->tail = NULL;
    r->next = NULL;
    int mine = r->step || r->cb;
    if (mine && deliver(r, r->err[0] ? r->err : NULL)) { /* its next batch, on k */
        put_on(k, r);
        flush_out(k, send_req(k, r) == 0);
        return;
    }
    req_free(r);
    if (k->head)
        return;
    if (a->pq->status(k->c) != CONNECTION_OK) {
        drop(k, NULL);
        return;
    }
    if (a->pq->transactionStatus(k->c) != PQTRANS_IDLE) { /* left open: never given to another */
        send_rollback(k);
        return;
    }
    k->state = IDLE;
    send_next(k);
}

/* One result of the statement being read at k's head. */
static void take_result(struct pconn *k, PGresult *res)
{
    struct tools__pga *a = k->a;
    struct tools__pga_req *r = k->head;
    ExecStatusType st = a->pq->resultStatus(res);
    if (r->got >= r->n) { /* beyond the batch: its sync (or a stray notice) */
        a->pq->clear(res);
        return;
    }
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && r->err[0] == '\0')
        tools__pg_failure(a->p, k->c, st == PGRES_PIPELINE_ABORTED ? NULL : res, r->doing, r->err);
    if (r->res[r->got])
        a->pq->clear(r->res[r->got]);
    r->res[r->got] = res;
    r->have = 1;
}

/* Reads what k's socket brought: 0, or -1 when k was dropped. */
static int read_answers(struct pconn *k)
{
    struct tools__pga *a = k->a;
    while (k->head && !a->pq->isBusy(k->c)) {
        struct tools__pga_req *r = k->head;
        PGresult *res = a->pq->getResult(k->c);
        if (res && k->piped && a->pq->resultStatus(res) == PGRES_PIPELINE_SYNC) {
            a->pq->clear(res);
            r->got = r->n; /* statements not answered stay NULL */
            complete(k);
            if (k->state != BUSY || k->c == NULL)
                return k->c ? 0 : -1;
            continue;
        }
        if (res) {
            take_result(k, res);
            continue;
        }
        if (!r->have) /* nothing more for now */
            break;
        r->have = 0; /* this statement's answer is complete */
        r->got++;
        if (k->piped)
            continue; /* the sync closes the batch */
        if (r->got < r->n && r->err[0] == '\0') {
            flush_out(k, send_req(k, r) == 0);
            return k->c ? 0 : -1;
        }
        r->got = r->n;
        complete(k);
        if (k->c == NULL)
            return -1;
    }
    return 0;
}

static void really_free(struct tools__pga *a);

/* Around every callback of the pool: a tools__pga_free called inside one
 * (by an operation's caller) takes effect when it returned. */
static void enter(struct tools__pga *a)
{
    a->depth++;
}

static void leave(struct tools__pga *a)
{
    if (--a->depth == 0 && a->doomed)
        really_free(a);
}

static void on_ready(struct pconn *k, int status, int events);

static void ready(uv_poll_t *h, int status, int events)
{
    struct pconn *k = h->data;
    struct tools__pga *a = k->a;
    enter(a);
    if (!a->doomed)
        on_ready(k, status, events);
    leave(a);
}

/* The socket is ready for what k waits for. */
static void on_ready(struct pconn *k, int status, int events)
{
    struct tools__pga *a = k->a;
    char err[TOOLS_STATE_ERR_MAX];
    if (k->state == CONNECTING) {
        connecting(k);
        return;
    }
    if (status < 0 && k->state != BUSY) {
        drop(k, NULL);
        return;
    }
    const char *doing = k->head ? k->head->doing : "read";
    if (k->state == BUSY && (events & UV_WRITABLE)) {
        int f = a->pq->flush(k->c);
        if (f < 0) {
            tools__pg_failure(a->p, k->c, NULL, doing, err);
            drop(k, err);
            return;
        }
        watch(k, f == 0 ? UV_READABLE : UV_READABLE | UV_WRITABLE);
    }
    if (!(events & UV_READABLE) && status >= 0)
        return;
    if (!a->pq->consumeInput(k->c)) {
        if (k->state == BUSY)
            tools__pg_failure(a->p, k->c, NULL, doing, err);
        drop(k, k->state == BUSY ? err : NULL); /* idle: the server closed it */
        return;
    }
    if (k->state == BUSY)
        read_answers(k);
}

static void watch(struct pconn *k, int events)
{
    /* an operation in flight keeps the loop alive; an idle connection never does */
    if (k->state == IDLE)
        uv_unref((uv_handle_t *) k->poll);
    else
        uv_ref((uv_handle_t *) k->poll);
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
    uv_timer_start(k->timer, connect_timeout, tools__pg_options(a->p)->connect_timeout_ms, 0);
    watch(k, UV_WRITABLE); /* PQconnectPoll's first step waits to write */
}

/* --- the queue ----------------------------------------------------------------------------- */

static void kicked(uv_timer_t *t)
{
    struct tools__pga *a = t->data;
    enter(a);
    while (a->failed && !a->doomed) {
        struct tools__pga_req *r = a->failed;
        a->failed = r->next;
        r->next = NULL;
        fail_all(r, r->err);
    }
    leave(a);
}

/* Fails r on the next turn. */
static void fail_later(struct tools__pga *a, struct tools__pga_req *r, const char *err)
{
    if (err != r->err)
        snprintf(r->err, sizeof r->err, "%s", err);
    r->next = a->failed;
    a->failed = r;
    uv_timer_start(a->kick, kicked, 0, 0);
}

/* Gives waiting operations to idle connections, opens connections for the
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
    const char *env = getenv("MCP_CODEMODE_PG_PIPELINE");
    a->pipeline = pq->enterPipelineMode && pq->pipelineSync && !(env && strcmp(env, "0") == 0);
    a->conns = xcalloc(a->n, sizeof *a->conns);
    for (unsigned i = 0; i < a->n; i++) {
        a->conns[i].a = a;
        a->conns[i].timer = xcalloc(1, sizeof *a->conns[i].timer);
        uv_timer_init(loop, a->conns[i].timer);
        a->conns[i].timer->data = &a->conns[i];
        uv_unref((uv_handle_t *) a->conns[i].timer);
    }
    a->kick = xcalloc(1, sizeof *a->kick);
    uv_timer_init(loop, a->kick);
    a->kick->data = a;
    return a;
}

int tools__pga_pipelining(const struct tools__pga *a)
{
    return a->pipeline;
}

const struct pg_lib *tools__pga_pq(const struct tools__pga *a)
{
    return a->pq;
}

const struct tools_state_options *tools__pga_options(const struct tools__pga *a)
{
    return tools__pg_options(a->p);
}

struct tools__pga_req *tools__pga_begin(struct tools__pga *a, const char *doing,
                                        const struct tools__pga_stmt *stmts, int n,
                                        tools__pga_step *step, void *ud)
{
    struct tools__pga_req *r = req_new(a, doing, stmts, n);
    r->step = step;
    r->ud = ud;
    enqueue(a, r);
    if (a->closing)
        uv_timer_start(a->kick, kicked, 0, 0);
    return r;
}

void tools__pga_next(struct tools__pga_req *op, const struct tools__pga_stmt *stmts, int n,
                     tools__pga_step *step)
{
    op->step = step;
    free_batch(op->then, op->then_n);
    op->then = copy_batch(stmts, n);
    op->then_n = n;
    op->has_then = 1;
}

struct tools__pga_req *tools__pga_query(struct tools__pga *a, const char *sql, int n,
                                        const char *const *params, const char *doing,
                                        tools__pga_cb *cb, void *ud)
{
    struct tools__pga_stmt s = {sql, n, params};
    struct tools__pga_req *r = req_new(a, doing, &s, 1);
    r->cb = cb;
    r->ud = ud;
    r->single = 1;
    enqueue(a, r);
    if (a->closing)
        uv_timer_start(a->kick, kicked, 0, 0);
    return r;
}

void tools__pga_cancel(struct tools__pga_req *r)
{
    r->cancelled = 1; /* what was sent still completes: a write is not torn */
}

void tools__pga_free(struct tools__pga *a)
{
    if (a == NULL)
        return;
    a->closing = 1;
    if (a->depth > 0) { /* inside one of its callbacks: when it returned */
        a->doomed = 1;
        return;
    }
    really_free(a);
}

static void really_free(struct tools__pga *a)
{
    static const char closed[] = "state database (PostgreSQL, codemode.store): closed";
    a->closing = 1;
    a->doomed = 0;
    a->depth++;                           /* what the answers below do cannot free it again */
    for (unsigned i = 0; i < a->n; i++) { /* the connections first: nothing more is sent */
        struct pconn *k = &a->conns[i];
        detach(k);
        if (k->c)
            a->pq->finish(k->c);
        k->c = NULL;
        k->state = FREE;
        uv_close((uv_handle_t *) k->timer, handle_freed);
    }
    for (;;) { /* what they and the queue held is answered (new ones go to failed) */
        struct tools__pga_req *r = NULL;
        int queued = 0;
        for (unsigned i = 0; i < a->n && r == NULL; i++)
            if ((r = a->conns[i].head) != NULL)
                a->conns[i].head = r->next;
        if (r == NULL && (r = a->head) != NULL)
            a->head = r->next;
        if (r == NULL && (r = a->failed) != NULL) {
            a->failed = r->next;
            queued = 1;
        }
        if (r == NULL)
            break;
        r->next = NULL;
        if (r->step || r->cb)
            fail_all(r, queued && r->err[0] ? r->err : closed);
        else
            req_free(r);
    }
    uv_close((uv_handle_t *) a->kick, handle_freed);
    free(a->conns);
    free(a);
}

void tools__pgo_cancel(struct tools__pgo *o)
{
    o->cancelled = 1; /* its statements still run to their end */
}
