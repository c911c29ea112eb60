/* The state service's operations on the PostgreSQL pool on the loop
 * (pg_async.h): state.* (one statement each), the shared stash, and
 * skills.* (a step machine per operation: read the rows, decide with
 * service.c's rules, write, read them again, install them on the loop),
 * with the answers and sentences of the operations on threads
 * (service.c). Nothing here waits: a locked row or an unreachable server
 * holds a connection, never the loop. */
#include "tools/state/service_internal.h"
#include "tools/state/internal.h"
#include "tools/state/pg_async.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- state.* and the stash ----------------------------------------------------------------------
 */

struct pool_op {
    struct tools_state_service *s;
    char name[12], *key, *uri;
    struct tools__pga_req *req;
    struct tools_state_job *handle;
    tools_state_done_cb *cb;
    void *ud;
    struct buf out; /* an answer known before any statement */
    int ok;
    int64_t if_version;          /* set's */
    uv_timer_t *later;           /* the next turn of an answer known at once */
    struct pool_op *prev, *next; /* the service's, until answered or cancelled */
};

static void pool_op_free(struct pool_op *op)
{
    if (op->prev)
        op->prev->next = op->next;
    else
        op->s->pool_ops = op->next;
    if (op->next)
        op->next->prev = op->prev;
    free(op->key);
    free(op->uri);
    buf_free(&op->out);
    free(op);
}

static void pool_cancel(void *h)
{
    struct pool_op *op = h;
    op->cb = NULL; /* freed when its answer comes (the pool answers every operation) */
}

static void pool_finish(struct pool_op *op)
{
    if (op->cb) {
        tools__state_job_foreign_done(op->handle);
        op->cb(op->ud, op->ok, op->out.data ? op->out.data : "null",
               op->out.data ? op->out.len : 4);
    }
    pool_op_free(op);
}

static void later_closed(uv_handle_t *h)
{
    free(h);
}

static void pool_later(uv_timer_t *t)
{
    struct pool_op *op = t->data;
    uv_close((uv_handle_t *) t, later_closed);
    op->later = NULL;
    pool_finish(op);
}

/* The statement's answer, as state_op would have given it. */
static void pool_answered(void *ud, PGresult *r, const char *err)
{
    struct pool_op *op = ud;
    struct tools_state_service *s = op->s;
    const struct pg_lib *pq = tools__pga_pq(s->pool);
    op->req = NULL;
    if (r == NULL) {
        op->ok = tools__svc_store_error(&op->out, TOOLS_STATE_FAILED, err);
        pool_finish(op);
        return;
    }
    op->ok = 1;
    if (strcmp(op->name, "list") == 0) {
        buf_append_char(&op->out, '[');
        for (int i = 0; i < pq->ntuples(r); i++) {
            if (i)
                buf_append_char(&op->out, ',');
            json_append_string(&op->out, pq->getvalue(r, i, 0), (size_t) pq->getlength(r, i, 0));
        }
        buf_append_char(&op->out, ']');
    } else if (strcmp(op->name, "delete") == 0) {
        const char *n = pq->cmdTuples(r);
        buf_append_str(&op->out, n && atoi(n) > 0 ? "true" : "false");
    } else if (strcmp(op->name, "set") == 0) {
        char msg[TOOLS_STATE_ERR_MAX];
        int status = atoi(pq->getvalue(r, 0, 0));
        long long version = strtoll(pq->getvalue(r, 0, 1), NULL, 10);
        long long total = strtoll(pq->getvalue(r, 0, 2), NULL, 10);
        if (status == 0) {
            buf_printf(&op->out, "%lld", version);
        } else {
            int rc = status == 1 ? tools__state_conflict(op->key, op->if_version, version, msg)
                                 : tools__state_over_total(tools_state_options_of(s->store),
                                                           op->key, total, msg);
            op->ok = tools__svc_store_error(&op->out, rc, msg);
        }
    } else if (pq->ntuples(r) == 1) { /* get, entry */
        buf_printf(&op->out, "{\"found\":true,\"version\":%s,\"value\":", pq->getvalue(r, 0, 1));
        buf_append(&op->out, pq->getvalue(r, 0, 0), (size_t) pq->getlength(r, 0, 0));
        buf_append_char(&op->out, '}');
    } else {
        buf_append_str(&op->out, "{\"found\":false}");
    }
    pool_finish(op);
}
/* Answers op with what out holds, on the next turn. */
static struct tools_state_job *pool_answer_later(struct pool_op *op, int ok)
{
    op->ok = ok;
    uv_timer_t *t = xcalloc(1, sizeof *t);
    uv_timer_init(op->s->o.loop, t);
    t->data = op;
    uv_timer_start(t, pool_later, 0, 0);
    op->later = t;
    return op->handle;
}

