/* Unit tests of sandbox/worker/seccomp.c: a forked child installs the worker filter,
 * either prebuilt (sandbox_seccomp_prepare in the parent, as the zygote does)
 * or compiled in the child, then proves that its IPC descriptor still works
 * and that a system call off the allow-list, or a write to another
 * descriptor, kills it with SIGSYS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sandbox/worker/seccomp.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define IPC_FD 3

/* What the child tries after its "ok": a call off the list, or an allowed
 * call with a forbidden argument (write to a descriptor other than IPC_FD). */
static enum { FORBID_CALL, FORBID_ARGUMENT } forbidden;

/* Child: filter for IPC_FD, say "ok" on it, then do the forbidden thing. */
static void child(int sock)
{
    if (dup2(sock, IPC_FD) < 0 || dup2(sock, IPC_FD + 1) < 0)
        _exit(10);
    if (sandbox_seccomp_install(IPC_FD) != 0)
        _exit(11);
    if (write(IPC_FD, "ok", 2) != 2)
        _exit(12);
    if (forbidden == FORBID_CALL)
        syscall(SYS_getppid);
    else if (write(IPC_FD + 1, "no", 2) != 2)
        _exit(14);
    _exit(13); /* not reached when the filter works */
}

/* Forks the child; returns its wait status and what it wrote. */
static int run_child(char *said, size_t size)
{
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(sv[0]);
        child(sv[1]);
    }
    close(sv[1]);
    memset(said, 0, size);
    ssize_t n = read(sv[0], said, size - 1);
    (void) n;
    close(sv[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void assert_killed_after_ipc(void)
{
    char said[8];
    int status = run_child(said, sizeof said);
    assert_string_equal(said, "ok");
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGSYS);
}

/* Must run first: nothing prepared yet, so the child compiles the filter. */
static void test_compiled_in_child(void **state)
{
    (void) state;
    assert_killed_after_ipc();
}

/* Prepared for another descriptor: the child must not load that program. */
static void test_prepared_for_other_fd_is_not_used(void **state)
{
    (void) state;
    assert_int_equal(sandbox_seccomp_prepare(IPC_FD + 2), 0);
    assert_killed_after_ipc();
}

static void test_prebuilt_in_parent(void **state)
{
    (void) state;
    assert_int_equal(sandbox_seccomp_prepare(IPC_FD), 0);
    assert_killed_after_ipc();
}

/* The prebuilt program starts with an instruction of ours (see seccomp.c):
 * its argument checks must still hold. (Not under the sanitizers: their
 * runtimes write reports anywhere, so the filter lets write through.) */
static void test_prebuilt_checks_arguments(void **state)
{
    (void) state;
#if defined(__SANITIZE_ADDRESS__)
    skip();
#endif
    assert_int_equal(sandbox_seccomp_prepare(IPC_FD), 0);
    forbidden = FORBID_ARGUMENT;
    assert_killed_after_ipc();
    forbidden = FORBID_CALL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compiled_in_child),
        cmocka_unit_test(test_prepared_for_other_fd_is_not_used),
        cmocka_unit_test(test_prebuilt_in_parent),
        cmocka_unit_test(test_prebuilt_checks_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
