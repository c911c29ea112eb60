/* Copy-on-write warm-up of the template heap: the zygote reads a probe
 * child's pagemap to learn which of its pages a run writes; workers copy
 * them before their run. See warm_pages.h. */
#include "sandbox/worker/warm_pages.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_PAGES 512
#define PM_PRESENT ((uint64_t) 1 << 63)
#define PM_EXCLUSIVE ((uint64_t) 1 << 56)
#define BATCH 512 /* pagemap entries read at once */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static uintptr_t pages[MAX_PAGES];
static int npages;

/* Records the pages of [lo, hi) that are present and exclusively mapped in
 * the process whose pagemap is fd. */
static void scan(int fd, uintptr_t lo, uintptr_t hi, uintptr_t page)
{
    uint64_t entry[BATCH];
    for (uintptr_t at = lo; at < hi && npages < MAX_PAGES;) {
        size_t want = (size_t) ((hi - at) / page);
        if (want > BATCH)
            want = BATCH;
        ssize_t n = pread(fd, entry, want * sizeof entry[0], (off_t) (at / page * sizeof entry[0]));
        if (n <= 0)
            return;
        size_t got = (size_t) n / sizeof entry[0];
        for (size_t i = 0; i < got && npages < MAX_PAGES; i++)
            if ((entry[i] & (PM_PRESENT | PM_EXCLUSIVE)) == (PM_PRESENT | PM_EXCLUSIVE))
                pages[npages++] = at + i * page;
        at += got * page;
    }
}

int sandbox_warm_pages_learn(pid_t pid, uintptr_t start, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/pagemap", (int) pid);
    npages = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uintptr_t page = (uintptr_t) sysconf(_SC_PAGESIZE);
    scan(fd, start & ~(page - 1), (start + len + page - 1) & ~(page - 1), page);
    close(fd);
    return npages;
}

/* Makes [start, start + len) this process's own: one madvise for the range
 * (no read fault first on a page not yet mapped, no fault exceptions), or,
 * before Linux 5.14, a write of each page's first byte with its own value. */
static void own(uintptr_t start, size_t len, uintptr_t page)
{
    if (madvise((void *) start, len, MADV_POPULATE_WRITE) == 0)
        return;
    for (uintptr_t at = start; at < start + len; at += page) {
        volatile char *p = (volatile char *) at;
        *p = *p;
    }
}

void sandbox_warm_pages_touch(void)
{
    uintptr_t page = (uintptr_t) sysconf(_SC_PAGESIZE);
    for (int i = 0; i < npages;) {
        int j = i + 1;
        while (j < npages && pages[j] == pages[j - 1] + page)
            j++;
        own(pages[i], (size_t) (j - i) * page, page);
        i = j;
    }
}

int sandbox_warm_pages_count(void)
{
    return npages;
}
