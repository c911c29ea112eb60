/* Unit tests of the state service's operations on the PostgreSQL pool on
 * the loop (tools/state/service_pg.c), on a throwaway cluster
 * (tests/lib/pg_cluster.sh; skipped without initdb): skills.* answered in
 * order, one at a time, with the same answers and owners' rules as on
 * SQLite, the rows installed in memory and announced before the reply;
 * arguments refused on the next turn, never inside the call; state.* and
 * the shared stash; a cancelled save is done but not answered; freeing the
 * service with operations in flight answers nobody. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support/pg_cluster.h"

#include "tools/state/service.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char url[160];
static int changes, databases;

static int setup(void **state)
{
    (void) state;
    return pg_cluster_start("test-service-pg", "", url, sizeof url);
}

static int teardown(void **state)
{
    (void) state;
    pg_cluster_stop();
    return 0;
}

static void changed(void *ud)
{
    (void) ud;
    changes++;
}

static char *admins[] = {"root", NULL};

/* A service on a new database of the cluster, on loop. */
static struct tools_state_service *service(uv_loop_t *loop)
{
    char cmd[256], db[32], full[200];
    snprintf(db, sizeof db, "svc%d", ++databases);
    snprintf(cmd, sizeof cmd,
             "sh tests/lib/pg_cluster.sh psql %s 'CREATE DATABASE %s' postgres >/dev/null", pg_dir,
             db);
    assert_int_equal(pg_sh(cmd, NULL, 0), 0);
    snprintf(full, sizeof full, "%s%s", url, db);
    struct tools_state_service_options o = {
        .state = 1,
        .skills = 1,
        .skill_admins = admins,
        .store = {.path = "/nonexistent/unused.db", .url = full, .max_connections = 2},
        .skills_changed = changed,
        .loop = loop};
    struct tools_state_service *s = tools_state_service_new(&o);
    char err[TOOLS_STATE_ERR_MAX];
    assert_int_equal(tools_state_connect(tools_state_service_store(s), err), TOOLS_STATE_OK);
    changes = 0;
    return s;
}

static void finish(uv_loop_t *loop, struct tools_state_service *s)
{
    tools_state_service_free(s);
    uv_run(loop, UV_RUN_DEFAULT); /* the pool's handles close */
    assert_int_equal(uv_loop_close(loop), 0);
}

struct reply {
    int called, ok, order;
    char json[512];
};

static int answered;

static void replied(void *ud, int ok, const char *json, size_t len)
{
    struct reply *r = ud;
    r->called++;
    r->ok = ok;
    r->order = ++answered;
    snprintf(r->json, sizeof r->json, "%.*s", (int) len, json);
}

static struct tools_state_job *start(struct tools_state_service *s, uv_loop_t *loop, const char *op,
                                     const char *name, const char *principal, const char *args,
                                     struct reply *r)
{
    cJSON *a = args ? json_parse(args, strlen(args)) : NULL;
    struct tools_state_job *j =
        tools_state_service_start(s, loop, op, name, principal, a, replied, r);
    cJSON_Delete(a);
    assert_int_equal(r->called, 0); /* never inside the call */
    return j;
}

static void test_skills_in_order(void **state)
{
    (void) state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools_state_service *s = service(&loop);
    struct reply save1 = {0}, save2 = {0}, list = {0}, theirs = {0}, bad = {0};
    answered = 0;
    start(s, &loop, "skills", "save", "alice",
          "{\"name\":\"one\",\"description\":\"1\",\"code\":\"return 1;\"}", &save1);
    start(s, &loop, "skills", "save", "alice",
          "{\"name\":\"two\",\"description\":\"2\",\"code\":\"return 2;\"}", &save2);
    start(s, &loop, "skills", "list", "alice", NULL, &list);
    start(s, &loop, "skills", "save", "bob",
          "{\"name\":\"one\",\"description\":\"b\",\"code\":\"return 3;\"}", &theirs);
    start(s, &loop, "skills", "save", "alice",
          "{\"name\":\"save\",\"description\":\"x\",\"code\":\"\"}", &bad);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(save1.ok, 1);
    assert_string_equal(save1.json, "{\"name\":\"one\"}");
    assert_string_equal(save2.json, "{\"name\":\"two\"}");
    /* one at a time, in order: the list sees both saves */
    assert_true(save1.order < save2.order && save2.order < list.order);
    assert_int_equal(list.ok, 1);
    assert_non_null(strstr(list.json, "\"name\":\"one\""));
    assert_non_null(strstr(list.json, "\"name\":\"two\""));
    assert_null(strstr(list.json, "\"code\""));
    assert_int_equal(theirs.ok, 0); /* scope "server": alice's skill, bob is no admin */
    assert_non_null(strstr(theirs.json, "\"code\":\"forbidden\""));
    assert_int_equal(bad.ok, 0);
    assert_non_null(strstr(bad.json, "\"code\":\"invalid\""));
    /* installed in memory and announced before the replies */
    cJSON *seen = tools_state_service_skills(s, "alice");
    assert_int_equal(cJSON_GetArraySize(seen), 2);
    cJSON_Delete(seen);
    assert_true(changes >= 2);
    /* delete: by an admin; then there is none */
    struct reply del = {0}, again = {0};
    start(s, &loop, "skills", "delete", "root", "\"one\"", &del);
    start(s, &loop, "skills", "delete", "root", "\"one\"", &again);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_string_equal(del.json, "true");
    assert_string_equal(again.json, "false");
    seen = tools_state_service_skills(s, "alice");
    assert_int_equal(cJSON_GetArraySize(seen), 1);
    cJSON_Delete(seen);
    finish(&loop, s);
}

