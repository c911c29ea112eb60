/* Page-table release of read-only pages: code and constant data, dropped
 * once start-up is over. See readonly_pages.h for why. */
#include "common/readonly_pages.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Page-aligned [start, start + len) of a segment. */
static void segment_span(const struct dl_phdr_info *info, const ElfW(Phdr) * ph, uintptr_t *start,
                         size_t *len)
{
    uintptr_t page = (uintptr_t) sysconf(_SC_PAGESIZE);
    uintptr_t lo = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
    uintptr_t hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + page - 1) & ~(page - 1);
    *start = lo;
    *len = hi - lo;
}

static int is_vdso(const struct dl_phdr_info *info)
{
    return info->dlpi_name && strstr(info->dlpi_name, "vdso") != NULL;
}

/* 1 when the object has text relocations: the loader made its read-only
 * segments writable to relocate them, so their pages are its own now. */
static int has_text_relocations(const struct dl_phdr_info *info)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_DYNAMIC)
            continue;
        for (const ElfW(Dyn) *d = (const ElfW(Dyn) *) (info->dlpi_addr + ph->p_vaddr);
             d->d_tag != DT_NULL; d++)
            if (d->d_tag == DT_TEXTREL || (d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_TEXTREL)))
                return 1;
    }
    return 0;
}

/* Segments loaded without write permission are never written (RELRO lies
 * inside a writable segment), so dropping their entries loses nothing:
 * they come back from the page cache. */
static int release_object(struct dl_phdr_info *info, size_t size, void *unused)
{
    (void) size;
    (void) unused;
    if (is_vdso(info) || has_text_relocations(info))
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
            continue;
        uintptr_t start;
        size_t len;
        segment_span(info, ph, &start, &len);
        madvise((void *) start, len, MADV_DONTNEED);
    }
    return 0;
}

void readonly_pages_release(void)
{
    dl_iterate_phdr(release_object, NULL);
}
