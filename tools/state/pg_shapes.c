/* Learned result types on PostgreSQL (codemode_result_shapes), shared by
 * the instances: saved in batches and loaded at start. */
#include "tools/state/pg_internal.h"
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
        rc = tools__pg_run(
            p, k,
            "INSERT INTO codemode_result_shapes(server, tool, schema_hash, shape, updated) "
            "VALUES($1,$2,$3,$4, extract(epoch FROM now())::bigint) ON CONFLICT(server, "
            "tool) DO UPDATE SET schema_hash = EXCLUDED.schema_hash, shape = "
            "EXCLUDED.shape, updated = EXCLUDED.updated",
            4, params, "save the learned result types", err);
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
