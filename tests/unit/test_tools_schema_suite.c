/* Runs every file of the official JSON Schema Test Suite (draft2020-12 and
 * draft7, vendored in tests/data/json-schema-test-suite) through
 * tools/schema/schema.h. Tests that need a document we do not have offline
 * (refRemote.json, $refs to remote URLs or metaschemas, unknown "$schema"
 * metaschemas) are counted as skipped and listed; every other test must pass,
 * and the verdict must not depend on whether errors were asked for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tools/schema/schema.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tally {
    int pass, fail, skip;
};

static char suite_dir[4096];

static int find_suite(void)
{
    const char *env = getenv("JSON_SCHEMA_TEST_SUITE");
    const char *candidates[] = {env, "tests/data/json-schema-test-suite",
                                "../tests/data/json-schema-test-suite",
                                "../../tests/data/json-schema-test-suite"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        if (candidates[i] == NULL)
            continue;
        char probe[4200];
        snprintf(probe, sizeof probe, "%s/draft2020-12", candidates[i]);
        DIR *d = opendir(probe);
        if (d) {
            closedir(d);
            snprintf(suite_dir, sizeof suite_dir, "%s", candidates[i]);
            return 0;
        }
    }
    return -1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t) n + 1);
    if (data && fread(data, 1, (size_t) n, f) != (size_t) n) {
        free(data);
        data = NULL;
    }
    if (data)
        data[n] = '\0';
    fclose(f);
    return data;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The sorted .json file names of a directory; caller frees. */
static char **list_files(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    *count = 0;
    if (d == NULL)
        return NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        names = realloc(names, (*count + 1) * sizeof *names);
        names[(*count)++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, *count, sizeof *names, cmp_names);
    return names;
}

/* One test: the verdict with and without a result must agree with "valid",
 * and a failure must come with at least one error (none for a success). */
static int check_test(const struct tools_schema *s, const cJSON *t, const char *where)
{
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(t, "data");
    int want = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "valid"));
    struct tools_schema_result r;
    int quick = tools_schema_validate(s, data, NULL);
    int full = tools_schema_validate(s, data, &r);
    int ok = quick == want && full == want && (want ? r.count == 0 : r.count > 0);
    if (!ok) {
        char *msg = tools_schema_result_format(&r);
        printf("  FAIL %s / %s: expected %s, got %s (with errors: %s)\n%s", where,
               cJSON_GetObjectItemCaseSensitive(t, "description")->valuestring,
               want ? "valid" : "invalid", quick ? "valid" : "invalid", full ? "valid" : "invalid",
               msg);
        free(msg);
    }
    tools_schema_result_free(&r);
    return ok;
}

static void run_group(const cJSON *group, const char *file, enum tools_schema_draft draft,
                      struct tally *t)
{
    const cJSON *tests = cJSON_GetObjectItemCaseSensitive(group, "tests");
    const char *desc = cJSON_GetObjectItemCaseSensitive(group, "description")->valuestring;
    int n = cJSON_GetArraySize(tests);
    char where[512];
    snprintf(where, sizeof where, "%s: %s", file, desc);
    if (strcmp(file, "refRemote.json") == 0) {
        printf("  SKIP %s (%d tests): needs remote documents\n", where, n);
        t->skip += n;
        return;
    }
    char *err = NULL;
    struct tools_schema *s =
        tools_schema_compile_draft(cJSON_GetObjectItemCaseSensitive(group, "schema"), draft, &err);
    if (s == NULL) {
        printf("  FAIL %s (%d tests): schema does not compile: %s\n", where, n, err);
        free(err);
        t->fail += n;
        return;
    }
    if (tools_schema_unresolved(s)) {
        printf("  SKIP %s (%d tests): needs %s\n", where, n, tools_schema_unresolved(s));
        t->skip += n;
    } else {
        for (const cJSON *test = tests->child; test; test = test->next) {
            if (check_test(s, test, where))
                t->pass++;
            else
                t->fail++;
        }
    }
    tools_schema_free(s);
}

static void run_file(const char *dir, const char *name, enum tools_schema_draft draft,
                     struct tally *total)
{
    char path[8400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = read_file(path);
    assert_non_null(text);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    assert_non_null(doc);
    struct tally t = {0, 0, 0};
    for (const cJSON *group = doc->child; group; group = group->next)
        run_group(group, name, draft, &t);
    cJSON_Delete(doc);
    printf("%-28s %4d/%-4d passed, %3d skipped, %d failed\n", name, t.pass, t.pass + t.fail, t.skip,
           t.fail);
    total->pass += t.pass;
    total->fail += t.fail;
    total->skip += t.skip;
}

static void run_dialect(const char *sub, enum tools_schema_draft draft)
{
    char dir[4200];
    assert_int_equal(find_suite(), 0);
    snprintf(dir, sizeof dir, "%s/%s", suite_dir, sub);
    size_t count;
    char **names = list_files(dir, &count);
    assert_true(count > 0);
    struct tally total = {0, 0, 0};
    printf("== JSON Schema Test Suite, %s (%zu files)\n", sub, count);
    for (size_t i = 0; i < count; i++) {
        run_file(dir, names[i], draft, &total);
        free(names[i]);
    }
    free(names);
    int run = total.pass + total.fail;
    printf("== %s: %d/%d passed (%.1f%%), %d skipped, %d failed, %d tests in all\n", sub,
           total.pass, run, run ? 100.0 * total.pass / run : 0.0, total.skip, total.fail,
           run + total.skip);
    assert_int_equal(total.fail, 0);
}

static void test_draft2020_12(void **state)
{
    (void) state;
    run_dialect("draft2020-12", TOOLS_SCHEMA_DRAFT_2020_12);
}

static void test_draft7(void **state)
{
    (void) state;
    run_dialect("draft7", TOOLS_SCHEMA_DRAFT_07);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draft2020_12),
        cmocka_unit_test(test_draft7),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
