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
#include "transport/child.h"
#include "loop_wait.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static uv_loop_t loop;
static char child_line[256];
static int child_done;

static void on_line(void *ud, char *line, size_t len)
{
    (void) ud;
    if (len < sizeof child_line && child_line[0] == '\0')
        memcpy(child_line, line, len + 1);
}

static void on_exit_(void *ud, int64_t status, int sig)
{
    (void) ud;
    (void) status;
    (void) sig;
    child_done = 1;
}

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
    char *const args[] = {"-c", script, NULL};
    char *const env[] = {"PATH=/usr/bin:/bin", NULL};
    struct transport_child_options o = {
        .name = "inherit", .file = "/bin/sh", .args = args, .env = env, .max_line = 4096};
    struct transport_child_events ev = {.line = on_line, .exit = on_exit_};
    struct transport_child *c;
    assert_int_equal(uv_loop_init(&loop), 0);
    assert_int_equal(transport_child_spawn(&loop, &o, &ev, NULL, &c), 0);
    assert_true(loop_run_until(&loop, &child_done, 5000));
    loop_run_for(&loop, 50);
    assert_string_equal(child_line, "clean");
    /* still ours, and working */
    assert_int_equal(write(sv[0], "x", 1), 1);
    char b = 0;
    assert_int_equal(read(sv[1], &b, 1), 1);
    assert_int_equal(b, 'x');
    close(sv[0]);
    close(sv[1]);
    transport_child_close(c, 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&loop), 0);
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
