/* Unit tests for tools/result_shape.c: learning a result's type from
 * results (merging, optional keys, unions, arrays), the bounds (depth,
 * keys, data-like keys, bytes, nodes visited), the canonical JSON and its
 * checked reading, the JSON Schema, determinism, and that no value of a
 * result is ever kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "tools/result_shape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Observes each JSON text in turn; returns the shape. */
static struct tools_shape *learn(const char *const *results, size_t n)
{
    struct tools_shape *s = tools_shape_new();
    for (size_t i = 0; i < n; i++) {
        cJSON *v = cJSON_Parse(results[i]);
        assert_non_null(v);
        assert_true(tools_shape_observe(s, v) >= 0);
        cJSON_Delete(v);
    }
    return s;
}

static void expect_json(const struct tools_shape *s, const char *want)
{
    char *got = tools_shape_to_json(s);
    assert_string_equal(got, want);
    free(got);
}

static void expect_schema(const struct tools_shape *s, const char *want)
{
    cJSON *schema = tools_shape_schema(s);
    char *got = json_print(schema);
    assert_string_equal(got, want);
    free(got);
    cJSON_Delete(schema);
}

static int observe_text(struct tools_shape *s, const char *text)
{
    cJSON *v = cJSON_Parse(text);
    assert_non_null(v);
    int rc = tools_shape_observe(s, v);
    cJSON_Delete(v);
    return rc;
}

static void test_one_object(void **state)
{
    (void) state;
    const char *r[] = {"{\"name\":\"Ada\",\"age\":36,\"admin\":true,\"boss\":null}"};
    struct tools_shape *s = learn(r, 1);
    expect_json(s, "{\"t\":\"o\",\"p\":{\"admin\":{\"t\":\"b\"},\"age\":{\"t\":\"d\"},"
                   "\"boss\":{\"t\":\"n\"},\"name\":{\"t\":\"s\"}}}");
    expect_schema(s, "{\"type\":\"object\",\"properties\":{\"admin\":{\"type\":\"boolean\"},"
                     "\"age\":{\"type\":\"number\"},\"boss\":{\"type\":\"null\"},\"name\":{"
                     "\"type\":\"string\"}},\"required\":[\"admin\",\"age\",\"boss\",\"name\"]}");
    tools_shape_free(s);
}

static void test_merge_optional_keys_and_unions(void **state)
{
    (void) state;
    const char *r[] = {"{\"id\":1,\"tag\":\"a\"}", "{\"id\":\"x\",\"note\":null}"};
    struct tools_shape *s = learn(r, 2);
    /* id in both (number | string), tag and note optional */
    expect_json(s, "{\"t\":\"o\",\"p\":{\"id\":{\"t\":\"ds\"},\"note\":{\"t\":\"n\",\"?\":1},"
                   "\"tag\":{\"t\":\"s\",\"?\":1}}}");
    expect_schema(
        s, "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":[\"number\",\"string\"]},"
           "\"note\":{\"type\":\"null\"},\"tag\":{\"type\":\"string\"}},\"required\":[\"id\"]}");
    tools_shape_free(s);
}

static void test_observe_reports_changes(void **state)
{
    (void) state;
    struct tools_shape *s = tools_shape_new();
    assert_true(tools_shape_empty(s));
    assert_int_equal(observe_text(s, "{\"a\":1}"), 1);
    assert_false(tools_shape_empty(s));
    assert_int_equal(observe_text(s, "{\"a\":2}"), 0);             /* the same type: no change */
    assert_int_equal(observe_text(s, "{\"a\":3,\"b\":\"x\"}"), 1); /* b appears (optional) */
    assert_int_equal(observe_text(s, "{\"a\":4,\"b\":\"y\"}"), 0);
    assert_int_equal(observe_text(s, "{\"b\":\"z\"}"), 1); /* a becomes optional */
    assert_int_equal(observe_text(s, "{}"), 0);
    /* the fast path counts a repeated key once: a required key is still missing */
    struct tools_shape *two = tools_shape_new();
    observe_text(two, "{\"a\":1,\"b\":2}");
    cJSON *dup = cJSON_Parse("{\"a\":1,\"a\":2}");
    assert_false(tools_shape_covers(two, dup));
    assert_int_equal(tools_shape_observe(two, dup), 1);
    assert_true(tools_shape_covers(two, dup));
    cJSON_Delete(dup);
    tools_shape_free(two);
    assert_int_equal(observe_text(s, "\"text\""), 1); /* object | string */
    expect_schema(s, "{\"anyOf\":[{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"},"
                     "\"b\":{\"type\":\"string\"}}},{\"type\":\"string\"}]}");
    tools_shape_free(s);
}

