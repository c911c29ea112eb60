/* Unit tests of tools/limiter.c: no limits gives no limiter; a concurrency
 * limit runs calls at once up to N, queues the rest in order and starts one
 * per release; cancelling a queued call skips it; a rate spaces starts
 * through the loop's timer; freeing with calls queued drops them and the
 * loop closes cleanly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/limiter.h"
#include "support/loop_wait.h"

#include <string.h>

struct rec {
    int order[16];
    uint64_t at[16];
    int n;
};

struct call {
    struct rec *rec;
    int id;
};

static void go(void *ud)
{
    struct call *c = ud;
    c->rec->at[c->rec->n] = uv_hrtime() / 1000000;
    c->rec->order[c->rec->n++] = c->id;
}

static void test_no_limits(void **state)
{
    (void) state;
    uv_loop_t loop;
    uv_loop_init(&loop);
    assert_null(tools_limiter_new(&loop, 0, 0));
    assert_int_equal(uv_loop_close(&loop), 0);
}

static void test_concurrency(void **state)
{
    (void) state;
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools_limiter *l = tools_limiter_new(&loop, 2, 0);
    struct rec rec;
    memset(&rec, 0, sizeof rec);
    struct call calls[5];
    struct tools_limiter_wait *w[5];
    for (int i = 0; i < 5; i++) {
        calls[i] = (struct call){&rec, i};
        w[i] = tools_limiter_acquire(l, go, &calls[i]);
    }
    assert_null(w[0]); /* ran at once */
    assert_null(w[1]);
    assert_non_null(w[2]); /* queued */
    assert_int_equal(rec.n, 2);
    tools_limiter_cancel(l, w[3]); /* 3 never goes */
    tools_limiter_release(l);      /* 2 goes, from the loop (never inside the release) */
    assert_int_equal(rec.n, 2);
    uv_run(&loop, UV_RUN_NOWAIT);
    assert_int_equal(rec.n, 3);
    assert_int_equal(rec.order[2], 2);
    tools_limiter_release(l); /* 4 goes (3 was cancelled) */
    uv_run(&loop, UV_RUN_NOWAIT);
    assert_int_equal(rec.n, 4);
    assert_int_equal(rec.order[3], 4);
    tools_limiter_release(l);
    tools_limiter_release(l);
    tools_limiter_release(l); /* more releases than calls: harmless */
    uv_run(&loop, UV_RUN_NOWAIT);
    assert_int_equal(rec.n, 4);
    tools_limiter_free(l);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&loop), 0);
}

static int five(void *arg)
{
    return ((struct rec *) arg)->n >= 5;
}

static void test_rate(void **state)
{
    (void) state;
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools_limiter *l = tools_limiter_new(&loop, 0, 50); /* one every 20 ms */
    struct rec rec;
    memset(&rec, 0, sizeof rec);
    struct call calls[5];
    for (int i = 0; i < 5; i++) {
        calls[i] = (struct call){&rec, i};
        if (tools_limiter_acquire(l, go, &calls[i]) == NULL)
            tools_limiter_release(l); /* the call "ends" at once: only the rate holds */
    }
    assert_int_equal(rec.n, 1);
    assert_true(loop_run_while_not(&loop, five, &rec, 2000));
    for (int i = 0; i < 5; i++)
        assert_int_equal(rec.order[i], i);
    for (int i = 1; i < 5; i++)
        assert_true(rec.at[i] - rec.at[i - 1] >= 18); /* 20 ms, less the clock's rounding */
    assert_true(rec.at[4] - rec.at[0] >= 78);
    tools_limiter_free(l);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&loop), 0);
}

static void test_free_with_queue(void **state)
{
    (void) state;
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools_limiter *l = tools_limiter_new(&loop, 1, 1);
    struct rec rec;
    memset(&rec, 0, sizeof rec);
    struct call calls[3];
    for (int i = 0; i < 3; i++) {
        calls[i] = (struct call){&rec, i};
        tools_limiter_acquire(l, go, &calls[i]);
    }
    assert_int_equal(rec.n, 1);
    tools_limiter_free(l); /* the two waiting are dropped, never run */
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(rec.n, 1);
    assert_int_equal(uv_loop_close(&loop), 0);
}

static int teardown(void **state)
{
    (void) state;
    loop_wait_abort();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_limits),
        cmocka_unit_test(test_concurrency),
        cmocka_unit_test_teardown(test_rate, teardown),
        cmocka_unit_test(test_free_with_queue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
