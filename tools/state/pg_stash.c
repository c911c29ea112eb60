/* The shared stash on PostgreSQL (codemode_stash): entries put, read and
 * touched by their owner only, bounded by count, bytes and age across every
 * instance, the least recently read evicted first. Synchronously (the unit
 * tests' two instances), and on the pool on the loop (the server: a put is
 * one batch, a pipeline of its transaction's statements). */
#include "tools/state/pg_internal.h"
#include "tools/state/pg_async.h"
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

#define SQL_LOCK   "SELECT pg_advisory_xact_lock(7243022)" /* the bounds are the whole table's */
#define SQL_EXPIRE "DELETE FROM codemode_stash WHERE expires <= now()"
#define SQL_PUT                                                                                    \
    "INSERT INTO codemode_stash(uri, owner, mime, blob, data, bytes, expires) "                    \
    "VALUES($1,$2,$3,$4,$5,$6, CASE WHEN $7::bigint = 0 THEN NULL ELSE now() + "                   \
    "$7::bigint * interval '1 millisecond' END)"
/* the least recently used go first until the bounds hold */
#define SQL_EVICT                                                                                  \
    "DELETE FROM codemode_stash WHERE uri IN (SELECT uri FROM (SELECT uri, "                       \
    "row_number() OVER w AS n, sum(bytes) OVER w AS total FROM codemode_stash "                    \
    "WINDOW w AS (ORDER BY created DESC)) t WHERE n > $1::bigint OR total > $2::bigint)"
/* a read (or a touch: a read another instance answered from its memory)
 * moves the entry to the end of the eviction order: least recently used
 * first. One row written per read: its data, when big, stays in TOAST. */
#define SQL_READ(returning)                                                                        \
    "UPDATE codemode_stash SET created = "                                                         \
    "nextval(pg_get_serial_sequence('codemode_stash', 'created')) "                                \
    "WHERE uri=$1 AND owner=$2 AND (expires IS NULL OR expires > now()) RETURNING " returning

/* The parameters of a put: put[7] (texts in nums) and bounds[2]. */
static void put_params(const struct tools_state_stash_entry *e, char nums[4][24],
                       const char *put[7], const char *bounds[2])
{
    snprintf(nums[0], 24, "%zu", e->len);
    snprintf(nums[1], 24, "%llu", (unsigned long long) e->ttl_ms);
    snprintf(nums[2], 24, "%u", e->max_entries);
    snprintf(nums[3], 24, "%llu", (unsigned long long) e->max_bytes);
    const char *p[7] = {e->uri, e->owner, e->mime, e->blob ? "t" : "f", e->data, nums[0], nums[1]};
    memcpy(put, p, sizeof p);
    bounds[0] = nums[2];
    bounds[1] = nums[3];
}

static int stash_put_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                        char *err)
{
    struct stash_args *a = ud;
    const struct tools_state_stash_entry *e = a->e;
    if (tools__pg_run(p, k, "BEGIN", 0, NULL, "keep the stashed value", err) != 0)
        return TOOLS_STATE_FAILED;
    *started = 1;
    char nums[4][24];
    const char *put[7], *bounds[2];
    put_params(e, nums, put, bounds);
    int rc = tools__pg_run(p, k, SQL_LOCK, 0, NULL, "keep the stashed value", err);
    if (rc == 0)
        rc = tools__pg_run(p, k, SQL_EXPIRE, 0, NULL, "keep the stashed value", err);
    if (rc == 0)
        rc = tools__pg_run(p, k, SQL_PUT, 7, put, "keep the stashed value", err);
    if (rc == 0) /* the oldest go first until the bounds hold */
        rc = tools__pg_run(p, k, SQL_EVICT, 2, bounds, "keep the stashed value", err);
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
    PGresult *r = tools__pg_q(p, k, a->data ? SQL_READ("data, mime, blob") : SQL_READ("1"), 2,
                              params, "read the stashed value", err);
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

/* --- on the loop ----------------------------------------------------------------------------- */

struct stash_op {
    struct tools__pgo base;
    struct tools__pga *a;
    tools__pgo_done_cb *done;
    tools__pgo_stash_cb *got;
    void *ud;
    int want_data;
};

static void stash_put_done(void *ud, struct tools__pga_req *op, PGresult *const *res, int n,
                           const char *err)
{
    struct stash_op *o = ud;
    (void) op, (void) res, (void) n;
    if (!o->base.cancelled)
        o->done(o->ud, err ? TOOLS_STATE_FAILED : TOOLS_STATE_OK, err);
    free(o);
}

struct tools__pgo *tools__pgo_stash_put(struct tools__pga *a,
                                        const struct tools_state_stash_entry *e,
                                        tools__pgo_done_cb *cb, void *ud)
{
    struct stash_op *o = xcalloc(1, sizeof *o);
    o->a = a;
    o->done = cb;
    o->ud = ud;
    char nums[4][24];
    const char *put[7], *bounds[2];
    put_params(e, nums, put, bounds);
    /* no statement needs another's answer: one batch, one round trip in a pipeline */
    const struct tools__pga_stmt batch[] = {
        {"BEGIN", 0, NULL}, {SQL_LOCK, 0, NULL},    {SQL_EXPIRE, 0, NULL},
        {SQL_PUT, 7, put},  {SQL_EVICT, 2, bounds}, {"COMMIT", 0, NULL},
    };
    tools__pga_begin(a, "keep the stashed value", batch, 6, stash_put_done, o);
    return &o->base;
}

static void stash_read(void *ud, PGresult *r, const char *err)
{
    struct stash_op *o = ud;
    const struct pg_lib *pq = tools__pga_pq(o->a);
    if (o->base.cancelled) {
    } else if (r == NULL) {
        o->got(o->ud, TOOLS_STATE_FAILED, NULL, 0, NULL, 0, err);
    } else if (pq->ntuples(r) != 1) {
        o->got(o->ud, TOOLS_STATE_ABSENT, NULL, 0, NULL, 0, NULL);
    } else if (!o->want_data) { /* a touch */
        o->got(o->ud, TOOLS_STATE_OK, NULL, 0, NULL, 0, NULL);
    } else {
        o->got(o->ud, TOOLS_STATE_OK, pq->getvalue(r, 0, 0), (size_t) pq->getlength(r, 0, 0),
               pq->getvalue(r, 0, 1), pq->getvalue(r, 0, 2)[0] == 't', NULL);
    }
    free(o);
}

struct tools__pgo *tools__pgo_stash_get(struct tools__pga *a, const char *uri, const char *owner,
                                        int want_data, tools__pgo_stash_cb *cb, void *ud)
{
    struct stash_op *o = xcalloc(1, sizeof *o);
    o->a = a;
    o->got = cb;
    o->ud = ud;
    o->want_data = want_data;
    const char *params[] = {uri, owner};
    tools__pga_query(a, want_data ? SQL_READ("data, mime, blob") : SQL_READ("1"), 2, params,
                     "read the stashed value", stash_read, o);
    return &o->base;
}
