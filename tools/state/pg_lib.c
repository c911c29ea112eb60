/* Loads libpq on first use (tools/state/pg_lib.h): dlopen of libpq.so.5 (or
 * of $MCP_CODEMODE_LIBPQ), one dlsym per function. Never unloaded: libpq
 * and OpenSSL do not support it. */
#include "tools/state/pg_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PG_SONAME "libpq.so.5"

static struct pg_lib lib;
static int loaded;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define SLOT(field)                                                                                \
    {                                                                                              \
        "PQ" #field, offsetof(struct pg_lib, field)                                                \
    }
static const struct {
    const char *symbol;
    size_t offset;
} slots[] = {
    SLOT(connectStartParams),
    SLOT(connectPoll),
    SLOT(status),
    SLOT(socket),
    SLOT(errorMessage),
    SLOT(finish),
    SLOT(execParams),
    SLOT(exec),
    SLOT(resultStatus),
    SLOT(resultErrorField),
    SLOT(resultErrorMessage),
    SLOT(ntuples),
    SLOT(getvalue),
    SLOT(getlength),
    SLOT(getisnull),
    SLOT(cmdTuples),
    SLOT(clear),
    SLOT(conninfoParse),
    SLOT(conninfoFree),
    SLOT(freemem),
    SLOT(isthreadsafe),
    SLOT(setnonblocking),
    SLOT(consumeInput),
    SLOT(notifies),
    SLOT(isBusy),
    SLOT(getResult),
    SLOT(sendQueryParams),
    SLOT(flush),
    SLOT(transactionStatus),
};

/* Loaded when the library has them (libpq 14 and later). */
static const struct {
    const char *symbol;
    size_t offset;
} optional[] = {
    SLOT(enterPipelineMode),
    SLOT(pipelineSync),
};

static const char *library(void)
{
    const char *env = getenv("MCP_CODEMODE_LIBPQ");
    return env && *env ? env : PG_SONAME;
}

static const struct pg_lib *load_locked(char *err, size_t errlen)
{
    if (loaded)
        return &lib;
    void *h = dlopen(library(), RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        snprintf(err, errlen, "cannot load %s (needed for codemode.store on PostgreSQL): %s",
                 library(), dlerror());
        return NULL;
    }
    struct pg_lib l = {0};
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
        void *sym = dlsym(h, slots[i].symbol);
        if (sym == NULL) {
            snprintf(err, errlen,
                     "cannot load %s (needed for codemode.store on PostgreSQL): missing symbol %s",
                     library(), slots[i].symbol);
            dlclose(h);
            return NULL;
        }
        memcpy((char *) &l + slots[i].offset, &sym, sizeof sym);
    }
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++) {
        void *sym = dlsym(h, optional[i].symbol);
        memcpy((char *) &l + optional[i].offset, &sym, sizeof sym);
    }
    lib = l;
    loaded = 1;
    return &lib;
}

const struct pg_lib *pg_lib_load(char *err, size_t errlen)
{
    pthread_mutex_lock(&lock);
    const struct pg_lib *l = load_locked(err, errlen);
    pthread_mutex_unlock(&lock);
    return l;
}
