/* Unit tests for sandbox/worker/arena.c and its use by sandbox/worker/limits.c: blocks are
 * aligned and reused by size class, the chunks stay within the budget (then
 * the arena says no and limits falls back to malloc), release empties it,
 * and through the capped allocator every alloc, realloc (within a class,
 * across classes, from the arena to malloc and back) and free keeps the
 * contents and the byte count right, with the cap still enforced. A whole
 * Duktape heap on this allocator runs a program that makes garbage, and a
 * released chunk serves the next heap of the thread. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/buf.h"
#include "sandbox/worker/arena.h"
#include "sandbox/worker/engine.h"
#include "sandbox/worker/limits.h"
#include "support/engine_run.h"

#include <stdlib.h>
#include <string.h>

static void test_classes_and_reuse(void **state)
{
    (void) state;
    struct sandbox_arena a = {0};
    assert_int_equal(sandbox_arena_usable(1), 16);
    assert_int_equal(sandbox_arena_usable(16), 16);
    assert_int_equal(sandbox_arena_usable(17), 32);
    assert_int_equal(sandbox_arena_usable(ARENA_MAX), ARENA_MAX);
    assert_null(sandbox_arena_alloc(&a, ARENA_MAX + 1));
    size_t sizes[] = {1, 16, 24, 100, 500, ARENA_MAX};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *p = sandbox_arena_alloc(&a, sizes[i]);
        assert_non_null(p);
        assert_int_equal((uintptr_t) p % 16, 0);
        memset(p, 0x5a, sizes[i]);
        char *q = sandbox_arena_alloc(&a, sizes[i]);
        assert_true(q >= p + sandbox_arena_usable(sizes[i]) || q + sandbox_arena_usable(sizes[i]) <= p);
        sandbox_arena_free(&a, p, sizes[i]);
        /* any size of the same class gets the freed block back */
        assert_ptr_equal(sandbox_arena_alloc(&a, sandbox_arena_usable(sizes[i])), p);
        sandbox_arena_free(&a, q, sizes[i]);
    }
    sandbox_arena_release(&a);
    assert_null(a.chunks);
    assert_int_equal(a.chunk_bytes, 0);
}

static void test_budget_and_release(void **state)
{
    (void) state;
    struct sandbox_arena a = {0};
    size_t n = 0;
    while (sandbox_arena_alloc(&a, ARENA_MAX) != NULL)
        n++;
    assert_true(a.chunk_bytes <= ARENA_BUDGET);
    assert_true(a.chunk_bytes > ARENA_BUDGET / 2); /* it did use the budget */
    assert_true(n * ARENA_MAX > ARENA_BUDGET / 2);
    /* what is left of the last chunk is still handed out, then nothing */
    int tail = 0;
    void *last = NULL, *p;
    while ((p = sandbox_arena_alloc(&a, 16)) != NULL && tail <= (int) (ARENA_MAX / 16)) {
        last = p;
        tail++;
    }
    assert_null(p);
    assert_true(tail < (int) (ARENA_MAX / 16));
    /* the budget is spent for new blocks, but freed ones are still reused */
    if (last) {
        sandbox_arena_free(&a, last, 16);
        assert_ptr_equal(sandbox_arena_alloc(&a, 16), last);
    }
    sandbox_arena_release(&a);
    assert_int_equal(a.chunk_bytes, 0);
    assert_non_null(sandbox_arena_alloc(&a, 16)); /* usable again */
    sandbox_arena_release(&a);
}

static void test_released_chunks_are_reused(void **state)
{
    (void) state;
    struct sandbox_arena a = {0}, b = {0};
    char *p = sandbox_arena_alloc(&a, 64);
    assert_non_null(p);
    sandbox_arena_release(&a);
    /* the next heap of this thread starts in the chunk the last one left */
    char *q = sandbox_arena_alloc(&b, 64);
    assert_ptr_equal(q, p);
    sandbox_arena_release(&b);
}

static void fill(char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (char) (seed + i * 7);
}

static int same(const char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (char) (seed + i * 7))
            return 0;
    return 1;
}

