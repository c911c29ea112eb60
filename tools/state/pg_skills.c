/* Skills on PostgreSQL (codemode_skills): save, delete and load, with the
 * same sentences as skills_db.c; a change is announced with NOTIFY so the
 * other instances reload (pg_listen.c). Synchronously (the CLI, start-up)
 * and on the pool on the loop (the server's skills.*). */
#include "tools/state/pg_internal.h"
#include "tools/state/pg_async.h"
#include "common/alloc.h"
#include "common/json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct skill_args {
    const char *owner, *name, *description, *schema_json, *code;
    cJSON **out;
};

#define SQL_SAVE                                                                                   \
    "INSERT INTO codemode_skills(owner, name, description, input_schema, code, saved) "            \
    "VALUES($1,$2,$3,$4,$5,$6) ON CONFLICT(owner, name) DO UPDATE SET "                            \
    "description=EXCLUDED.description, input_schema=EXCLUDED.input_schema, "                       \
    "code=EXCLUDED.code, saved=EXCLUDED.saved"
#define SQL_DELETE "DELETE FROM codemode_skills WHERE owner=$1 AND name=$2"
#define SQL_LOAD                                                                                   \
    "SELECT name, description, input_schema, code, owner FROM codemode_skills ORDER BY name, "     \
    "owner"

/* The rows of a SELECT of SQL_LOAD, as tools_state_skill_load gives them. */
static cJSON *skill_rows(const struct pg_lib *pq, PGresult *r)
{
    cJSON *rows = cJSON_CreateArray();
    for (int i = 0; i < pq->ntuples(r); i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "owner", pq->getvalue(r, i, 4));
        cJSON_AddStringToObject(o, "name", pq->getvalue(r, i, 0));
        cJSON_AddStringToObject(o, "description", pq->getvalue(r, i, 1));
        const char *schema = pq->getvalue(r, i, 2);
        cJSON *parsed = json_parse(schema, strlen(schema));
        cJSON_AddItemToObject(o, "inputSchema", parsed ? parsed : cJSON_CreateObject());
        cJSON_AddStringToObject(o, "code", pq->getvalue(r, i, 3));
        cJSON_AddItemToArray(rows, o);
    }
    return rows;
}

static int skill_save_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                         char *err)
{
    struct skill_args *a = ud;
    char saved[24];
    snprintf(saved, sizeof saved, "%lld", (long long) time(NULL));
    const char *params[] = {a->owner, a->name, a->description, a->schema_json, a->code, saved};
    int rc = tools__pg_run(p, k, SQL_SAVE, 6, params, "save the skill", err);
    *started = rc == 0;
    if (rc == 0) /* the other instances read the skills again (pg_listen.c) */
        rc = tools__pg_run(p, k, "NOTIFY codemode_skills", 0, NULL, "announce the skill", err);
    return rc;
}

int tools__pg_skill_save(struct tools__pg *p, const char *owner, const char *name,
                         const char *description, const char *schema_json, const char *code,
                         char *err)
{
    struct skill_args a = {owner, name, description, schema_json, code, NULL};
    return tools__pg_with_conn(p, skill_save_op, &a, err);
}