static struct pool_op *pool_op_new(struct tools_state_service *s, const char *name,
                                   tools_state_done_cb *cb, void *ud)
{
    struct pool_op *op = xcalloc(1, sizeof *op);
    op->s = s;
    op->next = s->pool_ops;
    if (s->pool_ops)
        s->pool_ops->prev = op;
    s->pool_ops = op;
    snprintf(op->name, sizeof op->name, "%s", name);
    buf_init(&op->out, 0);
    op->cb = cb;
    op->ud = ud;
    op->handle = tools__state_job_foreign(pool_cancel, op);
    return op;
}

/* state.* as one statement on the pool: the same checks, answers and
 * sentences as state_op's, the loop never waiting. */
struct tools_state_job *tools__svc_pg_state(struct tools_state_service *s, const char *name,
                                            const char *principal, const cJSON *args,
                                            tools_state_done_cb *cb, void *ud)
{
    struct pool_op *op = pool_op_new(s, name, cb, ud);
    if (!tools_state_service_check("state", name, args, &op->out))
        return pool_answer_later(op, 0);
    const char *scope = s->o.per_principal ? (principal ? principal : "stdio") : "";
    const char *key = tools__svc_str_arg(args, "key");
    op->key = xstrdup(key ? key : "");
    char msg[TOOLS_STATE_ERR_MAX];
    if (strcmp(name, "list") == 0) {
        const char *prefix = tools__svc_str_arg(args, "prefix");
        const char *params[] = {scope, prefix ? prefix : ""};
        op->req = tools__pga_query(s->pool,
                                   "SELECT key FROM codemode_state WHERE scope=$1 AND key>=$2 AND "
                                   "starts_with(key, $2) ORDER BY key",
                                   2, params, "list", pool_answered, op);
    } else if (strcmp(name, "get") == 0 || strcmp(name, "entry") == 0) {
        const char *params[] = {scope, key};
        op->req = tools__pga_query(
            s->pool, "SELECT value, version FROM codemode_state WHERE scope=$1 AND key=$2", 2,
            params, "read", pool_answered, op);
    } else if (strcmp(name, "delete") == 0) {
        const char *params[] = {scope, key};
        op->req = tools__pga_query(s->pool, "DELETE FROM codemode_state WHERE scope=$1 AND key=$2",
                                   2, params, "delete", pool_answered, op);
    } else if (strcmp(name, "set") == 0) {
        char *json = json_print(cJSON_GetObjectItemCaseSensitive(args, "value"));
        int rc = tools__state_over_value(tools_state_options_of(s->store), key, json, msg);
        if (rc != 0) {
            free(json);
            tools__svc_store_error(&op->out, rc, msg);
            return pool_answer_later(op, 0);
        }
        tools__svc_read_if_version(args, &op->if_version);
        char iv[24], total[24];
        snprintf(iv, sizeof iv, "%lld", (long long) op->if_version);
        snprintf(total, sizeof total, "%llu",
                 (unsigned long long) tools_state_options_of(s->store)->max_total_bytes);
        const char *params[] = {scope, key, json, iv, total};
        op->req = tools__pga_query(s->pool,
                                   "SELECT status, version, total FROM codemode_state_set($1, $2, "
                                   "$3, $4::bigint, $5::bigint)",
                                   5, params, "write", pool_answered, op);
        free(json);
    } else {
        tools__svc_fail(&op->out, "Error", NULL, "unknown state operation");
        return pool_answer_later(op, 0);
    }
    return op->handle;
}

