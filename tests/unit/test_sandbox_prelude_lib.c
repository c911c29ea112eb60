/* Unit tests of the prelude's ES2015+ library (sandbox/prelude/7x_*.js): the
 * programs in tests/lib run in-process through sandbox/engine.h and every
 * case of their result must equal what Node recorded (tests/lib/record.mjs);
 * then the Duktape-specific parts Node cannot record: error line numbers,
 * stack traces, console formatting, hooks the lowering relies on, memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "common/buf.h"
#include "sandbox/engine.h"
#include "sandbox/limits.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIB_DIR "tests/lib/"

/* The Node-recorded programs, one cmocka test each; test_all_listed checks
 * that no program in tests/lib is missing here. */
static const char *const programs[] = {
    "map", "set", "weak", "iterators", "array_from", "array_methods", "sort", "object", "string", "number_math", "errors", "clone", "groupby",
};
#define NPROGRAMS (sizeof programs / sizeof programs[0])

/* --- running a program ------------------------------------------------------ */

static long host_call(void *ud, const char *op, const char *name, const char *args, size_t alen,
                      char *msg, size_t msgsz)
{
    snprintf(msg, msgsz, "no tools in this test");
    return -1;
}

static void host_log(void *ud, const char *level, const char *text, size_t len)
{
    buf_printf(ud, "%s:%.*s\n", level, (int) len, text);
}

/* Runs code to its end; returns the outcome JSON (caller frees); console
 * lines are appended to logs when it is not NULL. */
static char *run_program(const char *code, size_t len, struct buf *logs)
{
    struct buf scratch;
    buf_init(&scratch, 0);
    struct sandbox_engine_host eh = {logs ? logs : &scratch, host_call, host_log};
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&eh, &err);
    if (e == NULL)
        fail_msg("create: %s", err);
    struct sandbox_run_limits l = {20000, 256u << 20, 256};
    sandbox_engine_start(e, code, len, NULL, &l);
    while (sandbox_engine_state(e) == SANDBOX_RUNNING) {
        int64_t t = sandbox_engine_next_timer(e);
        if (t < 0) {
            sandbox_engine_abort(e, "Error", "stalled");
            break;
        }
        int64_t now = sandbox_engine_now_ms();
        if (t > now)
            usleep((useconds_t) (t - now) * 1000);
        sandbox_engine_run_timers(e);
    }
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 16u << 20, &out);
    sandbox_engine_destroy(e);
    buf_free(&scratch);
    return buf_steal(&out);
}

static char *run_str(const char *code, struct buf *logs)
{
    return run_program(code, strlen(code), logs);
}

static int read_file(const char *path, struct buf *out)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(out, chunk, n);
    fclose(f);
    return 0;
}

/* --- Node-recorded programs ----------------------------------------------- */

static cJSON *parse_file(const char *path)
{
    struct buf text;
    buf_init(&text, 0);
    if (read_file(path, &text) < 0)
        fail_msg("cannot read %s (run the tests from the repository root)", path);
    cJSON *j = cJSON_Parse(text.data);
    if (j == NULL)
        fail_msg("%s is not JSON", path);
    buf_free(&text);
    return j;
}

/* Runs tests/lib/<name>.js after _harness.js; returns the outcome's value. */
static cJSON *run_lib_program(const char *name)
{
    char path[256];
    struct buf code;
    buf_init(&code, 0);
    if (read_file(LIB_DIR "_harness.js", &code) < 0)
        fail_msg("cannot read " LIB_DIR "_harness.js (run the tests from the repository root)");
    buf_append_char(&code, '\n');
    snprintf(path, sizeof path, LIB_DIR "%s.js", name);
    if (read_file(path, &code) < 0)
        fail_msg("cannot read %s", path);
    char *outcome = run_program(code.data, code.len, NULL);
    buf_free(&code);
    cJSON *o = cJSON_Parse(outcome);
    if (o == NULL || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "ok")))
        fail_msg("%s did not finish: %s", name, outcome);
    free(outcome);
    cJSON *value = cJSON_DetachItemFromObjectCaseSensitive(o, "value");
    cJSON_Delete(o);
    return value;
}

