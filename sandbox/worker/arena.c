/* A run's small-block allocator (see arena.h): exact 16-byte size classes,
 * each with a free list; new blocks are bumped from the current chunk, and
 * chunks double in size from 32 KiB to 1 MiB. Released chunks are kept (up
 * to CACHE_MAX bytes per thread) for the next heap of the same process, as
 * malloc keeps freed memory: otherwise each new heap would fault its pages
 * in again (~250 page faults for a 200-line program). */
#include "sandbox/worker/arena.h"

#include <stdint.h>
#include <stdlib.h>

#define CHUNK_MIN ((size_t) 32 << 10)
#define CHUNK_MAX ((size_t) 1 << 20)
#define CACHE_MAX ((size_t) 4 << 20)

struct arena_chunk {
    struct arena_chunk *next;
    size_t size;
    /* padded to 16 bytes: blocks follow */
};

#define CHUNK_HDR ((sizeof(struct arena_chunk) + 15) & ~(size_t) 15)

static _Thread_local struct arena_chunk *cache; /* released chunks, any size */
static _Thread_local size_t cache_bytes;

/* The smallest cached chunk of want to max bytes, or NULL. */
static struct arena_chunk *from_cache(size_t want, size_t max)
{
    struct arena_chunk **best = NULL;
    for (struct arena_chunk **pp = &cache; *pp; pp = &(*pp)->next)
        if ((*pp)->size >= want && (*pp)->size <= max && (best == NULL || (*pp)->size < (*best)->size))
            best = pp;
    if (best == NULL)
        return NULL;
    struct arena_chunk *c = *best;
    *best = c->next;
    cache_bytes -= c->size;
    return c;
}

static unsigned class_of(size_t n)
{
    return n ? (unsigned) ((n - 1) / 16) : 0;
}

size_t sandbox_arena_usable(size_t n)
{
    return ((size_t) class_of(n) + 1) * 16;
}

/* Starts a new chunk; the rest of the old one is left unused (less than
 * ARENA_MAX bytes per chunk). */
static int grow(struct sandbox_arena *a)
{
    size_t want = a->chunks ? a->chunks->size * 2 : CHUNK_MIN;
    if (want > CHUNK_MAX)
        want = CHUNK_MAX;
    if (a->chunk_bytes + want > ARENA_BUDGET)
        return -1;
    struct arena_chunk *c = from_cache(want, ARENA_BUDGET - a->chunk_bytes);
    if (c)
        want = c->size;
    else if ((c = malloc(want)) == NULL)
        return -1;
    c->next = a->chunks;
    c->size = want;
    a->chunks = c;
    a->chunk_bytes += want;
    a->top = (char *) c + CHUNK_HDR;
    a->end = (char *) c + want;
    return 0;
}

void *sandbox_arena_alloc(struct sandbox_arena *a, size_t n)
{
    if (n > ARENA_MAX)
        return NULL;
    unsigned c = class_of(n);
    void *p = a->free[c];
    if (p) {
        a->free[c] = *(void **) p;
        return p;
    }
    size_t size = ((size_t) c + 1) * 16;
    if ((size_t) (a->end - a->top) < size && grow(a) != 0)
        return NULL;
    p = a->top;
    a->top += size;
    return p;
}

void sandbox_arena_free(struct sandbox_arena *a, void *p, size_t n)
{
    unsigned c = class_of(n);
    *(void **) p = a->free[c];
    a->free[c] = p;
}

void sandbox_arena_release(struct sandbox_arena *a)
{
    struct arena_chunk *c = a->chunks;
    while (c) {
        struct arena_chunk *next = c->next;
        if (cache_bytes + c->size <= CACHE_MAX) {
            c->next = cache;
            cache = c;
            cache_bytes += c->size;
        } else {
            free(c);
        }
        c = next;
    }
    for (unsigned i = 0; i < ARENA_CLASSES; i++)
        a->free[i] = NULL;
    a->top = a->end = NULL;
    a->chunks = NULL;
    a->chunk_bytes = 0;
}
