/* The result_shapes table of the state database: the types learned from
 * downstream tools' results (tools/result_types.c), one row per tool,
 * written in batches (one transaction) and read back at start-up. On
 * PostgreSQL (codemode.store) the rows are the instances' shared
 * codemode_result_shapes (pg.c); shapes_save_start writes off the loop. */
#include "tools/state/internal.h"
#include "tools/state/pg_async.h"
#include "common/alloc.h"

#include <stdio.h>
#include <stdlib.h>

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
    if (s->pg) {
        for (size_t i = 0; i < n; i++)
            if (!rows[i].server || !rows[i].tool || !rows[i].schema_hash || !rows[i].shape) {
                strcpy(err, "a learned result type needs server, tool, schema hash and shape");
                return TOOLS_STATE_INVALID;
            }
        return tools__pg_shapes_save(s->pg, rows, n, err);
    }
    tools_state_lock(s);
    int rc = shapes_save_unlocked(s, rows, n, err);
    tools_state_unlock(s);
    return rc;
}

int tools_state_shapes_load(struct tools_state *s, cJSON **out, char *err)
{
    if (s->pg)
        return tools__pg_shapes_load(s->pg, out, err);
    tools_state_lock(s);
    int rc = shapes_load_unlocked(s, out, err);
    tools_state_unlock(s);
    return rc;
}

/* --- off the loop ---------------------------------------------------------------------------- */

struct tools_state_shapes_op {
    uv_work_t work;
    struct tools_state *s;
    struct tools_state_shape_row *rows; /* their strings: copies, freed with the op */
    size_t n;
    int rc, cancelled;
    char err[TOOLS_STATE_ERR_MAX];
    tools_state_shapes_cb *cb;
    void *ud;
};

static void save_work(uv_work_t *w)
{
    struct tools_state_shapes_op *op = w->data;
    op->err[0] = '\0';
    op->rc = tools_state_shapes_save(op->s, op->rows, op->n, op->err);
}

static void save_done(uv_work_t *w, int status)
{
    struct tools_state_shapes_op *op = w->data;
    (void) status;
    if (!op->cancelled && op->cb)
        op->cb(op->ud, op->rc, op->rc < 0 ? op->err : NULL);
    for (size_t i = 0; i < op->n; i++) {
        free((char *) op->rows[i].server);
        free((char *) op->rows[i].tool);
        free((char *) op->rows[i].schema_hash);
        free((char *) op->rows[i].shape);
    }
    free(op->rows);
    free(op);
}

static void pg_saved(void *ud, int rc, const char *err)
{
    struct tools_state_shapes_op *op = ud;
    op->rc = rc;
    if (err)
        snprintf(op->err, sizeof op->err, "%s", err);
    save_done(&op->work, 0);
}

static char *dup_or_null(const char *t)
{
    return t ? xstrdup(t) : NULL;
}

struct tools_state_shapes_op *
tools_state_shapes_save_start(struct tools_state *s, uv_loop_t *loop,
                              const struct tools_state_shape_row *rows, size_t n,
                              tools_state_shapes_cb *cb, void *ud)
{
    struct tools_state_shapes_op *op = xcalloc(1, sizeof *op);
    op->s = s;
    op->rows = xcalloc(n ? n : 1, sizeof *op->rows);
    op->n = n;
    for (size_t i = 0; i < n; i++)
        op->rows[i] = (struct tools_state_shape_row){
            dup_or_null(rows[i].server), dup_or_null(rows[i].tool),
            dup_or_null(rows[i].schema_hash), dup_or_null(rows[i].shape)};
    op->cb = cb;
    op->ud = ud;
    op->work.data = op;
    struct tools__pga *pool = tools__state_pool(s, loop);
    int whole = 1;
    for (size_t i = 0; i < n; i++)
        whole = whole && rows[i].server && rows[i].tool && rows[i].schema_hash && rows[i].shape;
    if (pool && whole && n > 0) { /* PostgreSQL: on its pool on the loop */
        tools__pgo_shapes_save(pool, op->rows, n, pg_saved, op);
        return op;
    }
    op->work.data = op; /* SQLite (or rows the checks refuse: answered from there) */
    uv_queue_work(loop, &op->work, save_work, save_done);
    return op;
}

void tools_state_shapes_cancel(struct tools_state_shapes_op *op)
{
    op->cancelled = 1; /* the write in flight still completes */
}
