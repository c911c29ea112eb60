/* seccomp-bpf allow-list of a worker, built with libseccomp. The list is what
 * Duktape, glibc's allocator and our IPC loop use after start-up; a forbidden
 * call kills the process (the host reports it as a sandbox violation). */
#include "sandbox/seccomp.h"

#include <errno.h>
#include <seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>

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

int sandbox_seccomp_available(void)
{
    return 1;
}

static int allow(scmp_filter_ctx ctx, int nr)
{
    return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
}

static int add_rules(scmp_filter_ctx ctx, int ipc_fd)
{
    static const int plain[] = {
        SCMP_SYS(munmap),       SCMP_SYS(mremap),     SCMP_SYS(brk),
        SCMP_SYS(madvise),      SCMP_SYS(futex),      SCMP_SYS(clock_gettime),
        SCMP_SYS(gettimeofday), SCMP_SYS(poll),       SCMP_SYS(ppoll),
        SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask), SCMP_SYS(setitimer),
        SCMP_SYS(exit_group),   SCMP_SYS(exit),       SCMP_SYS(getpid),
        SCMP_SYS(gettid),       SCMP_SYS(tgkill),     SCMP_SYS(restart_syscall),
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        rc |= allow(ctx, plain[i]);
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(read), 1, SCMP_A0(SCMP_CMP_EQ, ipc_fd));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, ipc_fd));
    /* Memory, never executable. */
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
                           SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
                           SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
    if (SANITIZED) {
        /* ASan/UBSan runtimes read /proc and write reports to stderr. */
        static const int san[] = {SCMP_SYS(openat), SCMP_SYS(open),     SCMP_SYS(close),
                                  SCMP_SYS(readlink), SCMP_SYS(fstat),  SCMP_SYS(newfstatat),
                                  SCMP_SYS(sigaltstack), SCMP_SYS(rt_sigaction),
                                  SCMP_SYS(sched_yield), SCMP_SYS(prctl), SCMP_SYS(getrlimit),
                                  SCMP_SYS(prlimit64), SCMP_SYS(write)};
        for (size_t i = 0; i < sizeof san / sizeof san[0]; i++)
            rc |= allow(ctx, san[i]);
    }
    return rc;
}

int sandbox_seccomp_install(int ipc_fd)
{
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (ctx == NULL)
        return -1;
    int rc = add_rules(ctx, ipc_fd) == 0 && seccomp_load(ctx) == 0 ? 0 : -1;
    seccomp_release(ctx);
    return rc;
}