/* --- the shared stash ------------------------------------------------------------------------- */

static void stash_written(void *ud, int rc, const char *err)
{
    struct pool_op *op = ud;
    if (rc < 0)
        op->ok = tools__svc_store_error(&op->out, rc, err);
    else {
        op->ok = 1;
        buf_append_str(&op->out, "true");
    }
    pool_finish(op);
}

struct tools_state_job *tools__svc_pg_stash_put(struct tools_state_service *s,
                                                const struct tools_state_stash_entry *e,
                                                tools_state_done_cb *cb, void *ud)
{
    struct pool_op *op = pool_op_new(s, "stash-put", cb, ud);
    tools__pgo_stash_put(s->pool, e, stash_written, op);
    return op->handle;
}

/* The resources/read contents entry of what was read, "null", or (a touch)
 * true or false. */
static void stash_read(void *ud, int rc, const char *data, size_t len, const char *mime, int blob,
                       const char *err)
{
    struct pool_op *op = ud;
    op->ok = 1;
    if (rc < 0) {
        op->ok = tools__svc_store_error(&op->out, rc, err);
    } else if (strcmp(op->name, "stash-touch") == 0) {
        buf_append_str(&op->out, rc == TOOLS_STATE_ABSENT ? "false" : "true");
    } else if (rc == TOOLS_STATE_ABSENT) {
        buf_append_str(&op->out, "null");
    } else {
        buf_append_str(&op->out, "{\"uri\":");
        json_append_string(&op->out, op->uri, strlen(op->uri));
        buf_append_str(&op->out, ",\"mimeType\":");
        json_append_string(&op->out, mime, strlen(mime));
        buf_append_str(&op->out, blob ? ",\"blob\":" : ",\"text\":");
        json_append_string(&op->out, data, len);
        buf_append_char(&op->out, '}');
    }
    pool_finish(op);
}

struct tools_state_job *tools__svc_pg_stash_get(struct tools_state_service *s, const char *uri,
                                                const char *owner, int want_data,
                                                tools_state_done_cb *cb, void *ud)
{
    struct pool_op *op = pool_op_new(s, want_data ? "stash-get" : "stash-touch", cb, ud);
    op->uri = xstrdup(uri);
    tools__pgo_stash_get(s->pool, uri, owner, want_data, stash_read, op);
    return op->handle;
}

/* --- skills.* ------------------------------------------------------------------------------------
 * One operation at a time (what it installs is the next one's starting
 * point), in order: read the rows; decide; write; read them again; install
 * them and answer. */

struct skills_flow {
    struct tools_state_service *s;
    char *op, *name, *principal; /* principal NULL: the CLI */
    cJSON *args;
    char *owner; /* of the row written */
    struct skills_view v;
    struct buf out;
    int ok;
    struct tools_state_job *handle;
    tools_state_done_cb *cb;
    void *ud;
    uv_timer_t *later; /* an answer known before any statement */
    struct skills_flow *next;
};

static void flow_start(struct skills_flow *f);

static void flow_cancel(void *h)
{
    struct skills_flow *f = h;
    f->cb = NULL; /* it still runs to its end: a write is not torn */
}

static void timer_freed(uv_handle_t *h)
{
    free(h);
}

