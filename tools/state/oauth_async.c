/* The OAuth rows off the loop (tools_state_oauth_start in store.h): on
 * PostgreSQL an operation of the store's pool on the loop (pg_oauth.c: a
 * row lock or an unreachable server holds nothing but a connection); on
 * SQLite one operation of oauth_db.c on libuv's thread pool, its answer
 * delivered on the loop. */
#include "tools/state/internal.h"
#include "tools/state/pg_async.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

struct tools_state_oauth_op {
    uv_work_t work;
    struct tools_state *s;
    char *kind, *key, *json; /* json: the row to write, NULL for a read */
    int64_t if_version, version;
    int rc, cancelled;
    char *out; /* the row read */
    char err[TOOLS_STATE_ERR_MAX];
    tools_state_oauth_cb *cb;
    void *ud;
    struct tools__pgo *pg; /* on PostgreSQL's pool */
};

static void free_op(struct tools_state_oauth_op *op)
{
    free(op->kind);
    free(op->key);
    free(op->json);
    free(op->out);
    free(op);
}

static void work(uv_work_t *w)
{
    struct tools_state_oauth_op *op = w->data;
    op->err[0] = '\0';
    op->rc = op->json
                 ? tools_state_oauth_put(op->s, op->kind, op->key, op->json, op->if_version,
                                         &op->version, op->err)
                 : tools_state_oauth_get(op->s, op->kind, op->key, &op->out, &op->version, op->err);
}

static void done(uv_work_t *w, int status)
{
    struct tools_state_oauth_op *op = w->data;
    (void) status;
    if (!op->cancelled)
        op->cb(op->ud, op->rc, op->out, op->version, op->rc < 0 ? op->err : NULL);
    free_op(op);
}

static void pg_done(void *ud, int rc, const char *json, int64_t version, const char *err)
{
    struct tools_state_oauth_op *op = ud;
    if (!op->cancelled)
        op->cb(op->ud, rc, json, version, err);
    free_op(op);
}

struct tools_state_oauth_op *tools_state_oauth_start(struct tools_state *s, uv_loop_t *loop,
                                                     const char *kind, const char *key,
                                                     const char *json, int64_t if_version,
                                                     tools_state_oauth_cb *cb, void *ud)
{
    struct tools_state_oauth_op *op = xcalloc(1, sizeof *op);
    op->s = s;
    op->kind = xstrdup(kind ? kind : "");
    op->key = xstrdup(key ? key : "");
    op->json = json ? xstrdup(json) : NULL;
    op->if_version = if_version;
    op->cb = cb;
    op->ud = ud;
    struct tools__pga *pool = tools__state_pool(s, loop);
    if (pool && tools__state_oauth_check(op->kind, op->key, json, op->err) == 0) {
        op->pg = tools__pgo_oauth(pool, op->kind, op->key, json, if_version, pg_done, op);
        return op;
    }
    op->work.data = op; /* SQLite, or a row refused by the checks (answered from there) */
    uv_queue_work(loop, &op->work, work, done);
    return op;
}

void tools_state_oauth_cancel(struct tools_state_oauth_op *op)
{
    op->cancelled = 1; /* a write in flight still completes */
}
