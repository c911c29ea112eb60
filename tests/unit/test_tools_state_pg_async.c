/* Unit tests of the PostgreSQL pool on the loop (tools/state/pg_async.c)
 * and the step machines of the tables on it (pg_oauth.c, pg_stash.c,
 * pg_skills.c, pg_shapes.c), on a throwaway cluster
 * (tests/lib/pg_cluster.sh; skipped without initdb), with pipeline mode on
 * and off: batches and their answers, a failure inside a transaction
 * (rolled back before the connection serves another), compare-and-set of
 * OAuth rows raced by two pools, the loop never waiting while another
 * connection holds the rows' lock, single statements sharing one
 * connection's pipeline, cancelling, and freeing the pool with operations
 * in flight. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support/pg_cluster.h"

#include "tools/state/pg_async.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char url[160];

static int setup(void **state)
{
    (void) state;
    return pg_cluster_start("test-state-pga", "codemode", url, sizeof url);
}

static int teardown(void **state)
{
    (void) state;
    pg_cluster_stop();
    return 0;
}

/* A store (its tables made) and its pool on loop, pipelining or not. */
static struct tools_state *store(uv_loop_t *loop, int pipeline, unsigned conns,
                                 struct tools__pga **pool)
{
    struct tools_state_options o = {
        .path = "/nonexistent/unused.db", .url = url, .max_connections = conns};
    struct tools_state *s = tools_state_new(&o);
    char err[TOOLS_STATE_ERR_MAX];
    assert_int_equal(tools_state_connect(s, err), TOOLS_STATE_OK);
    setenv("MCP_CODEMODE_PG_PIPELINE", pipeline ? "1" : "0", 1);
    *pool = tools__state_pool(s, loop);
    unsetenv("MCP_CODEMODE_PG_PIPELINE");
    assert_non_null(*pool);
    assert_int_equal(tools__pga_pipelining(*pool), pipeline);
    return s;
}

static void done_loop(uv_loop_t *loop, struct tools_state *s)
{
    tools_state_free(s);
    uv_run(loop, UV_RUN_DEFAULT); /* the pool's handles close */
    assert_int_equal(uv_loop_close(loop), 0);
}

static void psql(const char *sql)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "sh tests/lib/pg_cluster.sh psql %s \"%s\" >/dev/null", pg_dir, sql);
    assert_int_equal(pg_sh(cmd, NULL, 0), 0);
}

/* --- batches ---------------------------------------------------------------------------------- */

struct machine {
    struct tools__pga *a;
    int steps;
    char seen[256]; /* what each step saw */
    char err[TOOLS_STATE_ERR_MAX];
};

static void note(struct machine *m, PGresult *const *res, int n, const char *err)
{
    const struct pg_lib *pq = tools__pga_pq(m->a);
    size_t at = strlen(m->seen);
    snprintf(m->seen + at, sizeof m->seen - at, "%s[", m->steps ? " " : "");
    for (int i = 0; i < n; i++) {
        at = strlen(m->seen);
        const char *v = res[i] && pq->ntuples(res[i]) == 1 ? pq->getvalue(res[i], 0, 0)
                        : res[i]                           ? "-"
                                                           : "null";
        snprintf(m->seen + at, sizeof m->seen - at, "%s%s", i ? "," : "", v);
    }
    at = strlen(m->seen);
    snprintf(m->seen + at, sizeof m->seen - at, "]");
    if (err && m->err[0] == '\0')
        snprintf(m->err, sizeof m->err, "%s", err);
    m->steps++;
}

static void second(void *ud, struct tools__pga_req *op, PGresult *const *res, int n,
                   const char *err)
{
    (void) op;
    note(ud, res, n, err);
}

static void first(void *ud, struct tools__pga_req *op, PGresult *const *res, int n, const char *err)
{
    struct machine *m = ud;
    note(m, res, n, err);
    if (err)
        return;
    const struct pg_lib *pq = tools__pga_pq(m->a);
    /* the next batch uses what the first read, on the same connection (its
     * transaction: the row written by the first batch is seen uncommitted) */
    const char *params[] = {pq->getvalue(res[2], 0, 0)};
    const struct tools__pga_stmt next[] = {
        {"SELECT $1::int + 1", 1, params},
        {"SELECT count(*) FROM codemode_state WHERE scope='batch'", 0, NULL},
        {"COMMIT", 0, NULL}};
    tools__pga_next(op, next, 3, second);
}