static void test_state_and_stash(void **state)
{
    (void) state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools_state_service *s = service(&loop);
    struct reply set = {0}, get = {0}, conflict = {0};
    start(s, &loop, "state", "set", NULL, "{\"key\":\"k\",\"value\":[1,2]}", &set);
    uv_run(&loop, UV_RUN_DEFAULT);
    start(s, &loop, "state", "get", NULL, "{\"key\":\"k\"}", &get);
    start(s, &loop, "state", "set", NULL, "{\"key\":\"k\",\"value\":3,\"ifVersion\":7}", &conflict);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_string_equal(set.json, "1");
    assert_string_equal(get.json, "{\"found\":true,\"version\":1,\"value\":[1,2]}");
    assert_int_equal(conflict.ok, 0);
    assert_non_null(strstr(conflict.json, "StateConflictError"));
    assert_int_equal(tools_state_service_shares_stash(s), 1);
    struct tools_state_stash_entry e = {.uri = "codemode://stash/s1",
                                        .owner = "alice",
                                        .mime = "text/plain",
                                        .data = "hi",
                                        .len = 2,
                                        .max_entries = 10,
                                        .max_bytes = 1000};
    struct reply put = {0}, read = {0}, other = {0};
    tools_state_service_stash_put(s, &loop, &e, replied, &put);
    assert_int_equal(put.called, 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    tools_state_service_stash_get(s, &loop, "codemode://stash/s1", "alice", replied, &read);
    tools_state_service_stash_get(s, &loop, "codemode://stash/s1", "bob", replied, &other);
    tools_state_service_stash_touch(s, &loop, "codemode://stash/s1", "alice");
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_string_equal(put.json, "true");
    assert_string_equal(
        read.json, "{\"uri\":\"codemode://stash/s1\",\"mimeType\":\"text/plain\",\"text\":\"hi\"}");
    assert_string_equal(other.json, "null");
    finish(&loop, s);
}

/* A cancelled save is done (and installed) but not answered; freeing the
 * service while saves are in flight answers nobody. */
static void test_cancel_and_free(void **state)
{
    (void) state;
    if (!have_pg)
        skip();
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools_state_service *s = service(&loop);
    struct reply gone = {0}, late1 = {0}, late2 = {0}, late3 = {0};
    struct tools_state_job *j =
        start(s, &loop, "skills", "save", NULL,
              "{\"name\":\"kept\",\"description\":\"k\",\"code\":\"return 1;\"}", &gone);
    tools_state_job_cancel(j);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(gone.called, 0);
    cJSON *seen = tools_state_service_skills(s, NULL);
    assert_int_equal(cJSON_GetArraySize(seen), 1);
    cJSON_Delete(seen);
    start(s, &loop, "skills", "save", NULL,
          "{\"name\":\"late\",\"description\":\"l\",\"code\":\"1\"}", &late1);
    start(s, &loop, "skills", "list", NULL, NULL, &late2);
    start(s, &loop, "state", "get", NULL, "{\"key\":\"k\"}", &late3);
    struct reply bad_state = {0}, bad_skill = {0}; /* answered on the next turn: a timer */
    start(s, &loop, "state", "get", NULL, "{}", &bad_state);
    tools_state_service_free(s); /* as the server does after its loop stopped */
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(late1.called + late2.called + late3.called + bad_state.called, 0);
    /* and a service whose running skills.* waits for its timer */
    s = service(&loop);
    start(s, &loop, "skills", "nope", NULL, NULL, &bad_skill);
    start(s, &loop, "skills", "list", NULL, NULL, &late1);
    tools_state_service_free(s);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(bad_skill.called + late1.called, 0);
    assert_int_equal(uv_loop_close(&loop), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skills_in_order),
        cmocka_unit_test(test_state_and_stash),
        cmocka_unit_test(test_cancel_and_free),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
