/* Allocation in the host: out of memory is fatal (logged, then abort), as in
 * Redis' zmalloc. The JS heap in the sandbox has its own capped allocator. */
#ifndef COMMON_ALLOC_H
#define COMMON_ALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Installs xmalloc/free as cJSON's allocator. Call once at start-up. */
void alloc_install_cjson_hooks(void);

#endif
