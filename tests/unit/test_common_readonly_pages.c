/* Unit tests for common/readonly_pages.c: release drops the page-table
 * entries of code and of constant data (seen through /proc/self/pagemap's
 * present bit on probe regions of this executable that nothing uses), both
 * still read right after it, and writable data keeps what was written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/pagemap.h"
#include "common/readonly_pages.h"

/* 192 KB of never-executed code and of constant data, each 64 KB aligned:
 * the middle 64 KB window is mapped only by touching it (the kernel maps
 * file pages around a fault within an aligned 64 KB window at most). */
__asm__(".text\n.p2align 16\n.globl code_probe\ncode_probe:\n.skip 196608, 0xcc\n.previous\n");
__asm__(".section .rodata\n.p2align 16\n.globl data_probe\ndata_probe:\n.skip 196608, 0x5a\n"
        ".previous\n");
extern const char code_probe[];
extern const char data_probe[];

#define CODE_PROBE (code_probe + 65536 + 8192)
#define DATA_PROBE (data_probe + 65536 + 8192)

/* Writable data, written before the release: a page the process owns. */
static char written[3 * 4096];

/* 1 when the page holding addr is mapped in this process, else 0. */
static int present(const void *addr)
{
    return (pagemap_entry(addr) & PAGEMAP_PRESENT) != 0;
}

static char touch(const char *p)
{
    return *(const volatile char *) p;
}

static void test_release_unmaps_and_code_still_runs(void **state)
{
    (void) state;
    touch(CODE_PROBE);
    assert_int_equal(present(CODE_PROBE), 1);
    readonly_pages_release();
    assert_int_equal(present(CODE_PROBE), 0);
    touch(CODE_PROBE); /* the check can see a mapped page: */
    assert_int_equal(present(CODE_PROBE), 1);
    readonly_pages_release();
    assert_int_equal(present(CODE_PROBE), 0);
}

static void test_constant_data_is_released_and_reads_the_same(void **state)
{
    (void) state;
    assert_int_equal(touch(DATA_PROBE), 0x5a);
    assert_int_equal(present(DATA_PROBE), 1);
    readonly_pages_release();
    assert_int_equal(present(DATA_PROBE), 0);
    assert_int_equal(touch(DATA_PROBE), 0x5a);
    assert_int_equal(present(DATA_PROBE), 1);
}

static void test_writable_data_is_kept(void **state)
{
    (void) state;
    char *page = written + 4096;
    for (int i = 0; i < 4096; i++)
        page[i] = (char) (i * 7 + 1);
    readonly_pages_release();
    assert_int_equal(present(page), 1);
    for (int i = 0; i < 4096; i++)
        assert_int_equal(page[i], (char) (i * 7 + 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_release_unmaps_and_code_still_runs),
        cmocka_unit_test(test_constant_data_is_released_and_reads_the_same),
        cmocka_unit_test(test_writable_data_is_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
