/* The state and skills services (tools/state/service.h): the operations a
 * program's host calls reach, the checks of a skill before it is saved, the
 * in-memory list of skills with compiled input schemas, and what workers and
 * the search see of them. Declarations are in decl.c. */
#include "tools/state/service_internal.h"
#include "tools/state/internal.h"
#include "tools/state/pg_async.h"
#include "tools/state/jobs.h"
#include "tools/catalog.h"
#include "tools/names.h"
#include "tools/result_map.h"
#include "tools/schema/schema.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DESCRIPTION_MAX 4096

/* --- skills in memory ------------------------------------------------------------------ */

static void drop_compiled(struct tools_state_service *s)
{
    for (size_t i = 0; i < s->nskills; i++)
        tools_schema_free(s->compiled[i].input);
    free(s->compiled);
    s->compiled = NULL;
    s->nskills = 0;
}

/* Takes ownership of rows. */
static void install_skills(struct tools_state_service *s, cJSON *rows)
{
    drop_compiled(s);
    cJSON_Delete(s->skills);
    s->skills = rows;
    size_t n = (size_t) cJSON_GetArraySize(rows);
    s->compiled = xcalloc(n ? n : 1, sizeof *s->compiled);
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        char *err = NULL;
        struct skill *k = &s->compiled[s->nskills++];
        k->row = row;
        k->input = tools_schema_compile(cJSON_GetObjectItemCaseSensitive(row, "inputSchema"), &err);
        free(err); /* checked when saved; NULL validates nothing */
    }
}

static int reload_skills(struct tools_state_service *s, char *err)
{
    cJSON *rows = NULL;
    int rc = tools_state_skill_load(s->store, &rows, err);
    if (rc == 0)
        install_skills(s, rows);
    return rc;
}

/* Reads the rows into v (from the store, when it exists). */
static int load_view(struct tools_state_service *s, struct skills_view *v, char *err)
{
    if (!tools_state_file_exists(s->store))
        return 0;
    cJSON *rows = NULL;
    int rc = tools_state_skill_load(s->store, &rows, err);
    if (rc == 0) {
        cJSON_Delete(v->rows);
        v->rows = rows;
    }
    return rc;
}

static const cJSON *view_rows(const struct tools_state_service *s, const struct skills_view *v)
{
    return v->rows ? v->rows : s->skills;
}

/* On the loop: installs what v read and says the skills changed. */
void tools__svc_land(struct tools_state_service *s, struct skills_view *v)
{
    if (v->rows)
        install_skills(s, v->rows);
    v->rows = NULL;
    if (v->changed && s->o.skills_changed)
        s->o.skills_changed(s->o.skills_changed_ud);
    v->changed = 0;
}

const char *tools__svc_row_str(const cJSON *row, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(row, key)->valuestring; /* rows are ours */
}

/* Whether principal (NULL: the CLI, which sees everything) sees a skill
 * of owner: with scope "server" every skill, else its own and the server's. */
static int sees(const struct tools_state_service *s, const char *owner, const char *principal)
{
    return principal == NULL || !s->o.skills_per_principal || owner[0] == '\0' ||
           strcmp(owner, principal) == 0;
}

/* The skill `name` means to principal: its own, else the server's, else
 * (scope "server") another principal's; NULL when it sees none. */
static const struct skill *find_skill(const struct tools_state_service *s, const char *name,
                                      const char *principal)
{
    const struct skill *best = NULL;
    int best_rank = 0;
    for (size_t i = 0; i < s->nskills; i++) {
        const char *owner = tools__svc_row_str(s->compiled[i].row, "owner");
        if (strcmp(tools__svc_row_str(s->compiled[i].row, "name"), name) != 0 ||
            !sees(s, owner, principal))
            continue;
        int rank = principal && strcmp(owner, principal) == 0 ? 3 : owner[0] == '\0' ? 2 : 1;
        if (rank > best_rank) {
            best = &s->compiled[i];
            best_rank = rank;
        }
    }
    return best;
}

