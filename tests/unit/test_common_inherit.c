/* Unit tests of common/inherit.c: a descriptor opened without
 * close-on-exec (as libcurl's socket pairs are) is not inherited by a
 * stdio server the host starts (transport/child.c), and the host keeps it
 * open and usable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/inherit.h"
#include "support/sh_line.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static uv_loop_t loop;

static void test_spawned_server_inherits_nothing(void **state)
{
    (void) state;
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0); /* no SOCK_CLOEXEC */
    char script[160];
    snprintf(script, sizeof script,
             "if [ -e /proc/self/fd/%d ] || [ -e /proc/self/fd/%d ]; then echo leaked; "
             "else echo clean; fi",
             sv[0], sv[1]);
    assert_int_equal(uv_loop_init(&loop), 0);
    assert_string_equal(sh_first_line(&loop, script, NULL), "clean");
    assert_int_equal(uv_loop_close(&loop), 0);
    /* still ours, and working */
    assert_int_equal(write(sv[0], "x", 1), 1);
    char b = 0;
    assert_int_equal(read(sv[1], &b, 1), 1);
    assert_int_equal(b, 'x');
    close(sv[0]);
    close(sv[1]);
}

static void test_marks_every_descriptor_from_3(void **state)
{
    (void) state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_false(fcntl(p[0], F_GETFD) & FD_CLOEXEC);
    int std_before = fcntl(2, F_GETFD);
    inherit_nothing();
    assert_true(fcntl(p[0], F_GETFD) & FD_CLOEXEC);
    assert_true(fcntl(p[1], F_GETFD) & FD_CLOEXEC);
    assert_int_equal(fcntl(2, F_GETFD), std_before); /* 0-2 are left alone */
    close(p[0]);
    close(p[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_marks_every_descriptor_from_3),
        cmocka_unit_test(test_spawned_server_inherits_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
