/* Unit tests of the OAuth rows (tools/state/oauth_db.c, oauth_async.c) on
 * both backends, each test once on a SQLite file and once on a throwaway
 * PostgreSQL cluster (tests/lib/pg_cluster.sh; skipped without initdb):
 * compare-and-set across two stores, as two processes or instances would
 * be; a rotating refresh token claimed 100 times by two racing threads is
 * never spent twice; the operations off the loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support/pg_cluster.h"

#include "tools/state/store.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char url[160], sqlite_dir[64], sqlite_path[96];

/* A backend: a SQLite file (url NULL) or the cluster's database. */
struct backend {
    const char *url;
};
static struct backend on_sqlite = {NULL}, on_pg = {url};

static int setup(void **state)
{
    (void) state;
    snprintf(sqlite_dir, sizeof sqlite_dir, "/tmp/test-state-oauth-%ld", (long) getpid());
    snprintf(sqlite_path, sizeof sqlite_path, "%s/state.db", sqlite_dir);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", sqlite_dir);
    if (pg_sh(cmd, NULL, 0) != 0)
        return -1;
    return pg_cluster_start("test-state-oauth-pg", "codemode", url, sizeof url);
}

static int teardown(void **state)
{
    (void) state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", sqlite_dir);
    pg_sh(cmd, NULL, 0);
    pg_cluster_stop();
    return 0;
}

static struct tools_state *store(const struct backend *be)
{
    struct tools_state_options o = {.path = sqlite_path, .url = be->url, .max_connections = 2};
    struct tools_state *s = tools_state_new(&o);
    assert_non_null(s);
    return s;
}

static void test_oauth_cas_across_stores(void **state)
{
    const struct backend *be = *state;
    if (be->url && !have_pg)
        skip();
    struct tools_state *a = store(be), *b = store(be);
    char err[TOOLS_STATE_ERR_MAX], *json = NULL;
    int64_t v = 0, va = 0, vb = 0;
    tools_state_oauth_delete(a, "token", "https://cas.example", err);
    assert_int_equal(
        tools_state_oauth_put(a, "token", "https://cas.example", "{\"n\":0}", 0, &v, err),
        TOOLS_STATE_OK);
    assert_int_equal(v, 1);
    assert_int_equal(tools_state_oauth_put(b, "token", "https://cas.example", "{}", 0, &vb, err),
                     TOOLS_STATE_CONFLICT); /* it exists: "only when absent" fails */
    assert_int_equal(tools_state_oauth_get(b, "token", "https://cas.example", &json, &vb, err),
                     TOOLS_STATE_OK);
    assert_string_equal(json, "{\"n\":0}");
    free(json);
    va = vb;
    assert_int_equal(
        tools_state_oauth_put(a, "token", "https://cas.example", "{\"n\":1}", va, &va, err),
        TOOLS_STATE_OK);
    assert_int_equal(
        tools_state_oauth_put(b, "token", "https://cas.example", "{\"n\":2}", vb, &vb, err),
        TOOLS_STATE_CONFLICT);
    assert_non_null(
        strstr(err, "the OAuth token row was written by another instance or process first"));
    assert_int_equal(tools_state_oauth_delete(b, "token", "https://cas.example", err),
                     TOOLS_STATE_OK);
    assert_int_equal(tools_state_oauth_get(a, "token", "https://cas.example", &json, &va, err),
                     TOOLS_STATE_ABSENT);
    assert_int_equal(tools_state_oauth_put(a, "", "k", "{}", -1, &v, err), TOOLS_STATE_INVALID);
    tools_state_free(a);
    tools_state_free(b);
}

/* --- a rotating refresh token, claimed by two instances ----------------------------------------
 * The row holds the refresh token "rt-N". A refresh reads the row, and
 * spends rt-N only once its compare-and-set to rt-(N+1) won (the token
 * endpoint of the fixture counts how often each token is spent); the loser
 * reads the winner's row and carries on with it. */

#define ROUNDS 100
static int spent[ROUNDS + 2];
static pthread_mutex_t spent_lock = PTHREAD_MUTEX_INITIALIZER;

