/* Loads SQLite on first use (tools/state/sqlite_lib.h): dlopen of
 * libsqlite3.so.0 (or of $MCP_CODEMODE_LIBSQLITE), one dlsym per function. */
#include "tools/state/sqlite_lib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQLITE_SONAME "libsqlite3.so.0"

static struct sqlite_lib lib;
static int loaded;
static void *handle;

#define SLOT(field)                                                                                \
    {                                                                                              \
        "sqlite3_" #field, offsetof(struct sqlite_lib, field)                                      \
    }
static const struct {
    const char *symbol;
    size_t offset;
} slots[] = {
    SLOT(open_v2),          SLOT(close_v2),     SLOT(errmsg),      SLOT(errstr),
    SLOT(extended_errcode), SLOT(busy_timeout), SLOT(exec),        SLOT(prepare_v2),
    SLOT(bind_text),        SLOT(bind_int64),   SLOT(step),        SLOT(column_text),
    SLOT(column_bytes),     SLOT(column_int64), SLOT(column_type), SLOT(finalize),
    SLOT(changes),          SLOT(db_readonly),  SLOT(free),        SLOT(shutdown),
};

static const char *library(void)
{
    const char *env = getenv("MCP_CODEMODE_LIBSQLITE");
    return env && *env ? env : SQLITE_SONAME;
}

const struct sqlite_lib *sqlite_lib_load(char *err, size_t errlen)
{
    if (loaded)
        return &lib;
    void *h = dlopen(library(), RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        snprintf(err, errlen, "cannot load %s (needed for state and skills): %s", library(),
                 dlerror());
        return NULL;
    }
    struct sqlite_lib l;
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
        void *sym = dlsym(h, slots[i].symbol);
        if (sym == NULL) {
            snprintf(err, errlen, "cannot load %s (needed for state and skills): missing symbol %s",
                     library(), slots[i].symbol);
            dlclose(h);
            return NULL;
        }
        memcpy((char *) &l + slots[i].offset, &sym, sizeof sym);
    }
    lib = l;
    loaded = 1;
    handle = h;
    return &lib;
}

void sqlite_lib_unload(void)
{
    if (!loaded)
        return;
    lib.shutdown();
    dlclose(handle);
    handle = NULL;
    loaded = 0;
}