/* The same over rows (a view's): the row, or NULL. */
const cJSON *tools__svc_find_row(const struct tools_state_service *s, const cJSON *rows,
                                 const char *name, const char *principal)
{
    const cJSON *best = NULL, *row;
    int best_rank = 0;
    cJSON_ArrayForEach(row, rows)
    {
        const char *owner = tools__svc_row_str(row, "owner");
        if (strcmp(tools__svc_row_str(row, "name"), name) != 0 || !sees(s, owner, principal))
            continue;
        int rank = principal && strcmp(owner, principal) == 0 ? 3 : owner[0] == '\0' ? 2 : 1;
        if (rank > best_rank) {
            best = row;
            best_rank = rank;
        }
    }
    return best;
}

/* 1 when principal may replace or delete a skill of owner: its owner, the
 * CLI (NULL) or a principal of codemode.skills.admins. */
int tools__svc_may_write(const struct tools_state_service *s, const char *owner,
                         const char *principal)
{
    if (principal == NULL || strcmp(owner, principal) == 0)
        return 1;
    for (char *const *a = s->o.skill_admins; a && *a; a++)
        if (strcmp(*a, principal) == 0)
            return 1;
    return 0;
}

static int call_skills(struct tools_state_service *s, struct skills_view *v, const char *op,
                       const char *name, const char *principal, const cJSON *args, struct buf *out);

int tools__svc_store_error(struct buf *out, int rc, const char *err);

/* The shared stash's operations (tools_state_service_stash_put, _get, _touch). */
static int stash_job(struct tools_state_service *s, const char *op, const cJSON *args,
                     struct buf *out)
{
    char err[TOOLS_STATE_ERR_MAX];
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(args, "data");
    if (strcmp(op, "stash-put") == 0) {
        struct tools_state_stash_entry e = {
            .uri = tools__svc_str_arg(args, "uri"),
            .owner = tools__svc_str_arg(args, "owner"),
            .mime = tools__svc_str_arg(args, "mime"),
            .blob = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(args, "blob")),
            .data = data->valuestring,
            .len = strlen(data->valuestring),
            .ttl_ms = (uint64_t) cJSON_GetObjectItemCaseSensitive(args, "ttlMs")->valuedouble,
            .max_entries =
                (unsigned) cJSON_GetObjectItemCaseSensitive(args, "maxEntries")->valuedouble,
            .max_bytes = (uint64_t) cJSON_GetObjectItemCaseSensitive(args, "maxBytes")->valuedouble,
        };
        int rc = tools_state_stash_put(s->store, &e, err);
        if (rc < 0)
            return tools__svc_store_error(out, rc, err);
        buf_append_str(out, "true");
        return 1;
    }
    const char *uri = tools__svc_str_arg(args, "uri");
    if (strcmp(op, "stash-touch") == 0) {
        int rc = tools_state_stash_touch(s->store, uri, tools__svc_str_arg(args, "owner"), err);
        if (rc < 0)
            return tools__svc_store_error(out, rc, err);
        buf_append_str(out, rc == TOOLS_STATE_ABSENT ? "false" : "true");
        return 1;
    }
    char *text = NULL, *mime = NULL;
    size_t len = 0;
    int blob = 0;
    int rc = tools_state_stash_get(s->store, uri, tools__svc_str_arg(args, "owner"), &text, &len,
                                   &mime, &blob, err);
    if (rc < 0)
        return tools__svc_store_error(out, rc, err);
    if (rc == TOOLS_STATE_ABSENT) {
        buf_append_str(out, "null");
        return 1;
    }
    buf_append_str(out, "{\"uri\":");
    json_append_string(out, uri, strlen(uri));
    buf_append_str(out, ",\"mimeType\":");
    json_append_string(out, mime, strlen(mime));
    buf_append_str(out, blob ? ",\"blob\":" : ",\"text\":");
    json_append_string(out, text, len);
    buf_append_char(out, '}');
    free(text);
    free(mime);
    return 1;
}

/* One job off the loop (jobs.c): state.* as tools_state_service_call does
 * it; skills.* into a view (*ctx) that land_job installs on the loop. */
static int call_job(void *ud, const char *op, const char *name, const char *principal,
                    const cJSON *args, struct buf *out, void **ctx)
{
    struct tools_state_service *svc = ud;
    int sqlite = !tools_state_is_shared(svc->store); /* PostgreSQL's pool is its own */
    int skills = strcmp(op, "skills") == 0 || strcmp(op, "skills-reload") == 0;
    if (skills && strcmp(op, "skills") == 0 && !tools_state_service_check(op, name, args, out))
        return 0;
    if (strncmp(op, "stash-", 6) == 0)
        return stash_job(svc, op, args, out); /* PostgreSQL only: no SQLite lock */
    if (sqlite)
        tools_state_lock(svc->store);
    int ok;
    if (skills) {
        struct skills_view *v = xcalloc(1, sizeof *v);
        ok = call_skills(svc, v, op, name, principal, args, out);
        *ctx = v;
    } else
        ok = tools_state_service_call(ud, op, name, principal, args, out);
    if (sqlite)
        tools_state_unlock(svc->store);
    return ok;
}

