/* OAuth rows on PostgreSQL (codemode_oauth): the clients and tokens of
 * remote servers, read, written with compare-and-set under a row lock (one
 * instance spends a rotating refresh token) and deleted; synchronously (the
 * CLI), and on the pool on the loop (the server: a step machine of two
 * batches on one connection). */
#include "tools/state/pg_internal.h"
#include "tools/state/pg_async.h"
#include "common/alloc.h"
#include "common/json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct oauth_args {
    const char *kind, *key, *json;
    int64_t if_version;
    char **out_json;
    int64_t *version;
};

static int oauth_get_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                        char *err)
{
    struct oauth_args *a = ud;
    const char *params[] = {a->kind, a->key};
    return tools__pg_read_versioned(
        p, k, "SELECT value, version FROM codemode_oauth WHERE kind=$1 AND key=$2", params,
        "read the OAuth row", started, a->out_json, a->version, err);
}

int tools__pg_oauth_get(struct tools__pg *p, const char *kind, const char *key, char **json,
                        int64_t *version, char *err)
{
    struct oauth_args a = {.kind = kind, .key = key, .out_json = json, .version = version};
    return tools__pg_with_conn(p, oauth_get_op, &a, err);
}

/* Compare-and-set: the row is locked (FOR UPDATE), or, absent, its key is
 * (an advisory lock), so that of two writers at one version exactly one
 * wins - the way one instance alone spends a rotating refresh token. */
static int oauth_put_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                        char *err)
{
    struct oauth_args *a = ud;
    if (tools__pg_run(p, k, "BEGIN", 0, NULL, "write the OAuth row", err) != 0)
        return TOOLS_STATE_FAILED;
    *started = 1;
    const char *params[4] = {a->kind, a->key};
    int rc =
        tools__pg_run(p, k, "SELECT pg_advisory_xact_lock(hashtextextended($1 || ' ' || $2, 7244))",
                      2, params, "write the OAuth row", err);
    PGresult *r = NULL;
    if (rc == 0 &&
        (r = tools__pg_q(p, k,
                         "SELECT version FROM codemode_oauth WHERE kind=$1 AND key=$2 FOR UPDATE",
                         2, params, "write the OAuth row", err)) == NULL)
        rc = TOOLS_STATE_FAILED;
    int64_t have = 0;
    if (rc == 0 && p->pq->ntuples(r) == 1)
        have = strtoll(p->pq->getvalue(r, 0, 0), NULL, 10);
    if (r)
        p->pq->clear(r);
    if (rc == 0 && a->if_version >= 0 && a->if_version != have) {
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "the OAuth %s row was written by another instance or process first (version "
                 "%lld, expected %lld): read it again",
                 a->kind, (long long) have, (long long) a->if_version);
        rc = TOOLS_STATE_CONFLICT;
    }
    char vs[24];
    snprintf(vs, sizeof vs, "%" PRId64, have + 1);
    params[2] = a->json;
    params[3] = vs;
    if (rc == 0)
        rc = tools__pg_run(
            p, k,
            "INSERT INTO codemode_oauth(kind, key, value, version) VALUES($1,$2,$3,$4) "
            "ON CONFLICT(kind, key) DO UPDATE SET value=EXCLUDED.value, "
            "version=EXCLUDED.version",
            4, params, "write the OAuth row", err);
    if (rc != 0) {
        tools__pg_rollback(p, k);
        return rc;
    }
    rc = tools__pg_run(p, k, "COMMIT", 0, NULL, "write the OAuth row", err);
    if (rc == 0)
        *a->version = have + 1;
    return rc;
}

int tools__pg_oauth_put(struct tools__pg *p, const char *kind, const char *key, const char *json,
                        int64_t if_version, int64_t *version, char *err)
{
    struct oauth_args a = {
        .kind = kind, .key = key, .json = json, .if_version = if_version, .version = version};
    return tools__pg_with_conn(p, oauth_put_op, &a, err);
}

