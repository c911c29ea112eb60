/* Limits inside the JS engine: a capped allocator, a sticky execution
 * deadline checked by Duktape's interrupt hook, the native stack budget, and
 * the per-process random generator behind Math.random. One heap per process
 * uses one struct sandbox_limits as its heap udata. */
#ifndef SANDBOX_LIMITS_H
#define SANDBOX_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "sandbox/worker/arena.h"

struct sandbox_limits {
    size_t mem_used;   /* bytes handed out by the allocator (headers excluded) */
    size_t mem_peak;
    size_t mem_cap;    /* 0 = unlimited */
    uint64_t deadline_ns; /* CLOCK_MONOTONIC; 0 = none */
    int timed_out;        /* sticky once the deadline passed */
    int alloc_failed;     /* an allocation was refused by the cap */
    long timeout_line;    /* program line running when the deadline hit; 0 = unknown */
    struct sandbox_arena arena; /* small blocks, outside the zygote's zone */
    struct limits_block *blocks; /* every block from malloc, newest first */
};

struct limits_block; /* the links before a malloc'd block's header */

/* The file name programs are compiled under; frames with it are the user's. */
#define SANDBOX_PROGRAM_FILE "program.js"

void sandbox_limits_init(struct sandbox_limits *l, size_t mem_cap);

/* Frees the allocator's own memory; call after duk_destroy_heap. */
void sandbox_limits_release(struct sandbox_limits *l);

/* Frees every block handed out outside the zygote's zone (the arena's and
 * malloc's), whoever still points to them: for a worker whose heap was just
 * restored from the template (sandbox_zone_restore), where nothing refers
 * to the last run's blocks any more. Then sets the counters to mem_used
 * (the template's bytes), clears the deadline and the sticky flags. */
void sandbox_limits_reset(struct sandbox_limits *l, size_t mem_used);

/* Duktape allocator functions; udata is the struct sandbox_limits. */
void *sandbox_limits_alloc(void *udata, size_t size);
void *sandbox_limits_realloc(void *udata, void *ptr, size_t size);
void sandbox_limits_free(void *udata, void *ptr);

/* Arms the deadline `ms` milliseconds from now (0 disarms) and clears the
 * sticky flag. */
void sandbox_limits_set_deadline(struct sandbox_limits *l, uint64_t ms);

/* Moves an armed deadline `ms` later (time the host paused it: a person
 * deciding on an approval). No effect when none is armed or it has passed. */
void sandbox_limits_extend_deadline(struct sandbox_limits *l, uint64_t ms);

/* Monotonic clock in nanoseconds. */
uint64_t sandbox_now_ns(void);

/* Records the current stack position as the base of the thread that runs
 * Duktape and the budget it may use below it. */
void sandbox_limits_stack_init(size_t budget);

/* Reseeds the Math.random generator from getrandom(2); call in every fresh
 * worker before the seccomp filter is installed. */
void sandbox_limits_reseed(void);

#endif
