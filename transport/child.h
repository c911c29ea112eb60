/* A child process spoken to over pipes: stdin for writing, stdout read as
 * size-capped lines, stderr read line by line and logged under the child's
 * name (the last lines are kept for error messages), exit detection after
 * the last stdout line, and a graceful stop (stdin EOF, SIGTERM, SIGKILL to
 * the child's process group). Runs on a libuv loop and never blocks. */
#ifndef TRANSPORT_CHILD_H
#define TRANSPORT_CHILD_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct transport_child;

struct transport_child_options {
    const char *name;  /* for logs: "server 'github'"; copied */
    const char *file;  /* program, looked up in the child's PATH when it has no '/' */
    char *const *args; /* argv[1..], NULL-terminated; may be NULL */
    char *const *env;  /* the child's whole environment, "K=V", NULL-terminated */
    const char *cwd;   /* NULL: ours */
    size_t max_line;   /* cap on one stdout line (newline excluded) */
    int stderr_level;  /* enum log_level for the child's stderr lines */
};

struct transport_child_events {
    /* One stdout line without its newline (a trailing '\r' removed),
     * NUL-terminated, writable, valid during the call. */
    void (*line)(void *ud, char *line, size_t len);
    /* A stdout line over max_line: its first and last bytes (each at most
     * 4 KiB) and its total length. The line itself is dropped. */
    void (*oversize)(void *ud, const char *head, size_t head_len, const char *tail, size_t tail_len,
                     size_t total);
    /* The child is gone: it exited (status >= 0, signal 0) or was killed by
     * a signal (signal > 0), and every stdout line has been delivered. Runs
     * once; no event follows it. The owner still calls transport_child_close. */
    void (*exit)(void *ud, int64_t status, int signal);
};

/* Starts the child. Returns 0 and stores it in *out, or a negative libuv
 * error (UV_ENOENT: no such program or cwd; UV_EACCES; ...) with *out NULL
 * and no event ever delivered. The child runs in its own process group.
 * Options are copied (except env and args, used during the call only). */
int transport_child_spawn(uv_loop_t *loop, const struct transport_child_options *o,
                          const struct transport_child_events *ev, void *ud,
                          struct transport_child **out);

/* Writes bytes to the child's stdin: copied, and written with the other
 * writes of this loop turn before the loop next waits (or before stdin
 * closes), in order; what the pipe does not take then is queued. Returns 0,
 * or UV_EPIPE when stdin is closed or the child is gone. */
int transport_child_write(struct transport_child *c, const char *data, size_t len);

/* Bytes queued to stdin and not yet written (backpressure). */
size_t transport_child_write_queue(const struct transport_child *c);

/* Sends a signal to the child's process group (no-op once it is gone). */
void transport_child_kill(struct transport_child *c, int signum);

/* The owner is done: no event is delivered any more. A running child gets
 * stdin EOF, then SIGTERM after grace_ms, then SIGKILL after another
 * grace_ms (grace_ms 0: SIGKILL at once). The object frees itself once the
 * child has exited and every handle is closed (run the loop for that). */
void transport_child_close(struct transport_child *c, uint64_t grace_ms);

int transport_child_pid(const struct transport_child *c);

/* The last stderr line the child wrote (truncated to 512 bytes), or "". */
const char *transport_child_last_stderr(const struct transport_child *c);

/* 1 when the child closed its stdout while still running (so it was
 * stopped: its exit status then comes from our signal, not from it). */
int transport_child_closed_output(const struct transport_child *c);

/* Builds an environment for a child: the variables named in `keep` that are
 * set in ours (values that start with "()", shell functions, are skipped),
 * then each "K=V" of `extra` on top (replacing a kept one of the same name).
 * Returns a malloc'd NULL-terminated vector; free it with
 * transport_child_env_free. keep and extra may be NULL. */
char **transport_child_env(const char *const *keep, char *const *extra);
void transport_child_env_free(char **env);

#endif
