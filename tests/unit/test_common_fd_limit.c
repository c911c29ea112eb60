/* Unit tests of common/fd_limit.c: a host started under a low soft limit
 * raises it to the hard limit and can then hold more descriptors than it
 * was started with; the processes it spawns (transport/child.c, or any pid
 * given back) get the limit it was started with; a host already at its hard
 * limit changes nothing, for itself or for its children. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/fd_limit.h"
#include "support/sh_line.h"
#include "support/sleeper.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOW 64

static uv_loop_t loop;

static struct rlimit now(void)
{
    struct rlimit l;
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &l), 0);
    return l;
}

/* The soft limit in /proc/PID/limits ("Max open files  SOFT  HARD  files"). */
static long soft_of(int pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/limits", pid);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    long soft = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "Max open files", 14) == 0)
            soft = strtol(line + 14, NULL, 10);
    fclose(f);
    return soft;
}

static void test_at_the_hard_limit_nothing_changes(void **state)
{
    (void) state;
    struct rlimit l = now();
    if (l.rlim_max == RLIM_INFINITY || l.rlim_max < 2 * LOW)
        skip();
    struct rlimit top = {l.rlim_max, l.rlim_max};
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &top), 0);
    assert_int_equal(fd_limit_raise(), (unsigned long) l.rlim_max);
    int pid = sleeper();
    struct rlimit other = {LOW, l.rlim_max};
    assert_int_equal(prlimit(pid, RLIMIT_NOFILE, &other, NULL), 0);
    fd_limit_give_back(pid); /* nothing was raised: nothing to give back */
    assert_int_equal(soft_of(pid), LOW);
    reap(pid);
}

static void test_raised_then_given_back(void **state)
{
    (void) state;
    struct rlimit l = now();
    if (l.rlim_max == RLIM_INFINITY || l.rlim_max < 2 * LOW)
        skip();
    struct rlimit low = {LOW, l.rlim_max};
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
    assert_int_equal(fd_limit_raise(), (unsigned long) l.rlim_max);
    assert_int_equal(now().rlim_cur, l.rlim_max);
    /* more descriptors than the limit it was started with */
    int fds[2 * LOW];
    for (int i = 0; i < 2 * LOW; i++) {
        fds[i] = dup(0);
        assert_true(fds[i] >= 0);
    }
    for (int i = 0; i < 2 * LOW; i++)
        close(fds[i]);
    int pid = sleeper();
    assert_int_equal(soft_of(pid), (long) l.rlim_max); /* a fork inherits the raised one */
    fd_limit_give_back(pid);
    assert_int_equal(soft_of(pid), LOW);
    reap(pid);
}

/* --- a process spawned by transport/child.c ------------------------------------------------ */

static void test_spawned_server_gets_the_started_limit(void **state)
{
    (void) state;
    struct rlimit l = now();
    if (l.rlim_max == RLIM_INFINITY || l.rlim_max < 2 * LOW)
        skip();
    assert_int_equal(now().rlim_cur, l.rlim_max); /* raised by the test before */
    /* it reads its limit only once told to: after the spawn returned */
    assert_int_equal(uv_loop_init(&loop), 0);
    const char *line =
        sh_first_line(&loop, "read go; grep 'Max open files' /proc/self/limits", "go\n");
    long soft = 0;
    assert_int_equal(sscanf(line, "Max open files %ld", &soft), 1);
    assert_int_equal(soft, LOW);
    assert_int_equal(uv_loop_close(&loop), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_at_the_hard_limit_nothing_changes),
        cmocka_unit_test(test_raised_then_given_back),
        cmocka_unit_test(test_spawned_server_gets_the_started_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
