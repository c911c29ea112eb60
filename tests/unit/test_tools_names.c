/* Unit tests for tools/names.c: sanitising, reserved words, collision
 * suffixes independent of list order, did-you-mean, first-dot split. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "tools/names.h"

#include <stdlib.h>
#include <string.h>

static void expect_sanitized(const char *in, const char *want)
{
    char *got = tools_names_sanitize(in);
    assert_string_equal(got, want);
    free(got);
}

static void test_sanitize_separators(void **state)
{
    (void) state;
    expect_sanitized("get-weather", "get_weather");
    expect_sanitized("a.b c", "a_b_c");
    expect_sanitized("get--x", "get__x");
    expect_sanitized("x/y:z@w", "x_y_z_w");
    expect_sanitized("$dollar_1", "$dollar_1");
    expect_sanitized("CamelCase", "CamelCase");
}

static void test_sanitize_edges(void **state)
{
    (void) state;
    expect_sanitized("", "_");
    expect_sanitized(NULL, "_");
    expect_sanitized("2fa", "_2fa");
    expect_sanitized("9", "_9");
    expect_sanitized("caf\xc3\xa9", "caf_"); /* one code point, one '_' */
    expect_sanitized("\xe2\x82\xac"
                     "x",
                     "_x");                    /* euro sign */
    expect_sanitized("\xf0\x9f\x98\x80", "_"); /* 4-byte emoji */
    expect_sanitized("a\xff\xfe"
                     "b",
                     "a__b");      /* ill-formed bytes: one each */
    expect_sanitized("\xc3", "_"); /* truncated sequence */
}

static void test_sanitize_reserved(void **state)
{
    (void) state;
    expect_sanitized("delete", "delete_");
    expect_sanitized("class", "class_");
    expect_sanitized("then", "then_");
    expect_sanitized("constructor", "constructor_");
    expect_sanitized("__proto__", "__proto___");
    expect_sanitized("toString", "toString_");
    expect_sanitized("toJSON", "toJSON_");
    expect_sanitized("prototype", "prototype_");
    expect_sanitized("await", "await_");
    expect_sanitized("let", "let_");
    expect_sanitized("null", "null_");
    /* case matters, as in JavaScript; and sanitising can make a word */
    expect_sanitized("Then", "Then");
    expect_sanitized("Delete", "Delete");
    expect_sanitized("then.", "then_");
}

static void test_reserved_list(void **state)
{
    (void) state;
    static const char *const words[] = {"break",
                                        "case",
                                        "catch",
                                        "continue",
                                        "debugger",
                                        "default",
                                        "delete",
                                        "do",
                                        "else",
                                        "finally",
                                        "for",
                                        "function",
                                        "if",
                                        "in",
                                        "instanceof",
                                        "new",
                                        "return",
                                        "switch",
                                        "this",
                                        "throw",
                                        "try",
                                        "typeof",
                                        "var",
                                        "void",
                                        "while",
                                        "with",
                                        "class",
                                        "const",
                                        "enum",
                                        "export",
                                        "extends",
                                        "import",
                                        "super",
                                        "implements",
                                        "interface",
                                        "let",
                                        "package",
                                        "private",
                                        "protected",
                                        "public",
                                        "static",
                                        "yield",
                                        "null",
                                        "true",
                                        "false",
                                        "await",
                                        "arguments",
                                        "eval",
                                        "__proto__",
                                        "constructor",
                                        "prototype",
                                        "toString",
                                        "toLocaleString",
                                        "valueOf",
                                        "hasOwnProperty",
                                        "isPrototypeOf",
                                        "propertyIsEnumerable",
                                        "__defineGetter__",
                                        "__defineSetter__",
                                        "__lookupGetter__",
                                        "__lookupSetter__",
                                        "then",
                                        "toJSON"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (!tools_names_is_reserved(words[i]))
            fail_msg("not reserved: %s", words[i]);
    }
    assert_false(tools_names_is_reserved("get_weather"));
    assert_false(tools_names_is_reserved(""));
    assert_false(tools_names_is_reserved(NULL));
    assert_false(tools_names_is_reserved("then_"));
    assert_false(tools_names_is_reserved("If"));
}

static void test_is_identifier(void **state)
{
    (void) state;
    assert_true(tools_names_is_identifier("a", 1));
    assert_true(tools_names_is_identifier("_a1$", 4));
    assert_true(tools_names_is_identifier("if", 2)); /* reserved, yet an identifier name */
    assert_false(tools_names_is_identifier("1a", 2));
    assert_false(tools_names_is_identifier("a-b", 3));
    assert_false(tools_names_is_identifier("", 0));
    assert_false(tools_names_is_identifier("caf\xc3\xa9", 5));
    assert_true(tools_names_is_identifier("ab-c", 2)); /* only len bytes count */
}