static void land_job(void *ud, void *ctx)
{
    struct skills_view *v = ctx;
    if (v == NULL)
        return;
    tools__svc_land(ud, v);
    free(v);
}

/* A skill was saved or deleted (maybe by another instance): read them
 * again off the loop, in turn with the other operations. */
static void skills_announced(void *ud)
{
    struct tools_state_service *s = ud;
    if (s->pool) {
        tools__svc_pg_skills(s, "skills-reload", "", NULL, NULL, NULL, NULL);
        return;
    }
    tools__state_jobs_push(&s->jobs, "skills-reload", "", NULL, NULL, 1, NULL, NULL);
}

struct tools_state_service *tools_state_service_new(const struct tools_state_service_options *o)
{
    if (!o->state && !o->skills)
        return NULL;
    struct tools_state_service *s = xcalloc(1, sizeof *s);
    s->o = *o;
    s->store = tools_state_new(&o->store);
    s->skills = cJSON_CreateArray();
    if (o->skills && tools_state_file_exists(s->store)) {
        char err[TOOLS_STATE_ERR_MAX];
        if (reload_skills(s, err) != 0)
            log_warn("state", "skills not loaded: %s", err);
        tools_state_release(s->store); /* loaded again when a program needs it */
    }
    tools__state_jobs_init(&s->jobs, o->loop, tools_state_parallelism(s->store), call_job, land_job,
                           s);
    if (o->loop) /* PostgreSQL: every operation without threads (service_pg.c) */
        s->pool = tools__state_pool(s->store, o->loop);
    if (o->skills && o->loop) /* shared: read the skills again when another instance changes them */
        s->listener = tools_state_listen_skills(s->store, o->loop, skills_announced, s);
    return s;
}

void tools_state_service_free(struct tools_state_service *s)
{
    if (s == NULL)
        return;
    s->closing = 1;
    tools__svc_pg_cancel_all(s); /* their callers are gone (before the loop runs below) */
    tools_state_listen_stop(s->listener);
    tools__state_pool_close(s->store); /* what it has not answered fails, answering nobody */
    tools__state_jobs_drain(&s->jobs);
    drop_compiled(s);
    cJSON_Delete(s->skills);
    tools_state_free(s->store);
    free(s);
}

int tools_state_service_has_state(const struct tools_state_service *s)
{
    return s && s->o.state;
}

int tools_state_service_has_skills(const struct tools_state_service *s)
{
    return s && s->o.skills;
}

struct tools_state *tools_state_service_store(struct tools_state_service *s)
{
    return s->store;
}

cJSON *tools_state_service_skills(const struct tools_state_service *s, const char *principal)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < s->nskills; i++) {
        const cJSON *row = s->compiled[i].row;
        if (find_skill(s, tools__svc_row_str(row, "name"), principal) == &s->compiled[i])
            cJSON_AddItemReferenceToArray(a, (cJSON *) row);
    }
    return a;
}

char *tools_state_service_worker_json(const struct tools_state_service *s, const char *principal)
{
    if (s == NULL)
        return NULL;
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "{\"state\":%s", s->o.state ? "true" : "false");
    if (s->o.skills) {
        buf_append_str(&b, ",\"skills\":[");
        cJSON *rows = tools_state_service_skills(s, principal);
        const cJSON *row;
        cJSON_ArrayForEach(row, rows)
        {
            const char *n = tools__svc_row_str(row, "name");
            if (row != rows->child)
                buf_append_char(&b, ',');
            json_append_string(&b, n, strlen(n));
        }
        cJSON_Delete(rows);
        buf_append_char(&b, ']');
    }
    buf_append_char(&b, '}');
    return buf_steal(&b);
}

/* --- replies ------------------------------------------------------------------------- */