/* Installs what f read, answers, and starts the next one. */
static void flow_finish(struct skills_flow *f)
{
    struct tools_state_service *s = f->s;
    if (s->closing)
        f->v.changed = 0;      /* nobody to tell */
    tools__svc_land(s, &f->v); /* even when cancelled: the rows are the store's */
    if (f->cb) {
        tools__state_job_foreign_done(f->handle);
        f->cb(f->ud, f->ok, f->out.data ? f->out.data : "null", f->out.data ? f->out.len : 4);
    }
    s->flows = f->next;
    if (s->flows == NULL)
        s->flows_tail = NULL;
    cJSON_Delete(f->v.rows);
    cJSON_Delete(f->args);
    buf_free(&f->out);
    free(f->op);
    free(f->name);
    free(f->principal);
    free(f->owner);
    free(f);
    if (s->flows)
        flow_start(s->flows);
}

static void flow_later(uv_timer_t *t)
{
    struct skills_flow *f = t->data;
    uv_close((uv_handle_t *) t, timer_freed);
    f->later = NULL;
    flow_finish(f);
}

/* The rows read again after a write: the answer. */
static void flow_reloaded(void *ud, int rc, cJSON *rows, const char *err)
{
    struct skills_flow *f = ud;
    if (rc < 0) {
        f->ok = tools__svc_store_error(&f->out, rc, err);
    } else {
        cJSON_Delete(f->v.rows);
        f->v.rows = rows;
        if (strcmp(f->name, "save") == 0) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddStringToObject(r, "name", tools__svc_str_arg(f->args, "name"));
            f->ok = tools__svc_ok_json(&f->out, r);
        } else {
            f->ok = 1;
            buf_append_str(&f->out, "true");
        }
    }
    flow_finish(f);
}

static void flow_written(void *ud, int rc, const char *err)
{
    struct skills_flow *f = ud;
    if (rc < 0) {
        f->ok = tools__svc_store_error(&f->out, rc, err);
    } else if (rc == TOOLS_STATE_ABSENT) { /* deleted meanwhile by another */
        f->ok = 1;
        buf_append_str(&f->out, "false");
    } else {
        f->v.changed = 1;
        tools__pgo_skill_load(f->s->pool, flow_reloaded, f);
        return;
    }
    flow_finish(f);
}

/* skills.save on the rows read: the owner's row written, or the answer. */
static int flow_save(struct skills_flow *f)
{
    struct tools_state_service *s = f->s;
    const char *name = tools__svc_str_arg(f->args, "name");
    const cJSON *had = tools__svc_find_row(s, f->v.rows, name, f->principal);
    const char *owner = had ? tools__svc_row_str(had, "owner") : f->principal ? f->principal : "";
    if (!tools__svc_may_write(s, owner, f->principal))
        return tools__svc_not_yours(&f->out, "save", name);
    f->owner = xstrdup(owner);
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(f->args, "inputSchema");
    char *schema_json = schema ? json_print(schema) : xstrdup("{\"type\":\"object\"}");
    tools__pgo_skill_save(s->pool, f->owner, name, tools__svc_str_arg(f->args, "description"),
                          schema_json, tools__svc_str_arg(f->args, "code"), flow_written, f);
    free(schema_json);
    return -1;
}

/* skills.delete on the rows read. */
static int flow_delete(struct skills_flow *f)
{
    struct tools_state_service *s = f->s;
    const char *name = tools__svc_delete_name(f->args);
    const cJSON *k = tools__svc_find_row(s, f->v.rows, name, f->principal);
    if (k == NULL) {
        buf_append_str(&f->out, "false");
        return 1;
    }
    if (!tools__svc_may_write(s, tools__svc_row_str(k, "owner"), f->principal))
        return tools__svc_not_yours(&f->out, "delete", name);
    f->owner = xstrdup(tools__svc_row_str(k, "owner"));
    tools__pgo_skill_delete(s->pool, f->owner, name, flow_written, f);
    return -1;
}

