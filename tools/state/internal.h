/* Internals shared by the files of the state store (tools/state/ only):
 * the open database, its lazy opening, transactions and the mapping of
 * SQLite errors to the store's classes and sentences. */
#ifndef TOOLS_STATE_INTERNAL_H
#define TOOLS_STATE_INTERNAL_H

#include "tools/state/pg_lib.h"
#include "tools/state/sqlite_lib.h"
#include "tools/state/store.h"

#include <uv.h>

struct tools_state {
    char *path;
    struct tools_state_options o;
    const struct sqlite_lib *sq; /* once loaded */
    sqlite3 *db;                 /* NULL until opened, and after a failure that closed it */
    struct tools__pg *pg;        /* codemode.store on PostgreSQL (pg.c), else NULL */
    struct tools__pga *pga;      /* its pool on the loop (pg_async.c), once used */
    uv_mutex_t sqlite_lock;      /* one operation at a time on db (tools_state_lock) */
};

/* --- PostgreSQL (pg.c): the same operations as store.h, on s->pg --------------
 * Each public function of kv.c and skills_db.c starts with
 * `if (s->pg) return tools__pg_<op>(...)`; a table added to the store adds
 * its PostgreSQL twin here (and its migration in pg.c). */
struct tools__pg *tools__pg_new(const struct tools_state_options *o);
void tools__pg_free(struct tools__pg *p);
int tools__pg_connect(struct tools__pg *p, char *err);
unsigned tools__pg_parallelism(const struct tools__pg *p);
int tools__pg_get(struct tools__pg *p, const char *scope, const char *key, char **json,
                  int64_t *version, char *err);
int tools__pg_set(struct tools__pg *p, const char *scope, const char *key, const char *json,
                  int64_t if_version, int64_t *version, char *err);
int tools__pg_delete(struct tools__pg *p, const char *scope, const char *key, char *err);
int tools__pg_list(struct tools__pg *p, const char *scope, const char *prefix, int sizes,
                   cJSON **keys, char *err);
int tools__pg_skill_save(struct tools__pg *p, const char *owner, const char *name,
                         const char *description, const char *schema_json, const char *code,
                         char *err);
int tools__pg_skill_delete(struct tools__pg *p, const char *owner, const char *name, char *err);
int tools__pg_skill_load(struct tools__pg *p, cJSON **out, char *err);
int tools__pg_stash_put(struct tools__pg *p, const struct tools_state_stash_entry *e, char *err);
int tools__pg_stash_get(struct tools__pg *p, const char *uri, const char *owner, char **data,
                        size_t *len, char **mime, int *blob, char *err);
int tools__pg_stash_touch(struct tools__pg *p, const char *uri, const char *owner, char *err);
int tools__pg_oauth_get(struct tools__pg *p, const char *kind, const char *key, char **json,
                        int64_t *version, char *err);
int tools__pg_oauth_put(struct tools__pg *p, const char *kind, const char *key, const char *json,
                        int64_t if_version, int64_t *version, char *err);
int tools__pg_oauth_delete(struct tools__pg *p, const char *kind, const char *key, char *err);
int tools__pg_shapes_save(struct tools__pg *p, const struct tools_state_shape_row *rows, size_t n,
                          char *err);
int tools__pg_shapes_load(struct tools__pg *p, cJSON **out, char *err);
/* For the pool on the loop (pg_async.c): the keywords and values of a
 * connection (options: a buffer for the session's settings), the options,
 * libpq (loaded on first use, else NULL with err), and the sentences of a
 * failed statement or connection attempt. */
extern const char *const tools__pg_start_keys[4];
void tools__pg_start_params(const struct tools__pg *p, char *options, size_t size,
                            const char *values[4]);
const struct tools_state_options *tools__pg_options(const struct tools__pg *p);
const struct pg_lib *tools__pg_load(struct tools__pg *p, char *err);
void tools__pg_failure(const struct tools__pg *p, PGconn *c, PGresult *r, const char *doing,
                       char *err);
void tools__pg_cannot_connect(const struct tools__pg *p, PGconn *c, int timed_out, char *err);
/* The pool on the loop and the tables' operations on it: pg_async.h. */
const struct pg_lib *tools__state_pq(struct tools_state *s);
/* The store's quotas and timeouts, defaults filled in. */
const struct tools_state_options *tools_state_options_of(const struct tools_state *s);

/* For the listener (pg_listen.c): libpq once loaded; a connection of its
 * own (blocking: on a thread) that has run LISTEN channel, or NULL with
 * err; closing it. */
const struct pg_lib *tools__pg_lib(const struct tools__pg *p);
PGconn *tools__pg_open_listener(struct tools__pg *p, const char *channel, char *err);
void tools__pg_close_conn(struct tools__pg *p, PGconn *c);

/* The checks of an OAuth row's kind, key and value (json may be NULL):
 * 0, or INVALID with err (oauth_db.c). */
int tools__state_oauth_check(const char *kind, const char *key, const char *json, char *err);

/* The quota checks both backends make before a write (kv.c). */
int tools__state_check_key(const char *key, char *err);
int tools__state_conflict(const char *key, int64_t want, int64_t have, char *err);
int tools__state_over_total(const struct tools_state_options *o, const char *key, int64_t total,
                            char *err);
int tools__state_over_value(const struct tools_state_options *o, const char *key, const char *json,
                            char *err);

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