int tools__svc_fail(struct buf *out, const char *name, const char *code, const char *msg)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "message", msg);
    if (code)
        cJSON_AddStringToObject(e, "code", code);
    char *t = json_print(e);
    buf_append_str(out, t);
    free(t);
    cJSON_Delete(e);
    return 0;
}

/* A store status (negative) as the program's error. */
int tools__svc_store_error(struct buf *out, int rc, const char *err)
{
    if (rc == TOOLS_STATE_CONFLICT)
        return tools__svc_fail(out, "StateConflictError", "conflict", err);
    return tools__svc_fail(out, "StateError",
                           rc == TOOLS_STATE_QUOTA     ? "quota"
                           : rc == TOOLS_STATE_INVALID ? "invalid"
                                                       : "storage",
                           err);
}

int tools__svc_ok_json(struct buf *out, cJSON *v)
{
    char *t = json_print(v);
    buf_append_str(out, t);
    free(t);
    cJSON_Delete(v);
    return 1;
}

/* --- state.* ---------------------------------------------------------------------------- */

const char *tools__svc_str_arg(const cJSON *args, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int state_get(struct tools_state_service *s, const char *scope, const char *key,
                     struct buf *out)
{
    char err[TOOLS_STATE_ERR_MAX], *json = NULL;
    int64_t version = 0;
    int rc = tools_state_get(s->store, scope, key, &json, &version, err);
    if (rc < 0)
        return tools__svc_store_error(out, rc, err);
    if (rc == TOOLS_STATE_ABSENT) {
        buf_append_str(out, "{\"found\":false}");
        return 1;
    }
    buf_printf(out, "{\"found\":true,\"version\":%lld,\"value\":%s}", (long long) version, json);
    free(json);
    return 1;
}

/* ifVersion: absent (-1), or a non-negative integer. */
int tools__svc_read_if_version(const cJSON *args, int64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, "ifVersion");
    *out = -1;
    if (v == NULL || cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 9007199254740991.0 ||
        v->valuedouble != floor(v->valuedouble))
        return -1;
    *out = (int64_t) v->valuedouble;
    return 0;
}

static int state_set(struct tools_state_service *s, const char *scope, const char *key,
                     const cJSON *args, struct buf *out)
{
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(args, "value"); /* checked */
    int64_t if_version, version = 0;
    tools__svc_read_if_version(args, &if_version);
    char err[TOOLS_STATE_ERR_MAX], *json = json_print(value);
    int rc = tools_state_set(s->store, scope, key, json, if_version, &version, err);
    free(json);
    if (rc < 0)
        return tools__svc_store_error(out, rc, err);
    buf_printf(out, "%lld", (long long) version);
    return 1;
}

/* The checks of a state operation's arguments: 0, or -1 with msg. */
static int state_args_problem(const char *name, const cJSON *args, char *msg, size_t size)
{
    if (strcmp(name, "list") == 0)
        return 0;
    const char *key = tools__svc_str_arg(args, "key");
    int64_t if_version;
    if (key == NULL || key[0] == '\0' || strlen(key) > TOOLS_STATE_KEY_MAX)
        snprintf(msg, size, "state.%s: the key must be a string of 1 to %d bytes", name,
                 TOOLS_STATE_KEY_MAX);
    else if (strcmp(name, "set") == 0 && cJSON_GetObjectItemCaseSensitive(args, "value") == NULL)
        snprintf(msg, size,
                 "state.set: the value must be JSON data (undefined and functions are not)");
    else if (strcmp(name, "set") == 0 && tools__svc_read_if_version(args, &if_version) != 0)
        snprintf(msg, size,
                 "state.set: ifVersion must be a version number (an integer >= 0; 0: the key "
                 "must not exist)");
    else
        return 0;
    return -1;
}

static int state_op(struct tools_state_service *s, const char *name, const char *scope,
                    const cJSON *args, struct buf *out)
{
    char err[TOOLS_STATE_ERR_MAX];
    const char *key = tools__svc_str_arg(args, "key");
    int rc;
    if (strcmp(name, "list") == 0) {
        const char *prefix = tools__svc_str_arg(args, "prefix");
        cJSON *keys = NULL;
        rc = tools_state_list(s->store, scope, prefix ? prefix : "", &keys, err);
        return rc < 0 ? tools__svc_store_error(out, rc, err) : tools__svc_ok_json(out, keys);
    }
    if (strcmp(name, "get") == 0 || strcmp(name, "entry") == 0)
        return state_get(s, scope, key, out);
    if (strcmp(name, "set") == 0)
        return state_set(s, scope, key, args, out);
    if (strcmp(name, "delete") == 0) {
        rc = tools_state_delete(s->store, scope, key, err);
        if (rc < 0)
            return tools__svc_store_error(out, rc, err);
        buf_append_str(out, rc == TOOLS_STATE_OK ? "true" : "false");
        return 1;
    }
    return tools__svc_fail(out, "Error", NULL, "unknown state operation");
}

