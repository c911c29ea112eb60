/* Unit tests of common/next_turn.c: nothing runs inside the call that
 * queues it; items run on the next turn in the order they were queued; an
 * item queued by one that runs waits for the turn after; a cancelled item
 * never runs; the loop closes cleanly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/next_turn.h"

#include <string.h>

static uv_loop_t loop;
static struct next_turn q;
static char order[16];
static size_t ran;

struct item {
    struct next_turn_item it; /* first member */
    char name;
    struct item *then; /* queued when this one runs */
};

static void run(struct next_turn_item *it)
{
    struct item *i = (struct item *) it;
    order[ran++] = i->name;
    if (i->then)
        next_turn_push(&q, &i->then->it, run);
}

static void test_order_and_turns(void **state)
{
    (void) state;
    uv_loop_init(&loop);
    next_turn_init(&loop, &q);
    memset(order, 0, sizeof order);
    ran = 0;
    struct item c = {.name = 'c'}, d = {.name = 'd'};
    struct item a = {.name = 'a', .then = &c}, b = {.name = 'b'}, x = {.name = 'x'};
    next_turn_push(&q, &a.it, run);
    next_turn_push(&q, &x.it, run);
    next_turn_push(&q, &b.it, run);
    assert_int_equal(ran, 0); /* never inside the call */
    assert_true(next_turn_pending(&x.it));
    next_turn_cancel(&q, &x.it);
    assert_false(next_turn_pending(&x.it));
    next_turn_cancel(&q, &x.it); /* twice is nothing */
    uv_run(&loop, UV_RUN_NOWAIT);
    assert_string_equal(order, "ab"); /* c, queued by a, waits for the next turn */
    next_turn_push(&q, &d.it, run);
    uv_run(&loop, UV_RUN_NOWAIT);
    assert_string_equal(order, "abcd");
    assert_null(next_turn_first(&q));
    assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0); /* nothing keeps the loop alive */
    next_turn_close(&q, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&loop), 0);
}

static void test_first_and_drop(void **state)
{
    (void) state;
    uv_loop_init(&loop);
    next_turn_init(&loop, &q);
    ran = 0;
    struct item a = {.name = 'a'}, b = {.name = 'b'};
    next_turn_push(&q, &a.it, run);
    next_turn_push(&q, &b.it, run);
    assert_ptr_equal(next_turn_first(&q), &a.it);
    struct next_turn_item *it;
    while ((it = next_turn_first(&q)) != NULL)
        next_turn_cancel(&q, it);
    next_turn_close(&q, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(ran, 0);
    assert_int_equal(uv_loop_close(&loop), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_turns),
        cmocka_unit_test(test_first_and_drop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
