/* Unit tests of the prelude's ES2015+ library (sandbox/prelude/7x_*.js and
 * the modules of sandbox/prelude/lazy/: Intl, URL): the programs in
 * tests/prelude run in-process through sandbox/worker/engine.h and every case of their
 * result must equal what Node recorded (tests/prelude/record.mjs); then the
 * Duktape-specific parts Node cannot record: error line numbers, stack
 * traces, console formatting, hooks the lowering relies on, loading on first
 * use, memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "common/buf.h"
#include "sandbox/worker/engine.h"
#include "sandbox/worker/limits.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIB_DIR "tests/prelude/"

/* The Node-recorded programs, one cmocka test each; test_all_listed checks
 * that no program in tests/prelude is missing here. */
static const char *const programs[] = {
    "map",    "set",    "collections_live", "weak",        "iterators", "array_from", "array_methods", "sort",
    "object", "string", "number_math", "errors",    "clone",      "groupby",       "typed",
    "normalize", "spread_keys", "json_parse", "property_reads",
    "property_writes", "base64", "intl_number", "intl_date", "intl_collator", "intl_plural_relative_list", "intl_parts", "url", "number_text", "lib_natives", "regexp_text",
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

/* Runs tests/prelude/<name>.js after _harness.js; returns the outcome's value. */
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
    cJSON_ArrayForEach(c, want)
    {
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

/* Every program in tests/prelude is listed above and has its Node recording. */
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
            print_message("  %s is missing: run node tests/prelude/record.mjs\n", path);
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

/* new Error() goes through a wrapper (for `cause`) that has no file name:
 * the error still names the program's line. */
static void test_error_line_is_programs(void **state)
{
    EXPECT_VALUE("var a = 1;\nvar e = new Error('x', {cause: 1});\nvar t = TypeError('y');\n"
                 "return [e.lineNumber, e.fileName, t.lineNumber];",
                 "[2,\"program.js\",3]");
    char *o = run_str("var a = 1;\nthrow new RangeError('r', {cause: 'c'});", NULL);
    assert_non_null(strstr(o, "\"name\":\"RangeError\",\"message\":\"r\",\"line\":2"));
    free(o);
}

/* An error raised inside the library blames the program's call, like a native. */
static void test_library_error_line(void **state)
{
    EXPECT_VALUE("var x;\ntry {\n  new Map([1]);\n} catch (e) { x = e; }\n"
                 "return [x.name, x.lineNumber, x.fileName];",
                 "[\"TypeError\",3,\"program.js\"]");
    char *o = run_str("var a = 1;\nvar b = [1, 2];\nArray.from(null);", NULL);
    assert_non_null(strstr(o, "\"name\":\"TypeError\""));
    assert_non_null(strstr(o, "\"line\":3"));
    free(o);
}

/* Stack traces show the program's frames, not the runtime's. */
static void test_stack_hides_runtime_frames(void **state)
{
    char *o = run_str("function f() { var r = Array.from(null); return r; }\n"
                      "try { [1].map(function () { var r = f(); return r; }); }\n"
                      "catch (e) { return e.stack; }",
                      NULL);
    assert_non_null(strstr(o, "TypeError: "));
    assert_non_null(strstr(o, "(program.js:1)"));
    assert_non_null(strstr(o, "(program.js:2)"));
    assert_null(strstr(o, "prelude.js"));
    assert_null(strstr(o, "(:"));
    free(o);
}

static void test_console_formats_collections(void **state)
{
    struct buf logs;
    buf_init(&logs, 0);
    char *o = run_str("var m = new Map([['a', 1], ['b', {x: [1]}]]);\n"
                      "var nested = new Map([[new Set([1]), new Map()]]);\n"
                      "var self = new Set(); self.add(self);\n"
                      "var big = new Set(); for (var i = 0; i < 102; i++) big.add(i);\n"
                      "console.log(m, new Set([1, 'x', null, undefined]));\n"
                      "console.log(nested, self);\n"
                      "console.log(String(big).length, big);",
                      &logs);
    assert_string_equal(o, "{\"ok\":true}");
    const char *want =
        "log:Map(2) {\"a\" => 1, \"b\" => {\"x\":[1]}} Set(4) {1, \"x\", null, "
        "undefined}\nlog:Map(1) {Set(1) {1} => Map(0) {}} Set(1) {[Circular]}\nlog:12 "
        "Set(102) {0, 1, 2, ";
    assert_memory_equal(logs.data, want, strlen(want));
    assert_non_null(strstr(logs.data, ", 99, ... 2 more items}\n"));
    free(o);
    buf_free(&logs);
}

/* The lowering's class helpers run a parent constructor on the new object
 * (Parent.apply(this, args)): the library's constructors must accept that. */
static void test_constructors_apply_to_subclass_instances(void **state)
{
    EXPECT_VALUE("function M() { Map.apply(this, arguments); }\n"
                 "M.prototype = Object.create(Map.prototype);\n"
                 "function S() { Set.call(this, [1, 1, 2]); }\n"
                 "S.prototype = Object.create(Set.prototype);\n"
                 "function E(m) { return Error.call(this, m, {cause: 'c'}); }\n"
                 "E.prototype = Object.create(Error.prototype);\n"
                 "var m = new M([['k', 'v']]), s = new S(), e = new E('boom');\n"
                 "return [m.get('k'), m.size, m instanceof M, s.size, s instanceof S,\n"
                 "        e instanceof E, e.message, e.cause, e.lineNumber];",
                 "[\"v\",1,true,2,true,true,\"boom\",\"c\",5]");
}

/* A program replacing built-ins the library uses does not break it. */
static void test_library_survives_replaced_builtins(void **state)
{
    EXPECT_VALUE(
        "var keep = JSON.stringify;\n"
        "Array.prototype.push = Array.prototype.slice = Array.prototype.splice = null;\n"
        "Array.prototype.join = Array.prototype.indexOf = Array.prototype.forEach = null;\n"
        "Function.prototype.call = Function.prototype.apply = null;\n"
        "Object.keys = Object.defineProperty = Object.create = null;\n"
        "Math.ceil = Math.floor = null; Reflect.apply = null;\n"
        "var m = new Map([[1, 'a'], [{}, 'b']]), s = new Set('abca'), w = new WeakMap();\n"
        "var k = Object.freeze({}); w.set(k, 1); w['delete'](k);\n"
        "return keep([m.get(1), m.size, s.size, Array.from(s), [3, 1, 2].sort(),\n"
        "  ['b', 'a'].toSorted(), Object.entries({a: 1}), 'a-b'.replaceAll('-', '+'),\n"
        "  'x'.padStart(3, 'ab'), [1, [2, [3]]].flat(Infinity), [NaN].includes(NaN),\n"
        "  structuredClone({a: [1, new Map([[1, 2]])]}).a[1].get(1), w.has(k),\n"
        "  (1234.5).toLocaleString('en-US', {style: 'currency', currency: 'EUR'}),\n"
        "  new Date(0).toLocaleString(), ['b', 'a', '\u00e9', 'f'].sort(function (x, y) { return x.localeCompare(y); }),\n"
        "  Date.parse('March 5, 2024'), String(new Date(0)), new URL('https://a.b/c?d=1').searchParams.get('d')]);",
        "\"[\\\"a\\\",2,3,[\\\"a\\\",\\\"b\\\",\\\"c\\\"],[1,2,3],[\\\"a\\\",\\\"b\\\"],"
        "[[\\\"a\\\",1]],\\\"a+b\\\",\\\"abx\\\",[1,2,3],true,2,false,"
        "\\\"\u20ac1,234.50\\\",\\\"1/1/1970, 12:00:00 AM\\\",[\\\"a\\\",\\\"b\\\",\\\"\u00e9\\\",\\\"f\\\"],"
        "1709596800000,\\\"Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)\\\",\\\"1\\\"]\"");
}

/* Intl and URL load on first use (sandbox/prelude/78_lazy.js): a program
 * that sets or replaces them first keeps its own, and one that uses them
 * gets the real ones, the methods included. */
static void test_lazy_modules(void **state)
{
    EXPECT_VALUE("var d = Object.getOwnPropertyDescriptor(globalThis, 'URL');\n"
                 "URL = 5;\n"
                 "Number.prototype.toLocaleString = function () { return 'mine'; };\n"
                 "var before = (1).toLocaleString();\n"
                 "var f = new Intl.NumberFormat('en-US').format(12345);\n"
                 "return JSON.stringify([typeof d.get, URL, before, (2).toLocaleString(), f, typeof Intl,\n"
                 "  new Date(0).toLocaleDateString(), 'b'.localeCompare('a'), typeof URLSearchParams,\n"
                 "  Object.getOwnPropertyDescriptor(globalThis, 'Intl').writable, String.prototype.localeCompare.name,\n"
                 "  String.prototype.localeCompare.length]);",
                 "\"[\\\"function\\\",5,\\\"mine\\\",\\\"mine\\\",\\\"12,345\\\",\\\"object\\\","
                 "\\\"1/1/1970\\\",1,\\\"function\\\",true,\\\"localeCompare\\\",1]\"");
}

/* crypto.randomUUID and getRandomValues: version-4 UUIDs, all different;
 * bytes filled in place; the errors Web Crypto gives. (Random: no Node
 * recording.) */
static void test_crypto_random(void **state)
{
    EXPECT_VALUE("var seen = {}, ok = 0;\n"
                 "for (var i = 0; i < 500; i++) {\n"
                 "  var u = crypto.randomUUID();\n"
                 "  if (/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u) && !seen[u]) ok++;\n"
                 "  seen[u] = 1;\n"
                 "}\n"
                 "var a = new Uint8Array(64), same = crypto.getRandomValues(a) === a, nonzero = 0;\n"
                 "for (var j = 0; j < a.length; j++) if (a[j]) nonzero++;\n"
                 "function err(f) { try { f(); return 'no error'; } catch (e) { return e.name; } }\n"
                 "return JSON.stringify([ok, same, nonzero > 40, crypto.getRandomValues(new Int32Array(0)).length,\n"
                 "  err(function () { crypto.getRandomValues(new Float64Array(2)); }),\n"
                 "  err(function () { crypto.getRandomValues(new Uint8Array(65537)); }),\n"
                 "  err(function () { crypto.getRandomValues([1, 2]); }), String(crypto), typeof crypto.subtle]);",
                 "\"[500,true,true,0,\\\"TypeError\\\",\\\"QuotaExceededError\\\",\\\"TypeError\\\","
                 "\\\"[object Crypto]\\\",\\\"undefined\\\"]\"");
}

/* Stability where Duktape's own sort would reorder equal keys. */
static void test_sort_is_stable_on_large_input(void **state)
{
    EXPECT_VALUE(
        "var a = [];\n"
        "for (var i = 0; i < 20000; i++) a.push({k: (i * 7919) % 13, i: i});\n"
        "a.sort(function (x, y) { return x.k - y.k; });\n"
        "for (var j = 1; j < a.length; j++)\n"
        "  if (a[j - 1].k > a[j].k || (a[j - 1].k === a[j].k && a[j - 1].i > a[j].i)) return j;\n"
        "return 'stable';",
        "\"stable\"");
}

/* The template heap stays lean: the prelude's memory after creation. */
static void test_prelude_memory(void **state)
{
    struct sandbox_engine_host eh = {NULL, host_call, host_log};
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&eh, &err);
    assert_non_null(e);
    size_t peak = sandbox_engine_mem_peak(e);
    print_message("  prelude heap peak after creation: %zu bytes\n", peak);
    assert_true(peak < (1u << 20));
    sandbox_engine_destroy(e);
}

int main(void)
{
    sandbox_limits_stack_init(4u << 20);
    const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_all_listed),
        cmocka_unit_test(test_error_line_is_programs),
        cmocka_unit_test(test_library_error_line),
        cmocka_unit_test(test_stack_hides_runtime_frames),
        cmocka_unit_test(test_console_formats_collections),
        cmocka_unit_test(test_constructors_apply_to_subclass_instances),
        cmocka_unit_test(test_library_survives_replaced_builtins),
        cmocka_unit_test(test_lazy_modules),
        cmocka_unit_test(test_crypto_random),
        cmocka_unit_test(test_sort_is_stable_on_large_input),
        cmocka_unit_test(test_prelude_memory),
    };
    size_t nfixed = sizeof fixed / sizeof fixed[0];
    struct CMUnitTest tests[NPROGRAMS + sizeof fixed / sizeof fixed[0]];
    for (size_t i = 0; i < NPROGRAMS; i++) {
        tests[i] = (struct CMUnitTest){programs[i], test_program, setup_program, NULL,
                                       (void *) programs[i]};
    }
    for (size_t i = 0; i < nfixed; i++)
        tests[NPROGRAMS + i] = fixed[i];
    return cmocka_run_group_tests_name("sandbox_prelude_lib", tests, NULL, NULL);
}