/* Prints one mismatching case; returns 1 when the case differs. */
static int compare_case(const char *prog, const cJSON *want, const cJSON *got)
{
    if (got != NULL && cJSON_Compare(want, got, 1))
        return 0;
    char *w = cJSON_PrintUnformatted(want);
    char *g = got ? cJSON_PrintUnformatted(got) : NULL;
    print_message("  %s/%s:\n    node:    %s\n    sandbox: %s\n", prog, want->string, w,
                  g ? g : "(missing)");
    free(w);
    free(g);
    return 1;
}

static void test_program(void **state)
{
    const char *name = *state;
    char path[256];
    snprintf(path, sizeof path, LIB_DIR "%s.expected.json", name);
    cJSON *want = parse_file(path);
    cJSON *got = run_lib_program(name);
    int bad = 0, cases = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, want) {
        cases++;
        bad += compare_case(name, c, cJSON_GetObjectItemCaseSensitive(got, c->string));
    }
    int extra = cJSON_GetArraySize(got) - cases;
    cJSON_Delete(want);
    cJSON_Delete(got);
    if (bad || extra)
        fail_msg("%s: %d of %d cases differ from Node, %d unexpected", name, bad, cases, extra);
}

static int setup_program(void **state)
{
    return *state == NULL ? -1 : 0;
}

static int listed(const char *file)
{
    for (size_t i = 0; i < NPROGRAMS; i++) {
        size_t n = strlen(programs[i]);
        if (strncmp(file, programs[i], n) == 0 && strcmp(file + n, ".js") == 0)
            return 1;
    }
    return 0;
}

/* Every program in tests/lib is listed above and has its Node recording. */
static void test_all_listed(void **state)
{
    DIR *d = opendir(LIB_DIR);
    if (d == NULL)
        fail_msg("cannot open " LIB_DIR " (run the tests from the repository root)");
    struct dirent *ent;
    int unlisted = 0;
    while ((ent = readdir(d)) != NULL) {
        size_t n = strlen(ent->d_name);
        if (n < 4 || strcmp(ent->d_name + n - 3, ".js") != 0 || ent->d_name[0] == '_')
            continue;
        if (!listed(ent->d_name)) {
            print_message("  " LIB_DIR "%s is not in programs[]\n", ent->d_name);
            unlisted++;
        }
    }
    closedir(d);
    for (size_t i = 0; i < NPROGRAMS; i++) {
        char path[256];
        snprintf(path, sizeof path, LIB_DIR "%s.expected.json", programs[i]);
        if (access(path, R_OK) != 0) {
            print_message("  %s is missing: run node tests/lib/record.mjs\n", path);
            unlisted++;
        }
    }
    assert_int_equal(unlisted, 0);
}

/* --- Duktape-specific behaviour ----------------------------------------------------- */

#define EXPECT_VALUE(code, value_json)                                                             \
    do {                                                                                           \
        char *o_ = run_str(code, NULL);                                                            \
        assert_string_equal(o_, "{\"ok\":true,\"value\":" value_json "}");                         \
        free(o_);                                                                                  \
    } while (0)

int main(void)
{
    sandbox_limits_stack_init(4u << 20);
    struct CMUnitTest tests[NPROGRAMS + 1];
    for (size_t i = 0; i < NPROGRAMS; i++) {
        tests[i] = (struct CMUnitTest){programs[i], test_program, setup_program, NULL,
                                       (void *) programs[i]};
    }
    tests[NPROGRAMS] = (struct CMUnitTest) cmocka_unit_test(test_all_listed);
    return cmocka_run_group_tests_name("sandbox_prelude_lib", tests, NULL, NULL);
}
