/* The zygote process: template heap, fork-on-request, reaping, and kills on
 * the host's behalf (only of its own live children, so a recycled pid is
 * never hit). Blocking poll loop over the control socket and a signalfd. */
#include "sandbox/worker/zygote.h"
#include "sandbox/worker/engine.h"
#include "sandbox/lower/lower.h"
#include "sandbox/worker/seccomp.h"
#include "sandbox/worker/warm_pages.h"
#include "sandbox/worker/zone.h"
#include "common/buf.h"
#include "common/log.h"
#include "common/readonly_pages.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CHILDREN 1024

static pid_t children[MAX_CHILDREN];
static int nchildren;
static pid_t zygote_pid; /* getpid() once, not once per fork */

static int send_line(int fd, const char *line, int pass_fd)
{
    struct iovec iov = {(void *) line, strlen(line)};
    struct msghdr mh;
    memset(&mh, 0, sizeof mh);
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } u;
    if (pass_fd >= 0) {
        mh.msg_control = u.buf;
        mh.msg_controllen = sizeof u.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
    }
    for (;;) {
        ssize_t n = sendmsg(fd, &mh, MSG_NOSIGNAL);
        if (n >= 0)
            return n == (ssize_t) iov.iov_len ? 0 : -1;
        if (errno != EINTR)
            return -1;
    }
}

static void forget(pid_t pid)
{
    for (int i = 0; i < nchildren; i++) {
        if (children[i] == pid) {
            children[i] = children[--nchildren];
            return;
        }
    }
}

static int known(pid_t pid)
{
    for (int i = 0; i < nchildren; i++)
        if (children[i] == pid)
            return 1;
    return 0;
}

/* Forks a worker; returns its pid (-1 on failure) and our end of its socket
 * in *fd. */
static pid_t fork_worker(int ctl, struct sandbox_engine *tmpl, const struct sandbox_worker_config *cfg,
                         const sigset_t *oldmask, int *fd)
{
    int sv[2];
    if (nchildren >= MAX_CHILDREN || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return -1;
    /* _Fork: fork without glibc's fork handlers, which reset locks in ld.so's
     * and libc's data in the child, a copy-on-write fault of each page they
     * lie in (~3 per worker, ~2 us each). Nothing can hold those locks here:
     * the zygote has one thread, and no fork handlers of its own. */
    pid_t pid = _Fork();
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, oldmask, NULL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != zygote_pid)
            _exit(0); /* the zygote died before the death signal was armed */
        if (ctl >= 0)
            close(ctl);
        close(sv[0]);
        sandbox_worker_main(tmpl, sv[1], cfg);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        return -1;
    }
    *fd = sv[0];
    return pid;
}

static void spawn(int ctl, struct sandbox_engine *tmpl, const struct sandbox_worker_config *cfg,
                  const sigset_t *oldmask)
{
    int fd;
    pid_t pid = fork_worker(ctl, tmpl, cfg, oldmask, &fd);
    if (pid < 0) {
        send_line(ctl, "{\"t\":\"error\",\"message\":\"cannot fork a worker\"}\n", -1);
        return;
    }
    children[nchildren++] = pid;
    char msg[64];
    snprintf(msg, sizeof msg, "{\"t\":\"worker\",\"pid\":%d}\n", (int) pid);
    send_line(ctl, msg, fd);
    close(fd);
}

/* Lowers a small program once, here: the lowering pass builds its
 * per-process tables (the keyword names) on first use, and done here every
 * worker inherits them instead of building them on its caller's clock. */
static void warm_lowering(void)
{
    static const char program[] = "const f = async (x) => x ?? 0;";
    struct buf out;
    buf_init(&out, 0);
    sandbox_lower(program, sizeof program - 1, LOWER_MODE_MAIN, &out, NULL);
    buf_free(&out);
}

/* Reads from fd until a whole line arrived; 1 when it did within the
 * deadline (2 s from the first call: a probe that hangs must not hold up
 * the server's start), 0 otherwise. */
static int read_line_within(int fd, char *buf, size_t size)
{
    size_t got = 0;
    for (int waited = 0; waited < 2000 && got < size - 1; waited += 50) {
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, 50);
        if (r < 0 && errno != EINTR)
            return 0;
        if (r <= 0)
            continue;
        ssize_t n = read(fd, buf + got, size - 1 - got);
        if (n <= 0)
            return 0;
        got += (size_t) n;
        if (memchr(buf, '\n', got))
            return 1;
    }
    return 0;
}

/* Runs `return 1+1` in a worker and records the template heap's pages it
 * wrote (sandbox/worker/warm_pages.c), so later workers copy them before their
 * run. About 1 ms, once, before the zygote says it is ready; a failure only
 * leaves the list empty, except a worker that cannot lock itself down
 * (SANDBOX_EXIT_LOCKDOWN): then no worker can, and -1 is returned. */
static int probe(struct sandbox_engine *tmpl, const struct sandbox_worker_config *cfg,
                 const sigset_t *oldmask)
{
    static const char run[] = "{\"t\":\"run\",\"code\":\"return 1+1\",\"timeoutMs\":1000}\n";
    int fd;
    pid_t pid = fork_worker(-1, tmpl, cfg, oldmask, &fd);
    if (pid < 0)
        return 0;
    char buf[512];
    /* The first line is the outcome; the worker then waits for us to close. */
    int done = send(fd, run, sizeof run - 1, MSG_NOSIGNAL) == (ssize_t) sizeof run - 1 &&
               read_line_within(fd, buf, sizeof buf); /* (a worker that died gives EPIPE) */
    uintptr_t zone;
    size_t zone_len;
    sandbox_zone_extent(&zone, &zone_len);
    if (done && zone_len)
        log_debug("zygote", "%d template pages written by a run, copied by workers before theirs",
                  sandbox_warm_pages_learn(pid, zone, zone_len));
    close(fd); /* the worker exits at EOF */
    kill(pid, SIGKILL); /* (one already exiting keeps its exit status) */
    int status;
    if (waitpid(pid, &status, 0) == pid && !done && WIFEXITED(status) &&
        WEXITSTATUS(status) == SANDBOX_EXIT_LOCKDOWN)
        return -1;
    return 0;
}

