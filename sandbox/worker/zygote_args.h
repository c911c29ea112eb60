/* The command line the host starts the sandbox zygote with, read by the
 * zygote's own small reader (the worker image links no CLI of the server):
 *   EXE __zygote [--log-level LEVEL] [--worker-as BYTES] [--worker-cpu SECONDS]
 *                [--host-pid PID]
 * (values also as --name=value). sandbox/host/pool.c writes it; both
 * mcp-codemode and the slim image mcp-codemode-sandbox serve it. */
#ifndef SANDBOX_WORKER_ZYGOTE_ARGS_H
#define SANDBOX_WORKER_ZYGOTE_ARGS_H

#include <stddef.h>
#include <stdint.h>

struct sandbox_zygote_args {
    const char *log_level; /* NULL: warning */
    uint64_t worker_as;    /* RLIMIT_AS of each worker, bytes (0: none) */
    unsigned worker_cpu;   /* RLIMIT_CPU of each worker, seconds (0: none) */
    int host_pid;          /* the host; the zygote leaves when it is gone (0: unknown) */
};

/* 1 when argv is a zygote command line (argv[1] is "__zygote"). */
int sandbox_zygote_args_match(int argc, char **argv);

/* Reads a zygote command line: 0, or -1 with a sentence in err (an unknown
 * option, a missing or malformed value). */
int sandbox_zygote_args_parse(int argc, char **argv, struct sandbox_zygote_args *out, char *err,
                              size_t errsz);

/* Runs the zygote on stdin (its control channel) until the host goes away:
 * the process exit status (0, or 1 when the template engine cannot be
 * built). */
int sandbox_zygote_run(const struct sandbox_zygote_args *a);

#endif