/* Assigns ids to names[perm[i]] and checks each name gets want[name]. */
static void check_assignment(const char *const *names, const char *const *want, size_t n,
                             const size_t *perm)
{
    const char **list = xcalloc(n, sizeof *list);
    for (size_t i = 0; i < n; i++)
        list[i] = names[perm[i]];
    char **ids = tools_names_assign(list, n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(ids[i], want[perm[i]]) != 0)
            fail_msg("name \"%s\": got %s, want %s", list[i], ids[i], want[perm[i]]);
    tools_names_free(ids, n);
    free(list);
}

/* Heap's algorithm over every order of n <= 8 names. */
static void all_orders(const char *const *names, const char *const *want, size_t n)
{
    size_t perm[8], c[8] = {0};
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    check_assignment(names, want, n, perm);
    size_t i = 0, orders = 1;
    while (i < n) {
        if (c[i] < i) {
            size_t j = i % 2 ? c[i] : 0, t = perm[j];
            perm[j] = perm[i], perm[i] = t;
            check_assignment(names, want, n, perm);
            orders++;
            c[i]++;
            i = 0;
        } else {
            c[i++] = 0;
        }
    }
    size_t fact = 1;
    for (size_t k = 2; k <= n; k++)
        fact *= k;
    assert_int_equal(orders, fact);
}

static void test_assign_collisions_order_independent(void **state)
{
    (void) state;
    /* get_weather is its own sanitised form: it keeps the plain name;
     * get_weather_2 is another name's plain form: suffixes skip it. */
    static const char *const names[] = {"get-weather", "get.weather",   "get weather",
                                        "get_weather", "get_weather_2", "other"};
    static const char *const want[] = {"get_weather_4", "get_weather_5", "get_weather_3",
                                       "get_weather",   "get_weather_2", "other"};
    all_orders(names, want, 6);
}

static void test_assign_without_exact_name(void **state)
{
    (void) state;
    /* no exact form: byte order decides ('-' 0x2d < '.' 0x2e) */
    static const char *const names[] = {"a.b", "a-b", "a b"};
    static const char *const want[] = {"a_b_3", "a_b_2", "a_b"};
    all_orders(names, want, 3);
}

static void test_assign_reserved_and_suffix_clash(void **state)
{
    (void) state;
    /* "then" sanitises to then_, which is also a name of its own */
    static const char *const names[] = {"then", "then_", "then__2", "x"};
    static const char *const want[] = {"then__3", "then_", "then__2", "x"};
    all_orders(names, want, 4);
}

static void test_assign_duplicates_and_empty(void **state)
{
    (void) state;
    const char *names[] = {"a-b", "a-b", "", NULL, "a_b"};
    char **ids = tools_names_assign(names, 5);
    assert_string_equal(ids[0], "a_b_2");
    assert_string_equal(ids[1], "a_b_2");
    assert_string_equal(ids[2], "_");
    assert_string_equal(ids[3], "_");
    assert_string_equal(ids[4], "a_b");
    tools_names_free(ids, 5);
    assert_null(tools_names_assign(NULL, 0));
    tools_names_free(NULL, 0);
}

static void test_assign_many_same_base(void **state)
{
    (void) state;
    /* 300 distinct names that all sanitise to "x__" (ill-formed bytes) */
    enum { N = 300 };
    char *storage[N];
    const char *names[N];
    for (size_t i = 0; i < N; i++) {
        storage[i] = xmalloc(4);
        storage[i][0] = 'x';
        storage[i][1] = (char) (0x80 + i % 64);
        storage[i][2] = (char) (0x80 + i / 64);
        storage[i][3] = '\0';
        names[i] = storage[i];
    }
    char **ids = tools_names_assign(names, N);
    for (size_t i = 0; i < N; i++)
        for (size_t j = i + 1; j < N; j++)
            if (strcmp(ids[i], ids[j]) == 0)
                fail_msg("duplicate id %s for %zu and %zu", ids[i], i, j);
    tools_names_free(ids, N);
    for (size_t i = 0; i < N; i++)
        free(storage[i]);
}

static const char *const candidates[] = {"github.create_issue",
                                         "github.list_issues",
                                         "github.get_issue",
                                         "github.create_pull_request",
                                         "weather.get_forecast",
                                         "memory.read_graph",
                                         NULL,
                                         "weather.get-alerts"};
#define NCAND (sizeof candidates / sizeof candidates[0])

