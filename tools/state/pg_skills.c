/* Skills on PostgreSQL (codemode_skills): save, delete and load, with the
 * same sentences as skills_db.c; a change is announced with NOTIFY so the
 * other instances reload (pg_listen.c). */
#include "tools/state/pg_internal.h"
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

static int skill_save_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                         char *err)
{
    struct skill_args *a = ud;
    char saved[24];
    snprintf(saved, sizeof saved, "%lld", (long long) time(NULL));
    const char *params[] = {a->owner, a->name, a->description, a->schema_json, a->code, saved};
    int rc = tools__pg_run(
        p, k,
        "INSERT INTO codemode_skills(owner, name, description, input_schema, code, saved) "
        "VALUES($1,$2,$3,$4,$5,$6) ON CONFLICT(owner, name) DO UPDATE SET "
        "description=EXCLUDED.description, input_schema=EXCLUDED.input_schema, "
        "code=EXCLUDED.code, saved=EXCLUDED.saved",
        6, params, "save the skill", err);
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
    PGresult *r = tools__pg_q(p, k, "DELETE FROM codemode_skills WHERE owner=$1 AND name=$2", 2,
                              params, "delete the skill", err);
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
    PGresult *r =
        tools__pg_q(p, k,
                    "SELECT name, description, input_schema, code, owner FROM codemode_skills "
                    "ORDER BY name, owner",
                    0, NULL, "read the skills", err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    *started = 1;
    cJSON *rows = cJSON_CreateArray();
    for (int i = 0; i < p->pq->ntuples(r); i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "owner", p->pq->getvalue(r, i, 4));
        cJSON_AddStringToObject(o, "name", p->pq->getvalue(r, i, 0));
        cJSON_AddStringToObject(o, "description", p->pq->getvalue(r, i, 1));
        const char *schema = p->pq->getvalue(r, i, 2);
        cJSON *parsed = json_parse(schema, strlen(schema));
        cJSON_AddItemToObject(o, "inputSchema", parsed ? parsed : cJSON_CreateObject());
        cJSON_AddStringToObject(o, "code", p->pq->getvalue(r, i, 3));
        cJSON_AddItemToArray(rows, o);
    }
    p->pq->clear(r);
    *a->out = rows;
    return TOOLS_STATE_OK;
}

int tools__pg_skill_load(struct tools__pg *p, cJSON **out, char *err)
{
    struct skill_args a = {.out = out};
    return tools__pg_with_conn(p, skill_load_op, &a, err);
}
