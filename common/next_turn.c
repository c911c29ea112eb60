/* The next-turn queue (next_turn.h): an idle handle, active only while
 * something is queued, runs the items queued before the turn began. */
#include "common/next_turn.h"

#include <stddef.h>

static void run_queue(uv_idle_t *h)
{
    struct next_turn *q = h->data;
    unsigned now = q->turn++;
    /* in order; an item queued by one that runs has the next turn's number */
    while (q->head.next != &q->head && (int) (q->head.next->turn - now) <= 0) {
        struct next_turn_item *it = q->head.next;
        next_turn_cancel(q, it);
        it->run(it);
    }
    if (q->head.next == &q->head)
        uv_idle_stop(&q->idle);
}

void next_turn_init(uv_loop_t *loop, struct next_turn *q)
{
    uv_idle_init(loop, &q->idle);
    q->idle.data = q;
    q->head.prev = q->head.next = &q->head;
    q->turn = 0;
}

void next_turn_push(struct next_turn *q, struct next_turn_item *it,
                    void (*run)(struct next_turn_item *it))
{
    it->run = run;
    it->turn = q->turn;
    it->next = &q->head;
    it->prev = q->head.prev;
    q->head.prev->next = it;
    q->head.prev = it;
    uv_idle_start(&q->idle, run_queue);
}

int next_turn_pending(const struct next_turn_item *it)
{
    return it->next != NULL;
}

void next_turn_cancel(struct next_turn *q, struct next_turn_item *it)
{
    (void) q;
    if (it->next == NULL)
        return;
    it->prev->next = it->next;
    it->next->prev = it->prev;
    it->prev = it->next = NULL;
}

struct next_turn_item *next_turn_first(struct next_turn *q)
{
    return q->head.next == &q->head ? NULL : q->head.next;
}

void next_turn_close(struct next_turn *q, uv_close_cb cb)
{
    uv_close((uv_handle_t *) &q->idle, cb);
}
