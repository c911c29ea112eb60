/* OAuth rows on PostgreSQL (codemode_oauth): the clients and tokens of
 * remote servers, read, written with compare-and-set under a row lock (one
 * instance spends a rotating refresh token) and deleted. */
#include "tools/state/pg_internal.h"
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
