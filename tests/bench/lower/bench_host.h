/* The lowering benchmark's stand-in for the host: canned, deterministic tool
 * results (github, ci, kv) for the representative program, and a driver that
 * runs a program in a sandbox engine to its outcome, settling every pending
 * tool call after each step (no timers, no I/O). */
#ifndef BENCH_LOWER_HOST_H
#define BENCH_LOWER_HOST_H

#include <stddef.h>

struct sandbox_engine;

/* The host callbacks' state: calls made and not yet settled. */
struct bench_host;

/* Creates a host and an engine bound to it (prelude loaded). Exits on failure. */
struct bench_host *bench_host_create(struct sandbox_engine **engine);
/* Destroys both. */
void bench_host_destroy(struct bench_host *h, struct sandbox_engine *e);

/* Starts src in e and drives it to its outcome; returns the outcome JSON
 * (caller frees). Every tool call is answered from canned data. */
char *bench_host_run(struct bench_host *h, struct sandbox_engine *e, const char *src, size_t len);

/* Tool calls made so far (all runs). */
unsigned long bench_host_calls(const struct bench_host *h);

#endif
