/* Unit tests of the PostgreSQL store's shared rows (tools/state/pg.c) on a
 * throwaway cluster (tests/lib/pg_cluster.sh; every test is skipped without
 * initdb): OAuth rows compare-and-set across two stores, as two instances
 * would be; a rotating refresh token claimed 100 times by two racing
 * threads is never spent twice; the OAuth operations off the loop
 * (oauth_async.c); the shared stash's owner, expiry and bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/state/store.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64], url[160];
static int have_pg;

static int sh(const char *cmd, char *out, size_t size)
{
    FILE *f = popen(cmd, "r");
    if (f == NULL)
        return -1;
    size_t n = out ? fread(out, 1, size - 1, f) : 0;
    if (out)
        out[n] = '\0';
    return pclose(f);
}

static int setup(void **state)
{
    (void) state;
    if (sh("sh tests/lib/pg_cluster.sh available 2>/dev/null", NULL, 0) != 0)
        return 0;
    snprintf(dir, sizeof dir, "/tmp/test-state-pg-%ld", (long) getpid());
    char cmd[256], port[32];
    snprintf(cmd, sizeof cmd, "sh tests/lib/pg_cluster.sh start %s", dir);
    if (sh(cmd, port, sizeof port) != 0)
        return -1;
    snprintf(url, sizeof url, "postgresql://postgres@127.0.0.1:%d/codemode", atoi(port));
    have_pg = 1;
    return 0;
}

static int teardown(void **state)
{
    (void) state;
    if (!have_pg)
        return 0;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "sh tests/lib/pg_cluster.sh stop %s; rm -rf %s", dir, dir);
    sh(cmd, NULL, 0);
    return 0;
}

static struct tools_state *store(void)
{
    struct tools_state_options o = {
        .path = "/nonexistent/unused.db", .url = url, .max_connections = 2};
    return tools_state_new(&o);
}

static void test_oauth_cas_across_stores(void **state)
{
    (void) state;
    if (!have_pg)
        skip();
    struct tools_state *a = store(), *b = store();
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
    assert_non_null(strstr(err, "another instance"));
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
    (void) state;
    if (!have_pg)
        skip();
    struct tools_state *a = store(), *b = store();
    char err[TOOLS_STATE_ERR_MAX];
    int64_t v;
    tools_state_oauth_put(a, "token", "https://rotate.example", "{\"refresh_token\":\"rt-0\"}", -1,
                          &v, err);
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
    (void) state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools_state *s = store();
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
    uv_loop_close(&loop);
}

/* --- the shared stash ------------------------------------------------------------------------- */

static void test_stash(void **state)
{
    (void) state;
    if (!have_pg)
        skip();
    struct tools_state *a = store(), *b = store();
    char err[TOOLS_STATE_ERR_MAX], *data = NULL, *mime = NULL;
    size_t len = 0;
    int blob = 0;
    struct tools_state_stash_entry e = {.uri = "codemode://stash/1",
                                        .owner = "alice",
                                        .mime = "text/plain",
                                        .data = "one",
                                        .len = 3,
                                        .ttl_ms = 0,
                                        .max_entries = 2,
                                        .max_bytes = 1000};
    assert_int_equal(tools_state_stash_put(a, &e, err), TOOLS_STATE_OK);
    assert_int_equal(
        tools_state_stash_get(b, "codemode://stash/1", "alice", &data, &len, &mime, &blob, err),
        TOOLS_STATE_OK);
    assert_string_equal(data, "one");
    assert_int_equal(len, 3);
    assert_string_equal(mime, "text/plain");
    assert_int_equal(blob, 0);
    free(data);
    free(mime);
    assert_int_equal(
        tools_state_stash_get(b, "codemode://stash/1", "bob", &data, &len, &mime, &blob, err),
        TOOLS_STATE_ABSENT); /* another principal's looks missing */
    /* the bounds: a third entry evicts the oldest */
    e.uri = "codemode://stash/2";
    e.blob = 1;
    assert_int_equal(tools_state_stash_put(a, &e, err), TOOLS_STATE_OK);
    e.uri = "codemode://stash/3";
    assert_int_equal(tools_state_stash_put(b, &e, err), TOOLS_STATE_OK);
    assert_int_equal(
        tools_state_stash_get(a, "codemode://stash/1", "alice", &data, &len, &mime, &blob, err),
        TOOLS_STATE_ABSENT);
    assert_int_equal(
        tools_state_stash_get(a, "codemode://stash/2", "alice", &data, &len, &mime, &blob, err),
        TOOLS_STATE_OK);
    assert_int_equal(blob, 1);
    free(data);
    free(mime);
    /* bytes: an entry that fills maxBytes alone leaves only itself */
    char big[1001];
    memset(big, 'x', 1000);
    big[1000] = '\0';
    e.uri = "codemode://stash/4";
    e.data = big;
    e.len = 1000;
    assert_int_equal(tools_state_stash_put(a, &e, err), TOOLS_STATE_OK);
    assert_int_equal(
        tools_state_stash_get(a, "codemode://stash/3", "alice", &data, &len, &mime, &blob, err),
        TOOLS_STATE_ABSENT);
    /* expiry */
    e.uri = "codemode://stash/5";
    e.data = "soon";
    e.len = 4;
    e.ttl_ms = 50;
    assert_int_equal(tools_state_stash_put(a, &e, err), TOOLS_STATE_OK);
    usleep(150 * 1000);
    assert_int_equal(
        tools_state_stash_get(b, "codemode://stash/5", "alice", &data, &len, &mime, &blob, err),
        TOOLS_STATE_ABSENT);
    tools_state_free(a);
    tools_state_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oauth_cas_across_stores),
        cmocka_unit_test(test_rotating_refresh_spent_once),
        cmocka_unit_test(test_oauth_async),
        cmocka_unit_test(test_stash),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
