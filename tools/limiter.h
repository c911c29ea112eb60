/* Per-server call limits (docs/policy.md): at most N calls in flight to one
 * downstream server, from all executions, and optionally at most R calls
 * per second (spaced evenly: one every 1000/R ms). Calls past a limit wait
 * in arrival order; they never fail for it. */
#ifndef TOOLS_LIMITER_H
#define TOOLS_LIMITER_H

#include <uv.h>

struct tools_limiter;
struct tools_limiter_wait;

/* max_concurrent 0 and per_second 0 mean no limit of that kind. Returns
 * NULL when both are 0 (nothing to limit: callers treat NULL as "go"). */
struct tools_limiter *tools_limiter_new(uv_loop_t *loop, unsigned max_concurrent,
                                        double per_second);

/* Frees the limiter; waiting calls are dropped without their callback. */
void tools_limiter_free(struct tools_limiter *l);

/* Takes a slot for one call: runs go(ud) before returning when one is free
 * (and returns NULL), else queues it and returns a handle; go then runs
 * later from the loop. Each go must be matched by tools_limiter_release. */
struct tools_limiter_wait *tools_limiter_acquire(struct tools_limiter *l, void (*go)(void *ud),
                                                 void *ud);

/* Forgets a waiting call (its go never runs). */
void tools_limiter_cancel(struct tools_limiter *l, struct tools_limiter_wait *w);

/* A call that got its slot has ended: the next waiting one may go (its go
 * runs from the loop, never inside this call). */
void tools_limiter_release(struct tools_limiter *l);

#endif
