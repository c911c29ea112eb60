/* Unit tests of the PostgreSQL store's shared stash (tools/state/pg.c) on a
 * throwaway cluster (tests/lib/pg_cluster.sh; skipped without initdb): its
 * owner, expiry and bounds (least recently used first), seen from two
 * stores as two instances would.
 * The learned result types, shared the same way and written off the loop.
 * The OAuth rows, on both backends: test_tools_state_oauth.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support/pg_cluster.h"

#include "tools/state/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char url[160];

static int setup(void **state)
{
    (void) state;
    return pg_cluster_start("test-state-pg", "codemode", url, sizeof url);
}

static int teardown(void **state)
{
    (void) state;
    pg_cluster_stop();
    return 0;
}

static struct tools_state *store(void)
{
    struct tools_state_options o = {
        .path = "/nonexistent/unused.db", .url = url, .max_connections = 2};
    return tools_state_new(&o);
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
    /* least recently used first: a touch (a read answered from an instance's
     * memory) keeps 2 over 3, which was written later */
    assert_int_equal(tools_state_stash_touch(b, "codemode://stash/2", "alice", err),
                     TOOLS_STATE_OK);
    assert_int_equal(tools_state_stash_touch(b, "codemode://stash/2", "bob", err),
                     TOOLS_STATE_ABSENT);
    e.uri = "codemode://stash/6";
    assert_int_equal(tools_state_stash_put(a, &e, err), TOOLS_STATE_OK);
    assert_int_equal(
        tools_state_stash_get(a, "codemode://stash/3", "alice", &data, &len, &mime, &blob, err),
        TOOLS_STATE_ABSENT);
    assert_int_equal(
        tools_state_stash_get(a, "codemode://stash/2", "alice", &data, &len, &mime, &blob, err),
        TOOLS_STATE_OK);
    free(data);
    free(mime);
    /* and a read: 2 (just read) stays, 6 goes */
    e.uri = "codemode://stash/7";
    assert_int_equal(tools_state_stash_put(b, &e, err), TOOLS_STATE_OK);
    assert_int_equal(
        tools_state_stash_get(a, "codemode://stash/6", "alice", &data, &len, &mime, &blob, err),
        TOOLS_STATE_ABSENT);
    assert_int_equal(
        tools_state_stash_get(a, "codemode://stash/2", "alice", &data, &len, &mime, &blob, err),
        TOOLS_STATE_OK);
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

/* --- learned result types --------------------------------------------------------------------- */

static void shapes_saved(void *ud, int rc, const char *err)
{
    int *out = ud;
    *out = rc == 0 && err == NULL ? 1 : -1;
}

static void test_shapes_shared(void **state)
{
    (void) state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools_state *a = store(), *b = store();
    char err[TOOLS_STATE_ERR_MAX];
    struct tools_state_shape_row rows[] = {{"srv", "t1", "h1", "{\"k\":1}"},
                                           {"srv", "t0", "h0", "{\"k\":0}"}};
    int saved = 0;
    tools_state_shapes_save_start(a, &loop, rows, 2, shapes_saved, &saved);
    assert_int_equal(saved, 0); /* never inside the call */
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(saved, 1);
    rows[0].shape = "{\"k\":2}"; /* a later write replaces the row */
    assert_int_equal(tools_state_shapes_save(b, rows, 1, err), TOOLS_STATE_OK);
    cJSON *got = NULL;
    assert_int_equal(tools_state_shapes_load(a, &got, err), TOOLS_STATE_OK);
    char *text = cJSON_PrintUnformatted(got);
    assert_string_equal(text, "[{\"server\":\"srv\",\"tool\":\"t0\",\"schemaHash\":\"h0\","
                              "\"shape\":\"{\\\"k\\\":0}\"},{\"server\":\"srv\",\"tool\":\"t1\","
                              "\"schemaHash\":\"h1\",\"shape\":\"{\\\"k\\\":2}\"}]");
    free(text);
    cJSON_Delete(got);
    rows[0].tool = NULL;
    assert_int_equal(tools_state_shapes_save(a, rows, 1, err), TOOLS_STATE_INVALID);
    tools_state_free(a);
    tools_state_free(b);
    uv_run(&loop, UV_RUN_DEFAULT); /* the handles of a's pool on the loop close */
    assert_int_equal(uv_loop_close(&loop), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stash),
        cmocka_unit_test(test_shapes_shared),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
