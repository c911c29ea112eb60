/* Internals shared by the files of the state store (tools/state/ only):
 * the open database, its lazy opening, transactions and the mapping of
 * SQLite errors to the store's classes and sentences. */
#ifndef TOOLS_STATE_INTERNAL_H
#define TOOLS_STATE_INTERNAL_H

#include "tools/state/sqlite_lib.h"
#include "tools/state/store.h"

struct tools_state {
    char *path;
    struct tools_state_options o;
    const struct sqlite_lib *sq; /* once loaded */
    sqlite3 *db;                 /* NULL until opened, and after a failure that closed it */
};

/* Opens the database when it is not open (creating the directory, the file
 * and the tables): 0, or TOOLS_STATE_FAILED with err set. */
int tools__state_open(struct tools_state *s, char *err);

/* Prepares sql: the statement, or NULL with err set (and the failure mapped). */
sqlite3_stmt *tools__state_prepare(struct tools_state *s, const char *sql, char *err);

/* Maps the database's last error rc to TOOLS_STATE_FAILED with a sentence in
 * err that says what happened to which file; closes the database after
 * corruption so that the next operation opens it again. */
int tools__state_fail(struct tools_state *s, int rc, const char *doing, char *err);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK: 0 or TOOLS_STATE_FAILED (err set;
 * a failed commit is rolled back). */
int tools__state_begin(struct tools_state *s, char *err);
int tools__state_commit(struct tools_state *s, char *err);
void tools__state_rollback(struct tools_state *s);

#endif
