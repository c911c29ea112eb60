/* Test helper: this process's /proc/self/pagemap entry for an address, to
 * see whether its page is mapped (bit 63) and mapped by this process alone
 * (bit 56), as the page-table warm-ups of sandbox/ promise. */
#ifndef TESTS_UNIT_PAGEMAP_H
#define TESTS_UNIT_PAGEMAP_H

#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#define PAGEMAP_PRESENT ((uint64_t) 1 << 63)
#define PAGEMAP_EXCLUSIVE ((uint64_t) 1 << 56)

/* The entry for addr's page; 0 when pagemap cannot be read. */
static inline uint64_t pagemap_entry(const void *addr)
{
    int fd = open("/proc/self/pagemap", O_RDONLY);
    uint64_t e = 0;
    if (fd < 0)
        return 0;
    off_t at = (off_t) ((uintptr_t) addr / (uintptr_t) sysconf(_SC_PAGESIZE) * sizeof e);
    if (pread(fd, &e, sizeof e, at) != (ssize_t) sizeof e)
        e = 0;
    close(fd);
    return e;
}

#endif
