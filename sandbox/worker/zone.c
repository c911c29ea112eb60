/* The zygote's template-heap allocator: one reserved region, a bump pointer,
 * exact-size free lists for small and medium blocks (16-byte steps up to
 * 512 bytes, then four steps per power of two up to 32 KiB) and a first-fit
 * list for larger ones. Frozen in workers: no allocation, no bookkeeping
 * writes, so their copy of the zone's pages stays shared with the zygote. */
#include "sandbox/worker/zone.h"

#include <errno.h>
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
    int snap_fd;     /* sandbox_zone_snapshot: a sealed memory file, opened read-only */
    size_t snap_len; /* whole pages from base; 0: no snapshot */
    int pagemap;     /* /proc/self/pagemap, or -1 (and 0 before sandbox_zone_use_pagemap) */
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

/* A memory file holding a copy of len bytes at src, opened read-only, or
 * -1. Every worker restores from it, so none may ever write it: the file
 * is sealed against writes and the descriptor kept is a read-only one
 * (opened anew through /proc); either alone suffices, and without /proc
 * the sealed descriptor is kept. Workers read it with pread and never map
 * it, so no page of it is counted in a worker's resident set. */
static int snapshot_file(const char *src, size_t len)
{
    int fd = memfd_create("mcp-codemode-template", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return -1;
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
    if (done == len && ro >= 0) {
        close(fd);
        return ro;
    }
    if (ro >= 0)
        close(ro);
    if (done == len && sealed)
        return fd;
    close(fd);
    return -1;
}

int sandbox_zone_snapshot(void)
{
    if (Z.base == NULL || Z.top == Z.base)
        return -1;
    size_t len = used_pages_len();
    int fd = snapshot_file(Z.base, len);
    if (fd < 0)
        return -1;
    if (Z.snap_len)
        close(Z.snap_fd);
    Z.snap_fd = fd;
    Z.snap_len = len;
    return 0;
}

int sandbox_zone_snapshot_fd(void)
{
    return Z.snap_len ? Z.snap_fd : -1;
}

void sandbox_zone_use_snapshot_fd(int fd)
{
    if (fd < 0)
        Z.snap_len = 0;
    else
        Z.snap_fd = fd;
}

/* Reads len bytes of the snapshot from offset off into dst; 0 when all
 * arrived. */
static int snapshot_read(void *dst, size_t len, size_t off)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = pread(Z.snap_fd, (char *) dst + done, len - done, (off_t) (off + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        done += (size_t) n;
    }
    return 0;
}

/* 1 when the snapshot covers the zone as it is now. */
static int snapshot_current(void)
{
    return Z.snap_len != 0 && used_pages_len() == Z.snap_len;
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

/* What page off of the zone needs, given its pagemap entry (have_entry 0:
 * no pagemap). A page the worker shares is the zygote's, a page it never
 * mapped was never touched by it (the zygote's pages are mapped in the
 * worker from its fork on): both are left alone. A page it holds alone is
 * copied back; any other (swapped out, or no pagemap) is compared first. */
enum page_need { PAGE_KEEP, PAGE_COPY, PAGE_COMPARE };

static enum page_need page_need(uint64_t entry, int have_entry)
{
    if (!have_entry)
        return PAGE_COMPARE;
    if (entry & PM_PRESENT)
        return (entry & PM_EXCLUSIVE) ? PAGE_COPY : PAGE_KEEP;
    return (entry & PM_SWAPPED) ? PAGE_COMPARE : PAGE_KEEP;
}

/* Pages of the zone that need the same thing, next to each other: read
 * from the snapshot together. */
struct page_run {
    size_t first, n;
    enum page_need need;
};

#define COMPARE_CHUNK 8u /* pages compared per read */

/* Writes the run's pages back from the snapshot: all of them (PAGE_COPY),
 * or those that differ from it (PAGE_COMPARE). The number of pages written,
 * or -1 when the snapshot cannot be read. */
static long write_back(const struct page_run *r)
{
    if (r->n == 0 || r->need == PAGE_KEEP)
        return 0;
    if (r->need == PAGE_COPY) {
        char *at = Z.base + r->first * PAGE;
        return snapshot_read(at, r->n * PAGE, r->first * PAGE) == 0 ? (long) r->n : -1;
    }
    long written = 0;
    char buf[COMPARE_CHUNK * PAGE];
    for (size_t done = 0; done < r->n; done += COMPARE_CHUNK) {
        size_t k = r->n - done < COMPARE_CHUNK ? r->n - done : COMPARE_CHUNK;
        char *at = Z.base + (r->first + done) * PAGE;
        if (snapshot_read(buf, k * PAGE, (r->first + done) * PAGE) != 0)
            return -1;
        for (size_t i = 0; i < k; i++) {
            if (memcmp(at + i * PAGE, buf + i * PAGE, PAGE) != 0) {
                memcpy(at + i * PAGE, buf + i * PAGE, PAGE);
                written++;
            }
        }
    }
    return written;
}

long sandbox_zone_restore(void)
{
    if (!snapshot_current())
        return -1;
    long copied = 0;
    uint64_t entries[PM_BATCH];
    size_t npages = Z.snap_len / PAGE;
    struct page_run run = {0, 0, PAGE_KEEP};
    for (size_t first = 0; first < npages; first += PM_BATCH) {
        size_t n = npages - first < PM_BATCH ? npages - first : PM_BATCH;
        off_t at = (off_t) (((uintptr_t) Z.base / PAGE + first) * sizeof entries[0]);
        int have = Z.pagemap > 0 && pread(Z.pagemap, entries, n * sizeof entries[0], at) ==
                                        (ssize_t) (n * sizeof entries[0]);
        for (size_t i = 0; i < n; i++) {
            size_t page = first + i;
            enum page_need need = page_need(have ? entries[i] : 0, have);
            if (need == run.need && run.first + run.n == page) {
                run.n++;
                continue;
            }
            long w = write_back(&run);
            if (w < 0)
                return -1;
            copied += w;
            run = (struct page_run){page, 1, need};
        }
    }
    long w = write_back(&run);
    return w < 0 ? -1 : copied + w;
}

int sandbox_zone_pristine(void)
{
    if (!snapshot_current())
        return 0;
    char buf[4 * PAGE];
    for (size_t off = 0; off < Z.snap_len; off += sizeof buf) {
        size_t n = Z.snap_len - off < sizeof buf ? Z.snap_len - off : sizeof buf;
        if (snapshot_read(buf, n, off) != 0 || memcmp(Z.base + off, buf, n) != 0)
            return 0;
    }
    return 1;
}