static void test_batches(void **state)
{
    int pipeline = *(int *) *state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools__pga *a;
    struct tools_state *s = store(&loop, pipeline, 2, &a);
    psql("DELETE FROM codemode_state WHERE scope='batch'");
    struct machine m = {.a = a};
    const struct tools__pga_stmt batch[] = {
        {"BEGIN", 0, NULL},
        {"INSERT INTO codemode_state VALUES('batch','k','1',1,2)", 0, NULL},
        {"SELECT 41", 0, NULL}};
    tools__pga_begin(a, "test", batch, 3, first, &m);
    assert_int_equal(m.steps, 0); /* never inside the call */
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(m.steps, 2);
    assert_string_equal(m.seen, "[-,-,41] [42,1,-]");
    assert_string_equal(m.err, "");
    done_loop(&loop, s);
}

/* A statement fails inside a transaction: the step gets the sentence and
 * what was not run as NULL; the pool rolls the transaction back before the
 * connection serves the next operation (one connection: the same one). */
static void test_failure_rolls_back(void **state)
{
    int pipeline = *(int *) *state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools__pga *a;
    struct tools_state *s = store(&loop, pipeline, 1, &a);
    psql("DELETE FROM codemode_state WHERE scope='fail'");
    struct machine m = {.a = a}, after = {.a = a};
    const struct tools__pga_stmt batch[] = {
        {"BEGIN", 0, NULL},
        {"INSERT INTO codemode_state VALUES('fail','k','1',1,2)", 0, NULL},
        {"SELECT 1/0", 0, NULL},
        {"SELECT 7", 0, NULL},
        {"COMMIT", 0, NULL}};
    tools__pga_begin(a, "divide", batch, 5, second, &m);
    const struct tools__pga_stmt check[] = {
        {"SELECT count(*) FROM codemode_state WHERE scope='fail'", 0, NULL}};
    tools__pga_begin(a, "count", check, 1, second, &after);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_string_equal(m.seen, pipeline ? "[-,-,-,-,-]" : "[-,-,-,null,null]");
    assert_non_null(strstr(m.err, "cannot divide (ERROR:  division by zero)"));
    assert_string_equal(after.seen, "[0]"); /* rolled back, and the connection serves again */
    assert_string_equal(after.err, "");
    done_loop(&loop, s);
}

/* --- single statements sharing a pipeline ----------------------------------------------------- */

struct counted {
    struct tools__pga *a;
    int n;
    char value[40][64];
};

static void counted_cb(void *ud, PGresult *r, const char *err)
{
    struct counted *c = ud;
    if (r)
        snprintf(c->value[c->n], sizeof c->value[0], "%s", tools__pga_pq(c->a)->getvalue(r, 0, 0));
    else
        snprintf(c->value[c->n], sizeof c->value[0], "%.63s", strstr(err, "cannot"));
    c->n++;
}

/* Statements queued while the only connection is busy (opening): sent
 * together, answered in order, one failing alone. */