/* --- skills.* ----------------------------------------------------------------------------- */

static int name_problem(const char *name, char *msg, size_t size)
{
    static const char *const taken[] = {"save", "list", "delete", "execute_code", NULL};
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > TOOLS_SKILL_NAME_MAX || !tools_names_is_identifier(name, n) ||
        tools_names_is_reserved(name) || strchr(name, '$')) {
        snprintf(msg, size,
                 "skills.save: name must be an identifier of letters, digits and _ (not starting "
                 "with a digit, not a reserved word), at most %d characters",
                 TOOLS_SKILL_NAME_MAX);
        return -1;
    }
    for (size_t i = 0; taken[i]; i++)
        if (strcmp(name, taken[i]) == 0) {
            snprintf(msg, size, "skills.save: \"%s\" is a reserved name", name);
            return -1;
        }
    return 0;
}

/* The checks of skills.save: 0, or -1 with msg. *schema gets the schema to store. */
static int check_skill(const cJSON *skill, const cJSON **schema, char *msg, size_t size)
{
    const char *name = tools__svc_str_arg(skill, "name"),
               *desc = tools__svc_str_arg(skill, "description");
    const char *code = tools__svc_str_arg(skill, "code");
    *schema = cJSON_GetObjectItemCaseSensitive(skill, "inputSchema");
    if (!cJSON_IsObject(skill)) {
        snprintf(msg, size,
                 "skills.save: expected an object {name, description, inputSchema, code}");
        return -1;
    }
    if (name_problem(name, msg, size) != 0)
        return -1;
    if (desc == NULL || strlen(desc) > DESCRIPTION_MAX) {
        snprintf(msg, size, "skills.save: description must be a string of at most %d bytes",
                 DESCRIPTION_MAX);
        return -1;
    }
    if (code == NULL || strlen(code) > TOOLS_SKILL_CODE_MAX) {
        snprintf(msg, size,
                 "skills.save: code must be a string (the body of an async function receiving "
                 "args) of at most %d bytes",
                 TOOLS_SKILL_CODE_MAX);
        return -1;
    }
    if (*schema != NULL && !cJSON_IsObject(*schema)) {
        snprintf(msg, size, "skills.save: inputSchema must be a JSON Schema object");
        return -1;
    }
    char *err = NULL;
    struct tools_schema *c = *schema ? tools_schema_compile(*schema, &err) : NULL;
    if (*schema && c == NULL) {
        snprintf(msg, size, "skills.save: inputSchema is not a usable JSON Schema: %s",
                 err ? err : "unknown problem");
        free(err);
        return -1;
    }
    tools_schema_free(c);
    return 0;
}

/* StateError "forbidden": principal may not change the skill `name`. */
int tools__svc_not_yours(struct buf *out, const char *op, const char *name)
{
    char msg[TOOLS_STATE_ERR_MAX];
    snprintf(msg, sizeof msg,
             "skills.%s: the skill \"%s\" belongs to another principal; only its owner or an "
             "admin (codemode.skills.admins, or the skills command) may %s it%s",
             op, name, strcmp(op, "save") == 0 ? "replace" : "delete",
             strcmp(op, "save") == 0 ? ". Save yours under another name" : "");
    return tools__svc_fail(out, "StateError", "forbidden", msg);
}

/* skills.delete's argument: the name, or {name}. */
const char *tools__svc_delete_name(const cJSON *args)
{
    return cJSON_IsString(args) ? args->valuestring : tools__svc_str_arg(args, "name");
}

