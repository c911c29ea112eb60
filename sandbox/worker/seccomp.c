/* seccomp-bpf allow-list of a worker, built with libseccomp. The list is what
 * Duktape, glibc's allocator and our IPC loop use after start-up; a forbidden
 * call kills the process (the host reports it as a sandbox violation). The
 * zygote compiles it once to BPF so each worker only loads it. */
#include "sandbox/worker/seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

/* The compiled filter, set once in the zygote and inherited by its workers. */
static struct sock_filter prebuilt[BPF_MAXINSNS];
static struct sock_fprog prebuilt_prog;
static int prebuilt_fd = -1;

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
        SCMP_SYS(getrandom), /* Math.random's seed for each run of a reused worker; crypto */
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        rc |= allow(ctx, plain[i]);
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(read), 1, SCMP_A0(SCMP_CMP_EQ, ipc_fd));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, ipc_fd));
    /* The worker's own /proc/self/pagemap, opened before the filter at the
     * next descriptor (which template pages it copied), and the template's
     * read-only snapshot at the one after: sandbox_zone_restore. */
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(pread64), 1,
                           SCMP_A0(SCMP_CMP_EQ, ipc_fd + 1));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(pread64), 1,
                           SCMP_A0(SCMP_CMP_EQ, ipc_fd + 2));
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

/* Reads the BPF that libseccomp wrote into a pipe, after one instruction of
 * our own. Returns 0 or -1.
 * That first instruction loads the caller's instruction pointer, which the
 * program never uses (its next instruction loads the architecture, as
 * libseccomp's programs always begin). It exists for the kernel's action
 * cache: when a filter is attached, the kernel emulates it for every syscall
 * number of every architecture to find the ones always allowed, and gives up
 * on a number at the first load of anything but the number or the
 * architecture. Giving up at once makes loading the filter 49-52 -> 29-31 us
 * (fork-and-load loop, medians of 200); without the cache each of a worker's
 * few dozen syscalls runs the JIT-compiled filter instead (tens of ns). */
static int read_program(int fd)
{
    static const struct sock_filter load_ip =
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer));
    prebuilt[0] = load_ip;
    size_t got = sizeof prebuilt[0];
    for (;;) {
        ssize_t n = read(fd, (char *) prebuilt + got, sizeof prebuilt - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t) n;
        if (got == sizeof prebuilt)
            return -1; /* larger than the kernel accepts */
    }
    if (got == sizeof prebuilt[0] || got % sizeof prebuilt[0] != 0)
        return -1;
    prebuilt_prog.len = (unsigned short) (got / sizeof prebuilt[0]);
    prebuilt_prog.filter = prebuilt;
    return 0;
}

int sandbox_seccomp_prepare(int ipc_fd)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (ctx == NULL)
        return -1;
    int p[2] = {-1, -1}, rc = -1;
    /* A binary tree over syscall numbers instead of a linear chain: the kernel
     * evaluates the filter for every syscall number when a worker loads it
     * (its action cache), so a shorter path per number is a cheaper load:
     * 63-78 -> 49-55 us per worker, measured in a fork-and-load loop. */
    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
    if (add_rules(ctx, ipc_fd) != 0 || pipe2(p, O_CLOEXEC) != 0)
        goto out;
    /* A few hundred bytes: far below the pipe's buffer, so this cannot block. */
    int exported = seccomp_export_bpf(ctx, p[1]);
    close(p[1]);
    p[1] = -1;
    if (exported == 0 && read_program(p[0]) == 0) {
        prebuilt_fd = ipc_fd;
        rc = 0;
    }
out:
    if (p[0] >= 0)
        close(p[0]);
    seccomp_release(ctx);
    return rc;
}

int sandbox_seccomp_install(int ipc_fd)
{
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    if (prebuilt_fd == ipc_fd)
        return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prebuilt_prog, 0, 0) == 0 ? 0 : -1;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (ctx == NULL)
        return -1;
    int rc = add_rules(ctx, ipc_fd) == 0 && seccomp_load(ctx) == 0 ? 0 : -1;
    seccomp_release(ctx);
    return rc;
}
