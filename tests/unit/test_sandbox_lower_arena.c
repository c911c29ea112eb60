/* Unit tests of the lowering pass's arena (sandbox/lower/arena.c): every
 * allocation is zeroed and disjoint from the others, in the malloc'd chunks and
 * in the mapped ones past 1 MB (which skip the memset on fresh memory), also
 * after a release to a mark hands the same memory out again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sandbox/lower/internal.h"

enum { NALLOC = 6000 };

struct block {
    unsigned char *p;
    size_t n;
};

/* Sizes from 1 byte to ~6 KB, with now and then one larger than a chunk. */
static size_t size_of(int i)
{
    if (i % 997 == 0)
        return (size_t)3 << 20;
    return (size_t)(i * 7919 % 6000) + 1;
}

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

/* Allocates blocks [from, to), checks each is zero, then fills it with its index. */
static void alloc_and_fill(struct arena *a, struct block *b, int from, int to)
{
    for (int i = from; i < to; i++) {
        b[i].n = size_of(i);
        b[i].p = lower__arena_alloc(a, b[i].n);
        assert_non_null(b[i].p);
        assert_true(all_zero(b[i].p, b[i].n));
        assert_int_equal((uintptr_t)b[i].p % 8, 0);
        memset(b[i].p, (i % 251) + 1, b[i].n);
    }
}

static void check_filled(const struct block *b, int from, int to)
{
    for (int i = from; i < to; i++)
        for (size_t k = 0; k < b[i].n; k += 61)
            assert_int_equal(b[i].p[k], (i % 251) + 1);
}

static void test_blocks_are_zero_and_disjoint(void **state)
{
    (void)state;
    struct arena a = {0};
    struct block *b = calloc(NALLOC, sizeof *b);
    alloc_and_fill(&a, b, 0, NALLOC);
    check_filled(b, 0, NALLOC);
    assert_true(a.total > ((size_t)16 << 20)); /* well into the mapped chunks */
    assert_int_equal(a.failed, 0);
    lower__arena_free(&a);
    free(b);
}

static void test_release_gives_zeroed_memory_again(void **state)
{
    (void)state;
    struct arena a = {0};
    struct block *b = calloc(NALLOC, sizeof *b);
    alloc_and_fill(&a, b, 0, 3000); /* past the malloc'd chunks */
    struct arena_mark m = lower__arena_mark(&a);
    alloc_and_fill(&a, b, 3000, 3400);
    lower__arena_release(&a, m);
    alloc_and_fill(&a, b, 3400, 3800); /* the released (dirty) bytes, zeroed again */
    check_filled(b, 0, 3000);
    check_filled(b, 3400, 3800);
    lower__arena_free(&a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_are_zero_and_disjoint),
        cmocka_unit_test(test_release_gives_zeroed_memory_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
