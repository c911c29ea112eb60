/* The learned result types of the downstream tools (see result_types.h):
 * a sorted table of (server, tool) entries, each with the schema hash it
 * was learned under and its shape; the timer that writes (on the thread
 * pool) and announces changes; the reading at start. */
#include "tools/result_types.h"
#include "tools/result_shape.h"
#include "tools/state/store.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"
#include "common/sha256.h"

#include <stdlib.h>
#include <string.h>

struct entry {
    char *server, *tool, *hash;
    struct tools_shape *shape;
    int dirty; /* changed since the last write */
};

struct tools_result_types {
    struct tools_result_types_options o;
    struct entry *v; /* sorted by server, then tool */
    size_t n;
    uv_timer_t *timer;                    /* allocated: closed asynchronously */
    int pending;                          /* a change waits for the timer */
    uint64_t announced;                   /* uv_now of the last announcement (0: none) */
    struct tools_state_shapes_op *saving; /* a write on the thread pool */
    int save_again;                       /* changes came while it ran */
};

static int entry_cmp(const struct entry *e, const char *server, const char *tool)
{
    int c = strcmp(e->server, server);
    return c ? c : strcmp(e->tool, tool);
}

/* Index of (server, tool), or -(insertion point) - 1. */
static long find(const struct tools_result_types *t, const char *server, const char *tool)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = entry_cmp(&t->v[mid], server, tool);
        if (c == 0)
            return (long) mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -(long) lo - 1;
}

static struct entry *insert(struct tools_result_types *t, size_t at, const char *server,
                            const char *tool, const char *hash, struct tools_shape *shape)
{
    t->v = xrealloc(t->v, (t->n + 1) * sizeof *t->v);
    memmove(&t->v[at + 1], &t->v[at], (t->n - at) * sizeof *t->v);
    t->n++;
    struct entry *e = &t->v[at];
    e->server = xstrdup(server);
    e->tool = xstrdup(tool);
    e->hash = xstrdup(hash);
    e->shape = shape;
    e->dirty = 0;
    return e;
}

/* --- start --------------------------------------------------------------------------------- */

static const char *row_str(const cJSON *row, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void load(struct tools_result_types *t)
{
    /* a SQLite file that is not there is not created to read nothing; on
     * PostgreSQL (codemode.store) the rows are the instances' shared ones */
    if (t->o.store == NULL || !tools_state_file_exists(t->o.store))
        return;
    char err[TOOLS_STATE_ERR_MAX];
    cJSON *rows = NULL;
    if (tools_state_shapes_load(t->o.store, &rows, err) != 0) {
        log_warn("tools", "learned result types not read: %s", err);
        return;
    }
    size_t dropped = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        const char *server = row_str(row, "server"), *tool = row_str(row, "tool");
        const char *hash = row_str(row, "schemaHash");
        struct tools_shape *shape = tools_shape_from_json(row_str(row, "shape"));
        long at = server && tool && hash && shape ? find(t, server, tool) : 0;
        if (at >= 0 || tools_shape_empty(shape)) {
            tools_shape_free(shape);
            dropped++;
            continue;
        }
        insert(t, (size_t) (-at - 1), server, tool, hash, shape);
    }
    cJSON_Delete(rows);
    if (dropped)
        log_warn("tools", "%zu learned result types in %s were not usable and are ignored", dropped,
                 tools_state_is_shared(t->o.store) ? "codemode.store"
                                                   : tools_state_path(t->o.store));
    log_debug("tools", "%zu learned result types read", t->n);
    if (!tools_state_is_shared(t->o.store))
        tools_state_release(t->o.store); /* loaded again when something is written */
}

struct tools_result_types *tools_result_types_new(const struct tools_result_types_options *o)
{
    struct tools_result_types *t = xcalloc(1, sizeof *t);
    t->o = *o;
    if (o->loop) {
        t->timer = xcalloc(1, sizeof *t->timer);
        uv_timer_init(o->loop, t->timer);
        t->timer->data = t;
    }
    load(t);
    return t;
}

static void timer_closed(uv_handle_t *h)
{
    free(h);
}

void tools_result_types_free(struct tools_result_types *t)
{
    if (t == NULL)
        return;
    if (t->saving) /* what it writes is older than what the flush below writes */
        tools_state_shapes_cancel(t->saving);
    tools_result_types_flush(t);
    if (t->timer)
        uv_close((uv_handle_t *) t->timer, timer_closed);
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i].server);
        free(t->v[i].tool);
        free(t->v[i].hash);
        tools_shape_free(t->v[i].shape);
    }
    free(t->v);
    free(t);
}

/* --- writing and announcing ------------------------------------------------------------------ */

/* The rows of the changed entries (their shapes' texts in *texts), marked
 * clean: on a failed write they stay in memory and the next change tries
 * again. Returns their number (0: nothing to write, nothing allocated). */