static void test_singles_share_a_pipeline(void **state)
{
    int pipeline = *(int *) *state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools__pga *a;
    struct tools_state *s = store(&loop, pipeline, 1, &a);
    struct counted c = {.a = a};
    char num[20][8];
    for (int i = 0; i < 20; i++) {
        snprintf(num[i], sizeof num[i], "%d", i);
        const char *params[] = {num[i]};
        tools__pga_query(a, i == 7 ? "SELECT $1::int / 0" : "SELECT $1::int * 2", 1, params,
                         "double", counted_cb, &c);
    }
    assert_int_equal(c.n, 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(c.n, 20);
    for (int i = 0; i < 20; i++) {
        char want[64];
        snprintf(want, sizeof want, "%d", i * 2);
        assert_string_equal(c.value[i], i == 7 ? "cannot double (ERROR:  division by zero)" : want);
    }
    done_loop(&loop, s);
}

/* --- OAuth compare-and-set, raced by two pools -------------------------------------------------
 */

#define ROUNDS 40
static int spent[ROUNDS + 2];

struct refresher {
    struct tools__pga *a;
    int64_t version;
    int done, failures;
};

static void refresh_read(void *ud, int rc, const char *json, int64_t version, const char *err);

static void refresh_written(void *ud, int rc, const char *json, int64_t version, const char *err)
{
    struct refresher *r = ud;
    (void) json, (void) version;
    if (rc == TOOLS_STATE_OK) {
        int n = (int) r->version; /* the row's version n holds rt-(n-1) */
        spent[n - 1]++;
    } else if (rc != TOOLS_STATE_CONFLICT) {
        fprintf(stderr, "write failed: %s\n", err);
        r->failures++;
    } else {
        assert_non_null(strstr(err, "written by another instance or process first"));
    }
    tools__pgo_oauth(r->a, "token", "https://race.example", NULL, -1, refresh_read, r);
}

static void refresh_read(void *ud, int rc, const char *json, int64_t version, const char *err)
{
    struct refresher *r = ud;
    assert_int_equal(rc, TOOLS_STATE_OK);
    (void) err;
    int n = atoi(strchr(json, '-') + 1);
    if (n >= ROUNDS) {
        r->done = 1;
        return;
    }
    char next[64];
    snprintf(next, sizeof next, "{\"refresh_token\":\"rt-%d\"}", n + 1);
    r->version = version;
    tools__pgo_oauth(r->a, "token", "https://race.example", next, version, refresh_written, r);
}

static void test_oauth_cas_raced(void **state)
{
    int pipeline = *(int *) *state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools__pga *a, *b;
    struct tools_state *sa = store(&loop, pipeline, 2, &a), *sb = store(&loop, pipeline, 2, &b);
    psql("DELETE FROM codemode_oauth WHERE key='https://race.example'");
    char err[TOOLS_STATE_ERR_MAX];
    int64_t v;
    assert_int_equal(tools_state_oauth_put(sa, "token", "https://race.example",
                                           "{\"refresh_token\":\"rt-0\"}", 0, &v, err),
                     TOOLS_STATE_OK);
    memset(spent, 0, sizeof spent);
    struct refresher ra = {.a = a}, rb = {.a = b};
    tools__pgo_oauth(a, "token", "https://race.example", NULL, -1, refresh_read, &ra);
    tools__pgo_oauth(b, "token", "https://race.example", NULL, -1, refresh_read, &rb);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_true(ra.done && rb.done);
    assert_int_equal(ra.failures + rb.failures, 0);
    for (int n = 0; n < ROUNDS; n++)
        assert_int_equal(spent[n], 1); /* each token spent exactly once */
    tools_state_free(sb);
    done_loop(&loop, sa);
}

/* --- the loop never waits for a lock ------------------------------------------------------------
 */

struct ticker {
    uv_timer_t t;
    uint64_t last, worst;
    int answered, rc;
};

static void tick(uv_timer_t *t)
{
    struct ticker *k = t->data;
    uint64_t now = uv_hrtime() / 1000000;
    if (k->last && now - k->last > k->worst)
        k->worst = now - k->last;
    k->last = now;
    if (k->answered)
        uv_timer_stop(t);
}

static void locked_written(void *ud, int rc, const char *json, int64_t version, const char *err)
{
    struct ticker *k = ud;
    (void) json, (void) version, (void) err;
    k->answered = 1;
    k->rc = rc;
}

static void locked_done(void *ud, int rc, const char *err)
{
    locked_written(ud, rc, NULL, 0, err);
}

static void locked_rows(void *ud, int rc, cJSON *rows, const char *err)
{
    cJSON_Delete(rows);
    locked_written(ud, rc, NULL, 0, err);
}

/* Another connection holds table's lock for 1.5 s while op waits for it:
 * the loop's 5 ms ticker goes on, and the operation completes once the
 * lock is released. */
static void under_lock(const char *table, int which)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools__pga *a;
    struct tools_state *s = store(&loop, 1, 2, &a);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "sh tests/lib/pg_cluster.sh psql %s 'BEGIN; LOCK TABLE %s IN ACCESS EXCLUSIVE MODE; "
             "SELECT pg_sleep(1.5); COMMIT;' >/dev/null 2>&1 &",
             pg_dir, table);
    assert_int_equal(pg_sh(cmd, NULL, 0), 0);
    snprintf(cmd, sizeof cmd,
             "sh tests/lib/pg_cluster.sh psql %s \"SELECT count(*) FROM pg_locks WHERE "
             "mode='AccessExclusiveLock' AND granted AND relation='%s'::regclass\"",
             pg_dir, table);
    char out[32] = "";
    for (int i = 0; i < 100 && atoi(out) != 1; i++) /* until the holder has the lock */
        if (pg_sh(cmd, out, sizeof out) != 0 || atoi(out) != 1)
            usleep(20 * 1000);
    assert_int_equal(atoi(out), 1);
    struct ticker k = {0};
    uv_timer_init(&loop, &k.t);
    k.t.data = &k;
    uv_timer_start(&k.t, tick, 5, 5);
    uint64_t t0 = uv_hrtime() / 1000000;
    struct tools_state_stash_entry e = {.uri = "codemode://stash/locked",
                                        .owner = "alice",
                                        .mime = "text/plain",
                                        .data = "x",
                                        .len = 1,
                                        .max_entries = 10,
                                        .max_bytes = 1000};
    struct tools_state_shape_row row = {"srv", "locked", "h", "{}"};
    if (which == 0)
        tools__pgo_oauth(a, "token", "https://locked.example", "{}", -1, locked_written, &k);
    else if (which == 1)
        tools__pgo_stash_put(a, &e, locked_done, &k);
    else if (which == 2)
        tools__pgo_skill_load(a, locked_rows, &k);
    else
        tools__pgo_shapes_save(a, &row, 1, locked_done, &k);
    uv_run(&loop, UV_RUN_DEFAULT);
    uint64_t waited = uv_hrtime() / 1000000 - t0;
    assert_int_equal(k.rc, TOOLS_STATE_OK);
    assert_true(waited >= 300); /* it did wait for the lock */
    /* and the loop went on meanwhile: a loop waiting for the lock would
     * miss every tick of the wait (over 1 s); a loaded machine's scheduler
     * may delay one tick by some tens of ms */
    if (k.worst >= 400)
        fprintf(stderr, "%s: a tick came %llu ms late (waited %llu ms)\n", table,
                (unsigned long long) k.worst, (unsigned long long) waited);
    assert_true(k.worst < 400);
    uv_close((uv_handle_t *) &k.t, NULL);
    done_loop(&loop, s);
}