/* The rows as they are now: what the operation does with them. */
static void flow_rows(void *ud, int rc, cJSON *rows, const char *err)
{
    struct skills_flow *f = ud;
    struct tools_state_service *s = f->s;
    if (rc < 0) {
        if (strcmp(f->op, "skills-reload") == 0)
            log_warn("state", "skills not reloaded: %s", err);
        f->ok = tools__svc_store_error(&f->out, rc, err);
        flow_finish(f);
        return;
    }
    f->v.rows = rows;
    int ok = 1;
    if (strcmp(f->op, "skills-reload") == 0) {
        f->v.changed = !cJSON_Compare(rows, s->skills, 1);
        buf_append_str(&f->out, "null");
    } else if (strcmp(f->name, "save") == 0) {
        ok = flow_save(f);
    } else if (strcmp(f->name, "list") == 0) {
        ok = tools__svc_skills_list_reply(s, rows, f->principal, &f->out);
    } else {
        ok = flow_delete(f);
    }
    if (ok < 0) /* a write went out */
        return;
    f->ok = ok;
    flow_finish(f);
}

static void flow_start(struct skills_flow *f)
{
    struct tools_state_service *s = f->s;
    int known = strcmp(f->op, "skills-reload") == 0 ||
                (strcmp(f->op, "skills") == 0 && s->o.skills &&
                 (strcmp(f->name, "save") == 0 || strcmp(f->name, "list") == 0 ||
                  strcmp(f->name, "delete") == 0));
    if (!known)
        tools__svc_fail(&f->out, "Error", NULL,
                        "this operation is not available (codemode.state / skills)");
    else if (strcmp(f->op, "skills") == 0 &&
             !tools_state_service_check(f->op, f->name, f->args, &f->out))
        known = 0;
    if (known) {
        tools__pgo_skill_load(s->pool, flow_rows, f);
        return;
    }
    f->ok = 0; /* answered on the next turn: never inside tools_state_service_start */
    f->later = xcalloc(1, sizeof *f->later);
    uv_timer_init(s->jobs.loop, f->later);
    f->later->data = f;
    uv_timer_start(f->later, flow_later, 0, 0);
}

struct tools_state_job *tools__svc_pg_skills(struct tools_state_service *s, const char *op,
                                             const char *name, const char *principal,
                                             const cJSON *args, tools_state_done_cb *cb, void *ud)
{
    struct skills_flow *f = xcalloc(1, sizeof *f);
    f->s = s;
    f->op = xstrdup(op);
    f->name = xstrdup(name ? name : "");
    f->principal = principal ? xstrdup(principal) : NULL;
    f->args = args ? cJSON_Duplicate(args, 1) : NULL;
    buf_init(&f->out, 0);
    f->cb = cb;
    f->ud = ud;
    f->handle = cb ? tools__state_job_foreign(flow_cancel, f) : NULL;
    int idle = s->flows == NULL;
    if (s->flows_tail)
        s->flows_tail->next = f;
    else
        s->flows = f;
    s->flows_tail = f;
    if (idle)
        flow_start(f);
    return f->handle;
}

void tools__svc_pg_cancel_all(struct tools_state_service *s)
{
    /* their callers are gone: the handles go now (not answered, never cancelled) */
    for (struct pool_op *op = s->pool_ops, *next; op; op = next) {
        next = op->next;
        if (op->cb)
            tools__state_job_foreign_done(op->handle);
        op->cb = NULL;
        if (op->later) { /* answered by no statement: nothing else frees it */
            uv_close((uv_handle_t *) op->later, later_closed);
            pool_op_free(op);
        }
    }
    for (struct skills_flow *f = s->flows; f; f = f->next)
        if (f->cb) {
            tools__state_job_foreign_done(f->handle);
            f->cb = NULL;
        }
    while (s->flows && s->flows->later) { /* the one running, answered by no statement */
        uv_close((uv_handle_t *) s->flows->later, timer_freed);
        s->flows->later = NULL;
        flow_finish(s->flows); /* and the next one starts: its statements fail with the pool */
    }
}
