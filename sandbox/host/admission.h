/* Admission of executions (codemode.sandbox.maxWorkers and
 * codemode.sandbox.maxConcurrentPerPrincipal, docs/config.md): how many
 * executions hold a worker at once, in all and per principal; a bounded FIFO
 * queue for the others; and how many of the admitted ones may sit waiting for
 * a person (an approval) while they hold their worker. Bookkeeping only: no
 * loop, no timers; the caller bounds how long a queued execution waits. */
#ifndef SANDBOX_ADMISSION_H
#define SANDBOX_ADMISSION_H

#include <stdint.h>

struct sandbox_admission;
struct sandbox_ticket;

/* Every limit is a count; 0 means no limit. */
struct sandbox_admission_limits {
    unsigned max_active;               /* admitted executions, in all (maxWorkers) */
    unsigned max_per_principal;        /* admitted executions of one principal */
    unsigned max_queued;               /* waiting to be admitted, in all */
    unsigned max_queued_per_principal; /* waiting to be admitted, of one principal */
    unsigned max_holding;              /* admitted ones waiting for a person at once */
};

/* The queue bounds derived from the two settings (docs/config.md): each
 * principal may have SANDBOX_QUEUE_PER_CONCURRENT x maxConcurrentPerPrincipal
 * executions waiting, the server SANDBOX_QUEUE_PER_WORKER x maxWorkers; at
 * most half of maxWorkers (at least 1) executions may wait for an approval. */
#define SANDBOX_QUEUE_PER_CONCURRENT 16
#define SANDBOX_QUEUE_PER_WORKER     32
struct sandbox_admission_limits sandbox_admission_limits_for(unsigned max_workers,
                                                             unsigned max_per_principal);

/* The default of maxWorkers: 4 per CPU, and no more than half the memory
 * (`memory_bytes`, 0: unknown) holds when each worker uses `worker_bytes`
 * (its heap cap plus its engine); at least 2. */
unsigned sandbox_admission_default_workers(unsigned cpus, uint64_t memory_bytes,
                                           uint64_t worker_bytes);

struct sandbox_admission *sandbox_admission_new(const struct sandbox_admission_limits *l);

/* Frees the bookkeeping and the tickets still in it (their callbacks never run). */
void sandbox_admission_free(struct sandbox_admission *a);

const struct sandbox_admission_limits *sandbox_admission_limits(const struct sandbox_admission *a);

enum sandbox_admit {
    SANDBOX_ADMIT_NOW,            /* admitted: start the execution */
    SANDBOX_ADMIT_QUEUED,         /* waits; cb runs when admitted */
    SANDBOX_ADMIT_PRINCIPAL_FULL, /* refused: the principal's queue is full */
    SANDBOX_ADMIT_SERVER_FULL     /* refused: the server's queue is full */
};

typedef void sandbox_admitted_cb(void *ud);

/* Asks to run one execution of `principal`. NOW and QUEUED set *out to the
 * execution's ticket, which the caller gives back with
 * sandbox_admission_leave when the execution ends (or gives up waiting);
 * a refusal sets *out to NULL. `cb` runs only for a QUEUED ticket, once,
 * from inside a later sandbox_admission_leave (of another ticket). */
enum sandbox_admit sandbox_admission_enter(struct sandbox_admission *a, uint64_t principal,
                                           sandbox_admitted_cb *cb, void *ud,
                                           struct sandbox_ticket **out);

/* The execution ended, or stopped waiting: frees t, and admits the queued
 * executions that now fit, oldest first (their callbacks run in here). */
void sandbox_admission_leave(struct sandbox_ticket *t);

/* 1 once the ticket is admitted, 0 while it waits. */
int sandbox_admission_admitted(const struct sandbox_ticket *t);

/* An admitted execution starts (on = 1) or stops (on = 0) waiting for a
 * person while it holds its worker. Starting fails (returns -1, nothing
 * counted) when max_holding executions wait already; the rest always
 * return 0. Holds nest; sandbox_admission_leave drops them. */
int sandbox_admission_hold(struct sandbox_ticket *t, int on);

/* Counts, for tests and messages. principal: that principal's only. */
unsigned sandbox_admission_active(const struct sandbox_admission *a);
unsigned sandbox_admission_queued(const struct sandbox_admission *a);
unsigned sandbox_admission_holding(const struct sandbox_admission *a);
unsigned sandbox_admission_active_of(const struct sandbox_admission *a, uint64_t principal);
unsigned sandbox_admission_queued_of(const struct sandbox_admission *a, uint64_t principal);

#endif
