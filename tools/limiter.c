/* Per-server call limits (see limiter.h): a counter of calls in flight, the
 * time the next call may start (rate), a FIFO of waiting calls, and a timer
 * that wakes the queue when the rate allows the next one. */
#include "tools/limiter.h"
#include "common/alloc.h"

#include <stdlib.h>

struct tools_limiter_wait {
    void (*go)(void *ud);
    void *ud;
    struct tools_limiter_wait *next;
};

struct tools_limiter {
    uv_timer_t *timer; /* allocated: it outlives the limiter until closed */
    unsigned max, inflight;
    uint64_t interval_us, next_us; /* rate: spacing, and when the next call may start */
    struct tools_limiter_wait *head, *tail;
    int pumping;
};

static uint64_t now_us(void)
{
    return uv_hrtime() / 1000;
}

struct tools_limiter *tools_limiter_new(uv_loop_t *loop, unsigned max_concurrent, double per_second)
{
    if (max_concurrent == 0 && per_second <= 0)
        return NULL;
    struct tools_limiter *l = xcalloc(1, sizeof *l);
    l->max = max_concurrent;
    l->interval_us = per_second > 0 ? (uint64_t) (1e6 / per_second) : 0;
    l->timer = xcalloc(1, sizeof *l->timer);
    uv_timer_init(loop, l->timer);
    l->timer->data = l;
    return l;
}

static void timer_closed(uv_handle_t *h)
{
    free(h);
}

void tools_limiter_free(struct tools_limiter *l)
{
    if (l == NULL)
        return;
    while (l->head) {
        struct tools_limiter_wait *w = l->head;
        l->head = w->next;
        free(w);
    }
    uv_close((uv_handle_t *) l->timer, timer_closed);
    free(l);
}

/* 0 when a call may start now; else the microseconds until the rate allows it
 * (UINT64_MAX: no slot free until a call ends). */
static uint64_t wait_us(const struct tools_limiter *l)
{
    if (l->max && l->inflight >= l->max)
        return UINT64_MAX;
    uint64_t now = now_us();
    return l->interval_us && now < l->next_us ? l->next_us - now : 0;
}

static void take(struct tools_limiter *l)
{
    l->inflight++;
    if (l->interval_us) {
        uint64_t now = now_us();
        l->next_us = (l->next_us > now ? l->next_us : now) + l->interval_us;
    }
}

static void on_timer(uv_timer_t *t);

/* Starts waiting calls while they may start; arms the timer for the rate. */
static void pump(struct tools_limiter *l)
{
    if (l->pumping)
        return; /* a go() below released a slot: the loop here goes on */
    l->pumping = 1;
    while (l->head) {
        uint64_t us = wait_us(l);
        if (us == UINT64_MAX)
            break;
        if (us > 0) {
            uv_timer_start(l->timer, on_timer, (us + 999) / 1000, 0);
            break;
        }
        struct tools_limiter_wait *w = l->head;
        l->head = w->next;
        if (l->head == NULL)
            l->tail = NULL;
        take(l);
        void (*go)(void *) = w->go;
        void *ud = w->ud;
        free(w);
        go(ud);
    }
    l->pumping = 0;
}

static void on_timer(uv_timer_t *t)
{
    pump(t->data);
}

struct tools_limiter_wait *tools_limiter_acquire(struct tools_limiter *l, void (*go)(void *ud),
                                                 void *ud)
{
    if (l->head == NULL && wait_us(l) == 0) {
        take(l);
        go(ud);
        return NULL;
    }
    struct tools_limiter_wait *w = xcalloc(1, sizeof *w);
    w->go = go;
    w->ud = ud;
    if (l->tail)
        l->tail->next = w;
    else
        l->head = w;
    l->tail = w;
    uint64_t us = wait_us(l); /* > 0 here: only the rate timer may need arming */
    if (us != UINT64_MAX && !uv_is_active((uv_handle_t *) l->timer))
        uv_timer_start(l->timer, on_timer, (us + 999) / 1000, 0);
    return w;
}

void tools_limiter_cancel(struct tools_limiter *l, struct tools_limiter_wait *w)
{
    struct tools_limiter_wait **pp = &l->head, *prev = NULL;
    while (*pp && *pp != w) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (*pp == NULL)
        return;
    *pp = w->next;
    if (l->tail == w)
        l->tail = prev;
    free(w);
}

void tools_limiter_release(struct tools_limiter *l)
{
    if (l->inflight > 0)
        l->inflight--;
    /* The next waiting call starts from the loop, not inside the caller: a
     * release often happens while a program's calls are being cancelled,
     * and its other queued calls must go away before any of them is sent. */
    if (l->head)
        uv_timer_start(l->timer, on_timer, 0, 0);
}