static void test_loop_free_while_locked(void **state)
{
    (void) state;
    if (!have_pg)
        skip();
    under_lock("codemode_oauth", 0);
    under_lock("codemode_stash", 1);
    under_lock("codemode_skills", 2);
    under_lock("codemode_result_shapes", 3);
}

/* --- the tables' machines ------------------------------------------------------------------- */

struct got {
    int called, rc;
    char data[64], mime[32], err[TOOLS_STATE_ERR_MAX];
    int blob;
    cJSON *rows;
};

static void got_done(void *ud, int rc, const char *err)
{
    struct got *g = ud;
    g->called++;
    g->rc = rc;
    snprintf(g->err, sizeof g->err, "%s", err ? err : "");
}

static void got_stash(void *ud, int rc, const char *data, size_t len, const char *mime, int blob,
                      const char *err)
{
    struct got *g = ud;
    got_done(ud, rc, err);
    snprintf(g->data, sizeof g->data, "%.*s", (int) len, data ? data : "");
    snprintf(g->mime, sizeof g->mime, "%s", mime ? mime : "");
    g->blob = blob;
}

static void got_rows(void *ud, int rc, cJSON *rows, const char *err)
{
    struct got *g = ud;
    got_done(ud, rc, err);
    cJSON_Delete(g->rows);
    g->rows = rows;
}

