/* libpq, loaded with dlopen the first time a PostgreSQL store is used (as
 * SQLite is: linked, libpq and its TLS, Kerberos and LDAP libraries would
 * add megabytes to every server process, most of which keep state in a
 * file). Compiled against <libpq-fe.h>; found at run time as libpq.so.5, or
 * at the path in MCP_CODEMODE_LIBPQ. */
#ifndef TOOLS_STATE_PG_LIB_H
#define TOOLS_STATE_PG_LIB_H

#include <libpq-fe.h>
#include <stddef.h>

/* The functions the store calls, named as in libpq without "PQ". */
struct pg_lib {
    PGconn *(*connectStartParams)(const char *const *keywords, const char *const *values,
                                  int expand_dbname);
    PostgresPollingStatusType (*connectPoll)(PGconn *conn);
    ConnStatusType (*status)(const PGconn *conn);
    int (*socket)(const PGconn *conn);
    char *(*errorMessage)(const PGconn *conn);
    void (*finish)(PGconn *conn);
    PGresult *(*execParams)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                            const char *const *paramValues, const int *paramLengths,
                            const int *paramFormats, int resultFormat);
    PGresult *(*exec)(PGconn *conn, const char *query);
    ExecStatusType (*resultStatus)(const PGresult *res);
    char *(*resultErrorField)(const PGresult *res, int fieldcode);
    char *(*resultErrorMessage)(const PGresult *res);
    int (*ntuples)(const PGresult *res);
    char *(*getvalue)(const PGresult *res, int tup_num, int field_num);
    int (*getlength)(const PGresult *res, int tup_num, int field_num);
    int (*getisnull)(const PGresult *res, int tup_num, int field_num);
    char *(*cmdTuples)(PGresult *res);
    void (*clear)(PGresult *res);
    PQconninfoOption *(*conninfoParse)(const char *conninfo, char **errmsg);
    void (*conninfoFree)(PQconninfoOption *connOptions);
    void (*freemem)(void *ptr);
    int (*isthreadsafe)(void);
    /* the listener of skill changes (pg_listen.c), on the loop */
    int (*setnonblocking)(PGconn *conn, int arg);
    int (*consumeInput)(PGconn *conn);
    PGnotify *(*notifies)(PGconn *conn);
    int (*isBusy)(PGconn *conn);
    PGresult *(*getResult)(PGconn *conn);
    /* the pool on the loop (pg_async.c) */
    int (*sendQueryParams)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                           const char *const *paramValues, const int *paramLengths,
                           const int *paramFormats, int resultFormat);
    int (*flush)(PGconn *conn);
    PGTransactionStatusType (*transactionStatus)(const PGconn *conn);
    /* pipeline mode (libpq 14 and later): NULL with an older libpq, where
     * the statements of a batch go one after the other instead */
    int (*enterPipelineMode)(PGconn *conn);
    int (*pipelineSync)(PGconn *conn);
};

/* The library on the first call, the same table after; NULL when it cannot
 * be loaded, with a sentence in err (errlen bytes). Thread-safe. */
const struct pg_lib *pg_lib_load(char *err, size_t errlen);

#endif
