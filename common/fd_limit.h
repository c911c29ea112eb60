/* The host's descriptor limit. Every HTTP connection to a downstream
 * server, every client connection and every worker holds a descriptor, and
 * a program's parallel calls to an HTTP server open one connection each:
 * under the usual soft limit of 1024 (or less) a few hundred of them made
 * socket() fail, which reads as "cannot connect" and took the server down
 * with every call in flight. So the host raises its soft RLIMIT_NOFILE to
 * the hard limit at start, and gives each process it spawns the limit it
 * was started with (programs that use select() break above 1024). */
#ifndef COMMON_FD_LIMIT_H
#define COMMON_FD_LIMIT_H

/* Raises this process's soft limit to its hard limit (to fs.nr_open when
 * that is unlimited); the limit it had is kept for fd_limit_give_back.
 * Returns the soft limit in force afterwards. */
unsigned long fd_limit_raise(void);

/* Sets child `pid`'s soft limit back to the one this process was started
 * with (nothing when fd_limit_raise changed nothing). Call right after
 * spawning it; failures are ignored (it keeps the higher limit). */
void fd_limit_give_back(int pid);

#endif
