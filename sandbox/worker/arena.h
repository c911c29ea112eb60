/* A run's small-block allocator: size-class free lists carved from a few
 * large chunks, for the many short-lived blocks a Duktape heap allocates
 * while it compiles and runs one program (objects, property tables, strings,
 * environments: ~70,000 blocks for a 200-line program). Cheaper than glibc's
 * malloc and free for these, and all of it is returned at once when the heap
 * is destroyed (its chunks kept for the next heap of the thread). The
 * arena's chunks are bounded (ARENA_BUDGET); past that, and
 * for blocks over ARENA_MAX bytes, the caller uses malloc. */
#ifndef SANDBOX_ARENA_H
#define SANDBOX_ARENA_H

#include <stddef.h>

#define ARENA_MAX 1024u                 /* largest block (bytes) served by the arena */
#define ARENA_CLASSES (ARENA_MAX / 16u) /* 16-byte steps */
#define ARENA_BUDGET ((size_t) 16 << 20) /* total bytes of chunks, at most */

struct arena_chunk;

struct sandbox_arena {
    void *free[ARENA_CLASSES];  /* per class, a list through each block's first word */
    char *top, *end;            /* the current chunk's unused part */
    struct arena_chunk *chunks; /* every chunk, newest first */
    size_t chunk_bytes;         /* sum of the chunks' sizes */
};

/* A block of at least n bytes (n <= ARENA_MAX), 16-byte aligned, or NULL when
 * n is too large or the budget is spent (then use malloc). */
void *sandbox_arena_alloc(struct sandbox_arena *a, size_t n);

/* Returns a block of n bytes (the n it was allocated with) to its class. */
void sandbox_arena_free(struct sandbox_arena *a, void *p, size_t n);

/* The usable size of a block allocated with n bytes. */
size_t sandbox_arena_usable(size_t n);

/* Frees every chunk; the arena is empty and reusable afterwards. */
void sandbox_arena_release(struct sandbox_arena *a);

#endif