static void test_limits_realloc_paths(void **state)
{
    (void) state;
    struct sandbox_limits l;
    sandbox_limits_init(&l, 1 << 20);
    char *p = sandbox_limits_alloc(&l, 40);
    assert_non_null(p);
    assert_int_equal((uintptr_t) p % 16, 0);
    fill(p, 40, 1);
    char *q = sandbox_limits_realloc(&l, p, 44); /* grows within its class */
    assert_true(same(q, 40, 1));
    assert_int_equal(l.mem_used, 44);
    fill(q, 44, 2);
    q = sandbox_limits_realloc(&l, q, 600); /* another class */
    assert_true(same(q, 44, 2));
    fill(q, 600, 3);
    q = sandbox_limits_realloc(&l, q, 5000); /* past the arena's largest: malloc */
    assert_true(same(q, 600, 3));
    fill(q, 5000, 4);
    q = sandbox_limits_realloc(&l, q, 20); /* shrinks (stays in malloc) */
    assert_true(same(q, 20, 4));
    assert_int_equal(l.mem_used, 20);
    char *r = sandbox_limits_alloc(&l, 3000);
    fill(r, 3000, 5);
    sandbox_limits_free(&l, q);
    r = sandbox_limits_realloc(&l, r, 200);
    assert_true(same(r, 200, 5));
    assert_int_equal(l.mem_used, 200);
    sandbox_limits_free(&l, r);
    assert_int_equal(l.mem_used, 0);
    assert_int_equal(l.mem_peak, 5000);
    /* the cap still holds, for new blocks and for growth */
    assert_null(sandbox_limits_alloc(&l, (1 << 20) + 1));
    assert_int_equal(l.alloc_failed, 1);
    char *s = sandbox_limits_alloc(&l, 64);
    assert_null(sandbox_limits_realloc(&l, s, (1 << 20) + 1));
    assert_non_null(s);
    sandbox_limits_free(&l, s);
    sandbox_limits_release(&l);
}

static void test_many_blocks_through_limits(void **state)
{
    (void) state;
    struct sandbox_limits l;
    sandbox_limits_init(&l, 0);
    enum { N = 20000 };
    char **v = calloc(N, sizeof *v);
    for (unsigned i = 0; i < N; i++) {
        size_t n = 1 + (i * 37u) % 900;
        v[i] = sandbox_limits_alloc(&l, n);
        assert_non_null(v[i]);
        fill(v[i], n, i);
    }
    for (unsigned i = 0; i < N; i += 2) { /* free half, then reuse their space */
        sandbox_limits_free(&l, v[i]);
        v[i] = NULL;
    }
    for (unsigned i = 0; i < N; i += 2) {
        size_t n = 1 + (i * 37u) % 900;
        v[i] = sandbox_limits_alloc(&l, n);
        fill(v[i], n, i);
    }
    for (unsigned i = 0; i < N; i++) {
        size_t n = 1 + (i * 37u) % 900;
        assert_true(same(v[i], n, i));
        sandbox_limits_free(&l, v[i]);
    }
    assert_int_equal(l.mem_used, 0);
    free(v);
    sandbox_limits_release(&l);
}

static void test_engine_on_the_arena(void **state)
{
    (void) state;
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(NULL, &err);
    assert_non_null(e);
    const char *code = "let keep = [];\n"
                       "for (let i = 0; i < 20000; i++) {\n"
                       "  const o = { i, s: 'k' + i, a: [i, i + 1] };\n"
                       "  if (i % 100 === 0) keep.push(o);\n"
                       "}\n"
                       "return keep.reduce((n, o) => n + o.a[1], 0);";
    char *out = engine_run(e, code);
    assert_non_null(strstr(out, "1990200"));
    assert_true(sandbox_engine_mem_peak(e) > 0);
    free(out);
    sandbox_engine_destroy(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_and_reuse),
        cmocka_unit_test(test_budget_and_release),
        cmocka_unit_test(test_released_chunks_are_reused),
        cmocka_unit_test(test_limits_realloc_paths),
        cmocka_unit_test(test_many_blocks_through_limits),
        cmocka_unit_test(test_engine_on_the_arena),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
