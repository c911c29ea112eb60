/* The skills table of the state database: save (insert or replace) and
 * delete one owner's skill, and load every skill in name order. */
#include "tools/state/internal.h"
#include "common/json.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

int tools_state_skill_save(struct tools_state *s, const char *owner, const char *name,
                           const char *description, const char *schema_json, const char *code,
                           char *err)
{
    if (s->pg)
        return tools__pg_skill_save(s->pg, owner, name, description, schema_json, code, err);
    int rc = tools__state_open(s, err);
    if (rc != 0)
        return rc;
    sqlite3_stmt *st = tools__state_prepare(
        s,
        "INSERT OR REPLACE INTO skills(name, description, input_schema, code, saved, owner) "
        "VALUES(?1,?2,?3,?4,?5,?6)",
        err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    s->sq->bind_text(st, 1, name, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 2, description, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 3, schema_json, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 4, code, -1, SQLITE_STATIC);
    s->sq->bind_int64(st, 5, (sqlite3_int64) time(NULL));
    s->sq->bind_text(st, 6, owner, -1, SQLITE_STATIC);
    rc = s->sq->step(st) == SQLITE_DONE
             ? 0
             : tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot save the skill", err);
    s->sq->finalize(st);
    return rc;
}

int tools_state_skill_delete(struct tools_state *s, const char *owner, const char *name,
                             char *err)
{
    if (s->pg)
        return tools__pg_skill_delete(s->pg, owner, name, err);
    int rc = tools__state_open(s, err);
    if (rc != 0)
        return rc;
    sqlite3_stmt *st =
        tools__state_prepare(s, "DELETE FROM skills WHERE name=?1 AND owner=?2", err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    s->sq->bind_text(st, 1, name, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 2, owner, -1, SQLITE_STATIC);
    if (s->sq->step(st) == SQLITE_DONE)
        rc = s->sq->changes(s->db) > 0 ? TOOLS_STATE_OK : TOOLS_STATE_ABSENT;
    else
        rc = tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot delete the skill", err);
    s->sq->finalize(st);
    return rc;
}

static const char *text(struct tools_state *s, sqlite3_stmt *st, int i)
{
    const char *t = (const char *) s->sq->column_text(st, i);
    return t ? t : "";
}

static cJSON *row(struct tools_state *s, sqlite3_stmt *st)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "owner", text(s, st, 4));
    cJSON_AddStringToObject(o, "name", text(s, st, 0));
    cJSON_AddStringToObject(o, "description", text(s, st, 1));
    const char *schema = text(s, st, 2);
    cJSON *parsed = json_parse(schema, strlen(schema));
    cJSON_AddItemToObject(o, "inputSchema", parsed ? parsed : cJSON_CreateObject());
    cJSON_AddStringToObject(o, "code", text(s, st, 3));
    return o;
}

int tools_state_skill_load(struct tools_state *s, cJSON **out, char *err)
{
    if (s->pg)
        return tools__pg_skill_load(s->pg, out, err);
    int rc = tools__state_open(s, err);
    if (rc != 0)
        return rc;
    sqlite3_stmt *st = tools__state_prepare(
        s, "SELECT name, description, input_schema, code, owner FROM skills ORDER BY name, owner",
        err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    cJSON *a = cJSON_CreateArray();
    int step;
    while ((step = s->sq->step(st)) == SQLITE_ROW)
        cJSON_AddItemToArray(a, row(s, st));
    if (step != SQLITE_DONE) {
        cJSON_Delete(a);
        rc = tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot read the skills", err);
    } else {
        *out = a;
    }
    s->sq->finalize(st);
    return rc;
}
