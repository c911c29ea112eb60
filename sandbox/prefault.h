/* Copy-on-write prefaulting for sandbox workers. The zygote records which of
 * its private writable pages are resident (template heap, stack, libraries'
 * data); an idle worker copies them before it waits for a program, so the
 * program's first writes do not each take a page fault on the caller's clock. */
#ifndef SANDBOX_PREFAULT_H
#define SANDBOX_PREFAULT_H

/* Records the resident private writable pages of this process (Linux:
 * /proc/self/maps and mincore). Call once, in the zygote, after the template
 * heap is built. Returns the number of pages recorded (0 where unsupported). */
long sandbox_prefault_record(void);

/* In a forked child: makes every recorded page private now, one
 * MADV_POPULATE_WRITE per range. Cannot fail: a range that is gone, or a
 * kernel before 5.14, is skipped (the program then takes the faults). */
void sandbox_prefault_apply(void);

#endif
