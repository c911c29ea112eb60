/* The result_shapes table of the state database: the types learned from
 * downstream tools' results (tools/result_types.c), one row per tool,
 * written in batches (one transaction) and read back at start-up. */
#include "tools/state/internal.h"

#include <string.h>
#include <time.h>

static int save_row(struct tools_state *s, const struct tools_state_shape_row *r, char *err)
{
    sqlite3_stmt *st = tools__state_prepare(
        s,
        "INSERT OR REPLACE INTO result_shapes(server, tool, schema_hash, shape, updated) "
        "VALUES(?1,?2,?3,?4,?5)",
        err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    s->sq->bind_text(st, 1, r->server, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 2, r->tool, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 3, r->schema_hash, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 4, r->shape, -1, SQLITE_STATIC);
    s->sq->bind_int64(st, 5, (sqlite3_int64) time(NULL));
    int rc = s->sq->step(st) == SQLITE_DONE
                 ? 0
                 : tools__state_fail(s, s->sq->extended_errcode(s->db),
                                     "cannot save a learned result type", err);
    s->sq->finalize(st);
    return rc;
}

static int shapes_save_unlocked(struct tools_state *s, const struct tools_state_shape_row *rows,
                            size_t n, char *err)
{
    for (size_t i = 0; i < n; i++)
        if (!rows[i].server || !rows[i].tool || !rows[i].schema_hash || !rows[i].shape) {
            strcpy(err, "a learned result type needs server, tool, schema hash and shape");
            return TOOLS_STATE_INVALID;
        }
    int rc = tools__state_open(s, err);
    if (rc != 0 || n == 0)
        return rc;
    if ((rc = tools__state_begin(s, err)) != 0)
        return rc;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = save_row(s, &rows[i], err);
    if (rc != 0) {
        tools__state_rollback(s);
        return rc;
    }
    return tools__state_commit(s, err);
}

static const char *text(struct tools_state *s, sqlite3_stmt *st, int i)
{
    const char *t = (const char *) s->sq->column_text(st, i);
    return t ? t : "";
}

static int shapes_load_unlocked(struct tools_state *s, cJSON **out, char *err)
{
    int rc = tools__state_open(s, err);
    if (rc != 0)
        return rc;
    sqlite3_stmt *st = tools__state_prepare(
        s,
        "SELECT server, tool, schema_hash, shape FROM result_shapes ORDER BY server, tool "
        "LIMIT 4096",
        err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    _Static_assert(TOOLS_STATE_SHAPES_MAX == 4096, "the LIMIT above");
    cJSON *a = cJSON_CreateArray();
    int step;
    while ((step = s->sq->step(st)) == SQLITE_ROW) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "server", text(s, st, 0));
        cJSON_AddStringToObject(o, "tool", text(s, st, 1));
        cJSON_AddStringToObject(o, "schemaHash", text(s, st, 2));
        cJSON_AddStringToObject(o, "shape", text(s, st, 3));
        cJSON_AddItemToArray(a, o);
    }
    if (step != SQLITE_DONE) {
        cJSON_Delete(a);
        rc = tools__state_fail(s, s->sq->extended_errcode(s->db),
                               "cannot read the learned result types", err);
    } else {
        *out = a;
    }
    s->sq->finalize(st);
    return rc;
}

/* --- the public operations, each under the connection's lock ------------------------------ */

int tools_state_shapes_save(struct tools_state *s, const struct tools_state_shape_row *rows,
                            size_t n, char *err)
{
    tools_state_lock(s);
    int rc = shapes_save_unlocked(s, rows, n, err);
    tools_state_unlock(s);
    return rc;
}

int tools_state_shapes_load(struct tools_state *s, cJSON **out, char *err)
{
    tools_state_lock(s);
    int rc = shapes_load_unlocked(s, out, err);
    tools_state_unlock(s);
    return rc;
}