static size_t take_dirty(struct tools_result_types *t, struct tools_state_shape_row **rows,
                         char ***texts)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++)
        n += t->v[i].dirty;
    if (n == 0 || t->o.store == NULL) {
        for (size_t i = 0; i < t->n; i++)
            t->v[i].dirty = 0;
        return 0;
    }
    *rows = xcalloc(n, sizeof **rows);
    *texts = xcalloc(n, sizeof **texts);
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++) {
        struct entry *e = &t->v[i];
        if (!e->dirty)
            continue;
        e->dirty = 0;
        (*texts)[k] = tools_shape_to_json(e->shape);
        (*rows)[k] = (struct tools_state_shape_row){e->server, e->tool, e->hash, (*texts)[k]};
        k++;
    }
    return n;
}

static void free_rows(struct tools_state_shape_row *rows, char **texts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
    free(rows);
}

int tools_result_types_flush(struct tools_result_types *t)
{
    struct tools_state_shape_row *rows;
    char **texts;
    size_t n = take_dirty(t, &rows, &texts);
    if (n == 0)
        return 0;
    char err[TOOLS_STATE_ERR_MAX];
    int rc = tools_state_shapes_save(t->o.store, rows, n, err);
    if (rc != 0)
        log_warn("tools", "learned result types not saved: %s", err);
    free_rows(rows, texts, n);
    return rc == 0 ? 0 : -1;
}

static void save_async(struct tools_result_types *t);

static void saved(void *ud, int rc, const char *err)
{
    struct tools_result_types *t = ud;
    t->saving = NULL;
    if (rc != 0)
        log_warn("tools", "learned result types not saved: %s", err);
    if (t->save_again) {
        t->save_again = 0;
        save_async(t);
    }
}

/* Writes the changed entries on the thread pool, one write at a time so
 * that an older one never lands after a newer one. */
static void save_async(struct tools_result_types *t)
{
    if (t->saving) {
        t->save_again = 1;
        return;
    }
    struct tools_state_shape_row *rows;
    char **texts;
    size_t n = take_dirty(t, &rows, &texts);
    if (n == 0)
        return;
    t->saving = tools_state_shapes_save_start(t->o.store, t->o.loop, rows, n, saved, t);
    free_rows(rows, texts, n);
}

static void on_timer(uv_timer_t *h)
{
    struct tools_result_types *t = h->data;
    t->pending = 0;
    t->announced = uv_now(t->o.loop);
    save_async(t);
    if (t->o.changed)
        t->o.changed(t->o.changed_ud);
}

/* A type changed: written and announced after the delay, and no sooner
 * than the interval after the last announcement. */
static void schedule(struct tools_result_types *t)
{
    if (t->timer == NULL || t->pending)
        return;
    t->pending = 1;
    uint64_t now = uv_now(t->o.loop), delay = TOOLS_RESULT_TYPES_DELAY_MS;
    if (t->announced && t->announced + TOOLS_RESULT_TYPES_INTERVAL_MS > now + delay)
        delay = t->announced + TOOLS_RESULT_TYPES_INTERVAL_MS - now;
    uv_timer_start(t->timer, on_timer, delay, 0);
}

/* --- lookups ------------------------------------------------------------------------------------
 */

char *tools_result_types_hash(const cJSON *tool)
{
    struct buf b;
    buf_init(&b, 0);
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(tool, "inputSchema");
    const cJSON *out = cJSON_GetObjectItemCaseSensitive(tool, "outputSchema");
    buf_append_str(&b, "{\"inputSchema\":");
    if (in)
        json_append(&b, in);
    else
        buf_append_str(&b, "null");
    buf_append_str(&b, ",\"outputSchema\":");
    if (out)
        json_append(&b, out);
    else
        buf_append_str(&b, "null");
    buf_append_char(&b, '}');
    char hex[65];
    sha256_hex(b.data, b.len, hex);
    buf_free(&b);
    return xstrndup(hex, 32);
}

cJSON *tools_result_types_schema(const struct tools_result_types *t, const char *server,
                                 const char *tool, const char *hash)
{
    long at = t && server && tool && hash ? find(t, server, tool) : -1;
    if (at < 0 || strcmp(t->v[at].hash, hash) != 0)
        return NULL;
    return tools_shape_schema(t->v[at].shape);
}

void tools_result_types_observe(struct tools_result_types *t, const char *server, const char *tool,
                                const char *hash, const cJSON *value)
{
    long at = find(t, server, tool);
    struct entry *e;
    if (at >= 0) {
        e = &t->v[at];
    } else {
        if (t->n >= TOOLS_RESULT_TYPES_MAX)
            return;
        e = insert(t, (size_t) (-at - 1), server, tool, hash, tools_shape_new());
    }
    if (strcmp(e->hash, hash) != 0) { /* the tool's schema changed: start over */
        free(e->hash);
        e->hash = xstrdup(hash);
        tools_shape_free(e->shape);
        e->shape = tools_shape_new();
    }
    if (tools_shape_observe(e->shape, value) == 1) {
        e->dirty = 1;
        schedule(t);
    }
}