static void *refresher(void *arg)
{
    struct tools_state *s = arg;
    char err[TOOLS_STATE_ERR_MAX];
    for (;;) {
        char *json = NULL;
        int64_t v = 0;
        if (tools_state_oauth_get(s, "token", "https://rotate.example", &json, &v, err) != 0)
            return "read failed";
        int n = atoi(strchr(json, '-') + 1);
        free(json);
        if (n >= ROUNDS)
            return NULL;
        char next[64];
        snprintf(next, sizeof next, "{\"refresh_token\":\"rt-%d\"}", n + 1);
        int rc = tools_state_oauth_put(s, "token", "https://rotate.example", next, v, &v, err);
        if (rc == TOOLS_STATE_CONFLICT)
            continue; /* the other one claimed it: read its result */
        if (rc != 0)
            return "write failed";
        pthread_mutex_lock(&spent_lock); /* the token endpoint: rt-n spent */
        spent[n]++;
        pthread_mutex_unlock(&spent_lock);
    }
}

static void test_rotating_refresh_spent_once(void **state)
{
    const struct backend *be = *state;
    if (be->url && !have_pg)
        skip();
    struct tools_state *a = store(be), *b = store(be);
    char err[TOOLS_STATE_ERR_MAX];
    int64_t v;
    tools_state_oauth_put(a, "token", "https://rotate.example", "{\"refresh_token\":\"rt-0\"}", -1,
                          &v, err);
    memset(spent, 0, sizeof spent);
    pthread_t ta, tb;
    pthread_create(&ta, NULL, refresher, a);
    pthread_create(&tb, NULL, refresher, b);
    void *ra, *rb;
    pthread_join(ta, &ra);
    pthread_join(tb, &rb);
    assert_null(ra);
    assert_null(rb);
    for (int n = 0; n < ROUNDS; n++)
        assert_int_equal(spent[n], 1); /* each token spent exactly once, never twice */
    tools_state_free(a);
    tools_state_free(b);
}

/* --- off the loop ---------------------------------------------------------------------------- */

struct answer {
    int called, rc;
    int64_t version;
    char json[64];
};

static void answered(void *ud, int rc, const char *json, int64_t version, const char *err)
{
    struct answer *a = ud;
    a->called++;
    a->rc = rc;
    a->version = version;
    snprintf(a->json, sizeof a->json, "%s", json ? json : (err ? err : ""));
}

static void test_oauth_async(void **state)
{
    const struct backend *be = *state;
    if (be->url && !have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools_state *s = store(be);
    struct answer w = {0}, r = {0}, c = {0}, gone = {0};
    tools_state_oauth_start(s, &loop, "client", "async", "{\"id\":1}", -1, answered, &w);
    assert_int_equal(w.called, 0); /* never inside the call */
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(w.called, 1);
    assert_int_equal(w.rc, TOOLS_STATE_OK);
    tools_state_oauth_start(s, &loop, "client", "async", NULL, -1, answered, &r);
    tools_state_oauth_start(s, &loop, "client", "async", "{\"id\":2}", w.version + 5, answered, &c);
    struct tools_state_oauth_op *op =
        tools_state_oauth_start(s, &loop, "client", "nothing", NULL, -1, answered, &gone);
    tools_state_oauth_cancel(op);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(r.rc, TOOLS_STATE_OK);
    assert_string_equal(r.json, "{\"id\":1}");
    assert_int_equal(r.version, w.version);
    assert_int_equal(c.rc, TOOLS_STATE_CONFLICT);
    assert_int_equal(gone.called, 0);
    tools_state_free(s);
    uv_run(&loop, UV_RUN_DEFAULT); /* the handles of the store's pool on the loop close */
    assert_int_equal(uv_loop_close(&loop), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_oauth_cas_across_stores, &on_sqlite),
        cmocka_unit_test_prestate(test_oauth_cas_across_stores, &on_pg),
        cmocka_unit_test_prestate(test_rotating_refresh_spent_once, &on_sqlite),
        cmocka_unit_test_prestate(test_rotating_refresh_spent_once, &on_pg),
        cmocka_unit_test_prestate(test_oauth_async, &on_sqlite),
        cmocka_unit_test_prestate(test_oauth_async, &on_pg),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