static void test_tables(void **state)
{
    int pipeline = *(int *) *state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools__pga *a;
    struct tools_state *s = store(&loop, pipeline, 2, &a);
    psql("DELETE FROM codemode_stash; DELETE FROM codemode_skills");
    struct tools_state_stash_entry e = {.uri = "codemode://stash/a1",
                                        .owner = "alice",
                                        .mime = "text/plain",
                                        .data = "one",
                                        .len = 3,
                                        .max_entries = 2,
                                        .max_bytes = 1000};
    struct got put1 = {0}, put2 = {0}, put3 = {0}, get = {0}, other = {0}, gone = {0}, touch = {0};
    tools__pgo_stash_put(a, &e, got_done, &put1);
    uv_run(&loop, UV_RUN_DEFAULT); /* a1 before a2 */
    e.uri = "codemode://stash/a2";
    tools__pgo_stash_put(a, &e, got_done, &put2);
    uv_run(&loop, UV_RUN_DEFAULT);
    e.uri = "codemode://stash/a3";
    tools__pgo_stash_put(a, &e, got_done, &put3); /* evicts a1, the least recently used */
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(put1.rc + put2.rc + put3.rc, TOOLS_STATE_OK);
    tools__pgo_stash_get(a, "codemode://stash/a2", "alice", 1, got_stash, &get);
    tools__pgo_stash_get(a, "codemode://stash/a2", "bob", 1, got_stash, &other);
    tools__pgo_stash_get(a, "codemode://stash/a1", "alice", 1, got_stash, &gone);
    tools__pgo_stash_get(a, "codemode://stash/a3", "alice", 0, got_stash, &touch);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(get.rc, TOOLS_STATE_OK);
    assert_string_equal(get.data, "one");
    assert_string_equal(get.mime, "text/plain");
    assert_int_equal(other.rc, TOOLS_STATE_ABSENT);
    assert_int_equal(gone.rc, TOOLS_STATE_ABSENT);
    assert_int_equal(touch.rc, TOOLS_STATE_OK);
    /* skills: save, load, delete (twice: the second finds none) */
    struct got saved = {0}, rows = {0}, del = {0}, del2 = {0};
    tools__pgo_skill_save(a, "", "hello", "says hello", "{\"type\":\"object\"}", "return 1;",
                          got_done, &saved);
    uv_run(&loop, UV_RUN_DEFAULT); /* operations on two connections are not ordered */
    tools__pgo_skill_load(a, got_rows, &rows);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(saved.rc, TOOLS_STATE_OK);
    char *text = cJSON_PrintUnformatted(rows.rows);
    assert_string_equal(text, "[{\"owner\":\"\",\"name\":\"hello\",\"description\":\"says hello\","
                              "\"inputSchema\":{\"type\":\"object\"},\"code\":\"return 1;\"}]");
    free(text);
    tools__pgo_skill_delete(a, "", "hello", got_done, &del);
    uv_run(&loop, UV_RUN_DEFAULT);
    tools__pgo_skill_delete(a, "", "hello", got_done, &del2);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(del.rc, TOOLS_STATE_OK);
    assert_int_equal(del2.rc, TOOLS_STATE_ABSENT);
    /* shapes: one transaction; read back synchronously */
    struct tools_state_shape_row sr[] = {{"srv", "t1", "h1", "{\"k\":1}"},
                                         {"srv", "t2", "h2", "{\"k\":2}"}};
    struct got shapes = {0};
    tools__pgo_shapes_save(a, sr, 2, got_done, &shapes);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(shapes.rc, TOOLS_STATE_OK);
    cJSON *loaded = NULL;
    char err[TOOLS_STATE_ERR_MAX];
    assert_int_equal(tools_state_shapes_load(s, &loaded, err), TOOLS_STATE_OK);
    assert_true(cJSON_GetArraySize(loaded) >= 2);
    cJSON_Delete(loaded);
    cJSON_Delete(rows.rows);
    done_loop(&loop, s);
}

/* A cancelled write is not answered, and still done; freeing the pool
 * answers what it had not, with a sentence. */
static void test_cancel_and_free(void **state)
{
    (void) state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools__pga *a;
    struct tools_state *s = store(&loop, 1, 1, &a);
    psql("DELETE FROM codemode_oauth WHERE key='https://cancel.example'");
    struct ticker k = {0};
    struct tools__pgo *o =
        tools__pgo_oauth(a, "token", "https://cancel.example", "{\"n\":1}", 0, locked_written, &k);
    tools__pgo_cancel(o);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(k.answered, 0);
    char err[TOOLS_STATE_ERR_MAX], *json = NULL;
    int64_t v;
    assert_int_equal(tools_state_oauth_get(s, "token", "https://cancel.example", &json, &v, err),
                     TOOLS_STATE_OK);
    assert_string_equal(json, "{\"n\":1}");
    free(json);
    /* in flight when the pool goes: answered with the store closed */
    struct got g1 = {0}, g2 = {0};
    tools__pgo_skill_load(a, got_rows, &g1);
    tools__pgo_skill_load(a, got_rows, &g2); /* waits: one connection */
    tools__state_pool_close(s);
    assert_int_equal(g1.called, 1);
    assert_int_equal(g2.called, 1);
    assert_int_equal(g1.rc, TOOLS_STATE_FAILED);
    assert_non_null(strstr(g2.err, "closed"));
    done_loop(&loop, s);
}

static int on = 1, off = 0;

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_batches, &on),
        cmocka_unit_test_prestate(test_batches, &off),
        cmocka_unit_test_prestate(test_failure_rolls_back, &on),
        cmocka_unit_test_prestate(test_failure_rolls_back, &off),
        cmocka_unit_test_prestate(test_singles_share_a_pipeline, &on),
        cmocka_unit_test_prestate(test_singles_share_a_pipeline, &off),
        cmocka_unit_test_prestate(test_oauth_cas_raced, &on),
        cmocka_unit_test_prestate(test_oauth_cas_raced, &off),
        cmocka_unit_test_prestate(test_tables, &on),
        cmocka_unit_test_prestate(test_tables, &off),
        cmocka_unit_test(test_loop_free_while_locked),
        cmocka_unit_test(test_cancel_and_free),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