/* Saves a skill that passed check_skill (off the loop: into v). */
static int save_checked(struct tools_state_service *s, struct skills_view *v, const cJSON *skill,
                        const char *principal, struct buf *out)
{
    char msg[TOOLS_STATE_ERR_MAX];
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(skill, "inputSchema");
    const char *name = tools__svc_str_arg(skill, "name");
    int rc = load_view(s, v, msg); /* another process's */
    if (rc < 0)
        return tools__svc_store_error(out, rc, msg);
    const cJSON *had = tools__svc_find_row(s, view_rows(s, v), name, principal);
    const char *owner = had ? tools__svc_row_str(had, "owner") : principal ? principal : "";
    if (!tools__svc_may_write(s, owner, principal))
        return tools__svc_not_yours(out, "save", name);
    char *owned = xstrdup(owner); /* the rows are replaced below */
    char *schema_json = schema ? json_print(schema) : xstrdup("{\"type\":\"object\"}");
    rc = tools_state_skill_save(s->store, owned, name, tools__svc_str_arg(skill, "description"),
                                schema_json, tools__svc_str_arg(skill, "code"), msg);
    free(owned);
    free(schema_json);
    if (rc == 0) {
        v->changed = 1;
        cJSON_Delete(v->rows); /* read again, even when the file was just made */
        v->rows = NULL;
        cJSON *rows = NULL;
        rc = tools_state_skill_load(s->store, &rows, msg);
        v->rows = rows;
    }
    if (rc < 0)
        return tools__svc_store_error(out, rc, msg);
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "name", name);
    return tools__svc_ok_json(out, r);
}

/* A skills.* operation on the loop, synchronously (the CLI, tests). */
static int save_now(struct tools_state_service *s, const cJSON *skill, const char *principal,
                    struct buf *out)
{
    struct skills_view v = {NULL, 0};
    int ok = save_checked(s, &v, skill, principal, out);
    tools__svc_land(s, &v);
    return ok;
}

int tools_state_service_save(struct tools_state_service *s, const cJSON *skill,
                             const char *principal, struct buf *out)
{
    char msg[TOOLS_STATE_ERR_MAX];
    const cJSON *schema;
    if (check_skill(skill, &schema, msg, sizeof msg) != 0)
        return tools__svc_fail(out, "StateError", "invalid", msg);
    return save_now(s, skill, principal, out);
}

/* The skills principal sees; the CLI (NULL) sees every one, with its owner
 * ("" for the server's). */
static int skills_list(struct tools_state_service *s, struct skills_view *v, const char *principal,
                       struct buf *out)
{
    char err[TOOLS_STATE_ERR_MAX];
    int rc = load_view(s, v, err);
    if (rc < 0)
        return tools__svc_store_error(out, rc, err);
    return tools__svc_skills_list_reply(s, view_rows(s, v), principal, out);
}

int tools__svc_skills_list_reply(const struct tools_state_service *s, const cJSON *rows,
                                 const char *principal, struct buf *out)
{
    cJSON *a = cJSON_CreateArray();
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        if (principal &&
            tools__svc_find_row(s, rows, tools__svc_row_str(row, "name"), principal) != row)
            continue;
        cJSON *o = cJSON_Duplicate(row, 1);
        cJSON_DeleteItemFromObjectCaseSensitive(o, "code");
        if (principal)
            cJSON_DeleteItemFromObjectCaseSensitive(o, "owner");
        cJSON_AddItemToArray(a, o);
    }
    return tools__svc_ok_json(out, a);
}

static int skills_delete(struct tools_state_service *s, struct skills_view *v, const cJSON *args,
                         const char *principal, struct buf *out)
{
    char err[TOOLS_STATE_ERR_MAX];
    const char *name = tools__svc_delete_name(args); /* checked */
    int rc = load_view(s, v, err);
    if (rc < 0)
        return tools__svc_store_error(out, rc, err);
    const cJSON *k = tools__svc_find_row(s, view_rows(s, v), name, principal);
    if (k == NULL) {
        buf_append_str(out, "false");
        return 1;
    }
    if (!tools__svc_may_write(s, tools__svc_row_str(k, "owner"), principal))
        return tools__svc_not_yours(out, "delete", name);
    char *owner = xstrdup(tools__svc_row_str(k, "owner"));
    rc = tools_state_skill_delete(s->store, owner, name, err);
    free(owner);
    if (rc == TOOLS_STATE_OK) {
        v->changed = 1;
        rc = load_view(s, v, err);
    }
    if (rc < 0)
        return tools__svc_store_error(out, rc, err);
    buf_append_str(out, rc == TOOLS_STATE_OK ? "true" : "false");
    return 1;
}

