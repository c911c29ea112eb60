/* Unit tests of tools/state/ (db.c, kv.c, skills_db.c): nothing is created
 * before the first operation; get/set/delete/list with versions;
 * compare-and-set (ifVersion 0 and n); the per-value and total quotas; a
 * missing directory is created; a corrupt file, a read-only file and a
 * database locked by another connection, a full disk (a file size limit)
 * give FAILED with a sentence and leave the old value, and
 * the store recovers when the file is fixed; skills rows round-trip; a
 * database of schema version 0 loses the rows of the scopes built from
 * 8-character session id prefixes, and only those, and its skills become the
 * server's; skills are keyed by (owner, name); a newer schema is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/state/store.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], path[128];
static char err[TOOLS_STATE_ERR_MAX];

static int setup(void **st)
{
    (void) st;
    snprintf(dir, sizeof dir, "/tmp/test_state_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/sub/dir/state.db", dir);
    return 0;
}

static int teardown(void **st)
{
    (void) st;
    char cmd[200];
    snprintf(cmd, sizeof cmd, "chmod -R u+w %s; rm -rf %s", dir, dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

static struct tools_state *open_store(uint64_t max_value, uint64_t max_total)
{
    struct tools_state_options o = {.path = path,
                                    .max_value_bytes = max_value,
                                    .max_total_bytes = max_total,
                                    .busy_timeout_ms = 200};
    return tools_state_new(&o);
}

static void test_lazy_and_crud(void **st)
{
    (void) st;
    struct tools_state *s = open_store(0, 0);
    assert_false(tools_state_file_exists(s)); /* nothing before the first operation */
    char *json = NULL;
    int64_t v = -1;
    assert_int_equal(tools_state_get(s, "a", "k", &json, &v, err), TOOLS_STATE_ABSENT);
    assert_true(tools_state_file_exists(s)); /* the directory was created */
    assert_int_equal(tools_state_set(s, "a", "k", "{\"n\":1}", -1, &v, err), 0);
    assert_int_equal(v, 1);
    assert_int_equal(tools_state_set(s, "a", "k", "[2]", -1, &v, err), 0);
    assert_int_equal(v, 2);
    assert_int_equal(tools_state_get(s, "a", "k", &json, &v, err), 0);
    assert_string_equal(json, "[2]");
    assert_int_equal(v, 2);
    free(json);
    /* scopes are separate */
    assert_int_equal(tools_state_get(s, "b", "k", &json, &v, err), TOOLS_STATE_ABSENT);
    assert_int_equal(tools_state_delete(s, "a", "k", err), 0);
    assert_int_equal(tools_state_delete(s, "a", "k", err), TOOLS_STATE_ABSENT);
    assert_int_equal(tools_state_set(s, "a", "", "1", -1, &v, err), TOOLS_STATE_INVALID);
    tools_state_free(s);
}

static void test_list(void **st)
{
    (void) st;
    struct tools_state *s = open_store(0, 0);
    int64_t v;
    const char *keys[] = {"user:2", "user:10", "other", "user:1", "userx"};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(tools_state_set(s, "", keys[i], "true", -1, &v, err), 0);
    assert_int_equal(tools_state_set(s, "p", "user:9", "true", -1, &v, err), 0);
    cJSON *out = NULL;
    assert_int_equal(tools_state_list(s, "", "user:", &out, err), 0);
    char *text = cJSON_PrintUnformatted(out);
    assert_string_equal(text, "[\"user:1\",\"user:10\",\"user:2\"]");
    free(text);
    cJSON_Delete(out);
    assert_int_equal(tools_state_list(s, "", "", &out, err), 0);
    assert_int_equal(cJSON_GetArraySize(out), 5);
    cJSON_Delete(out);
    tools_state_free(s);
}

/* What `mcp-codemode state list` shows: each key with its version and the
 * bytes of its value's JSON, sorted, within the prefix and the scope. */
static void test_list_entries(void **st)
{
    (void) st;
    struct tools_state *s = open_store(0, 0);
    int64_t v;
    assert_int_equal(tools_state_set(s, "p", "user:2", "{\"name\":\"Ada\"}", -1, &v, err), 0);
    assert_int_equal(tools_state_set(s, "p", "user:10", "1", -1, &v, err), 0);
    assert_int_equal(tools_state_set(s, "p", "user:10", "[1,2,3]", -1, &v, err), 0);
    assert_int_equal(tools_state_set(s, "p", "other", "true", -1, &v, err), 0);
    assert_int_equal(tools_state_set(s, "q", "user:3", "true", -1, &v, err), 0);
    cJSON *out = NULL;
    assert_int_equal(tools_state_list_entries(s, "p", "user:", &out, err), 0);
    char *text = cJSON_PrintUnformatted(out);
    assert_string_equal(text, "[{\"key\":\"user:10\",\"version\":2,\"bytes\":7},"
                              "{\"key\":\"user:2\",\"version\":1,\"bytes\":14}]");
    free(text);
    cJSON_Delete(out);
    assert_int_equal(tools_state_list_entries(s, "none", "", &out, err), 0);
    assert_int_equal(cJSON_GetArraySize(out), 0);
    cJSON_Delete(out);
    tools_state_free(s);
}

