/* Calls made on the next turn of a libuv loop. An operation that has its
 * answer at once (a refusal, an error, a value known without waiting) still
 * never calls back inside the call that started it: it queues the answer
 * here, and its caller hears of it once that call has returned, as with
 * every other answer (libuv's rule; docs/architecture.md). An owner keeps
 * one queue; each pending answer is an item of its own, which the owner
 * cancels when the operation is cancelled first. */
#ifndef COMMON_NEXT_TURN_H
#define COMMON_NEXT_TURN_H

#include <uv.h>

struct next_turn_item {
    struct next_turn_item *prev, *next; /* NULL while not queued */
    void (*run)(struct next_turn_item *it);
    unsigned turn; /* the turn it was queued in */
};

struct next_turn {
    uv_idle_t idle;
    struct next_turn_item head; /* the queue, oldest first (circular) */
    unsigned turn;
};

/* Initialises q on loop (its handle stays inactive while q is empty). */
void next_turn_init(uv_loop_t *loop, struct next_turn *q);

/* Queues it: run(it) is called on the loop's next turn, after every item
 * queued before it, unless it is cancelled first. Items queued while the
 * queue runs wait for the turn after. */
void next_turn_push(struct next_turn *q, struct next_turn_item *it,
                    void (*run)(struct next_turn_item *it));

/* 1 when it is queued and has not run. */
int next_turn_pending(const struct next_turn_item *it);

/* Takes it out of its queue (nothing when it is not queued); run is not called. */
void next_turn_cancel(struct next_turn *q, struct next_turn_item *it);

/* The oldest item still queued, or NULL: for an owner that drops what is
 * left before it closes (cancel each, then free it). */
struct next_turn_item *next_turn_first(struct next_turn *q);

/* Closes q's handle (uv_close; cb may be NULL; q's memory must live until
 * cb). Cancel or run what is queued first: nothing queued runs after this. */
void next_turn_close(struct next_turn *q, uv_close_cb cb);

#endif