static void test_arrays_merge_elements(void **state)
{
    (void) state;
    const char *r[] = {"[]", "{\"items\":[]}", "{\"items\":[{\"k\":1},{\"k\":2,\"v\":[true]}]}"};
    struct tools_shape *s = learn(r, 1);
    expect_json(s, "{\"t\":\"a\"}");
    expect_schema(s, "{\"type\":\"array\"}");
    tools_shape_free(s);
    s = learn(r + 1, 2);
    expect_json(s, "{\"t\":\"o\",\"p\":{\"items\":{\"t\":\"a\",\"i\":{\"t\":\"o\",\"p\":{\"k\":{"
                   "\"t\":\"d\"},\"v\":{\"t\":\"a\",\"?\":1,\"i\":{\"t\":\"b\"}}}}}}}");
    expect_schema(s,
                  "{\"type\":\"object\",\"properties\":{\"items\":{\"type\":\"array\",\"items\":{"
                  "\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"number\"},\"v\":{"
                  "\"type\":\"array\",\"items\":{\"type\":\"boolean\"}}},\"required\":[\"k\"]}}},"
                  "\"required\":[\"items\"]}");
    tools_shape_free(s);
    /* an array of mixed elements: one union; arrays and objects together: anyOf */
    const char *m[] = {"[1,\"a\",null]", "{\"x\":1}"};
    s = learn(m, 2);
    expect_schema(
        s, "{\"anyOf\":[{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"number\"}},"
           "\"required\":[\"x\"]},{\"type\":\"array\",\"items\":{\"type\":[\"null\",\"number\","
           "\"string\"]}}]}");
    tools_shape_free(s);
}

static void test_merge_is_order_independent(void **state)
{
    (void) state;
    const char *r[] = {"{\"a\":1,\"b\":[1]}", "{\"a\":\"s\",\"c\":{\"d\":null}}", "[{\"e\":1}]",
                       "{\"b\":[],\"c\":{\"d\":true,\"f\":2}}", "null"};
    const char *rev[] = {r[4], r[3], r[2], r[1], r[0]};
    struct tools_shape *x = learn(r, 5), *y = learn(rev, 5);
    assert_true(tools_shape_equal(x, y));
    /* merging two learned halves gives the same as learning all */
    struct tools_shape *h1 = learn(r, 2), *h2 = learn(r + 2, 3);
    assert_int_equal(tools_shape_merge(h1, h2), 1);
    assert_true(tools_shape_equal(h1, x));
    assert_int_equal(tools_shape_merge(h1, h2), 0);
    assert_int_equal(tools_shape_merge(h1, x), 0);
    tools_shape_free(h1);
    tools_shape_free(h2);
    tools_shape_free(x);
    tools_shape_free(y);
}

static void test_depth_bound(void **state)
{
    (void) state;
    struct buf b;
    buf_init(&b, 0);
    for (int i = 0; i < 20; i++)
        buf_append_str(&b, "{\"n\":");
    buf_append_str(&b, "1");
    for (int i = 0; i < 20; i++)
        buf_append_char(&b, '}');
    const char *r[] = {b.data};
    struct tools_shape *s = learn(r, 1);
    char *json = tools_shape_to_json(s);
    /* TOOLS_SHAPE_MAX_DEPTH objects, then unknown */
    size_t objects = 0;
    for (const char *p = json; (p = strstr(p, "\"t\":\"o\"")) != NULL; p++)
        objects++;
    assert_int_equal(objects, TOOLS_SHAPE_MAX_DEPTH);
    assert_non_null(strstr(json, "{\"t\":\"u\"}"));
    free(json);
    /* unknown absorbs: once unknown, later results change nothing there */
    cJSON *schema = tools_shape_schema(s);
    char *text = json_print(schema);
    assert_non_null(strstr(text, "\"n\":{}"));
    free(text);
    cJSON_Delete(schema);
    tools_shape_free(s);
    buf_free(&b);
}