static void test_compare_and_set(void **st)
{
    (void) st;
    struct tools_state *s = open_store(0, 0);
    int64_t v;
    assert_int_equal(tools_state_set(s, "", "c", "0", 0, &v, err), 0);
    assert_int_equal(v, 1);
    assert_int_equal(tools_state_set(s, "", "c", "1", 0, &v, err), TOOLS_STATE_CONFLICT);
    assert_non_null(strstr(err, "already exists"));
    assert_int_equal(tools_state_set(s, "", "c", "1", 5, &v, err), TOOLS_STATE_CONFLICT);
    assert_non_null(strstr(err, "version 1, not 5"));
    assert_int_equal(tools_state_set(s, "", "c", "1", 1, &v, err), 0);
    assert_int_equal(v, 2);
    assert_int_equal(tools_state_set(s, "", "nope", "1", 3, &v, err), TOOLS_STATE_CONFLICT);
    assert_non_null(strstr(err, "does not exist"));
    char *json;
    assert_int_equal(tools_state_get(s, "", "c", &json, &v, err), 0);
    assert_string_equal(json, "1"); /* the conflicting writes changed nothing */
    free(json);
    tools_state_free(s);
}

static void test_quotas(void **st)
{
    (void) st;
    struct tools_state *s = open_store(10, 30);
    int64_t v;
    assert_int_equal(tools_state_set(s, "", "big", "\"12345678901\"", -1, &v, err),
                     TOOLS_STATE_QUOTA);
    assert_non_null(strstr(err, "maxValueBytes"));
    assert_int_equal(tools_state_set(s, "", "a", "1234567890", -1, &v, err), 0); /* 11 */
    assert_int_equal(tools_state_set(s, "", "b", "1234567890", -1, &v, err), 0); /* 22 */
    assert_int_equal(tools_state_set(s, "", "c", "1234567890", -1, &v, err), TOOLS_STATE_QUOTA);
    assert_non_null(strstr(err, "maxTotalBytes"));
    /* replacing a key counts its new size, not both */
    assert_int_equal(tools_state_set(s, "", "b", "12345", -1, &v, err), 0);
    assert_int_equal(tools_state_set(s, "", "c", "1", -1, &v, err), 0);
    /* another scope has its own total */
    assert_int_equal(tools_state_set(s, "x", "c", "1234567890", -1, &v, err), 0);
    tools_state_free(s);
}