static void test_suggest_typo(void **state)
{
    (void) state;
    size_t out[3];
    size_t n = tools_names_suggest("github.create_isue", candidates, NCAND, out, 3);
    assert_true(n >= 1);
    assert_string_equal(candidates[out[0]], "github.create_issue");
}

static void test_suggest_case_separators_transposition(void **state)
{
    (void) state;
    size_t out[3];
    assert_int_equal(tools_names_suggest("GitHub.Create-Issue", candidates, NCAND, out, 1), 1);
    assert_string_equal(candidates[out[0]], "github.create_issue");
    assert_int_equal(tools_names_suggest("weather.get_alerts", candidates, NCAND, out, 1), 1);
    assert_string_equal(candidates[out[0]], "weather.get-alerts");
    assert_int_equal(tools_names_suggest("memory.raed_graph", candidates, NCAND, out, 1), 1);
    assert_string_equal(candidates[out[0]], "memory.read_graph");
}

static void test_suggest_substring_and_none(void **state)
{
    (void) state;
    size_t out[8];
    size_t n = tools_names_suggest("issue", candidates, NCAND, out, 8);
    assert_int_equal(n, 3); /* create_issue, get_issue, list_issues: by distance */
    assert_string_equal(candidates[out[0]], "github.get_issue");
    assert_int_equal(tools_names_suggest("zzzzzz", candidates, NCAND, out, 8), 0);
    assert_int_equal(tools_names_suggest("is", candidates, NCAND, out, 8), 0); /* too short */
    assert_int_equal(tools_names_suggest("x", candidates, NCAND, out, 0), 0);
    assert_int_equal(tools_names_suggest(NULL, candidates, NCAND, out, 8), 0);
}

static void test_suggest_order_is_deterministic(void **state)
{
    (void) state;
    static const char *const c1[] = {"tool_b", "tool_a", "tool_c"};
    size_t out[3];
    assert_int_equal(tools_names_suggest("tool_x", c1, 3, out, 3), 3);
    /* all at distance 1: byte order */
    assert_string_equal(c1[out[0]], "tool_a");
    assert_string_equal(c1[out[1]], "tool_b");
    assert_string_equal(c1[out[2]], "tool_c");
}

static void test_append_suggestions(void **state)
{
    (void) state;
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, "Unknown tool \"github.create_isue\".");
    assert_int_equal(tools_names_append_suggestions(&b, "github.create_isue", candidates, NCAND, 1),
                     0);
    assert_string_equal(b.data,
                        "Unknown tool \"github.create_isue\". Did you mean: github.create_issue?");
    size_t len = b.len;
    assert_int_equal(tools_names_append_suggestions(&b, "qqqqqq", candidates, NCAND, 3), 0);
    assert_int_equal(b.len, len);
    buf_free(&b);

    buf_init(&b, 10); /* too small: unchanged, -1 */
    buf_append_str(&b, "x");
    assert_int_equal(tools_names_append_suggestions(&b, "github.get_isue", candidates, NCAND, 2),
                     -1);
    assert_string_equal(b.data, "x");
    buf_free(&b);
}

static void test_split(void **state)
{
    (void) state;
    size_t n = 99;
    const char *tool = tools_names_split("github.create.issue", &n);
    assert_non_null(tool);
    assert_int_equal(n, 6);
    assert_string_equal(tool, "create.issue");
    assert_null(tools_names_split("nodot", &n));
    assert_null(tools_names_split(NULL, &n));
    tool = tools_names_split(".x", &n);
    assert_int_equal(n, 0);
    assert_string_equal(tool, "x");
    tool = tools_names_split("s.", &n);
    assert_int_equal(n, 1);
    assert_string_equal(tool, "");
    assert_string_equal(tools_names_split("a.b", NULL), "b");
}

int main(void)
{
    alloc_install_cjson_hooks();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sanitize_separators),
        cmocka_unit_test(test_sanitize_edges),
        cmocka_unit_test(test_sanitize_reserved),
        cmocka_unit_test(test_reserved_list),
        cmocka_unit_test(test_is_identifier),
        cmocka_unit_test(test_assign_collisions_order_independent),
        cmocka_unit_test(test_assign_without_exact_name),
        cmocka_unit_test(test_assign_reserved_and_suffix_clash),
        cmocka_unit_test(test_assign_duplicates_and_empty),
        cmocka_unit_test(test_assign_many_same_base),
        cmocka_unit_test(test_suggest_typo),
        cmocka_unit_test(test_suggest_case_separators_transposition),
        cmocka_unit_test(test_suggest_substring_and_none),
        cmocka_unit_test(test_suggest_order_is_deterministic),
        cmocka_unit_test(test_append_suggestions),
        cmocka_unit_test(test_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
