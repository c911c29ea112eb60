/* Page-table warm-up of code for forked workers. fork() copies no page-table
 * entries for file-backed code, so each worker faults in, one 64 KB window
 * at a time, every code page its run touches (~2 us a fault here). The
 * zygote drops the code mappings it no longer needs (its resident set), and
 * each worker maps the whole of our own code in one call while it waits for
 * its program, off the caller's clock. */
#ifndef SANDBOX_CODE_PAGES_H
#define SANDBOX_CODE_PAGES_H

/* In the zygote, once the template is built: records where the executable's
 * own code lies (for sandbox_code_pages_populate) and unmaps the page-table
 * entries of every loaded object's code segments; they refault on use, from
 * the page cache. Failures are ignored (the advice only changes speed). */
void sandbox_code_pages_release(void);

/* In a worker before its run: maps the executable's code pages recorded by
 * the zygote (MADV_POPULATE_READ, Linux 5.14+; a no-op elsewhere). Makes
 * only the madvise system call. */
void sandbox_code_pages_populate(void);

#endif