/* skills.<name>(args): the arguments checked against its inputSchema. */
static int skill_code(struct tools_state_service *s, const char *name, const char *principal,
                      const cJSON *args, struct buf *out)
{
    const struct skill *k = find_skill(s, name, principal);
    if (k == NULL) {
        char msg[200];
        snprintf(msg, sizeof msg, "Unknown skill \"%.100s\" (skills.list() lists the saved ones)",
                 name);
        return tools__svc_fail(out, "Error", NULL, msg);
    }
    struct tools_schema_result res;
    cJSON *empty = args ? NULL : cJSON_CreateObject();
    int valid = k->input == NULL || tools_schema_validate(k->input, args ? args : empty, &res);
    cJSON_Delete(empty);
    if (!valid) {
        struct tools_catalog_tool t = {
            .server = "skills", .server_id = "skills", .name = name, .id = name};
        tools_result_argument_error(&t, &res, out);
        tools_schema_result_free(&res);
        return 0;
    }
    if (k->input)
        tools_schema_result_free(&res);
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(k->row, "code");
    buf_append_str(out, "{\"code\":");
    json_append_string(out, code->valuestring, strlen(code->valuestring));
    buf_append_char(out, '}');
    return 1;
}

/* The checks of an operation's arguments: 0, or -1 with msg. */
static int args_problem(const char *op, const char *name, const cJSON *args, char *msg, size_t size)
{
    const cJSON *schema;
    if (strcmp(op, "state") == 0)
        return state_args_problem(name, args, msg, size);
    if (strcmp(op, "skills") == 0 && strcmp(name, "save") == 0)
        return check_skill(args, &schema, msg, size);
    if (strcmp(op, "skills") == 0 && strcmp(name, "delete") == 0 &&
        tools__svc_delete_name(args) == NULL) {
        snprintf(msg, size, "skills.delete: expected the skill's name");
        return -1;
    }
    return 0;
}

int tools_state_service_check(const char *op, const char *name, const cJSON *args, struct buf *out)
{
    char msg[TOOLS_STATE_ERR_MAX];
    if (args_problem(op, name, args, msg, sizeof msg) == 0)
        return 1;
    return tools__svc_fail(out, "StateError", "invalid", msg);
}

/* skills.* (and the internal "skills-reload"), off the loop: what changes
 * the rows in memory is left in v for land. */
static int call_skills(struct tools_state_service *s, struct skills_view *v, const char *op,
                       const char *name, const char *principal, const cJSON *args, struct buf *out)
{
    char err[TOOLS_STATE_ERR_MAX];
    if (strcmp(op, "skills-reload") == 0) {
        int rc = load_view(s, v, err);
        if (rc < 0)
            log_warn("state", "skills not reloaded: %s", err);
        v->changed = rc == 0 && v->rows && !cJSON_Compare(v->rows, s->skills, 1);
        buf_append_str(out, "null");
        return rc == 0;
    }
    if (strcmp(op, "skills") == 0 && s->o.skills) {
        if (strcmp(name, "save") == 0)
            return save_checked(s, v, args, principal, out);
        if (strcmp(name, "list") == 0)
            return skills_list(s, v, principal, out);
        if (strcmp(name, "delete") == 0)
            return skills_delete(s, v, args, principal, out);
    }
    return tools__svc_fail(out, "Error", NULL,
                           "this operation is not available (codemode.state / skills)");
}

int tools_state_service_call(struct tools_state_service *s, const char *op, const char *name,
                             const char *principal, const cJSON *args, struct buf *out)
{
    /* "skill" (calling one): its arguments are checked against its own schema */
    int ours = strcmp(op, "state") == 0 || strcmp(op, "skills") == 0;
    if (ours && tools_state_service_check(op, name, args, out) == 0)
        return 0;
    if (strcmp(op, "state") == 0 && s->o.state)
        return state_op(s, name, s->o.per_principal ? (principal ? principal : "stdio") : "", args,
                        out);
    if (strcmp(op, "skill") == 0 && s->o.skills)
        return skill_code(s, name, principal, args, out);
    struct skills_view v = {NULL, 0};
    int ok = call_skills(s, &v, op, name, principal, args, out);
    tools__svc_land(s, &v);
    return ok;
}