static void test_keys_bound_and_data_keys(void **state)
{
    (void) state;
    struct buf b;
    buf_init(&b, 0);
    buf_append_char(&b, '{');
    for (int i = 0; i <= TOOLS_SHAPE_MAX_KEYS; i++)
        buf_printf(&b, "%s\"key%c%c\":1", i ? "," : "", 'a' + i / 26, 'a' + i % 26);
    buf_append_char(&b, '}');
    const char *r[] = {b.data};
    struct tools_shape *s = learn(r, 1);
    expect_json(s, "{\"t\":\"o\",\"r\":1}");
    expect_schema(s, "{\"type\":\"object\"}"); /* Record<string, unknown> */
    tools_shape_free(s);
    buf_free(&b);
    /* maps keyed by data: ids, numbers, dates, emails, uuids */
    const char *data[] = {"{\"123\":1}",
                          "{\"2024-01-02\":1}",
                          "{\"a@b.example\":1}",
                          "{\"user_12345\":1}",
                          "{\"deadbeef-0042\":1}",
                          "{\"has space\":1}",
                          "{\"\":1}",
                          "{\"a/b\":1}"};
    for (size_t i = 0; i < sizeof data / sizeof data[0]; i++) {
        s = learn(&data[i], 1);
        expect_json(s, "{\"t\":\"o\",\"r\":1}");
        tools_shape_free(s);
    }
    assert_true(tools_shape_key_is_name("userId", 6));
    assert_true(tools_shape_key_is_name("@type", 5));
    assert_true(tools_shape_key_is_name("x-total-count", 13));
    assert_true(tools_shape_key_is_name("line2", 5));
    /* keys merged across results past the bound: the object gives up its keys */
    s = tools_shape_new();
    for (int i = 0; i <= TOOLS_SHAPE_MAX_KEYS; i++) {
        char text[64];
        snprintf(text, sizeof text, "{\"k%c%c\":1}", 'a' + i / 26, 'a' + i % 26);
        observe_text(s, text);
    }
    expect_json(s, "{\"t\":\"o\",\"r\":1}");
    assert_int_equal(observe_text(s, "{\"other\":true}"), 0);
    tools_shape_free(s);
}

static void test_byte_bound(void **state)
{
    (void) state;
    /* 40 keys of 40 bytes, each an object of 40 such keys: far over the byte bound */
    struct buf b;
    buf_init(&b, 0);
    buf_append_char(&b, '{');
    for (int i = 0; i < 40; i++) {
        buf_printf(&b, "%s\"outer_property_name_that_is_long_%c%c\":{", i ? "," : "", 'a' + i / 26,
                   'a' + i % 26);
        for (int j = 0; j < 40; j++)
            buf_printf(&b, "%s\"inner_property_name_that_is_long_%c%c\":[1]", j ? "," : "",
                       'a' + j / 26, 'a' + j % 26);
        buf_append_char(&b, '}');
    }
    buf_append_char(&b, '}');
    const char *r[] = {b.data};
    struct tools_shape *s = learn(r, 1);
    char *json = tools_shape_to_json(s);
    assert_true(strlen(json) <= TOOLS_SHAPE_MAX_BYTES);
    assert_non_null(strstr(json, "\"outer_property_name_that_is_long_aa\":{\"t\":\"u\"}"));
    free(json);
    tools_shape_free(s);
    buf_free(&b);
}

static void test_node_budget(void **state)
{
    (void) state;
    /* 24 sampled elements of 24 sampled elements of 24 keys: over the node budget */
    struct buf b;
    buf_init(&b, 0);
    buf_append_char(&b, '[');
    for (int i = 0; i < 30; i++) {
        buf_append_str(&b, i ? ",[" : "[");
        for (int j = 0; j < 30; j++) {
            buf_append_str(&b, j ? ",{" : "{");
            for (int k = 0; k < 24; k++)
                buf_printf(&b, "%s\"k%c\":%d", k ? "," : "", 'a' + k, k);
            buf_append_char(&b, '}');
        }
        buf_append_char(&b, ']');
    }
    buf_append_char(&b, ']');
    struct tools_shape *s = tools_shape_new();
    observe_text(s, "{\"a\":1}");
    assert_int_equal(observe_text(s, b.data), -1);
    expect_json(s, "{\"t\":\"o\",\"p\":{\"a\":{\"t\":\"d\"}}}"); /* left as it was */
    tools_shape_free(s);
    buf_free(&b);
    /* long arrays are sampled: a million elements cost TOOLS_SHAPE_SAMPLE */
    cJSON *big = cJSON_CreateArray();
    for (int i = 0; i < 100000; i++)
        cJSON_AddItemToArray(big, cJSON_CreateNumber(i));
    s = tools_shape_new();
    assert_int_equal(tools_shape_observe(s, big), 1);
    expect_json(s, "{\"t\":\"a\",\"i\":{\"t\":\"d\"}}");
    cJSON_Delete(big);
    tools_shape_free(s);
}