static int skill_delete_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                           char *err)
{
    struct skill_args *a = ud;
    const char *params[] = {a->owner, a->name};
    PGresult *r = tools__pg_q(p, k, SQL_DELETE, 2, params, "delete the skill", err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    *started = 1;
    int rc = tools__pg_deleted(p, r) ? TOOLS_STATE_OK : TOOLS_STATE_ABSENT;
    p->pq->clear(r);
    if (rc == TOOLS_STATE_OK)
        rc = tools__pg_run(p, k, "NOTIFY codemode_skills", 0, NULL, "announce the deletion", err);
    return rc;
}

int tools__pg_skill_delete(struct tools__pg *p, const char *owner, const char *name, char *err)
{
    struct skill_args a = {.owner = owner, .name = name};
    return tools__pg_with_conn(p, skill_delete_op, &a, err);
}

static int skill_load_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                         char *err)
{
    struct skill_args *a = ud;
    PGresult *r = tools__pg_q(p, k, SQL_LOAD, 0, NULL, "read the skills", err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    *started = 1;
    *a->out = skill_rows(p->pq, r);
    p->pq->clear(r);
    return TOOLS_STATE_OK;
}

int tools__pg_skill_load(struct tools__pg *p, cJSON **out, char *err)
{
    struct skill_args a = {.out = out};
    return tools__pg_with_conn(p, skill_load_op, &a, err);
}

/* --- on the loop ----------------------------------------------------------------------------- */

struct skill_op {
    struct tools__pgo base;
    struct tools__pga *a;
    tools__pgo_done_cb *done;
    tools__pgo_rows_cb *rows;
    void *ud;
    int rc;
};

static void skill_end(struct skill_op *o, int rc, const char *err)
{
    if (!o->base.cancelled)
        o->done(o->ud, rc, rc < 0 ? err : NULL);
    free(o);
}

static void skill_loaded(void *ud, PGresult *r, const char *err)
{
    struct skill_op *o = ud;
    if (!o->base.cancelled)
        o->rows(o->ud, r ? TOOLS_STATE_OK : TOOLS_STATE_FAILED,
                r ? skill_rows(tools__pga_pq(o->a), r) : NULL, err);
    free(o);
}

struct tools__pgo *tools__pgo_skill_load(struct tools__pga *a, tools__pgo_rows_cb *cb, void *ud)
{
    struct skill_op *o = xcalloc(1, sizeof *o);
    o->a = a;
    o->rows = cb;
    o->ud = ud;
    tools__pga_query(a, SQL_LOAD, 0, NULL, "read the skills", skill_loaded, o);
    return &o->base;
}

static void skill_saved(void *ud, struct tools__pga_req *op, PGresult *const *res, int n,
                        const char *err)
{
    (void) op, (void) res, (void) n;
    skill_end(ud, err ? TOOLS_STATE_FAILED : TOOLS_STATE_OK, err);
}

struct tools__pgo *tools__pgo_skill_save(struct tools__pga *a, const char *owner, const char *name,
                                         const char *description, const char *schema_json,
                                         const char *code, tools__pgo_done_cb *cb, void *ud)
{
    struct skill_op *o = xcalloc(1, sizeof *o);
    o->a = a;
    o->done = cb;
    o->ud = ud;
    char saved[24];
    snprintf(saved, sizeof saved, "%lld", (long long) time(NULL));
    const char *params[] = {owner, name, description, schema_json, code, saved};
    /* the row and its announcement (sent at COMMIT: pg_listen.c) in one batch */
    const struct tools__pga_stmt batch[] = {{"BEGIN", 0, NULL},
                                            {SQL_SAVE, 6, params},
                                            {"NOTIFY codemode_skills", 0, NULL},
                                            {"COMMIT", 0, NULL}};
    tools__pga_begin(a, "save the skill", batch, 4, skill_saved, o);
    return &o->base;
}

static void skill_announced(void *ud, struct tools__pga_req *op, PGresult *const *res, int n,
                            const char *err)
{
    (void) op, (void) res, (void) n;
    skill_end(ud, err ? TOOLS_STATE_FAILED : TOOLS_STATE_OK, err);
}

/* The row deleted: announced when there was one. */
static void skill_deleted(void *ud, struct tools__pga_req *op, PGresult *const *res, int n,
                          const char *err)
{
    struct skill_op *o = ud;
    const struct pg_lib *pq = tools__pga_pq(o->a);
    (void) n;
    if (err) {
        skill_end(o, TOOLS_STATE_FAILED, err);
        return;
    }
    const char *count = pq->cmdTuples(res[0]);
    if (!(count && atoi(count) > 0)) {
        skill_end(o, TOOLS_STATE_ABSENT, NULL);
        return;
    }
    static const struct tools__pga_stmt notify = {"NOTIFY codemode_skills", 0, NULL};
    tools__pga_next(op, &notify, 1, skill_announced);
}

struct tools__pgo *tools__pgo_skill_delete(struct tools__pga *a, const char *owner,
                                           const char *name, tools__pgo_done_cb *cb, void *ud)
{
    struct skill_op *o = xcalloc(1, sizeof *o);
    o->a = a;
    o->done = cb;
    o->ud = ud;
    const char *params[] = {owner, name};
    const struct tools__pga_stmt del = {SQL_DELETE, 2, params};
    tools__pga_begin(a, "delete the skill", &del, 1, skill_deleted, o);
    return &o->base;
}
