/* Learned result types on PostgreSQL (codemode_result_shapes), shared by
 * the instances: saved in batches and loaded at start; saved on the pool
 * on the loop too (the server, while it runs: one transaction in one
 * batch). */
#include "tools/state/pg_internal.h"
#include "tools/state/pg_async.h"
#include "common/alloc.h"
#include "common/json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct shapes_args {
    const struct tools_state_shape_row *rows;
    size_t n;
    cJSON **out;
};

#define SQL_SAVE                                                                                   \
    "INSERT INTO codemode_result_shapes(server, tool, schema_hash, shape, updated) "               \
    "VALUES($1,$2,$3,$4, extract(epoch FROM now())::bigint) ON CONFLICT(server, "                  \
    "tool) DO UPDATE SET schema_hash = EXCLUDED.schema_hash, shape = "                             \
    "EXCLUDED.shape, updated = EXCLUDED.updated"

static int shapes_save_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                          char *err)
{
    struct shapes_args *a = ud;
    if (tools__pg_run(p, k, "BEGIN", 0, NULL, "save the learned result types", err) != 0)
        return TOOLS_STATE_FAILED;
    *started = 1;
    int rc = 0;
    for (size_t i = 0; i < a->n && rc == 0; i++) {
        const struct tools_state_shape_row *r = &a->rows[i];
        const char *params[] = {r->server, r->tool, r->schema_hash, r->shape};
        rc = tools__pg_run(p, k, SQL_SAVE, 4, params, "save the learned result types", err);
    }
    if (rc != 0) {
        tools__pg_rollback(p, k);
        return rc;
    }
    return tools__pg_run(p, k, "COMMIT", 0, NULL, "save the learned result types", err);
}

int tools__pg_shapes_save(struct tools__pg *p, const struct tools_state_shape_row *rows, size_t n,
                          char *err)
{
    struct shapes_args a = {.rows = rows, .n = n};
    return n == 0 ? TOOLS_STATE_OK : tools__pg_with_conn(p, shapes_save_op, &a, err);
}

static int shapes_load_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                          char *err)
{
    struct shapes_args *a = ud;
    _Static_assert(TOOLS_STATE_SHAPES_MAX == 4096, "the LIMIT below");
    PGresult *r =
        tools__pg_q(p, k,
                    "SELECT server, tool, schema_hash, shape FROM codemode_result_shapes ORDER BY "
                    "server, tool LIMIT 4096",
                    0, NULL, "read the learned result types", err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    *started = 1;
    cJSON *rows = cJSON_CreateArray();
    for (int i = 0; i < p->pq->ntuples(r); i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "server", p->pq->getvalue(r, i, 0));
        cJSON_AddStringToObject(o, "tool", p->pq->getvalue(r, i, 1));
        cJSON_AddStringToObject(o, "schemaHash", p->pq->getvalue(r, i, 2));
        cJSON_AddStringToObject(o, "shape", p->pq->getvalue(r, i, 3));
        cJSON_AddItemToArray(rows, o);
    }
    p->pq->clear(r);
    *a->out = rows;
    return TOOLS_STATE_OK;
}

int tools__pg_shapes_load(struct tools__pg *p, cJSON **out, char *err)
{
    struct shapes_args a = {.out = out};
    return tools__pg_with_conn(p, shapes_load_op, &a, err);
}

/* --- on the loop ----------------------------------------------------------------------------- */

struct shapes_op {
    struct tools__pgo base;
    tools__pgo_done_cb *cb;
    void *ud;
};

static void shapes_saved(void *ud, struct tools__pga_req *op, PGresult *const *res, int n,
                         const char *err)
{
    struct shapes_op *o = ud;
    (void) op, (void) res, (void) n;
    if (!o->base.cancelled)
        o->cb(o->ud, err ? TOOLS_STATE_FAILED : TOOLS_STATE_OK, err);
    free(o);
}

struct tools__pgo *tools__pgo_shapes_save(struct tools__pga *a,
                                          const struct tools_state_shape_row *rows, size_t n,
                                          tools__pgo_done_cb *cb, void *ud)
{
    struct shapes_op *o = xcalloc(1, sizeof *o);
    o->cb = cb;
    o->ud = ud;
    /* BEGIN, the rows, COMMIT: one batch (one round trip in a pipeline) */
    struct tools__pga_stmt *batch = xcalloc(n + 2, sizeof *batch);
    const char **params = xcalloc(4 * (n ? n : 1), sizeof *params);
    batch[0] = (struct tools__pga_stmt){"BEGIN", 0, NULL};
    for (size_t i = 0; i < n; i++) {
        const char **p = &params[4 * i];
        p[0] = rows[i].server;
        p[1] = rows[i].tool;
        p[2] = rows[i].schema_hash;
        p[3] = rows[i].shape;
        batch[i + 1] = (struct tools__pga_stmt){SQL_SAVE, 4, p};
    }
    batch[n + 1] = (struct tools__pga_stmt){"COMMIT", 0, NULL};
    tools__pga_begin(a, "save the learned result types", batch, (int) n + 2, shapes_saved, o);
    free(params);
    free(batch);
    return &o->base;
}
