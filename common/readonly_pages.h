/* Page-table release of read-only pages once start-up is over: the code and
 * constant data of every loaded object. A process keeps page-table entries
 * for every file page it has touched (and, through the kernel's fault-around,
 * for the cached pages around each one, up to 64 KB), so the code and data
 * only start-up used (the dynamic loader, configuration parsing, building
 * the template: the prelude's source, Duktape's built-in tables) hold its
 * resident set up for good. Dropping the entries once, when start-up is over,
 * leaves the pages in the page cache and maps back, on first use, only what
 * the process goes on using. The host does it when its sandbox is first
 * ready (about 1 MiB less RSS while idle, 0.6 MiB after its first calls
 * have mapped their code back), the zygote once its template is built
 * (about 1.5 MiB less; fork() copies no entries of file pages a process
 * never wrote, so workers lose nothing by it: they fault in what they run).
 * (Mapping all of our code in each worker while it waited for its program,
 * MADV_POPULATE_READ, moved faults off a run's clock, 2-4 fewer in all, but
 * cost more CPU per call than it saved, in mapping and tearing down ~60
 * page-table entries more per worker: 6 interleaved rounds of 2000
 * back-to-back calls, tree CPU per call ~522 -> ~493 us and p50 ~400 ->
 * ~340 us without it. Mapping only the pages a probe run had mapped cost as
 * much: ~531 us.) */
#ifndef COMMON_READONLY_PAGES_H
#define COMMON_READONLY_PAGES_H

/* Unmaps the page-table entries of every loaded object's segments that are
 * never written (code, constant data, symbol tables); they refault on use,
 * from the page cache. Writable segments (and the read-only-after-relocation
 * data inside them) are left alone, and so is every segment of an object
 * with text relocations, whose read-only pages the loader wrote. Failures
 * are ignored (the advice only changes speed). */
void readonly_pages_release(void);

#endif
