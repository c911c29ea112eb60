/* The queue of state and skills operations run off the loop (jobs.c);
 * internal to tools/state/ (service.c owns one). */
#ifndef TOOLS_STATE_JOBS_H
#define TOOLS_STATE_JOBS_H

#include "tools/state/service.h"

#include <uv.h>

/* Does one operation off the loop: 1 or 0, the reply in out; what must be
 * applied on the loop afterwards in *ctx (NULL: nothing). */
typedef int tools__state_job_fn(void *ud, const char *op, const char *name, const char *principal,
                                const cJSON *args, struct buf *out, void **ctx);
/* On the loop, after the operation and before its reply: applies and frees ctx. */
typedef void tools__state_job_land_fn(void *ud, void *ctx);

struct tools_state_jobs {
    uv_loop_t *loop;
    unsigned parallel, running;
    int exclusive; /* a skills.* job runs */
    tools__state_job_fn *fn;
    tools__state_job_land_fn *land;
    void *fn_ud;
    struct tools_state_job *head, *tail; /* waiting, in order */
};

void tools__state_jobs_init(struct tools_state_jobs *q, uv_loop_t *loop, unsigned parallel,
                            tools__state_job_fn *fn, tools__state_job_land_fn *land, void *fn_ud);
/* Queues one operation (alone: skills.*, run when nothing else runs, and
 * nothing after it until it ended). cb may be NULL (nobody waits). */
struct tools_state_job *tools__state_jobs_push(struct tools_state_jobs *q, const char *op,
                                               const char *name, const char *principal,
                                               const cJSON *args, int alone,
                                               tools_state_done_cb *cb, void *ud);
/* The same with args given up (no copy). */
struct tools_state_job *tools__state_jobs_adopt(struct tools_state_jobs *q, const char *op,
                                                const char *name, const char *principal,
                                                cJSON *args, int alone, tools_state_done_cb *cb,
                                                void *ud);
/* A handle for an operation done elsewhere (tools_state_job_cancel calls
 * cancel(h) and frees it); freed by _done when it answered instead. */
struct tools_state_job *tools__state_job_foreign(void (*cancel)(void *h), void *h);
void tools__state_job_foreign_done(struct tools_state_job *j);
/* Drops what waits and runs the loop until what runs has ended (when the
 * service is freed, after the loop stopped). */
void tools__state_jobs_drain(struct tools_state_jobs *q);

#endif
