/* The zygote's template-heap allocator: one reserved region, a bump pointer,
 * exact-size free lists for small and medium blocks (16-byte steps up to
 * 512 bytes, then four steps per power of two up to 32 KiB) and a first-fit
 * list for larger ones. Frozen in workers: no allocation, no bookkeeping
 * writes, so their copy of the zone's pages stays shared with the zygote. */
#include "sandbox/zone.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RESERVE    ((size_t) 64 << 20)
#define SMALL_MAX  512u
#define MEDIUM_MAX 32768u
#define NCLASSES   (32 + 24)
#define PAGE       4096u
#define SLAB_MAX   256u
#define SLAB_BYTES 4096u

struct large {
    struct large *next;
    size_t size;
};

static struct {
    char *base, *top, *end;
    char *slab[NCLASSES], *slab_end[NCLASSES]; /* each small class carves its own pages */
    void *free_small[NCLASSES];
    struct large *free_large;
    int frozen;
    const char *snap; /* sandbox_zone_snapshot: read-only, shared with the zygote */
    size_t snap_len;  /* whole pages from base */
    int pagemap;      /* /proc/self/pagemap, or -1 (and 0 before sandbox_zone_use_pagemap) */
} Z;

int sandbox_zone_enable(void)
{
    if (Z.base)
        return 0;
    void *p = mmap(NULL, RESERVE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    Z.base = Z.top = p;
    Z.end = Z.base + RESERVE;
    sandbox__grow_lean = 1;
    return 0;
}

uintptr_t sandbox__pin_lo, sandbox__pin_len;
int sandbox__grow_lean; /* read by Duktape's table growth (sandbox/duktape/config_overrides.h) */

void sandbox_zone_freeze(void)
{
    Z.frozen = 1;
    sandbox__grow_lean = 0;
    sandbox__pin_lo = (uintptr_t) Z.base;
    sandbox__pin_len = (uintptr_t) (Z.top - Z.base);
}

void sandbox_zone_extent(uintptr_t *start, size_t *len)
{
    *start = (uintptr_t) Z.base;
    *len = Z.base ? (size_t) (Z.top - Z.base) : 0;
}

int sandbox_zone_active(void)
{
    return Z.base != NULL && !Z.frozen;
}

int sandbox_zone_owns(const void *p)
{
    uintptr_t a = (uintptr_t) p; /* integers: p may point anywhere */
    return a >= (uintptr_t) Z.base && a < (uintptr_t) Z.end;
}

/* The class index of a block of n <= MEDIUM_MAX bytes; its size in *size. */
static unsigned class_of(size_t n, size_t *size)
{
    if (n <= SMALL_MAX) {
        size_t c = n ? (n + 15) / 16 : 1;
        *size = c * 16;
        return (unsigned) c - 1;
    }
    unsigned k = 63u - (unsigned) __builtin_clzll((unsigned long long) (n - 1)); /* 2^k < n */
    size_t step = (size_t) 1 << (k - 2);
    size_t j = (n - ((size_t) 1 << k) + step - 1) / step; /* 1..4 */
    *size = ((size_t) 1 << k) + j * step;
    return 32u + (k - 9u) * 4u + (unsigned) (j - 1);
}

static size_t large_size(size_t n)
{
    return (n + PAGE - 1) & ~(size_t) (PAGE - 1);
}

size_t sandbox_zone_usable(size_t n)
{
    if (n > MEDIUM_MAX)
        return large_size(n);
    size_t size;
    class_of(n, &size);
    return size;
}

static void *bump(size_t size)
{
    if (size > (size_t) (Z.end - Z.top))
        return NULL;
    void *p = Z.top;
    Z.top += size;
    return p;
}

/* Small blocks of one size class come from pages of their own, so that the
 * blocks a run writes to (object headers, with their reference counts)
 * share pages with their kind, not with bytecode and property tables. */
static void *carve(unsigned c, size_t size)
{
    if ((size_t) (Z.slab_end[c] - Z.slab[c]) < size) {
        char *page = bump(SLAB_BYTES);
        if (page == NULL)
            return NULL;
        Z.slab[c] = page;
        Z.slab_end[c] = page + SLAB_BYTES;
    }
    void *p = Z.slab[c];
    Z.slab[c] += size;
    return p;
}

static void *alloc_large(size_t size)
{
    for (struct large **pp = &Z.free_large; *pp; pp = &(*pp)->next) {
        struct large *l = *pp;
        if (l->size == size) {
            *pp = l->next;
            return l;
        }
    }
    return bump(size);
}

void *sandbox_zone_alloc(size_t n)
{
    if (!sandbox_zone_active() || n > RESERVE)
        return NULL;
    if (n > MEDIUM_MAX)
        return alloc_large(large_size(n));
    size_t size;
    unsigned c = class_of(n, &size);
    void *p = Z.free_small[c];
    if (p) {
        Z.free_small[c] = *(void **) p;
        return p;
    }
    return size <= SLAB_MAX ? carve(c, size) : bump(size);
}

void sandbox_zone_free(void *p, size_t n)
{
    if (Z.frozen || p == NULL || !sandbox_zone_owns(p))
        return;
    if (n > MEDIUM_MAX) {
        struct large *l = p;
        l->size = large_size(n);
        l->next = Z.free_large;
        Z.free_large = l;
        return;
    }
    size_t size;
    unsigned c = class_of(n, &size);
    *(void **) p = Z.free_small[c];
    Z.free_small[c] = p;
}

/* --- the snapshot workers restore from --------------------------------------------- */

static size_t used_pages_len(void)
{
    return ((size_t) (Z.top - Z.base) + PAGE - 1) & ~(size_t) (PAGE - 1);
}

/* A descriptor of the memory file fd that can only read it (opened anew
 * through /proc), or -1. */
static int read_only(int fd)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* A read-only shared copy of len bytes at src, through a memory file that
 * this process writes without mapping it for writing; NULL on failure.
 * Every worker restores from it, so none may ever write it: a mapping of
 * a file opened for writing could be made writable with mprotect, which
 * the workers' filter allows for their own memory. The file is sealed
 * against writes and the mapping comes from a read-only descriptor
 * (either one alone suffices; the seal does not stop mprotect on kernels
 * before 6.7, the descriptor needs /proc). */
static const char *shared_copy(const char *src, size_t len)
{
    int fd = memfd_create("mcp-codemode-template", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return NULL;
    size_t done = 0;
    if (ftruncate(fd, (off_t) len) == 0) {
        while (done < len) {
            ssize_t n = write(fd, src + done, len - done);
            if (n <= 0)
                break;
            done += (size_t) n;
        }
    }
    int seals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL;
    int sealed = fcntl(fd, F_ADD_SEALS, seals | F_SEAL_FUTURE_WRITE) == 0 ||
                 fcntl(fd, F_ADD_SEALS, seals) == 0; /* before Linux 5.1 */
    int ro = read_only(fd);
    void *p = MAP_FAILED;
    if (done == len && (ro >= 0 || sealed))
        p = mmap(NULL, len, PROT_READ, MAP_SHARED, ro >= 0 ? ro : fd, 0);
    if (ro >= 0)
        close(ro);
    close(fd);
    if (p == MAP_FAILED)
        return NULL;
    /* A worker reads the few pages it restores: without this, each read
     * fault also maps the 15 pages around it (fault-around), resident in
     * every reused worker for nothing. */
    madvise(p, len, MADV_RANDOM);
    return p;
}

int sandbox_zone_snapshot(void)
{
    if (Z.base == NULL || Z.top == Z.base)
        return -1;
    size_t len = used_pages_len();
    const char *s = shared_copy(Z.base, len);
    if (s == NULL)
        return -1;
    if (Z.snap)
        munmap((void *) Z.snap, Z.snap_len);
    Z.snap = s;
    Z.snap_len = len;
    return 0;
}

/* 1 when the snapshot covers the zone as it is now. */
static int snapshot_current(void)
{
    return Z.snap != NULL && used_pages_len() == Z.snap_len;
}

int sandbox_zone_restorable(void)
{
    return snapshot_current();
}

void sandbox_zone_use_pagemap(int fd)
{
    Z.pagemap = fd;
}

#define PM_PRESENT   (1ull << 63)
#define PM_SWAPPED   (1ull << 62)
#define PM_EXCLUSIVE (1ull << 56) /* mapped by this process only */
#define PM_BATCH     512u

/* Page off of the zone back from the snapshot, given its pagemap entry
 * (have_entry 0: no pagemap). A page the worker shares is the zygote's, a
 * page it never mapped was never touched by it (the zygote's pages are
 * mapped in the worker from its fork on): both are left alone. A page it
 * holds alone is copied back; a swapped-out page is compared first. */
static long restore_page(size_t off, uint64_t entry, int have_entry)
{
    if (have_entry && (entry & PM_PRESENT) && !(entry & PM_EXCLUSIVE))
        return 0;
    if (have_entry && !(entry & (PM_PRESENT | PM_SWAPPED)))
        return 0;
    if (!(have_entry && (entry & PM_PRESENT)) && memcmp(Z.base + off, Z.snap + off, PAGE) == 0)
        return 0;
    memcpy(Z.base + off, Z.snap + off, PAGE);
    return 1;
}

long sandbox_zone_restore(void)
{
    if (!snapshot_current())
        return -1;
    long copied = 0;
    uint64_t entries[PM_BATCH];
    size_t npages = Z.snap_len / PAGE;
    for (size_t first = 0; first < npages; first += PM_BATCH) {
        size_t n = npages - first < PM_BATCH ? npages - first : PM_BATCH;
        off_t at = (off_t) (((uintptr_t) Z.base / PAGE + first) * sizeof entries[0]);
        int have = Z.pagemap > 0 && pread(Z.pagemap, entries, n * sizeof entries[0], at) ==
                                        (ssize_t) (n * sizeof entries[0]);
        for (size_t i = 0; i < n; i++)
            copied += restore_page((first + i) * PAGE, have ? entries[i] : 0, have);
    }
    return copied;
}

int sandbox_zone_pristine(void)
{
    return snapshot_current() && memcmp(Z.base, Z.snap, Z.snap_len) == 0;
}
