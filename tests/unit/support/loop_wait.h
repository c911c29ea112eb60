/* Test helper (header-only, static functions): runs a libuv loop until a
 * condition holds or a deadline passes. A failing assertion that jumps out
 * of the wait leaves its timer open: call loop_wait_abort() in teardown. */
#ifndef TESTS_UNIT_LOOP_WAIT_H
#define TESTS_UNIT_LOOP_WAIT_H

#include <stdint.h>
#include <uv.h>

static struct {
    uv_timer_t timer;
    uv_prepare_t prepare;
    int open, over;
    int (*pred)(void *);
    void *arg;
} loop_wait_state;

static void loop_wait_expired(uv_timer_t *t)
{
    (void) t;
    loop_wait_state.over = 1;
}

/* Before the loop blocks for I/O: stop it when the awaited thing happened
 * (a timer callback may have done it, and UV_RUN_ONCE runs timers before it
 * blocks in the poll). */
static void loop_wait_check(uv_prepare_t *p)
{
    if (loop_wait_state.over || loop_wait_state.pred(loop_wait_state.arg))
        uv_stop(p->loop);
}

/* Closes the wait's handles if an assertion left them open. */
static inline void loop_wait_abort(void)
{
    if (loop_wait_state.open) {
        uv_close((uv_handle_t *) &loop_wait_state.timer, NULL);
        uv_close((uv_handle_t *) &loop_wait_state.prepare, NULL);
        loop_wait_state.open = 0;
    }
}

/* Runs loop until pred(arg) is true or ms pass; returns pred(arg). */
static inline int loop_run_while_not(uv_loop_t *loop, int (*pred)(void *), void *arg, uint64_t ms)
{
    loop_wait_state.over = 0;
    loop_wait_state.pred = pred;
    loop_wait_state.arg = arg;
    uv_timer_init(loop, &loop_wait_state.timer);
    uv_prepare_init(loop, &loop_wait_state.prepare);
    loop_wait_state.open = 1;
    uv_timer_start(&loop_wait_state.timer, loop_wait_expired, ms, 0);
    uv_prepare_start(&loop_wait_state.prepare, loop_wait_check);
    while (!pred(arg) && !loop_wait_state.over)
        uv_run(loop, UV_RUN_ONCE);
    loop_wait_abort();
    uv_run(loop, UV_RUN_NOWAIT);
    return pred(arg);
}

static int loop_wait_flag_set(void *arg)
{
    return *(volatile int *) arg != 0;
}

/* Runs loop until *flag becomes non-zero or ms pass; returns *flag. */
static inline int loop_run_until(uv_loop_t *loop, volatile int *flag, uint64_t ms)
{
    loop_run_while_not(loop, loop_wait_flag_set, (void *) flag, ms);
    return *flag;
}

/* Runs loop for ms. */
static inline void loop_run_for(uv_loop_t *loop, uint64_t ms)
{
    int never = 0;
    loop_run_until(loop, &never, ms);
}

#endif
