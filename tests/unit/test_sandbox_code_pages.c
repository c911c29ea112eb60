/* Unit tests for sandbox/code_pages.c: release drops the page-table entries
 * of code (seen through /proc/self/pagemap's present bit on a probe region
 * of this executable's code that nothing executes), and the code still runs
 * after it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "pagemap.h"
#include "sandbox/code_pages.h"

/* 192 KB of never-executed code, 64 KB aligned: the middle 64 KB window is
 * mapped only by touching it (the kernel maps code around a fault within
 * an aligned 64 KB window at most). */
__asm__(".text\n.p2align 16\n.globl code_pages_probe\ncode_pages_probe:\n.skip 196608, 0xcc\n"
        ".previous\n");
extern const char code_pages_probe[];

#define PROBE (code_pages_probe + 65536 + 8192)

/* 1 when the page holding addr is mapped in this process, else 0. */
static int present(const void *addr)
{
    return (pagemap_entry(addr) & PAGEMAP_PRESENT) != 0;
}

static void touch(const char *p)
{
    volatile char c = *(const volatile char *) p;
    (void) c;
}

static void test_release_unmaps_and_code_still_runs(void **state)
{
    (void) state;
    touch(PROBE);
    assert_int_equal(present(PROBE), 1);
    sandbox_code_pages_release();
    assert_int_equal(present(PROBE), 0);
    touch(PROBE); /* the check can see a mapped page: */
    assert_int_equal(present(PROBE), 1);
    sandbox_code_pages_release();
    assert_int_equal(present(PROBE), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_release_unmaps_and_code_still_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
