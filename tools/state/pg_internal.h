/* What the files of the PostgreSQL backend share (pg.c and the files of its
 * tables, pg_skills.c, pg_stash.c, pg_oauth.c, pg_shapes.c): the pool's
 * connections and the statement helpers. Not for the rest of tools/state. */
#ifndef TOOLS_STATE_PG_INTERNAL_H
#define TOOLS_STATE_PG_INTERNAL_H

#include "tools/state/internal.h"
#include "tools/state/pg_lib.h"

#include <pthread.h>
#include <stdint.h>

struct tools__pg_conn {
    PGconn *pg; /* NULL: not connected */
    int busy;   /* taken by a thread */
    int reused; /* served an operation before: it may have died since */
    int broken; /* lost during the operation */
};

struct tools__pg {
    char *url;
    struct tools_state_options o; /* quotas and timeouts (url not kept there) */
    const struct pg_lib *pq;
    pthread_mutex_t lock;
    pthread_cond_t freed;
    struct tools__pg_conn *conns;
    unsigned n;
    int schema_ok;     /* the tables were checked by this process */
    uint64_t retry_at; /* ms (monotonic): no connection attempt before */
    unsigned backoff_ms;
    char down[TOOLS_STATE_ERR_MAX - 64]; /* why the last attempt failed */
};

/* One operation on a taken connection; *started set once it may have
 * written (a retry on a new connection is then not safe). */
typedef int tools__pg_op(struct tools__pg *p, struct tools__pg_conn *k, void *args, int *started,
                         char *err);

/* Runs sql with text parameters: the result (COMMAND_OK or TUPLES_OK), or
 * NULL with err ("... cannot <doing> (...)") and the connection marked lost
 * when it was. */
PGresult *tools__pg_q(struct tools__pg *p, struct tools__pg_conn *k, const char *sql, int n,
                      const char *const *params, const char *doing, char *err);

/* A statement whose result is not needed: 0, or FAILED with err. */
int tools__pg_run(struct tools__pg *p, struct tools__pg_conn *k, const char *sql, int n,
                  const char *const *params, const char *doing, char *err);

/* Ends the connection's open transaction, unless the connection is lost. */
void tools__pg_rollback(struct tools__pg *p, struct tools__pg_conn *k);

/* Runs sql, a SELECT of (value, version) with two parameters: OK with
 * *json (malloc'd) and *version, ABSENT, or FAILED with err. */
int tools__pg_read_versioned(struct tools__pg *p, struct tools__pg_conn *k, const char *sql,
                             const char *const params[2], const char *doing, int *started,
                             char **json, int64_t *version, char *err);

/* Whether a DELETE removed a row. */
int tools__pg_deleted(struct tools__pg *p, PGresult *r);

/* Runs op on a connection of the pool; once more on a new connection when
 * a reused one turned out lost before the operation did anything. */
int tools__pg_with_conn(struct tools__pg *p, tools__pg_op *op, void *args, char *err);

#endif