static void write_file(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_corrupt_then_fixed(void **st)
{
    (void) st;
    snprintf(path, sizeof path, "%s/corrupt.db", dir);
    write_file(path, "this is not a database, not at all, it is text that goes on and on....");
    struct tools_state *s = open_store(0, 0);
    int64_t v;
    assert_int_equal(tools_state_set(s, "", "k", "1", -1, &v, err), TOOLS_STATE_FAILED);
    assert_non_null(strstr(err, "corrupt"));
    assert_non_null(strstr(err, path));
    unlink(path);
    assert_int_equal(tools_state_set(s, "", "k", "1", -1, &v, err), 0); /* opened again */
    tools_state_free(s);
    snprintf(path, sizeof path, "%s/sub/dir/state.db", dir);
}

/* Read-only: chmod, or for root (who writes anyway) the immutable flag. */
static void make_read_only(const char *p, int on)
{
    char cmd[200];
    if (getuid() == 0)
        snprintf(cmd, sizeof cmd, "chattr %ci %s", on ? '+' : '-', p);
    else
        snprintf(cmd, sizeof cmd, "chmod %s %s", on ? "0400" : "0600", p);
    assert_int_equal(system(cmd), 0);
}

static void test_read_only(void **st)
{
    (void) st;
    struct tools_state *s = open_store(0, 0);
    int64_t v;
    assert_int_equal(tools_state_set(s, "", "k", "1", -1, &v, err), 0);
    tools_state_free(s); /* the last connection: the WAL is merged and removed */
    make_read_only(path, 1);
    s = open_store(0, 0);
    int rc = tools_state_set(s, "", "k", "2", -1, &v, err);
    tools_state_free(s);
    make_read_only(path, 0);
    assert_int_equal(rc, TOOLS_STATE_FAILED);
    assert_non_null(strstr(err, path));
    print_message("read-only: %s\n", err);
    s = open_store(0, 0);
    char *json;
    assert_int_equal(tools_state_get(s, "", "k", &json, &v, err), 0);
    assert_string_equal(json, "1"); /* nothing half-written */
    free(json);
    tools_state_free(s);
}

static void test_locked(void **st)
{
    (void) st;
    struct tools_state *s = open_store(0, 0);
    int64_t v;
    assert_int_equal(tools_state_set(s, "", "k", "1", -1, &v, err), 0);
    sqlite3 *other;
    assert_int_equal(sqlite3_open(path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(tools_state_set(s, "", "k", "2", -1, &v, err), TOOLS_STATE_FAILED);
    assert_non_null(strstr(err, "locked"));
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    assert_int_equal(tools_state_set(s, "", "k", "2", 1, &v, err), 0);
    assert_int_equal(v, 2);
    tools_state_free(s);
}

/* A full disk, as a file size limit: the write fails with a sentence, the
 * transaction is rolled back, the old value is intact. */
static void test_full_disk(void **st)
{
    (void) st;
    struct tools_state *s = open_store(0, 0);
    int64_t v;
    assert_int_equal(tools_state_set(s, "", "k", "\"old\"", -1, &v, err), 0);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 64 * 1024;
    setrlimit(RLIMIT_FSIZE, &lim);
    static char big[200 * 1024];
    memset(big, 'x', sizeof big - 3);
    big[0] = '"';
    big[sizeof big - 3] = '"';
    int rc = tools_state_set(s, "", "k", big, -1, &v, err);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, SIG_DFL);
    assert_int_equal(rc, TOOLS_STATE_FAILED);
    print_message("full: %s\n", err);
    assert_true(strstr(err, "disk is full") || strstr(err, "I/O error"));
    char *json;
    assert_int_equal(tools_state_get(s, "", "k", &json, &v, err), 0);
    assert_string_equal(json, "\"old\"");
    assert_int_equal(v, 1);
    free(json);
    tools_state_free(s);
}

static void test_skills_rows(void **st)
{
    (void) st;
    struct tools_state *s = open_store(0, 0);
    assert_int_equal(tools_state_skill_save(s, "", "b", "B", "{\"type\":\"object\"}", "return 1", err),
                     0);
    assert_int_equal(tools_state_skill_save(s, "", "a", "A", "{}", "return 2", err), 0);
    assert_int_equal(tools_state_skill_save(s, "", "a", "A2", "{}", "return 3", err), 0);
    cJSON *all = NULL;
    assert_int_equal(tools_state_skill_load(s, &all, err), 0);
    assert_int_equal(cJSON_GetArraySize(all), 2);
    cJSON *first = cJSON_GetArrayItem(all, 0);
    assert_string_equal(cJSON_GetObjectItem(first, "name")->valuestring, "a");
    assert_string_equal(cJSON_GetObjectItem(first, "code")->valuestring, "return 3");
    assert_true(cJSON_IsObject(cJSON_GetObjectItem(cJSON_GetArrayItem(all, 1), "inputSchema")));
    cJSON_Delete(all);
    assert_int_equal(tools_state_skill_delete(s, "", "a", err), 0);
    assert_int_equal(tools_state_skill_delete(s, "", "a", err), TOOLS_STATE_ABSENT);
    /* (owner, name) is the key: two owners' "b" are two rows */
    assert_int_equal(tools_state_skill_save(s, "bob", "b", "Bob's", "{}", "return 4", err), 0);
    assert_int_equal(tools_state_skill_delete(s, "eve", "b", err), TOOLS_STATE_ABSENT);
    assert_int_equal(tools_state_skill_load(s, &all, err), 0);
    assert_int_equal(cJSON_GetArraySize(all), 2);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(all, 0), "owner")->valuestring, "");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(all, 1), "owner")->valuestring,
                        "bob");
    cJSON_Delete(all);
    tools_state_free(s);
}

