/* The template heap's own memory: the zygote builds its Duktape template in
 * one reserved region, apart from glibc's heap, so that a forked worker's
 * own allocations never walk free chunks scattered among the template's
 * pages (each such touch was a copy-on-write fault). A worker freezes the
 * zone: it allocates from glibc and never writes to the zone's bookkeeping. */
#ifndef SANDBOX_ZONE_H
#define SANDBOX_ZONE_H

#include <stddef.h>
#include <stdint.h>

/* Reserves the zone (address space only: pages are touched as blocks are
 * handed out). Call once in the zygote before creating the template heap.
 * Returns 0, or -1 when the reservation failed (allocation then stays with
 * glibc, which is correct, only slower in workers). */
int sandbox_zone_enable(void);

/* Stops allocating from the zone and makes sandbox_zone_free a no-op: the
 * zone's blocks stay as the zygote left them, shared with it. Also pins
 * them: Duktape (sandbox/duktape/patches/0006-pinned-refcounts.patch) no
 * longer updates the reference counts of objects in the zone, so a run does
 * not copy the template's pages just to count references; the template's
 * garbage is left to mark-and-sweep. Call first thing in a forked worker. */
void sandbox_zone_freeze(void);

/* 1 while the zone is enabled and not frozen: Duktape then grows property
 * tables by its lean default, not by the run's larger steps (sandbox/duktape/config_overrides.h). */
extern int sandbox__grow_lean;

/* The pinned range, read by Duktape's refcount macros (sandbox/duktape/config_overrides.h). */
extern uintptr_t sandbox__pin_lo, sandbox__pin_len;

/* 1 when new blocks should come from the zone (enabled, not frozen). */
int sandbox_zone_active(void);

/* The part of the zone handed out so far: [*start, *start + *len); len 0
 * when the zone is not enabled. */
void sandbox_zone_extent(uintptr_t *start, size_t *len);

/* 1 when p lies inside the zone (a block it handed out). */
int sandbox_zone_owns(const void *p);

/* A block of at least n bytes, 16-byte aligned, or NULL when the zone is
 * inactive or full (the caller then uses malloc). */
void *sandbox_zone_alloc(size_t n);

/* The usable size of a block requested with n bytes (its size class). */
size_t sandbox_zone_usable(size_t n);

/* Returns block p, requested with n bytes, for reuse; nothing when frozen. */
void sandbox_zone_free(void *p, size_t n);

/* Copies the zone's pages handed out so far into a read-only snapshot that
 * forked workers inherit: a sealed memory file behind a read-only
 * descriptor, read with pread and never mapped, so it adds nothing to any
 * process's resident set. Call in the zygote once the template heap is
 * built, before the first fork; the zone must not change afterwards.
 * Returns 0, or -1 when there is no zone or no memory for the copy
 * (workers then cannot be reused: sandbox_zone_restore fails). */
int sandbox_zone_snapshot(void);

/* The snapshot's descriptor, or -1 when there is none. */
int sandbox_zone_snapshot_fd(void);

/* In a worker that moved the snapshot's descriptor (it closes all others):
 * restore from fd from now on; -1 drops the snapshot (no reuse). */
void sandbox_zone_use_snapshot_fd(int fd);

/* Lets sandbox_zone_restore read which pages this process holds alone from
 * fd, an open /proc/self/pagemap (-1: none; it then compares every page). */
void sandbox_zone_use_pagemap(int fd);

/* In a worker (zone frozen): writes the snapshot's bytes back over every
 * page of the zone that may differ from it, so that the template heap is
 * again byte for byte what the zygote built. With a pagemap, only the pages
 * the worker copied on write (mapped by it alone) are copied back: a page
 * it still shares holds the zygote's bytes, which never change after the
 * snapshot, and a page it never mapped was never touched. Without one, or for a page the pagemap cannot vouch for
 * (swapped out, not mapped), the page is compared with the snapshot.
 * Returns the number of pages written, or -1 when it cannot (no snapshot,
 * or the zone changed after it). */
long sandbox_zone_restore(void);

/* 1 when sandbox_zone_restore can work: a snapshot of the zone as it is. */
int sandbox_zone_restorable(void);

/* 1 when the zone's pages equal the snapshot's (a check for tests and
 * sanitizer builds); 0 when they differ or there is no snapshot. */
int sandbox_zone_pristine(void);

#endif
