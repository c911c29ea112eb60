/* The shared stash on PostgreSQL (codemode_stash): entries put, read and
 * touched by their owner only, bounded by count, bytes and age across every
 * instance, the least recently read evicted first. */
#include "tools/state/pg_internal.h"
#include "common/alloc.h"
#include "common/json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct stash_args {
    const struct tools_state_stash_entry *e;
    const char *uri, *owner;
    char **data, **mime;
    size_t *len;
    int *blob;
};

static int stash_put_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                        char *err)
{
    struct stash_args *a = ud;
    const struct tools_state_stash_entry *e = a->e;
    if (tools__pg_run(p, k, "BEGIN", 0, NULL, "keep the stashed value", err) != 0)
        return TOOLS_STATE_FAILED;
    *started = 1;
    char bytes[24], ttl[24], entries[24], total[24];
    snprintf(bytes, sizeof bytes, "%zu", e->len);
    snprintf(ttl, sizeof ttl, "%llu", (unsigned long long) e->ttl_ms);
    snprintf(entries, sizeof entries, "%u", e->max_entries);
    snprintf(total, sizeof total, "%llu", (unsigned long long) e->max_bytes);
    const char *put[] = {e->uri, e->owner, e->mime, e->blob ? "t" : "f", e->data, bytes, ttl};
    const char *bounds[] = {entries, total};
    /* one writer at a time: the bounds are the whole table's */
    int rc = tools__pg_run(p, k, "SELECT pg_advisory_xact_lock(7243022)", 0, NULL,
                           "keep the stashed value", err);
    if (rc == 0)
        rc = tools__pg_run(p, k, "DELETE FROM codemode_stash WHERE expires <= now()", 0, NULL,
                           "keep the stashed value", err);
    if (rc == 0)
        rc = tools__pg_run(
            p, k,
            "INSERT INTO codemode_stash(uri, owner, mime, blob, data, bytes, expires) "
            "VALUES($1,$2,$3,$4,$5,$6, CASE WHEN $7::bigint = 0 THEN NULL ELSE now() + "
            "$7::bigint * interval '1 millisecond' END)",
            7, put, "keep the stashed value", err);
    if (rc == 0) /* the oldest go first until the bounds hold */
        rc = tools__pg_run(
            p, k,
            "DELETE FROM codemode_stash WHERE uri IN (SELECT uri FROM (SELECT uri, "
            "row_number() OVER w AS n, sum(bytes) OVER w AS total FROM codemode_stash "
            "WINDOW w AS (ORDER BY created DESC)) t WHERE n > $1::bigint OR total > "
            "$2::bigint)",
            2, bounds, "keep the stashed value", err);
    if (rc != 0) {
        tools__pg_rollback(p, k);
        return rc;
    }
    return tools__pg_run(p, k, "COMMIT", 0, NULL, "keep the stashed value", err);
}

int tools__pg_stash_put(struct tools__pg *p, const struct tools_state_stash_entry *e, char *err)
{
    struct stash_args a = {.e = e};
    return tools__pg_with_conn(p, stash_put_op, &a, err);
}

static int stash_get_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                        char *err)
{
    struct stash_args *a = ud;
    const char *params[] = {a->uri, a->owner};
    /* a read (or a touch: a read another instance answered from its memory)
     * moves the entry to the end of the eviction order: least recently used
     * first. One row written per read: its data, when big, stays in TOAST. */
    PGresult *r =
        tools__pg_q(p, k,
                    a->data ? "UPDATE codemode_stash SET created = "
                              "nextval(pg_get_serial_sequence('codemode_stash', 'created')) "
                              "WHERE uri=$1 AND owner=$2 AND (expires IS NULL OR expires > now()) "
                              "RETURNING data, mime, blob"
                            : "UPDATE codemode_stash SET created = "
                              "nextval(pg_get_serial_sequence('codemode_stash', 'created')) "
                              "WHERE uri=$1 AND owner=$2 AND (expires IS NULL OR expires > now()) "
                              "RETURNING 1",
                    2, params, "read the stashed value", err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    *started = 1;
    int rc = TOOLS_STATE_ABSENT;
    if (p->pq->ntuples(r) == 1 && a->data == NULL) {
        rc = TOOLS_STATE_OK;
    } else if (p->pq->ntuples(r) == 1) {
        *a->len = (size_t) p->pq->getlength(r, 0, 0);
        *a->data = xstrndup(p->pq->getvalue(r, 0, 0), *a->len);
        *a->mime = xstrdup(p->pq->getvalue(r, 0, 1));
        *a->blob = p->pq->getvalue(r, 0, 2)[0] == 't';
        rc = TOOLS_STATE_OK;
    }
    p->pq->clear(r);
    return rc;
}

int tools__pg_stash_get(struct tools__pg *p, const char *uri, const char *owner, char **data,
                        size_t *len, char **mime, int *blob, char *err)
{
    struct stash_args a = {
        .uri = uri, .owner = owner, .data = data, .mime = mime, .len = len, .blob = blob};
    return tools__pg_with_conn(p, stash_get_op, &a, err);
}

int tools__pg_stash_touch(struct tools__pg *p, const char *uri, const char *owner, char *err)
{
    struct stash_args a = {.uri = uri, .owner = owner};
    return tools__pg_with_conn(p, stash_get_op, &a, err);
}
