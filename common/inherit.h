/* What a process we start inherits: only what the spawn sets up (its
 * stdin, stdout and stderr). libcurl keeps a socket pair per HTTP server
 * without close-on-exec, and descriptors our own parent left open would
 * pass on too, so every stdio server held the host's sockets. */
#ifndef COMMON_INHERIT_H
#define COMMON_INHERIT_H

/* Marks every descriptor of this process from 3 up close-on-exec (one
 * close_range call; on kernels before 5.11, each one in /proc/self/fd).
 * Call right before starting a process. */
void inherit_nothing(void);

#endif
