/* The state and skills services off the loop on SQLite (and on PostgreSQL
 * when libpq could not be loaded, to fail there; tools_state_service_start in
 * service.h): a queue of operations in order, run on libuv's thread pool;
 * state.* as many at once as the store allows (one SQLite connection, or
 * the PostgreSQL pool), skills.* alone, what they read installed on the
 * loop (land) before the reply is delivered there. A cancelled operation still runs to its end (a
 * write in flight is not torn) but is not answered. */
#include "tools/state/jobs.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdlib.h>
#include <string.h>

struct tools_state_job {
    uv_work_t work;
    struct tools_state_jobs *q;
    char *op, *name, *principal; /* principal may be NULL */
    cJSON *args;
    int alone; /* skills.*: runs when nothing else does */
    int ok, cancelled, running;
    void *ctx; /* what land applies on the loop */
    /* a handle of an operation done elsewhere (the PostgreSQL pool on the
     * loop): cancelling it calls this */
    void (*foreign_cancel)(void *h);
    void *foreign;
    struct buf out;
    tools_state_done_cb *cb;
    void *ud;
    struct tools_state_job *next; /* in the queue */
};

void tools__state_jobs_init(struct tools_state_jobs *q, uv_loop_t *loop, unsigned parallel,
                            tools__state_job_fn *fn, tools__state_job_land_fn *land, void *fn_ud)
{
    memset(q, 0, sizeof *q);
    q->loop = loop;
    q->parallel = parallel ? parallel : 1;
    q->fn = fn;
    q->land = land;
    q->fn_ud = fn_ud;
}

static void job_free(struct tools_state_job *j)
{
    free(j->op);
    free(j->name);
    free(j->principal);
    cJSON_Delete(j->args);
    buf_free(&j->out);
    free(j);
}

static void work(uv_work_t *w)
{
    struct tools_state_job *j = w->data;
    j->ok = j->q->fn(j->q->fn_ud, j->op, j->name, j->principal, j->args, &j->out, &j->ctx);
}

static void pump(struct tools_state_jobs *q);

static void after(uv_work_t *w, int status)
{
    struct tools_state_job *j = w->data;
    struct tools_state_jobs *q = j->q;
    if (j->alone)
        q->exclusive = 0;
    q->running--;
    q->land(q->fn_ud, j->ctx); /* even when cancelled: the rows are the store's */
    if (!j->cancelled && j->cb)
        j->cb(j->ud, j->ok, j->out.data ? j->out.data : "null", j->out.data ? j->out.len : 4);
    job_free(j);
    (void) status;
    pump(q);
}

/* Starts what may start: the head of the queue while there is room (a
 * skills.* job only when nothing runs, and nothing after it until it ends). */
static void pump(struct tools_state_jobs *q)
{
    while (q->head) {
        struct tools_state_job *j = q->head;
        if (j->alone ? q->running > 0 : q->running >= q->parallel || q->exclusive)
            return;
        q->head = j->next;
        if (q->head == NULL)
            q->tail = NULL;
        j->running = 1;
        q->running++;
        q->exclusive = j->alone;
        j->work.data = j;
        uv_queue_work(q->loop, &j->work, work, after);
        if (j->alone)
            return;
    }
}

struct tools_state_job *tools__state_jobs_push(struct tools_state_jobs *q, const char *op,
                                               const char *name, const char *principal,
                                               const cJSON *args, int alone,
                                               tools_state_done_cb *cb, void *ud)
{
    return tools__state_jobs_adopt(q, op, name, principal, args ? cJSON_Duplicate(args, 1) : NULL,
                                   alone, cb, ud);
}

struct tools_state_job *tools__state_jobs_adopt(struct tools_state_jobs *q, const char *op,
                                                const char *name, const char *principal,
                                                cJSON *args, int alone, tools_state_done_cb *cb,
                                                void *ud)
{
    struct tools_state_job *j = xcalloc(1, sizeof *j);
    j->q = q;
    j->op = xstrdup(op);
    j->name = xstrdup(name ? name : "");
    j->principal = principal ? xstrdup(principal) : NULL;
    j->args = args;
    j->alone = alone;
    j->cb = cb;
    j->ud = ud;
    buf_init(&j->out, 0);
    if (q->tail)
        q->tail->next = j;
    else
        q->head = j;
    q->tail = j;
    pump(q);
    return j;
}

struct tools_state_job *tools__state_job_foreign(void (*cancel)(void *h), void *h)
{
    struct tools_state_job *j = xcalloc(1, sizeof *j);
    j->foreign_cancel = cancel;
    j->foreign = h;
    return j;
}

void tools__state_job_foreign_done(struct tools_state_job *j)
{
    free(j);
}

void tools_state_job_cancel(struct tools_state_job *j)
{
    if (j->foreign_cancel) {
        j->foreign_cancel(j->foreign);
        free(j);
        return;
    }
    struct tools_state_jobs *q = j->q;
    if (j->running) {
        j->cancelled = 1;
        return;
    }
    struct tools_state_job **pp = &q->head, *prev = NULL;
    while (*pp != j) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    *pp = j->next;
    if (q->tail == j)
        q->tail = prev;
    job_free(j);
}

void tools__state_jobs_drain(struct tools_state_jobs *q)
{
    while (q->head) {
        struct tools_state_job *j = q->head;
        q->head = j->next;
        job_free(j); /* never started: their callers are gone */
    }
    q->tail = NULL;
    while (q->running > 0 && q->loop) /* the loop has stopped: finish what runs */
        uv_run(q->loop, UV_RUN_ONCE);
}
