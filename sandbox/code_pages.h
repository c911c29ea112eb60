/* Page-table release of code in the zygote. fork() copies no page-table
 * entries of file-backed code, so the entries of the code the zygote ran
 * to build the template only hold its resident set up (~0.95 MiB); it drops
 * them once it is ready. Workers fault in the code they run, one 64 KB
 * window at a time. (Mapping all of our code in each worker while it waited
 * for its program, MADV_POPULATE_READ, moved faults off a run's clock, 2-4
 * fewer in all, but cost more CPU per call than it saved, in mapping and
 * tearing down ~60 page-table entries more per worker: 6 interleaved
 * rounds of 2000 back-to-back calls, tree CPU per call ~522 -> ~493 us and
 * p50 ~400 -> ~340 us without it. Mapping only the pages a probe run had
 * mapped cost as much: ~531 us.) */
#ifndef SANDBOX_CODE_PAGES_H
#define SANDBOX_CODE_PAGES_H

/* In the zygote, once the template is built: unmaps the page-table entries
 * of every loaded object's code segments; they refault on use, from the
 * page cache. Failures are ignored (the advice only changes speed). */
void sandbox_code_pages_release(void);

#endif
