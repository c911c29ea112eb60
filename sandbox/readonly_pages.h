/* Page-table release of read-only pages in the zygote: the code and
 * constant data of every loaded object. fork() copies no page-table entries
 * of file-backed pages a process never wrote, so the entries the zygote
 * made while building the template (the prelude's source, Duktape's
 * built-in tables, start-up code) only hold its resident set up, by about
 * 1.5 MiB; it drops them once it is ready and faults back in, from the page
 * cache, the little its command loop uses. Workers fault in what they run,
 * one 64 KB window at a time. (Mapping all of our code in each worker while
 * it waited for its program, MADV_POPULATE_READ, moved faults off a run's
 * clock, 2-4 fewer in all, but cost more CPU per call than it saved, in
 * mapping and tearing down ~60 page-table entries more per worker: 6
 * interleaved rounds of 2000 back-to-back calls, tree CPU per call ~522 ->
 * ~493 us and p50 ~400 -> ~340 us without it. Mapping only the pages a
 * probe run had mapped cost as much: ~531 us.) */
#ifndef SANDBOX_READONLY_PAGES_H
#define SANDBOX_READONLY_PAGES_H

/* In the zygote, once the template is built: unmaps the page-table entries
 * of every loaded object's segments that are never written (code, constant
 * data, symbol tables); they refault on use, from the page cache. Writable
 * segments, and the read-only-after-relocation data inside them, are left
 * alone. Failures are ignored (the advice only changes speed). */
void sandbox_readonly_pages_release(void);

#endif
