/* Unit tests for sandbox/worker/warm_pages.c: from a child that wrote two pages of
 * a region shared with its parent, the parent learns exactly those pages,
 * and a later child that calls touch owns exactly those pages of the
 * region (the exclusive bit of /proc/self/pagemap) while the others stay
 * shared and every byte is unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/pagemap.h"
#include "sandbox/worker/warm_pages.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGES 4

static long page_size(void)
{
    return sysconf(_SC_PAGESIZE);
}

/* 1 when the page at p is present and mapped by this process alone. */
static int exclusive(const char *p)
{
    uint64_t both = PAGEMAP_PRESENT | PAGEMAP_EXCLUSIVE;
    return (pagemap_entry(p) & both) == both;
}

static void test_learn_then_touch(void **state)
{
    (void) state;
    long ps = page_size();
    char *r = mmap(NULL, (size_t) (PAGES * ps), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    assert_true(r != MAP_FAILED);
    for (int i = 0; i < PAGES; i++)
        r[i * ps] = (char) (i + 1);

    /* The probe: writes pages 1 and 3, says so, waits to be killed. */
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t probe = fork();
    if (probe == 0) {
        r[1 * ps + 7] = 42;
        r[3 * ps + 9] = 43;
        if (write(go[1], "x", 1) != 1)
            _exit(1);
        pause();
        _exit(0);
    }
    char c;
    assert_int_equal(read(go[0], &c, 1), 1);
    assert_int_equal(sandbox_warm_pages_learn(probe, (uintptr_t) r, (size_t) (PAGES * ps)), 2);
    kill(probe, SIGKILL);
    waitpid(probe, NULL, 0);

    /* A worker: nothing of the region is its own until touch. */
    pid_t worker = fork();
    if (worker == 0) {
        int before = exclusive(r + 1 * ps) || exclusive(r + 3 * ps);
        sandbox_warm_pages_touch();
        int owned = exclusive(r + 1 * ps) && exclusive(r + 3 * ps);
        int shared = !exclusive(r) && !exclusive(r + 2 * ps);
        int intact = r[0] == 1 && r[ps] == 2 && r[2 * ps] == 3 && r[3 * ps] == 4 && r[ps + 7] == 0;
        _exit(before ? 2 : !owned ? 3 : !shared ? 4 : !intact ? 5 : 0);
    }
    int status = 0;
    assert_int_equal(waitpid(worker, &status, 0), worker);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    munmap(r, (size_t) (PAGES * ps));
    close(go[0]);
    close(go[1]);
}

static void test_unreadable_child(void **state)
{
    (void) state;
    char region[64];
    assert_int_equal(sandbox_warm_pages_learn(0x7ffffff0, (uintptr_t) region, sizeof region), -1);
    assert_int_equal(sandbox_warm_pages_count(), 0);
    sandbox_warm_pages_touch(); /* nothing recorded: does nothing */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_learn_then_touch),
        cmocka_unit_test(test_unreadable_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