struct tools_state_job *tools_state_service_start(struct tools_state_service *s, uv_loop_t *loop,
                                                  const char *op, const char *name,
                                                  const char *principal, const cJSON *args,
                                                  tools_state_done_cb *cb, void *ud)
{
    if (s->jobs.loop == NULL)
        s->jobs.loop = loop;
    if (s->pool && strcmp(op, "state") == 0)
        return tools__svc_pg_state(s, name, principal, args, cb, ud);
    if (s->pool && strcmp(op, "skills") == 0)
        return tools__svc_pg_skills(s, op, name, principal, args, cb, ud);
    /* state.*: only the store, several at once; skills.*: alone (the rows
     * it reads are installed on the loop after it) */
    return tools__state_jobs_push(&s->jobs, op, name, principal, args, strcmp(op, "state") != 0, cb,
                                  ud);
}

/* --- search ----------------------------------------------------------------------------- */

static int contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return n == 0;
}

void tools_state_service_search(const struct tools_state_service *s, const char *principal,
                                const char *query, cJSON *hits)
{
    if (s == NULL || !s->o.skills)
        return;
    cJSON *rows = tools_state_service_skills(s, principal);
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        const char *n = tools__svc_row_str(row, "name"),
                   *d = tools__svc_row_str(row, "description");
        if (!contains(n, query) && !contains(d, query))
            continue;
        cJSON *h = cJSON_CreateObject();
        char qn[TOOLS_SKILL_NAME_MAX + 8];
        snprintf(qn, sizeof qn, "skills.%s", n);
        cJSON_AddStringToObject(h, "name", qn);
        cJSON_AddStringToObject(h, "summary", d);
        cJSON_AddItemToArray(hits, h);
    }
    cJSON_Delete(rows);
}

/* --- the shared stash ----------------------------------------------------------------- */

int tools_state_service_shares_stash(const struct tools_state_service *s)
{
    return s && tools_state_is_shared(s->store);
}

struct tools_state_job *tools_state_service_stash_put(struct tools_state_service *s,
                                                      uv_loop_t *loop,
                                                      const struct tools_state_stash_entry *e,
                                                      tools_state_done_cb *cb, void *ud)
{
    if (s->jobs.loop == NULL)
        s->jobs.loop = loop;
    if (s->pool)
        return tools__svc_pg_stash_put(s, e, cb, ud);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "uri", e->uri);
    cJSON_AddStringToObject(a, "owner", e->owner);
    cJSON_AddStringToObject(a, "mime", e->mime);
    cJSON_AddBoolToObject(a, "blob", e->blob);
    cJSON_AddItemToObject(a, "data", cJSON_CreateString(e->data));
    cJSON_AddNumberToObject(a, "ttlMs", (double) e->ttl_ms);
    cJSON_AddNumberToObject(a, "maxEntries", e->max_entries);
    cJSON_AddNumberToObject(a, "maxBytes", (double) e->max_bytes);
    return tools__state_jobs_adopt(&s->jobs, "stash-put", "", NULL, a, 0, cb, ud);
}

struct tools_state_job *tools_state_service_stash_get(struct tools_state_service *s,
                                                      uv_loop_t *loop, const char *uri,
                                                      const char *owner, tools_state_done_cb *cb,
                                                      void *ud)
{
    if (s->jobs.loop == NULL)
        s->jobs.loop = loop;
    if (s->pool)
        return tools__svc_pg_stash_get(s, uri, owner, 1, cb, ud);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "uri", uri);
    cJSON_AddStringToObject(a, "owner", owner);
    return tools__state_jobs_adopt(&s->jobs, "stash-get", "", NULL, a, 0, cb, ud);
}

static void touched(void *ud, int ok, const char *json, size_t len)
{
    (void) ud;
    if (!ok)
        log_warn("stash",
                 "a read was not recorded in the shared stash (its entry may be evicted "
                 "before others that were read less recently): %.*s",
                 (int) len, json);
}

void tools_state_service_stash_touch(struct tools_state_service *s, uv_loop_t *loop,
                                     const char *uri, const char *owner)
{
    if (s->jobs.loop == NULL)
        s->jobs.loop = loop;
    if (s->pool) {
        tools__svc_pg_stash_get(s, uri, owner, 0, touched, NULL);
        return;
    }
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "uri", uri);
    cJSON_AddStringToObject(a, "owner", owner);
    tools__state_jobs_adopt(&s->jobs, "stash-touch", "", NULL, a, 0, touched, NULL);
}
