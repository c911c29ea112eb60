/* Unit tests for sandbox/zone.c and its use by sandbox/limits.c: blocks of
 * the template zone are aligned, reused by size class, and, once a worker
 * froze the zone, never written again (frees are dropped, reallocs move to
 * malloc), while a heap built in the zone keeps working after the freeze. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/buf.h"
#include "sandbox/engine.h"
#include "sandbox/limits.h"
#include "sandbox/zone.h"

#include <stdlib.h>
#include <string.h>

static void test_classes_and_reuse(void **state)
{
    (void) state;
    assert_int_equal(sandbox_zone_active(), 1);
    assert_int_equal(sandbox_zone_usable(1), 16);
    assert_int_equal(sandbox_zone_usable(17), 32);
    assert_int_equal(sandbox_zone_usable(512), 512);
    assert_int_equal(sandbox_zone_usable(513), 640);
    assert_int_equal(sandbox_zone_usable(1024), 1024);
    assert_int_equal(sandbox_zone_usable(1025), 1280);
    assert_int_equal(sandbox_zone_usable(32768), 32768);
    assert_int_equal(sandbox_zone_usable(32769), 36864);
    size_t sizes[] = {1, 24, 100, 600, 5000, 40000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *a = sandbox_zone_alloc(sizes[i]);
        assert_non_null(a);
        assert_int_equal((uintptr_t) a % 16, 0);
        assert_true(sandbox_zone_owns(a));
        memset(a, 0x5a, sizes[i]);
        sandbox_zone_free(a, sizes[i]);
        assert_ptr_equal(sandbox_zone_alloc(sizes[i]), a); /* same class: reused */
    }
    void *m = malloc(16);
    assert_false(sandbox_zone_owns(m));
    free(m);
}

static void test_limits_allocate_in_the_zone(void **state)
{
    (void) state;
    struct sandbox_limits l;
    sandbox_limits_init(&l, 0);
    char *p = sandbox_limits_alloc(&l, 100);
    assert_true(sandbox_zone_owns(p));
    assert_int_equal(l.mem_used, 100);
    char *q = sandbox_limits_realloc(&l, p, 104); /* same class: in place */
    assert_ptr_equal(q, p);
    q = sandbox_limits_realloc(&l, q, 3000);
    assert_true(sandbox_zone_owns(q));
    assert_int_equal(l.mem_used, 3000);
    sandbox_limits_free(&l, q);
    assert_int_equal(l.mem_used, 0);
}

/* Runs last: the freeze is for the rest of the process, as in a worker. */
static void test_frozen_zone_is_never_written(void **state)
{
    (void) state;
    struct sandbox_limits l;
    sandbox_limits_init(&l, 0);
    char *old = sandbox_limits_alloc(&l, 200);
    memset(old, 'z', 200);
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(NULL, &err); /* built in the zone */
    assert_non_null(e);
    sandbox_zone_freeze();
    assert_int_equal(sandbox_zone_active(), 0);
    assert_null(sandbox_zone_alloc(16));
    char *fresh = sandbox_limits_alloc(&l, 50);
    assert_false(sandbox_zone_owns(fresh));
    char *moved = sandbox_limits_realloc(&l, old, 400);
    assert_false(sandbox_zone_owns(moved));
    assert_memory_equal(moved, "zzzz", 4);
    for (int i = 0; i < 200; i++)
        assert_int_equal(old[i], 'z'); /* the zone block was left as it was */
    sandbox_limits_free(&l, moved);
    sandbox_limits_free(&l, fresh);
    assert_int_equal(l.mem_used, 0);

    struct sandbox_run_limits rl = {5000, 64u << 20, 16};
    const char *code = "let a = []; for (let i = 0; i < 20000; i++) a.push({i, s: 'x' + i});"
                       "return a.length + a[19999].i";
    sandbox_engine_start(e, code, strlen(code), NULL, &rl);
    assert_int_equal(sandbox_engine_state(e), SANDBOX_DONE);
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 1 << 20, &out);
    buf_append(&out, "", 1);
    assert_non_null(strstr(out.data, "\"value\":39999"));
    buf_free(&out);
    sandbox_engine_destroy(e); /* frees of zone blocks are dropped */
}

int main(void)
{
    if (sandbox_zone_enable() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_and_reuse),
        cmocka_unit_test(test_limits_allocate_in_the_zone),
        cmocka_unit_test(test_frozen_zone_is_never_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
