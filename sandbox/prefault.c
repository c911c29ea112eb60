/* Copy-on-write prefaulting: the zygote's resident private writable ranges,
 * recorded once, and made private in each worker while it is idle. A trivial
 * program otherwise takes ~45 copy-on-write faults (~3 us each in a VM) on
 * the critical path of every execution. Needs MADV_POPULATE_WRITE (Linux
 * 5.14); on older kernels it does nothing: touching the pages by hand could
 * write into a mapping that replaced a recorded one. */
#include "sandbox/prefault.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Under AddressSanitizer thousands of shadow pages would be copied per
 * worker for no gain: sanitizer builds do not prefault. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define MAX_RANGES  256
#define CHUNK_PAGES 1024
/* Bigger mappings are reservations (sanitizer shadow, arenas), not template. */
#define MAX_MAPPING_BYTES (64ul << 20)
/* Bounds the work an idle worker does (16 MiB of 4 KiB pages). */
#define MAX_PAGES 4096

struct range {
    uintptr_t start, end;
};

static struct range ranges[MAX_RANGES];
static int nranges;
static long npages;

static void add_range(uintptr_t start, uintptr_t end)
{
    if (npages >= MAX_PAGES)
        return;
    if (nranges > 0 && ranges[nranges - 1].end == start) {
        ranges[nranges - 1].end = end;
    } else if (nranges < MAX_RANGES) {
        ranges[nranges].start = start;
        ranges[nranges].end = end;
        nranges++;
    } else {
        return;
    }
    npages += (long) ((end - start) / (uintptr_t) sysconf(_SC_PAGESIZE));
}

/* Adds the resident runs of pages in [start, end), CHUNK_PAGES at a time. */
static void add_resident(uintptr_t start, uintptr_t end, uintptr_t page)
{
    static unsigned char vec[CHUNK_PAGES];
    for (uintptr_t at = start; at < end;) {
        uintptr_t stop = end - at > CHUNK_PAGES * page ? at + CHUNK_PAGES * page : end;
        size_t n = (size_t) ((stop - at) / page);
        if (mincore((void *) at, stop - at, vec) != 0)
            return;
        for (size_t i = 0; i < n; i++)
            if (vec[i] & 1)
                add_range(at + i * page, at + (i + 1) * page);
        at = stop;
    }
}

long sandbox_prefault_record(void)
{
    nranges = 0;
    npages = 0;
    if (SANITIZED)
        return 0;
    FILE *f = fopen("/proc/self/maps", "re");
    if (f == NULL)
        return 0;
    uintptr_t page = (uintptr_t) sysconf(_SC_PAGESIZE);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long start, end;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3 && strcmp(perms, "rw-p") == 0 &&
            end - start <= MAX_MAPPING_BYTES)
            add_resident(start, end, page);
    }
    fclose(f);
    return npages;
}

void sandbox_prefault_apply(void)
{
    for (int i = 0; i < nranges; i++)
        madvise((void *) ranges[i].start, ranges[i].end - ranges[i].start, MADV_POPULATE_WRITE);
}