static int oauth_delete_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                           char *err)
{
    struct oauth_args *a = ud;
    const char *params[] = {a->kind, a->key};
    PGresult *r = tools__pg_q(p, k, "DELETE FROM codemode_oauth WHERE kind=$1 AND key=$2", 2,
                              params, "delete the OAuth row", err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    *started = 1;
    int rc = tools__pg_deleted(p, r) ? TOOLS_STATE_OK : TOOLS_STATE_ABSENT;
    p->pq->clear(r);
    return rc;
}

int tools__pg_oauth_delete(struct tools__pg *p, const char *kind, const char *key, char *err)
{
    struct oauth_args a = {.kind = kind, .key = key};
    return tools__pg_with_conn(p, oauth_delete_op, &a, err);
}

/* --- on the loop ----------------------------------------------------------------------------- */

#define SQL_READ "SELECT value, version FROM codemode_oauth WHERE kind=$1 AND key=$2"
#define SQL_LOCK "SELECT pg_advisory_xact_lock(hashtextextended($1 || ' ' || $2, 7244))"
#define SQL_HAVE "SELECT version FROM codemode_oauth WHERE kind=$1 AND key=$2 FOR UPDATE"
#define SQL_WRITE                                                                                  \
    "INSERT INTO codemode_oauth(kind, key, value, version) VALUES($1,$2,$3,$4) "                   \
    "ON CONFLICT(kind, key) DO UPDATE SET value=EXCLUDED.value, version=EXCLUDED.version"

struct oauth_op {
    struct tools__pgo base;
    struct tools__pga *a;
    char *kind, *key, *json;
    int64_t if_version, have;
    tools_state_oauth_cb *cb;
    void *ud;
};

static void oauth_end(struct oauth_op *o, int rc, const char *row, int64_t version, const char *err)
{
    if (!o->base.cancelled)
        o->cb(o->ud, rc, row, version, rc < 0 ? err : NULL);
    free(o->kind);
    free(o->key);
    free(o->json);
    free(o);
}

static void oauth_read(void *ud, PGresult *r, const char *err)
{
    struct oauth_op *o = ud;
    const struct pg_lib *pq = tools__pga_pq(o->a);
    if (r == NULL) {
        oauth_end(o, TOOLS_STATE_FAILED, NULL, 0, err);
    } else if (pq->ntuples(r) != 1) {
        oauth_end(o, TOOLS_STATE_ABSENT, NULL, 0, NULL);
    } else {
        char *row = xstrndup(pq->getvalue(r, 0, 0), (size_t) pq->getlength(r, 0, 0));
        oauth_end(o, TOOLS_STATE_OK, row, strtoll(pq->getvalue(r, 0, 1), NULL, 10), NULL);
        free(row);
    }
}

/* The second batch answered: the row written and committed. */
static void oauth_written(void *ud, struct tools__pga_req *op, PGresult *const *res, int n,
                          const char *err)
{
    struct oauth_op *o = ud;
    (void) op, (void) res, (void) n;
    oauth_end(o, err ? TOOLS_STATE_FAILED : TOOLS_STATE_OK, NULL, err ? 0 : o->have + 1, err);
}

/* The first batch answered: BEGIN, the key's lock, the row's version
 * under its row lock. A version other than ifVersion ends it (rolled back
 * by the pool); else the write and COMMIT follow on the same connection. */
static void oauth_locked(void *ud, struct tools__pga_req *op, PGresult *const *res, int n,
                         const char *err)
{
    struct oauth_op *o = ud;
    const struct pg_lib *pq = tools__pga_pq(o->a);
    char msg[TOOLS_STATE_ERR_MAX];
    (void) n;
    if (err) {
        oauth_end(o, TOOLS_STATE_FAILED, NULL, 0, err);
        return;
    }
    o->have = pq->ntuples(res[2]) == 1 ? strtoll(pq->getvalue(res[2], 0, 0), NULL, 10) : 0;
    if (o->if_version >= 0 && o->if_version != o->have) {
        snprintf(msg, sizeof msg,
                 "the OAuth %s row was written by another instance or process first (version "
                 "%lld, expected %lld): read it again",
                 o->kind, (long long) o->have, (long long) o->if_version);
        oauth_end(o, TOOLS_STATE_CONFLICT, NULL, 0, msg);
        return;
    }
    char vs[24];
    snprintf(vs, sizeof vs, "%" PRId64, o->have + 1);
    const char *params[] = {o->kind, o->key, o->json, vs};
    const struct tools__pga_stmt write[] = {{SQL_WRITE, 4, params}, {"COMMIT", 0, NULL}};
    tools__pga_next(op, write, 2, oauth_written);
}

struct tools__pgo *tools__pgo_oauth(struct tools__pga *a, const char *kind, const char *key,
                                    const char *json, int64_t if_version, tools_state_oauth_cb *cb,
                                    void *ud)
{
    struct oauth_op *o = xcalloc(1, sizeof *o);
    o->a = a;
    o->kind = xstrdup(kind);
    o->key = xstrdup(key);
    o->json = json ? xstrdup(json) : NULL;
    o->if_version = if_version;
    o->cb = cb;
    o->ud = ud;
    const char *params[] = {kind, key};
    if (json == NULL) {
        tools__pga_query(a, SQL_READ, 2, params, "read the OAuth row", oauth_read, o);
        return &o->base;
    }
    const struct tools__pga_stmt lock[] = {
        {"BEGIN", 0, NULL}, {SQL_LOCK, 2, params}, {SQL_HAVE, 2, params}};
    tools__pga_begin(a, "write the OAuth row", lock, 3, oauth_locked, o);
    return &o->base;
}
