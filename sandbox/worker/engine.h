/* One Duktape heap running one program: created with the prelude loaded and
 * the global object hardened (a template, forked per execution by the
 * zygote), then started with a program, fed tool results and timer ticks by
 * its embedder (the worker loop, or tests in-process) until it has an outcome.
 * Every entry into JS is a protected call: no Duktape error escapes. */
#ifndef SANDBOX_ENGINE_H
#define SANDBOX_ENGINE_H

#include <stddef.h>
#include <stdint.h>

struct buf;
struct sandbox_engine;

/* What the program can reach outside the heap. Both callbacks run inside a
 * JS native call: they must not call back into the engine. */
struct sandbox_engine_host {
    void *ud;
    /* A host call: op is "tool", "search" or "describe"; args_json is the
     * JSON text of the arguments. Returns an id > 0 to settle later with
     * sandbox_engine_settle, or -1 with a message in msg (the program gets
     * an Error with that message). */
    long (*call)(void *ud, const char *op, const char *name, const char *args_json,
                 size_t args_len, char *msg, size_t msg_size);
    /* One console entry: level is "log", "info", "warn", "error" or "debug". */
    void (*log)(void *ud, const char *level, const char *text, size_t len);
};

struct sandbox_run_limits {
    uint64_t timeout_ms;         /* 0 = none */
    uint64_t memory_bytes;       /* JS heap cap; 0 = unlimited */
    unsigned max_concurrent;     /* outstanding host calls before queueing in JS */
};

enum sandbox_engine_state {
    SANDBOX_RUNNING,   /* waiting for host calls or timers */
    SANDBOX_DONE,      /* outcome available */
};

/* Creates a heap, loads the embedded prelude and hardens the global object.
 * Returns NULL with *err (malloc'd) on failure. */
struct sandbox_engine *sandbox_engine_create(const struct sandbox_engine_host *host, char **err);
void sandbox_engine_destroy(struct sandbox_engine *e);

/* Replaces the host callbacks (the zygote's template heap gets the worker's). */
void sandbox_engine_set_host(struct sandbox_engine *e, const struct sandbox_engine_host *host);

/* Compiles and starts the program (the body of an async function) with the
 * tool catalog (JSON text, may be NULL) and runs it until it first waits.
 * A syntax error or a failure to start gives an outcome at once. */
void sandbox_engine_start(struct sandbox_engine *e, const char *code, size_t len,
                          const char *catalog_json, const struct sandbox_run_limits *limits);

/* The built-in namespaces for the next sandbox_engine_start only: JSON text
 * {"state":bool,"skills":[names]} (borrowed until then), or NULL for none. */
void sandbox_engine_set_builtins(struct sandbox_engine *e, const char *json);

/* Settles host call `id`: ok with the JSON text of the value, or failed with
 * the JSON text of {name, message, ...}. Then runs microtasks. */
void sandbox_engine_settle(struct sandbox_engine *e, long id, int ok, const char *json, size_t len);

/* Milliseconds (host monotonic clock, sandbox_engine_now_ms) of the earliest
 * timer, or -1 when none is armed. */
int64_t sandbox_engine_next_timer(struct sandbox_engine *e);
void sandbox_engine_run_timers(struct sandbox_engine *e);
int64_t sandbox_engine_now_ms(void);

/* The engine's version as Duktape numbers it (major * 10000 + minor * 100 +
 * patch), for --version: only sandbox/ includes duktape.h. */
long sandbox_engine_version(void);

/* Number of host calls started (or queued) and not yet settled. */
unsigned sandbox_engine_inflight(struct sandbox_engine *e);

enum sandbox_engine_state sandbox_engine_state(struct sandbox_engine *e);

/* Ends a running program with an error (deadline passed while waiting,
 * stall, cancellation): name and message as given. */
void sandbox_engine_abort(struct sandbox_engine *e, const char *name, const char *message);

/* Appends the outcome as a JSON object to out:
 *   {"ok":true,"value":<json>}   (no "value" when the result is undefined)
 *   {"ok":false,"error":{"name","message","line"?,"column"?,"excerpt"?,...}}
 * A value text over max_value_bytes is cut to a preview:
 *   {"ok":true,"truncated":{"bytes","limit"},"value":"<first bytes of the JSON>"}
 * and an error description over it is replaced by a RangeError saying so.
 * Returns 0, or -1 when out's own limit was hit. */
int sandbox_engine_outcome(struct sandbox_engine *e, size_t max_value_bytes, struct buf *out);

/* The same; a cut value whose JSON is at most max_whole_bytes also comes
 * whole, as "whole":<json>, for the host to keep (0: never). */
int sandbox_engine_outcome_whole(struct sandbox_engine *e, size_t max_value_bytes,
                                 size_t max_whole_bytes, struct buf *out);

/* Moves the running program's deadline `ms` later (time the host paused
 * it while a person decided on an approval; see worker.c). */
void sandbox_engine_extend_deadline(struct sandbox_engine *e, uint64_t ms);

/* Forces an engine interrupt (and so a deadline check) before the next
 * bytecode instruction. Async-signal-safe: meant for an interval timer. */
void sandbox_engine_request_interrupt(struct sandbox_engine *e);

/* Number of promise rejections left unhandled so far (each also logged as a
 * [warn] console line by the prelude). */
unsigned sandbox_engine_unhandled(const struct sandbox_engine *e);

/* 1 when the program ran and ended normally (returned, threw, or failed to
 * compile), so that the heap may be restored and reused: not after a
 * timeout, a refused allocation, an abort or an error that escaped the
 * runtime. */
int sandbox_engine_reusable(const struct sandbox_engine *e);

/* After sandbox_zone_restore brought the heap back to the template's bytes:
 * frees the last run's blocks (they are no longer referenced), and clears
 * the run's state in the engine (program, outcome, deadline, counters), so
 * that sandbox_engine_start can run the next program. Only valid for an
 * engine created in the zygote's zone and restored from its snapshot. */
void sandbox_engine_reset(struct sandbox_engine *e);

/* Peak JS heap bytes of this execution. */
size_t sandbox_engine_mem_peak(struct sandbox_engine *e);

#endif
