/* SQLite, loaded with dlopen the first time the state store is used: linked
 * at start-up it added ~350 KiB of resident pages to every server process,
 * most of which never touch state. Compiled against <sqlite3.h>; found at run
 * time as libsqlite3.so.0, or at the path in MCP_CODEMODE_LIBSQLITE. */
#ifndef TOOLS_STATE_SQLITE_LIB_H
#define TOOLS_STATE_SQLITE_LIB_H

#include <sqlite3.h>
#include <stddef.h>

/* The functions the store calls, named as in SQLite without "sqlite3_". */
struct sqlite_lib {
    int (*open_v2)(const char *file, sqlite3 **db, int flags, const char *vfs);
    int (*close_v2)(sqlite3 *db);
    const char *(*errmsg)(sqlite3 *db);
    const char *(*errstr)(int code);
    int (*extended_errcode)(sqlite3 *db);
    int (*busy_timeout)(sqlite3 *db, int ms);
    int (*exec)(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *ud,
                char **err);
    int (*prepare_v2)(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail);
    int (*bind_text)(sqlite3_stmt *st, int i, const char *s, int n, void (*d)(void *));
    int (*bind_int64)(sqlite3_stmt *st, int i, sqlite3_int64 v);
    int (*step)(sqlite3_stmt *st);
    const unsigned char *(*column_text)(sqlite3_stmt *st, int i);
    int (*column_bytes)(sqlite3_stmt *st, int i);
    sqlite3_int64 (*column_int64)(sqlite3_stmt *st, int i);
    int (*column_type)(sqlite3_stmt *st, int i);
    int (*finalize)(sqlite3_stmt *st);
    int (*changes)(sqlite3 *db);
    int (*db_readonly)(sqlite3 *db, const char *name);
    void (*free)(void *p);
    int (*shutdown)(void);
};

/* The library on the first call, the same table after. NULL when it cannot
 * be loaded, with a sentence in err (errlen bytes) naming the library and
 * the loader's reason; a later call tries again. The loop thread only. */
const struct sqlite_lib *sqlite_lib_load(char *err, size_t errlen);

/* Unloads the library (sqlite3_shutdown, dlclose) so that its pages leave
 * the process; the next sqlite_lib_load loads it again. Every connection
 * must be closed first. Nothing happens when it is not loaded. */
void sqlite_lib_unload(void);

#endif
