/* The worker's system-call allow-list (libseccomp): reading and writing the
 * IPC socket, memory management, the clock, the interrupt ticker, and exit.
 * Everything else kills the process. */
#ifndef SANDBOX_SECCOMP_H
#define SANDBOX_SECCOMP_H

/* Sets no_new_privs and installs the filter for a worker whose only
 * descriptor is ipc_fd. Returns 0, or -1 when seccomp is unavailable (the
 * caller decides whether that is fatal). */
int sandbox_seccomp_install(int ipc_fd);

/* Compiles the filter for ipc_fd to BPF once, before any worker is forked,
 * so that sandbox_seccomp_install(ipc_fd) in a forked child only loads it
 * (libseccomp's compile costs each worker ~160 us of CPU). Returns 0, or -1
 * when it cannot (workers then compile the filter themselves). */
int sandbox_seccomp_prepare(int ipc_fd);

/* 1 when this build/platform installs the filter; 0 when workers run with
 * rlimits only (documented in --version). */
int sandbox_seccomp_available(void);

#endif
