/* Checked allocation: every failure logs and aborts, so callers never see NULL. */
#include "common/alloc.h"
#include "common/log.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t size)
{
    log_msg(LOG_CRITICAL, "alloc", "out of memory allocating %zu bytes", size);
    abort();
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (p == NULL)
        out_of_memory(size);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p == NULL)
        out_of_memory(count * size);
    return p;
}

void *xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (p == NULL)
        out_of_memory(size);
    return p;
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

void alloc_install_cjson_hooks(void)
{
    cJSON_Hooks hooks = {xmalloc, free};
    cJSON_InitHooks(&hooks);
}