static void test_json_round_trip_and_checks(void **state)
{
    (void) state;
    const char *r[] = {"{\"a\":[{\"b\":null}],\"s\":\"x\",\"m\":{\"1\":2}}", "{\"a\":[],\"t\":[]}"};
    struct tools_shape *s = learn(r, 2);
    char *json = tools_shape_to_json(s);
    struct tools_shape *back = tools_shape_from_json(json);
    assert_non_null(back);
    char *again = tools_shape_to_json(back);
    assert_string_equal(json, again);
    free(again);
    free(json);
    tools_shape_free(back);
    tools_shape_free(s);
    /* rows that are not shapes are refused */
    const char *bad[] = {
        NULL,
        "",
        "[]",
        "{}",
        "{\"t\":\"x\"}",
        "{\"t\":\"ss\"}",
        "{\"t\":\"us\"}",
        "{\"t\":\"s\",\"p\":{}}",
        "{\"t\":\"o\"}",
        "{\"t\":\"o\",\"r\":1,\"p\":{}}",
        "{\"t\":\"o\",\"p\":{\"a\":{\"t\":\"\"}}}",
        "{\"t\":\"o\",\"p\":{\"a b\":{\"t\":\"s\"}}}",
        "{\"t\":\"o\",\"p\":{\"a\":{\"t\":\"s\",\"?\":2}}}",
        "{\"t\":\"o\",\"p\":{\"a\":{\"t\":\"s\"},\"a\":{\"t\":\"d\"}}}",
        "{\"t\":\"s\",\"i\":{\"t\":\"s\"}}",
        "{\"t\":\"s\",\"?\":1}",
        "{\"t\":\"s\",\"v\":\"a value\"}",
        "{\"t\":\"a\",\"i\":{\"t\":\"a\",\"i\":{\"t\":\"a\",\"i\":{\"t\":\"a\",\"i\":{\"t\":\"a\","
        "\"i\":{"
        "\"t\":\"a\",\"i\":{\"t\":\"a\"}}}}}}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tools_shape *x = tools_shape_from_json(bad[i]);
        if (x)
            fail_msg("accepted: %s", bad[i]);
    }
    struct tools_shape *empty = tools_shape_from_json("{\"t\":\"\"}");
    assert_non_null(empty);
    assert_true(tools_shape_empty(empty));
    assert_null(tools_shape_schema(empty));
    tools_shape_free(empty);
}

/* Every string, number and boolean of the results is absent from what is
 * kept and from the schema; property names are there. */
static void test_no_values_kept(void **state)
{
    (void) state;
    const char *r[] = {
        "{\"secret\":\"hunter2-password\",\"n\":918273645,\"list\":[\"alpha-value\",31415],"
        "\"flag\":false,\"nested\":{\"token\":\"sk-live-abcdef\"},\"byId\":{\"u-778899\":\"x\"}}",
        "\"a-plain-text-result\"",
        "[{\"kind\":\"enum-like-value\"}]",
    };
    struct tools_shape *s = learn(r, 3);
    char *json = tools_shape_to_json(s);
    cJSON *schema = tools_shape_schema(s);
    char *st = json_print(schema);
    const char *values[] = {"hunter2", "918273645", "alpha-value",  "31415",    "false",
                            "sk-live", "u-778899",  "a-plain-text", "enum-like"};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        if (strstr(json, values[i]) || strstr(st, values[i]))
            fail_msg("value %s kept: %s / %s", values[i], json, st);
    }
    assert_non_null(strstr(json, "\"secret\""));
    assert_non_null(strstr(st, "\"token\""));
    assert_non_null(strstr(st, "\"kind\""));
    free(st);
    cJSON_Delete(schema);
    free(json);
    tools_shape_free(s);
}

static void test_scalars_and_unknown(void **state)
{
    (void) state;
    const char *r[] = {"\"hello\"", "null"};
    struct tools_shape *s = learn(r, 2);
    expect_schema(s, "{\"type\":[\"null\",\"string\"]}");
    tools_shape_free(s);
    s = tools_shape_new();
    cJSON *raw = cJSON_CreateRaw("1");
    assert_int_equal(tools_shape_observe(s, raw), 1);
    cJSON_Delete(raw);
    expect_json(s, "{\"t\":\"u\"}");
    expect_schema(s, "{}");
    assert_int_equal(observe_text(s, "{\"a\":1}"), 0); /* unknown stays unknown */
    tools_shape_free(s);
}

int main(void)
{
    alloc_install_cjson_hooks();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_object),
        cmocka_unit_test(test_merge_optional_keys_and_unions),
        cmocka_unit_test(test_observe_reports_changes),
        cmocka_unit_test(test_arrays_merge_elements),
        cmocka_unit_test(test_merge_is_order_independent),
        cmocka_unit_test(test_depth_bound),
        cmocka_unit_test(test_keys_bound_and_data_keys),
        cmocka_unit_test(test_byte_bound),
        cmocka_unit_test(test_node_budget),
        cmocka_unit_test(test_json_round_trip_and_checks),
        cmocka_unit_test(test_no_values_kept),
        cmocka_unit_test(test_scalars_and_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
