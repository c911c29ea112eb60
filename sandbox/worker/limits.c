/* Engine-side limits: capped allocator, sticky deadline, native stack check
 * and Math.random. The three sandbox__ hooks are called by the Duktape build
 * configured in sandbox/duktape/config_overrides.h. */
#include "sandbox/worker/limits.h"
#include "sandbox/worker/zone.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

/* Every block carries a 16-byte header (keeps 16-byte alignment): its size,
 * then where it came from. A block from malloc has two links before its
 * header, in the list of such blocks (sandbox_limits_reset frees them). */
#define HDR 16
enum { FROM_ZONE = 0, FROM_ARENA = 1, FROM_MALLOC = 2 };

struct limits_block {
    struct limits_block *prev, *next;
};
#define LINK sizeof(struct limits_block)

/* AddressSanitizer cannot see overflows or uses after free inside the
 * arena's chunks: sanitizer builds take every block from malloc. */
#if defined(__SANITIZE_ADDRESS__)
#define USE_ARENA 0
#else
#define USE_ARENA 1
#endif

void sandbox_limits_init(struct sandbox_limits *l, size_t mem_cap)
{
    memset(l, 0, sizeof *l);
    l->mem_cap = mem_cap;
}

static void free_malloced(struct sandbox_limits *l)
{
    struct limits_block *b = l->blocks;
    while (b) {
        struct limits_block *next = b->next;
        free(b);
        b = next;
    }
    l->blocks = NULL;
}

void sandbox_limits_release(struct sandbox_limits *l)
{
    sandbox_arena_release(&l->arena);
    free_malloced(l);
}

void sandbox_limits_reset(struct sandbox_limits *l, size_t mem_used)
{
    sandbox_limits_release(l);
    l->mem_used = l->mem_peak = mem_used;
    l->mem_cap = 0;
    l->deadline_ns = 0;
    l->timed_out = l->alloc_failed = 0;
    l->timeout_line = 0;
}

static int over_cap(struct sandbox_limits *l, size_t grow)
{
    if (l->mem_cap == 0)
        return 0;
    if (grow > l->mem_cap || l->mem_used > l->mem_cap - grow) {
        l->alloc_failed = 1;
        return 1;
    }
    return 0;
}

static void put_hdr(unsigned char *p, size_t size, size_t origin)
{
    memcpy(p, &size, sizeof size);
    memcpy(p + sizeof size, &origin, sizeof origin);
}

static size_t hdr_size(const unsigned char *p)
{
    size_t size;
    memcpy(&size, p, sizeof size);
    return size;
}

static size_t hdr_origin(const unsigned char *p)
{
    size_t origin;
    memcpy(&origin, p + sizeof origin, sizeof origin);
    return origin;
}

static void link_block(struct sandbox_limits *l, struct limits_block *b)
{
    b->prev = NULL;
    b->next = l->blocks;
    if (l->blocks)
        l->blocks->prev = b;
    l->blocks = b;
}

static void unlink_block(struct sandbox_limits *l, struct limits_block *b)
{
    if (b->prev)
        b->prev->next = b->next;
    else
        l->blocks = b->next;
    if (b->next)
        b->next->prev = b->prev;
}

/* A block of n bytes (header included) from malloc, linked; its header's address. */
static unsigned char *malloc_linked(struct sandbox_limits *l, size_t n)
{
    if (n > SIZE_MAX - LINK)
        return NULL;
    struct limits_block *b = malloc(LINK + n);
    if (b == NULL)
        return NULL;
    link_block(l, b);
    return (unsigned char *) (b + 1);
}

static struct limits_block *block_of(unsigned char *hdr)
{
    return (struct limits_block *) hdr - 1;
}

/* n bytes (header included): from the zygote's zone while it builds the
 * template heap, else from the run's arena when small, else from malloc. */
static unsigned char *raw_alloc(struct sandbox_limits *l, size_t n, size_t *origin)
{
    unsigned char *p = sandbox_zone_alloc(n);
    *origin = FROM_ZONE;
    if (p)
        return p;
    if (USE_ARENA && n <= ARENA_MAX && !sandbox_zone_active()) {
        p = sandbox_arena_alloc(&l->arena, n);
        if (p) {
            *origin = FROM_ARENA;
            return p;
        }
    }
    *origin = FROM_MALLOC;
    return malloc_linked(l, n);
}

static void raw_free(struct sandbox_limits *l, unsigned char *p, size_t n, size_t origin)
{
    if (origin == FROM_ARENA) {
        sandbox_arena_free(&l->arena, p, n);
    } else if (origin == FROM_MALLOC) {
        struct limits_block *b = block_of(p);
        unlink_block(l, b);
        free(b);
    } else {
        sandbox_zone_free(p, n); /* a no-op in a worker: the page stays shared */
    }
}

/* Resizes a malloc'd block (header at p) to n bytes, header included. */
static unsigned char *malloc_resize(struct sandbox_limits *l, unsigned char *p, size_t n)
{
    struct limits_block *b = block_of(p);
    if (n > SIZE_MAX - LINK)
        return NULL;
    unlink_block(l, b);
    struct limits_block *q = realloc(b, LINK + n);
    link_block(l, q ? q : b); /* on failure the old block stays, and stays listed */
    return q ? (unsigned char *) (q + 1) : NULL;
}