/* A version-0 database (no user_version) with rows in four scopes. */
static void write_v0_database(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/sub/dir", dir);
    assert_int_equal(system(cmd), 0);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    const char *sql =
        "CREATE TABLE state(scope TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, "
        "version INTEGER NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY(scope, key)) WITHOUT ROWID;"
        "INSERT INTO state VALUES('http-session:abcdefgh','k','1',1,1);"
        "INSERT INTO state VALUES('http-session:"
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef','k','2',1,1);"
        "INSERT INTO state VALUES('stdio','k','3',1,1);"
        "INSERT INTO state VALUES('http-token','k','4',1,1);"
        "CREATE TABLE skills(name TEXT PRIMARY KEY, description TEXT NOT NULL, input_schema TEXT "
        "NOT NULL, code TEXT NOT NULL, saved INTEGER NOT NULL);"
        "INSERT INTO skills VALUES('old','Old.','{}','return 1',0);";
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

static void scope_value_is(struct tools_state *s, const char *scope, const char *want)
{
    char *json = NULL;
    int64_t v = 0;
    int rc = tools_state_get(s, scope, "k", &json, &v, err);
    if (want == NULL) {
        assert_int_equal(rc, TOOLS_STATE_ABSENT);
    } else {
        assert_int_equal(rc, TOOLS_STATE_OK);
        assert_string_equal(json, want);
    }
    free(json);
}

static void test_migrate_prefix_scopes(void **st)
{
    (void) st;
    write_v0_database();
    struct tools_state *s = open_store(0, 0);
    scope_value_is(s, "http-session:abcdefgh", NULL);
    scope_value_is(s, "http-session:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                 "2");
    scope_value_is(s, "stdio", "3");
    scope_value_is(s, "http-token", "4");
    int64_t v = 0;
    assert_int_equal(tools_state_set(s, "http-session:abcdefgh", "k", "5", -1, &v, err), 0);
    tools_state_free(s);
    s = open_store(0, 0); /* migrated once: nothing is deleted at the next opening */
    scope_value_is(s, "http-session:abcdefgh", "5");
    /* the skills of version 0 are the server's now (owner "") */
    cJSON *all = NULL;
    assert_int_equal(tools_state_skill_load(s, &all, err), 0);
    assert_int_equal(cJSON_GetArraySize(all), 1);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(all, 0), "owner")->valuestring, "");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(all, 0), "code")->valuestring,
                        "return 1");
    cJSON_Delete(all);
    tools_state_free(s);
}

/* Learned result types: one row per (server, tool), replaced in batches,
 * read back sorted; a version-2 database gains the table (version 3). */
static void test_result_shapes(void **st)
{
    (void) st;
    write_v0_database(); /* migrated through every version on the first open */
    struct tools_state *s = open_store(0, 0);
    cJSON *all = NULL;
    assert_int_equal(tools_state_shapes_load(s, &all, err), 0);
    assert_int_equal(cJSON_GetArraySize(all), 0);
    cJSON_Delete(all);
    struct tools_state_shape_row rows[] = {
        {"srv", "b", "h1", "{\"t\":\"s\"}"},
        {"srv", "a", "h2", "{\"t\":\"d\"}"},
        {"other", "a", "h3", "{\"t\":\"n\"}"},
    };
    assert_int_equal(tools_state_shapes_save(s, rows, 3, err), 0);
    struct tools_state_shape_row again = {"srv", "b", "h4", "{\"t\":\"b\"}"};
    assert_int_equal(tools_state_shapes_save(s, &again, 1, err), 0);
    struct tools_state_shape_row bad = {"srv", NULL, "h", "{}"};
    assert_int_equal(tools_state_shapes_save(s, &bad, 1, err), TOOLS_STATE_INVALID);
    tools_state_free(s);
    s = open_store(0, 0);
    assert_int_equal(tools_state_shapes_load(s, &all, err), 0);
    char *text = cJSON_PrintUnformatted(all);
    assert_string_equal(text, "[{\"server\":\"other\",\"tool\":\"a\",\"schemaHash\":\"h3\","
                              "\"shape\":\"{\\\"t\\\":\\\"n\\\"}\"},{\"server\":\"srv\",\"tool\":\"a\","
                              "\"schemaHash\":\"h2\",\"shape\":\"{\\\"t\\\":\\\"d\\\"}\"},{\"server\":"
                              "\"srv\",\"tool\":\"b\",\"schemaHash\":\"h4\",\"shape\":\"{\\\"t\\\":\\\"b\\\"}\"}]");
    free(text);
    cJSON_Delete(all);
    tools_state_free(s);
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 3);
    sqlite3_finalize(q);
    sqlite3_close(db);
}

/* A database of a newer schema is refused, with a sentence that says so. */
static void test_newer_schema_refused(void **st)
{
    (void) st;
    struct tools_state *s = open_store(0, 0);
    int64_t v = 0;
    assert_int_equal(tools_state_set(s, "stdio", "k", "1", -1, &v, err), 0);
    tools_state_free(s);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version=99", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = open_store(0, 0);
    char *json = NULL;
    assert_int_equal(tools_state_get(s, "stdio", "k", &json, &v, err), TOOLS_STATE_FAILED);
    assert_non_null(strstr(err, "written by a newer mcp-codemode (schema version 99"));
    tools_state_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lazy_and_crud, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_entries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compare_and_set, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quotas, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_then_fixed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_locked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_full_disk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_skills_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrate_prefix_scopes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_result_shapes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