static void reap(int ctl)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        forget(pid);
        char msg[96];
        snprintf(msg, sizeof msg, "{\"t\":\"exit\",\"pid\":%d,\"code\":%d,\"signal\":%d}\n", (int) pid,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        send_line(ctl, msg, -1);
    }
}

/* Handles the complete lines in buf[0..*len); keeps a partial tail. */
static void commands(int ctl, char *buf, size_t *len, struct sandbox_engine *tmpl,
                     const struct sandbox_worker_config *cfg, const sigset_t *oldmask)
{
    size_t start = 0;
    char *nl;
    while ((nl = memchr(buf + start, '\n', *len - start)) != NULL) {
        *nl = '\0';
        const char *cmd = buf + start;
        if (strcmp(cmd, "spawn") == 0)
            spawn(ctl, tmpl, cfg, oldmask);
        else if (strncmp(cmd, "kill ", 5) == 0) {
            pid_t pid = (pid_t) atoi(cmd + 5);
            if (pid > 0 && known(pid))
                kill(pid, SIGKILL);
        }
        start = (size_t) (nl - buf) + 1;
    }
    memmove(buf, buf + start, *len - start);
    *len -= start;
}

/* Consolidates glibc's fast bins once, here, before any fork: building the
 * template leaves many freed small chunks in them, and the first large
 * request of each worker (settle_allocator in worker.c) merged them again in
 * every worker, copying ~60 copy-on-write pages (235 -> 175 page faults per
 * worker, 1.23 -> 0.90-0.98 ms of worker CPU per call, measured over HTTP
 * with 50 clients). Now the workers inherit merged free chunks. */
static void consolidate_heap(void)
{
    void *volatile p = malloc(2048);
    free(p);
}

int sandbox_zygote_main(int ctl_fd, const struct sandbox_worker_config *cfg, int host_pid)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (host_pid > 0 && getppid() != host_pid)
        return 0; /* the host died before the death signal was armed: nobody to serve */
    zygote_pid = getpid();
    char *err = NULL;
    if (sandbox_zone_enable() != 0)
        log_warn("zygote", "cannot reserve the template zone: workers allocate among its pages");
    struct sandbox_engine *tmpl = sandbox_engine_create(NULL, &err);
    if (tmpl == NULL) {
        char msg[600];
        snprintf(msg, sizeof msg, "{\"t\":\"error\",\"message\":\"%.500s\"}\n", err);
        send_line(ctl_fd, msg, -1);
        log_error("zygote", "%s", err);
        return 1;
    }
    if (sandbox_zone_snapshot() != 0)
        log_warn("zygote", "cannot snapshot the template heap: every worker serves one execution");
    if (sandbox_seccomp_prepare(SANDBOX_IPC_FD) != 0)
        log_warn("zygote", "cannot prebuild the seccomp filter: each worker compiles its own");
    consolidate_heap();
    sigset_t mask, oldmask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    sigaddset(&mask, SIGTERM); /* the host's close: end the workers, reap them, exit */
    sigprocmask(SIG_BLOCK, &mask, &oldmask);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    warm_lowering();
    if (probe(tmpl, cfg, &oldmask) != 0) {
#define LOCKDOWN_FAILED                                                                            \
    "the sandbox cannot lock its workers down (their resource limits or seccomp filter cannot "   \
    "be installed): it refuses to run programs"
        send_line(ctl_fd, "{\"t\":\"error\",\"message\":\"" LOCKDOWN_FAILED "\"}\n", -1);
        log_error("zygote", "%s", LOCKDOWN_FAILED);
        return 1;
    }
    readonly_pages_release(); /* last: start-up code and data are not needed again */
    send_line(ctl_fd, "{\"t\":\"ready\"}\n", -1);

    char buf[4096];
    size_t len = 0;
    for (;;) {
        struct pollfd p[2] = {{ctl_fd, POLLIN, 0}, {sfd, POLLIN, 0}};
        if (poll(p, 2, -1) < 0 && errno != EINTR)
            break;
        if (p[1].revents) {
            struct signalfd_siginfo si;
            int term = 0;
            while (read(sfd, &si, sizeof si) > 0)
                term |= si.ssi_signo == SIGTERM;
            if (term)
                break;
            reap(ctl_fd);
        }
        if (p[0].revents) {
            ssize_t n = read(ctl_fd, buf + len, sizeof buf - len);
            if (n <= 0 && !(n < 0 && errno == EINTR))
                break;
            if (n > 0) {
                len += (size_t) n;
                commands(ctl_fd, buf, &len, tmpl, cfg, &oldmask);
                if (len == sizeof buf)
                    len = 0; /* a command longer than the buffer: drop it */
            }
        }
    }
    /* Reaped, not left to init: the CPU time of workers that lived until the
     * end (kept for a principal) is then counted in this process's
     * children's usage, and so in the host's. */
    for (int i = 0; i < nchildren; i++)
        kill(children[i], SIGKILL);
    for (int i = 0; i < nchildren; i++)
        waitpid(children[i], NULL, 0);
    close(sfd);
    sandbox_engine_destroy(tmpl);
    return 0;
}