void *sandbox_limits_alloc(void *udata, size_t size)
{
    struct sandbox_limits *l = udata;
    if (size > SIZE_MAX - HDR || over_cap(l, size))
        return NULL;
    size_t origin;
    unsigned char *p = raw_alloc(l, size + HDR, &origin);
    if (p == NULL)
        return NULL;
    put_hdr(p, size, origin);
    l->mem_used += size;
    if (l->mem_used > l->mem_peak)
        l->mem_peak = l->mem_used;
    return p + HDR;
}

void sandbox_limits_free(void *udata, void *ptr)
{
    struct sandbox_limits *l = udata;
    if (ptr == NULL)
        return;
    unsigned char *p = (unsigned char *) ptr - HDR;
    size_t size = hdr_size(p);
    l->mem_used -= size;
    raw_free(l, p, size + HDR, hdr_origin(p));
}

/* Resizes a block of the zone or the arena: in place within its size class
 * (the zone's only while it is active), else moved. */
static unsigned char *class_realloc(struct sandbox_limits *l, unsigned char *p, size_t old,
                                    size_t size)
{
    size_t origin = hdr_origin(p);
    if (origin == FROM_ARENA ? size + HDR <= sandbox_arena_usable(old + HDR)
                             : sandbox_zone_active() && size + HDR <= sandbox_zone_usable(old + HDR))
        return p;
    size_t new_origin;
    unsigned char *q = raw_alloc(l, size + HDR, &new_origin);
    if (q == NULL)
        return NULL;
    memcpy(q, p, (old < size ? old : size) + HDR);
    put_hdr(q, old, new_origin);
    raw_free(l, p, old + HDR, origin);
    return q;
}

void *sandbox_limits_realloc(void *udata, void *ptr, size_t size)
{
    struct sandbox_limits *l = udata;
    if (ptr == NULL)
        return sandbox_limits_alloc(udata, size);
    if (size == 0) {
        sandbox_limits_free(udata, ptr);
        return NULL;
    }
    unsigned char *p = (unsigned char *) ptr - HDR;
    size_t old = hdr_size(p);
    if (size > SIZE_MAX - HDR || (size > old && over_cap(l, size - old)))
        return NULL;
    unsigned char *q = hdr_origin(p) == FROM_MALLOC ? malloc_resize(l, p, size + HDR)
                                                    : class_realloc(l, p, old, size);
    if (q == NULL)
        return NULL;
    memcpy(q, &size, sizeof size);
    l->mem_used = l->mem_used - old + size;
    if (l->mem_used > l->mem_peak)
        l->mem_peak = l->mem_used;
    return q + HDR;
}

uint64_t sandbox_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

void sandbox_limits_set_deadline(struct sandbox_limits *l, uint64_t ms)
{
    l->timed_out = 0;
    l->timeout_line = 0;
    l->deadline_ns = ms ? sandbox_now_ns() + ms * 1000000u : 0;
}

void sandbox_limits_extend_deadline(struct sandbox_limits *l, uint64_t ms)
{
    if (l->deadline_ns && !l->timed_out)
        l->deadline_ns += ms * 1000000u;
}

int sandbox__exec_timeout_check(void *udata);
int sandbox__exec_timeout_check(void *udata)
{
    struct sandbox_limits *l = udata;
    if (l == NULL)
        return 0;
    if (l->timed_out)
        return 1;
    if (l->deadline_ns && sandbox_now_ns() >= l->deadline_ns)
        l->timed_out = 1;
    return l->timed_out;
}

/* Called by the patched executor when a timeout fires, innermost frame first;
 * accepts (returns 1) the first frame of the user's program. */
int sandbox__timeout_site(void *udata, const char *file, long line);
int sandbox__timeout_site(void *udata, const char *file, long line)
{
    struct sandbox_limits *l = udata;
    if (l == NULL || l->timeout_line)
        return 1;
    if (file == NULL || strcmp(file, SANDBOX_PROGRAM_FILE) != 0)
        return 0;
    l->timeout_line = line;
    return 1;
}

/* --- native stack ----------------------------------------------------------- */

static uintptr_t stack_base, stack_budget;

void sandbox_limits_stack_init(size_t budget)
{
    char here;
    stack_base = (uintptr_t) &here;
    stack_budget = budget;
}

int sandbox__native_stack_check(void);
int sandbox__native_stack_check(void)
{
    char here;
    if (stack_base == 0)
        return 0;
    uintptr_t now = (uintptr_t) &here;
    return now < stack_base && stack_base - now > stack_budget;
}

/* --- Math.random: xoshiro256+ ------------------------------------------------ */

static uint64_t rng[4] = {0x9E3779B97F4A7C15u, 0xBF58476D1CE4E5B9u, 0x94D049BB133111EBu, 1};

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void sandbox_limits_reseed(void)
{
    uint64_t seed[4];
    if (getrandom(seed, sizeof seed, 0) == (ssize_t) sizeof seed) {
        memcpy(rng, seed, sizeof rng);
    } else {
        uint64_t t = sandbox_now_ns();
        for (int i = 0; i < 4; i++)
            rng[i] ^= t * (uint64_t) (i + 1) + (uint64_t) i;
    }
    if ((rng[0] | rng[1] | rng[2] | rng[3]) == 0)
        rng[0] = 1;
}

double sandbox__random_double(void *udata);
double sandbox__random_double(void *udata)
{
    uint64_t r = rng[0] + rng[3];
    uint64_t t = rng[1] << 17;
    rng[2] ^= rng[0];
    rng[3] ^= rng[1];
    rng[1] ^= rng[2];
    rng[0] ^= rng[3];
    rng[2] ^= t;
    rng[3] = rotl(rng[3], 45);
    return (double) (r >> 11) * 0x1.0p-53;
}
