/* Unit tests of sandbox/prefault.c: a parent dirties a buffer and records its
 * resident writable pages; a forked child that applies the record can then
 * write the whole buffer without page faults, and one that does not cannot
 * (which shows the fault count measures what it should). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sandbox/prefault.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGES 64

static long minor_faults(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

/* Child: optionally applies the record, then writes every page; exits with
 * the number of faults that took (capped at 255). */
static void child(unsigned char *buf, size_t page, int apply)
{
    if (apply)
        sandbox_prefault_apply();
    long before = minor_faults();
    for (size_t i = 0; i < PAGES; i++)
        buf[i * page] = (unsigned char) (buf[i * page] + 1);
    long faults = minor_faults() - before;
    _exit(faults > 255 ? 255 : (int) faults);
}

static int faults_in_child(unsigned char *buf, size_t page, int apply)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        child(buf, page, apply);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static unsigned char *dirty_buffer(size_t page)
{
    unsigned char *buf =
        mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(buf != MAP_FAILED);
    memset(buf, 7, PAGES * page);
    return buf;
}

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static void test_record_counts_resident_pages(void **state)
{
    (void) state;
    if (SANITIZED)
        skip(); /* sanitizer builds do not prefault */
    size_t page = (size_t) sysconf(_SC_PAGESIZE);
    unsigned char *buf = dirty_buffer(page);
    assert_true(sandbox_prefault_record() >= PAGES);
    munmap(buf, PAGES * page);
}

static void test_child_without_prefault_faults(void **state)
{
    (void) state;
    size_t page = (size_t) sysconf(_SC_PAGESIZE);
    unsigned char *buf = dirty_buffer(page);
    sandbox_prefault_record();
    assert_true(faults_in_child(buf, page, 0) >= PAGES);
    munmap(buf, PAGES * page);
}

static void test_child_with_prefault_does_not_fault(void **state)
{
    (void) state;
    if (SANITIZED)
        skip();
    size_t page = (size_t) sysconf(_SC_PAGESIZE);
    unsigned char *buf = dirty_buffer(page);
    sandbox_prefault_record();
    assert_true(faults_in_child(buf, page, 1) < 4); /* a stray stack page at most */
    munmap(buf, PAGES * page);
}

/* A recorded range unmapped before the fork is skipped, not a crash. */
static void test_range_gone_is_skipped(void **state)
{
    (void) state;
    size_t page = (size_t) sysconf(_SC_PAGESIZE);
    unsigned char *buf = dirty_buffer(page);
    sandbox_prefault_record();
    munmap(buf, PAGES * page);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        sandbox_prefault_apply();
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_counts_resident_pages),
        cmocka_unit_test(test_child_without_prefault_faults),
        cmocka_unit_test(test_child_with_prefault_does_not_fault),
        cmocka_unit_test(test_range_gone_is_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
