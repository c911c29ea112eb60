/* tools/schema/schema.h beyond the official suite: the error texts and instance
 * paths a model reads, dialect selection, bounded recursion (schema loops,
 * 100000-deep instances), invalid schemas, multipleOf on doubles, lengths
 * in code points, the error cap, offline references, and the speed of a
 * typical tool-call validation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tools/schema/schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void);

static struct tools_schema *compile_text(const char *text)
{
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    char *err = NULL;
    struct tools_schema *s = tools_schema_compile(doc, &err);
    if (s == NULL)
        printf("compile failed: %s\n", err);
    free(err);
    cJSON_Delete(doc); /* the schema keeps its own copy */
    assert_non_null(s);
    return s;
}

/* Validates instance text; returns the verdict and the formatted errors
 * (caller frees) in *text. Also checks both modes agree. */
static int validate_text(const struct tools_schema *s, const char *instance, char **text)
{
    cJSON *inst = cJSON_Parse(instance);
    assert_non_null(inst);
    struct tools_schema_result r;
    int quick = tools_schema_validate(s, inst, NULL);
    int full = tools_schema_validate(s, inst, &r);
    assert_int_equal(quick, full);
    assert_int_equal(full, r.count == 0);
    if (text)
        *text = tools_schema_result_format(&r);
    tools_schema_result_free(&r);
    cJSON_Delete(inst);
    return full;
}

static void expect_errors(const char *schema, const char *instance, const char *want)
{
    struct tools_schema *s = compile_text(schema);
    char *got = NULL;
    assert_int_equal(validate_text(s, instance, &got), 0);
    if (strcmp(got, want) != 0)
        printf("want:\n%sgot:\n%s", want, got);
    assert_string_equal(got, want);
    free(got);
    tools_schema_free(s);
}

static int verdict(const char *schema, const char *instance)
{
    struct tools_schema *s = compile_text(schema);
    int v = validate_text(s, instance, NULL);
    tools_schema_free(s);
    return v;
}

static void test_error_texts(void **state)
{
    (void) state;
    expect_errors(
        "{\"type\":\"object\",\"properties\":{"
        "\"user\":{\"type\":\"object\",\"properties\":{\"age\":{\"type\":\"integer\"}}},"
        "\"path\":{\"type\":\"string\"},"
        "\"items\":{\"type\":\"array\",\"items\":{\"enum\":[\"asc\",\"desc\"]}},"
        "\"name\":{\"type\":\"string\",\"maxLength\":64}},"
        "\"required\":[\"path\"],\"additionalProperties\":false}",
        "{\"user\":{\"age\":\"12\"},\"items\":[\"asc\",\"desc\",\"asc\",\"up\"],"
        "\"name\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\","
        "\"colour\":1}",
        "- /user/age: expected integer, got string \"12\" [type]\n"
        "- /items/3: must be one of \"asc\", \"desc\" (got \"up\") [enum]\n"
        "- /name: must be at most 64 characters (got 71) [maxLength]\n"
        "- (root): property \"colour\" is not allowed (allowed: \"items\", \"name\", "
        "\"path\", \"user\") [additionalProperties]\n"
        "- (root): missing required property \"path\" [required]\n");
    expect_errors("{\"minimum\":1,\"maximum\":10,\"multipleOf\":2}", "11",
                  "- (root): must be <= 10 (got 11) [maximum]\n"
                  "- (root): must be a multiple of 2 (got 11) [multipleOf]\n");
    expect_errors("{\"exclusiveMinimum\":0}", "0",
                  "- (root): must be > 0 (got 0) [exclusiveMinimum]\n");
    expect_errors("{\"type\":[\"string\",\"null\"]}", "1.5",
                  "- (root): expected string or null, got number 1.5 [type]\n");
    expect_errors("{\"const\":\"x\"}", "{\"a\":[1,2]}",
                  "- (root): must be \"x\" (got {\"a\":[1,2]}) [const]\n");
    expect_errors("{\"pattern\":\"^[a-z]+$\"}", "\"ABC\"",
                  "- (root): must match the pattern \"^[a-z]+$\" (got \"ABC\") [pattern]\n");
    expect_errors("{\"minItems\":2,\"uniqueItems\":true}", "[1]",
                  "- (root): must have at least 2 items (got 1) [minItems]\n");
    expect_errors("{\"uniqueItems\":true}", "[1,2,1.0]",
                  "- (root): items must be unique (items 0 and 2 are equal) [uniqueItems]\n");
    expect_errors("{\"prefixItems\":[{}],\"items\":false}", "[1,2,3]",
                  "- (root): must have at most 1 items (got 3) [items]\n");
    expect_errors(
        "{\"contains\":{\"type\":\"string\"}}", "[1,2]",
        "- (root): must contain at least 1 item matching the \"contains\" schema (found 0) "
        "[contains]\n");
    expect_errors(
        "{\"dependentRequired\":{\"a\":[\"b\"]}}", "{\"a\":1}",
        "- (root): property \"b\" is required when \"a\" is present [dependentRequired]\n");
    expect_errors(
        "{\"propertyNames\":{\"maxLength\":3}}", "{\"long\":1}",
        "- (root): property name \"long\": must be at most 3 characters (got 4) [maxLength]\n");
    expect_errors("{\"properties\":{\"a\":false}}", "{\"a\":1}",
                  "- (root): property \"a\" is not allowed [properties]\n");
    expect_errors("{\"not\":{\"type\":\"string\"}}", "\"x\"",
                  "- (root): must not be of type string [not]\n");
    expect_errors("{\"unevaluatedProperties\":false,\"properties\":{\"a\":true}}",
                  "{\"a\":1,\"b\":2}",
                  "- (root): property \"b\" is not allowed here [unevaluatedProperties]\n");
}

static void test_combinator_texts(void **state)
{
    (void) state;
    /* Every alternative only wanted another type: one merged message. */
    expect_errors("{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}", "1.5",
                  "- (root): expected string or integer, got number 1.5 [anyOf]\n");
    /* Otherwise: the closest alternative's errors (the one whose "kind" matched). */
    expect_errors("{\"oneOf\":["
                  "{\"properties\":{\"kind\":{\"const\":\"a\"},\"x\":{\"type\":\"integer\"}},"
                  "\"required\":[\"kind\",\"x\"]},"
                  "{\"properties\":{\"kind\":{\"const\":\"b\"},\"y\":{\"type\":\"string\"}},"
                  "\"required\":[\"kind\",\"y\"]}]}",
                  "{\"kind\":\"b\",\"y\":5}",
                  "- (root): must match exactly one of 2 schemas (matched 0); closest is oneOf[1], "
                  "whose errors follow [oneOf]\n"
                  "- /y: expected string, got integer 5 [type]\n");
    expect_errors("{\"oneOf\":[{\"minimum\":0},{\"maximum\":10}]}", "5",
                  "- (root): must match exactly one of 2 schemas (matched more than one: oneOf[0] "
                  "and oneOf[1]) [oneOf]\n");
    expect_errors("{\"if\":{\"properties\":{\"a\":{\"const\":1}}},\"then\":{\"required\":[\"b\"]}}",
                  "{\"a\":1}", "- (root): missing required property \"b\" [required]\n");
}

static void test_paths_are_json_pointers(void **state)
{
    (void) state;
    expect_errors("{\"properties\":{\"a/b\":{\"properties\":{\"c~d\":{\"type\":\"array\","
                  "\"items\":{\"type\":\"null\"}}}}}}",
                  "{\"a/b\":{\"c~d\":[null,null,true]}}",
                  "- /a~1b/c~0d/2: expected null, got boolean true [type]\n");
    struct tools_schema *s = compile_text("{\"type\":\"string\"}");
    cJSON *inst = cJSON_CreateNumber(3);
    struct tools_schema_result r;
    assert_int_equal(tools_schema_validate(s, inst, &r), 0);
    assert_int_equal(r.count, 1);
    assert_string_equal(r.errors[0].instance_path, "");
    assert_string_equal(r.errors[0].keyword, "type");
    assert_string_equal(r.errors[0].message, "expected string, got integer 3");
    tools_schema_result_free(&r);
    cJSON_Delete(inst);
    tools_schema_free(s);
}

static void test_long_values_are_truncated(void **state)
{
    (void) state;
    char instance[400];
    memset(instance, 'x', sizeof instance);
    instance[0] = '"';
    strcpy(instance + 300, "\"");
    struct tools_schema *s = compile_text("{\"type\":\"integer\"}");
    char *got = NULL;
    validate_text(s, instance, &got);
    assert_string_equal(got, "- (root): expected integer, got string "
                             "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\" [type]\n");
    free(got);
    tools_schema_free(s);
}

static void test_error_cap_and_total(void **state)
{
    (void) state;
    struct tools_schema *s = compile_text("{\"items\":{\"type\":\"string\"}}");
    cJSON *inst = cJSON_CreateArray();
    for (int i = 0; i < 100; i++)
        cJSON_AddItemToArray(inst, cJSON_CreateNumber(i));
    struct tools_schema_result r;
    assert_int_equal(tools_schema_validate(s, inst, &r), 0);
    assert_int_equal(r.count, 32);
    assert_int_equal(r.total, 100);
    char *text = tools_schema_result_format(&r);
    assert_non_null(strstr(text, "- /31: expected string, got integer 31 [type]\n"));
    assert_non_null(strstr(text, "- ... and 68 more\n"));
    free(text);
    tools_schema_result_free(&r);
    cJSON_Delete(inst);
    tools_schema_free(s);
}

static void test_draft_selection(void **state)
{
    (void) state;
    const char *d7 = "\"$schema\":\"http://json-schema.org/draft-07/schema#\"";
    const char *d20 = "\"$schema\":\"https://json-schema.org/draft/2020-12/schema\"";
    char text[512];
    /* prefixItems is a 2020-12 keyword: ignored in draft-07. */
    snprintf(text, sizeof text, "{%s,\"prefixItems\":[{\"type\":\"integer\"}]}", d7);
    assert_int_equal(verdict(text, "[\"x\"]"), 1);
    snprintf(text, sizeof text, "{%s,\"prefixItems\":[{\"type\":\"integer\"}]}", d20);
    assert_int_equal(verdict(text, "[\"x\"]"), 0);
    assert_int_equal(verdict("{\"prefixItems\":[{\"type\":\"integer\"}]}", "[\"x\"]"), 0);
    /* draft-07: $ref makes its siblings ignored; 2020-12 applies both. */
    snprintf(text, sizeof text,
             "{%s,\"definitions\":{\"a\":{\"type\":\"integer\"}},"
             "\"$ref\":\"#/definitions/a\",\"maximum\":5}",
             d7);
    assert_int_equal(verdict(text, "10"), 1);
    assert_int_equal(verdict(text, "\"x\""), 0);
    assert_int_equal(verdict("{\"$defs\":{\"a\":{\"type\":\"integer\"}},\"$ref\":\"#/$defs/a\","
                             "\"maximum\":5}",
                             "10"),
                     0);
    /* draft-07 array-form items with additionalItems. */
    snprintf(text, sizeof text, "{%s,\"items\":[{\"type\":\"integer\"}],\"additionalItems\":false}",
             d7);
    assert_int_equal(verdict(text, "[1]"), 1);
    assert_int_equal(verdict(text, "[1,2]"), 0);
    /* The default dialect for documents without $schema; $schema still wins. */
    cJSON *doc = cJSON_Parse("{\"prefixItems\":[{\"type\":\"integer\"}]}");
    struct tools_schema *s = tools_schema_compile_draft(doc, TOOLS_SCHEMA_DRAFT_07, NULL);
    cJSON *inst = cJSON_Parse("[\"x\"]");
    assert_int_equal(tools_schema_validate(s, inst, NULL), 1);
    tools_schema_free(s);
    cJSON_Delete(doc);
    doc = cJSON_Parse(text);
    s = tools_schema_compile_draft(doc, TOOLS_SCHEMA_DRAFT_2020_12, NULL);
    assert_int_equal(tools_schema_validate(s, inst, NULL), 0);
    tools_schema_free(s);
    cJSON_Delete(doc);
    cJSON_Delete(inst);
}

static void test_draft04_exclusive_booleans(void **state)
{
    (void) state;
    const char *x =
        "{\"minimum\":5,\"exclusiveMinimum\":true,\"maximum\":9,\"exclusiveMaximum\":true}";
    assert_int_equal(verdict(x, "5"), 0);
    assert_int_equal(verdict(x, "6"), 1);
    assert_int_equal(verdict(x, "9"), 0);
    assert_int_equal(verdict("{\"minimum\":5,\"exclusiveMinimum\":false}", "5"), 1);
}

static void expect_stopped(const char *schema, const char *instance, const char *needle)
{
    struct tools_schema *s = compile_text(schema);
    char *got = NULL;
    assert_int_equal(validate_text(s, instance, &got), 0);
    if (strstr(got, needle) == NULL)
        printf("missing \"%s\" in:\n%s", needle, got);
    assert_non_null(strstr(got, needle));
    free(got);
    tools_schema_free(s);
}

static void test_schema_loops_end_as_violations(void **state)
{
    (void) state;
    expect_stopped("{\"$ref\":\"#\"}", "1", "nested more than 256 levels");
    expect_stopped("{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},\"b\":{\"$ref\":\"#/$defs/a\"}},"
                   "\"$ref\":\"#/$defs/a\"}",
                   "{}", "nested more than 256 levels");
    /* A limit is final: "not" must not turn it into a success. */
    expect_stopped("{\"not\":{\"$ref\":\"#\"}}", "1", "nested more than 256 levels");
    expect_stopped("{\"anyOf\":[{\"$ref\":\"#\"},true]}", "1", "nested more than 256 levels");
    /* Exponential fan-out (three alternatives that each recurse, then fail)
     * is stopped by the evaluation budget, in well under a second. */
    expect_stopped(
        "{\"$defs\":{\"t\":{\"anyOf\":[{\"items\":{\"$ref\":\"#/$defs/t\"},\"not\":{}},"
        "{\"items\":{\"$ref\":\"#/$defs/t\"},\"not\":{}},"
        "{\"items\":{\"$ref\":\"#/$defs/t\"},\"not\":{}}]}},\"$ref\":\"#/$defs/t\"}",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]"
        "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
        "over 4000000 schema evaluations");
    /* Alternatives that fail early are explained along one path only:
     * linear, with the closest alternative's errors at every level. */
    expect_stopped(
        "{\"$defs\":{\"t\":{\"anyOf\":[{\"items\":{\"$ref\":\"#/$defs/t\"},\"minItems\":9},"
        "{\"items\":{\"$ref\":\"#/$defs/t\"},\"maxItems\":0}]}},\"$ref\":\"#/$defs/t\"}",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]"
        "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
        "- /0/0: must match at least one of 2 schemas (matched 0); closest is anyOf[0]");
}

/* 100000 nested arrays, built without the parser (cJSON caps nesting at 1000)
 * and freed without recursion (cJSON_Delete recurses). */
static cJSON *deep_array(int depth)
{
    cJSON *root = cJSON_CreateArray(), *cur = root;
    for (int i = 1; i < depth; i++) {
        cJSON *next = cJSON_CreateArray();
        cJSON_AddItemToArray(cur, next);
        cur = next;
    }
    return root;
}

static void free_deep(cJSON *v)
{
    while (v) {
        cJSON *child = v->child;
        v->child = NULL;
        cJSON_Delete(v);
        v = child;
    }
}

static void test_deep_instances(void **state)
{
    (void) state;
    cJSON *deep = deep_array(100000);
    struct tools_schema_result r;
    struct tools_schema *s = compile_text("{\"type\":\"array\",\"items\":{\"$ref\":\"#\"}}");
    assert_int_equal(tools_schema_validate(s, deep, NULL), 0);
    assert_int_equal(tools_schema_validate(s, deep, &r), 0);
    assert_non_null(strstr(r.errors[r.count - 1].message, "nested more than 256 levels"));
    tools_schema_result_free(&r);
    tools_schema_free(s);
    /* Keywords that do not descend accept it. */
    s = compile_text("{\"type\":\"array\",\"minItems\":1}");
    assert_int_equal(tools_schema_validate(s, deep, &r), 1);
    tools_schema_result_free(&r);
    tools_schema_free(s);
    /* Comparisons are bounded too. */
    cJSON *pair = cJSON_CreateArray();
    cJSON_AddItemToArray(pair, deep);
    cJSON_AddItemToArray(pair, deep_array(100000));
    s = compile_text("{\"uniqueItems\":true}");
    assert_int_equal(tools_schema_validate(s, pair, &r), 0);
    assert_non_null(strstr(r.errors[0].message, "too deeply"));
    tools_schema_result_free(&r);
    tools_schema_free(s);
    s = compile_text("{\"type\":\"string\"}");
    assert_int_equal(tools_schema_validate(s, pair, &r), 0);
    assert_string_equal(r.errors[0].message, "expected string, got array [[[...]],[[...]]]");
    tools_schema_result_free(&r);
    tools_schema_free(s);
    cJSON *second = pair->child->next;
    pair->child->next = NULL;
    free_deep(pair->child);
    free_deep(second);
    pair->child = NULL;
    cJSON_Delete(pair);
    /* A schema nested that deep is refused at compile time, without a crash. */
    cJSON *deep_schema = deep_array(100000);
    char *err = NULL;
    assert_null(tools_schema_compile(deep_schema, &err));
    assert_non_null(strstr(err, "nested more than"));
    free(err);
    free_deep(deep_schema);
}

/* uniqueItems and object equality on big instances: n log n, not n^2. */
static void test_large_instances_stay_fast(void **state)
{
    (void) state;
    struct tools_schema *s = compile_text("{\"uniqueItems\":true}");
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < 100000; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateNumber(i));
    double t0 = now_ns();
    assert_int_equal(tools_schema_validate(s, arr, NULL), 1);
    cJSON_AddItemToArray(arr, cJSON_CreateNumber(5.0));
    struct tools_schema_result r;
    assert_int_equal(tools_schema_validate(s, arr, &r), 0);
    assert_string_equal(r.errors[0].message, "items must be unique (items 5 and 100000 are equal)");
    tools_schema_result_free(&r);
    cJSON_Delete(arr);
    /* Two equal objects of 20000 members, keys in opposite orders. */
    cJSON *a = cJSON_CreateObject(), *b = cJSON_CreateObject();
    char key[32];
    for (int i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "k%d", i);
        cJSON_AddNumberToObject(a, key, i);
        snprintf(key, sizeof key, "k%d", 19999 - i);
        cJSON_AddNumberToObject(b, key, 19999 - i);
    }
    arr = cJSON_CreateArray();
    cJSON_AddItemToArray(arr, a);
    cJSON_AddItemToArray(arr, b);
    assert_int_equal(tools_schema_validate(s, arr, NULL), 0);
    cJSON_DeleteItemFromObject(b, "k7");
    cJSON_AddNumberToObject(b, "k7", -1);
    assert_int_equal(tools_schema_validate(s, arr, NULL), 1);
    double ms = (now_ns() - t0) / 1e6;
    printf("uniqueItems on 100000 numbers (twice) and 2 x 20000-member objects: %.1f ms\n", ms);
    assert_true(ms < 5000);
    cJSON_Delete(arr);
    tools_schema_free(s);
}

static void expect_invalid_schema(const char *schema, const char *needle)
{
    cJSON *doc = cJSON_Parse(schema);
    assert_non_null(doc);
    char *err = NULL;
    struct tools_schema *s = tools_schema_compile(doc, &err);
    if (s || err == NULL || strstr(err, needle) == NULL)
        printf("schema %s: want an error with \"%s\", got %s\n", schema, needle,
               err ? err : "none");
    assert_null(s);
    assert_non_null(err);
    assert_non_null(strstr(err, needle));
    free(err);
    cJSON_Delete(doc);
}

static void test_invalid_schemas(void **state)
{
    (void) state;
    expect_invalid_schema("5", "a schema must be an object or a boolean (got integer)");
    expect_invalid_schema("{\"type\":\"strin\"}", "at /type: \"type\" must be one of");
    expect_invalid_schema(
        "{\"properties\":{\"a\":{\"minLength\":-1}}}",
        "at /properties/a/minLength: \"minLength\" must be a non-negative integer");
    expect_invalid_schema("{\"maxItems\":\"3\"}", "non-negative integer");
    expect_invalid_schema("{\"multipleOf\":0}", "greater than 0");
    expect_invalid_schema("{\"required\":\"a\"}", "must be an array of strings");
    expect_invalid_schema("{\"enum\":{}}", "\"enum\" must be an array");
    expect_invalid_schema("{\"allOf\":[]}", "non-empty array of schemas");
    expect_invalid_schema("{\"properties\":[]}", "\"properties\" must be an object");
    expect_invalid_schema("{\"items\":{\"pattern\":\"a(b\"}}",
                          "at /items/pattern: pattern \"a(b\" does not compile");
    expect_invalid_schema("{\"patternProperties\":{\"[\":{}}}",
                          "at /patternProperties/[: pattern \"[\" does not compile");
    expect_invalid_schema("{\"$ref\":\"#/$defs/missing\"}", "does not resolve");
    expect_invalid_schema("{\"$ref\":\"#nowhere\"}", "does not resolve");
    expect_invalid_schema("{\"$ref\":\"#/$defs/a\",\"$defs\":{\"a\":7}}", "object or a boolean");
    char *err = NULL;
    assert_null(tools_schema_compile(NULL, &err));
    free(err);
    /* Many large patterns: refused once they pass 1M instructions (16 MB) in all. */
    cJSON *props = cJSON_CreateObject(), *doc = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "properties", props);
    for (int i = 0; i < 60; i++) { /* about 20000 instructions each */
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        cJSON *p = cJSON_AddObjectToObject(props, name);
        cJSON_AddStringToObject(p, "pattern", "^(?:[a-z]{1,100}-){1,100}$");
    }
    assert_null(tools_schema_compile(doc, &err));
    assert_non_null(strstr(err, "patterns too large in total"));
    free(err);
    cJSON_Delete(doc);
}

static void test_multiple_of_edges(void **state)
{
    (void) state;
    static const struct {
        const char *schema, *instance;
        int valid;
    } cases[] = {
        {"{\"multipleOf\":0.0001}", "0.0075", 1},
        {"{\"multipleOf\":0.0001}", "0.00751", 0},
        {"{\"multipleOf\":0.01}", "19.99", 1},
        {"{\"multipleOf\":0.1}", "0.3", 1},
        {"{\"multipleOf\":0.1}", "-0.7", 1},
        {"{\"multipleOf\":0.3}", "1", 0},
        {"{\"multipleOf\":1.5}", "4.5", 1},
        {"{\"multipleOf\":1.5}", "35", 0},
        {"{\"multipleOf\":2}", "0", 1},
        {"{\"multipleOf\":3}", "1e20", 0}, /* exact on integers past 2^53 */
        {"{\"multipleOf\":5}", "1e20", 1},
        {"{\"multipleOf\":1e-8}", "12391239123", 1},
        {"{\"multipleOf\":0.123456789}", "1e308", 0}, /* the quotient overflows */
        {"{\"type\":\"integer\"}", "1e308", 1},
        {"{\"type\":\"integer\"}", "1.0", 1},
        {"{\"type\":\"integer\"}", "12345678901234567890123", 1},
        {"{\"type\":\"integer\"}", "1.5", 0},
        {"{\"maximum\":9007199254740992}", "9007199254740993", 1}, /* doubles: same value */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int v = verdict(cases[i].schema, cases[i].instance);
        if (v != cases[i].valid)
            printf("%s on %s: want %d\n", cases[i].schema, cases[i].instance, cases[i].valid);
        assert_int_equal(v, cases[i].valid);
    }
}

static void test_lengths_count_code_points(void **state)
{
    (void) state;
    const char *emoji = "\"\xf0\x9f\x98\x80\""; /* 4 bytes, 1 code point */
    assert_int_equal(verdict("{\"maxLength\":1}", emoji), 1);
    assert_int_equal(verdict("{\"minLength\":2}", emoji), 0);
    assert_int_equal(verdict("{\"maxLength\":2}", "\"\xf0\x9f\x98\x80\xf0\x9f\x98\x80\""), 1);
    assert_int_equal(verdict("{\"maxLength\":3}", "\"caf\xc3\xa9\""), 0);
    assert_int_equal(verdict("{\"maxLength\":4}", "\"caf\xc3\xa9\""), 1);
    expect_errors("{\"minLength\":3}", emoji,
                  "- (root): must be at least 3 characters (got 1) [minLength]\n");
}

static void test_patterns_in_schemas(void **state)
{
    (void) state;
    char instance[64];
    strcpy(instance, "\"");
    memset(instance + 1, 'a', 30);
    strcpy(instance + 31, "!\"");
    /* Catastrophic for a naive matcher: a plain violation, quickly. */
    expect_errors(
        "{\"pattern\":\"^(a+)+$\"}", instance,
        "- (root): must match the pattern \"^(a+)+$\" (got \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\") "
        "[pattern]\n");
    /* Budget exhausted (backreferences defeat the memo): a violation saying so. */
    expect_stopped("{\"pattern\":\"^(a|a)+\\\\1$\"}", instance, "too expensive to match");
    expect_stopped("{\"not\":{\"pattern\":\"^(a|a)+\\\\1$\"}}", instance, "too expensive to match");
    assert_int_equal(verdict("{\"patternProperties\":{\"^\\\\p{Lu}\":{\"type\":\"integer\"}}}",
                             "{\"\xc3\x89t\xc3\xa9\":1,\"x\":\"y\"}"),
                     1);
    assert_int_equal(verdict("{\"patternProperties\":{\"^\\\\p{Lu}\":{\"type\":\"integer\"}}}",
                             "{\"\xc3\x89t\xc3\xa9\":\"no\"}"),
                     0);
    assert_int_equal(verdict("{\"pattern\":\"\\\\d{3}\"}", "\"ab123cd\""), 1); /* unanchored */
}

/* Each search below stays under its own budget (300k steps), but together
 * they would take 30M: the per-validation pattern budget stops them. */
static void test_pattern_work_is_bounded_per_validation(void **state)
{
    (void) state;
    struct tools_schema *s = compile_text("{\"patternProperties\":{\"^(a|a)+\\\\1$\":{}}}");
    cJSON *inst = cJSON_CreateObject();
    for (int i = 0; i < 100; i++) {
        char key[32];
        snprintf(key, sizeof key, "aaaaaaaaaaaaaa!%d", i);
        cJSON_AddNullToObject(inst, key);
    }
    double t0 = now_ns();
    struct tools_schema_result r;
    assert_int_equal(tools_schema_validate(s, inst, &r), 0);
    double ms = (now_ns() - t0) / 1e6;
    assert_int_equal(r.count, 1);
    assert_non_null(strstr(r.errors[0].message, "too expensive to match"));
    printf("100 keys x 300k-step pattern: stopped after %.1f ms\n", ms);
    assert_true(ms < 3000);
    tools_schema_result_free(&r);
    cJSON_Delete(inst);
    tools_schema_free(s);
}

static void test_offline_references(void **state)
{
    (void) state;
    struct tools_schema *s =
        compile_text("{\"properties\":{\"a\":{\"$ref\":\"https://example.com/a.json\"}}}");
    assert_string_equal(tools_schema_unresolved(s), "https://example.com/a.json");
    char *text = NULL;
    assert_int_equal(validate_text(s, "{\"a\":[1,{}]}", &text), 1); /* treated as true */
    free(text);
    tools_schema_free(s);
    s = compile_text(
        "{\"$id\":\"https://example.com/root.json\",\"$defs\":{\"a\":{\"$id\":\"item.json\","
        "\"type\":\"integer\"}},\"items\":{\"$ref\":\"item.json\"}}");
    assert_null(tools_schema_unresolved(s));
    assert_int_equal(validate_text(s, "[1,2]", NULL), 1);
    assert_int_equal(validate_text(s, "[1,\"x\"]", NULL), 0);
    tools_schema_free(s);
    s = compile_text(
        "{\"$id\":\"http://example.com/root.json\",\"definitions\":{\"a\":{\"type\":\"string\"}},"
        "\"$ref\":\"http://example.com/root.json#/definitions/a\"}");
    assert_int_equal(validate_text(s, "\"x\"", NULL), 1);
    assert_int_equal(validate_text(s, "1", NULL), 0);
    tools_schema_free(s);
    /* JSON Pointer escapes and percent-encoding in fragments. */
    s = compile_text(
        "{\"$defs\":{\"a/b\":{\"type\":\"integer\"},\"c~d\":{\"type\":\"string\"},"
        "\"e%f\":{\"type\":\"null\"}},\"properties\":{\"x\":{\"$ref\":\"#/$defs/a~1b\"},"
        "\"y\":{\"$ref\":\"#/$defs/c~0d\"},\"z\":{\"$ref\":\"#/$defs/e%25f\"}}}");
    assert_int_equal(validate_text(s, "{\"x\":1,\"y\":\"s\",\"z\":null}", NULL), 1);
    assert_int_equal(validate_text(s, "{\"x\":\"1\"}", NULL), 0);
    assert_int_equal(validate_text(s, "{\"y\":1}", NULL), 0);
    assert_int_equal(validate_text(s, "{\"z\":1}", NULL), 0);
    tools_schema_free(s);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t) n + 1);
    size_t got = fread(data, 1, (size_t) n, f);
    data[got] = '\0';
    fclose(f);
    return data;
}

/* The official MCP schemas (draft-07 up to 2025-06-18, 2020-12 after), used
 * through an entry point: one definition of a large document. */
static void test_mcp_schemas(void **state)
{
    (void) state;
    static const char *const revisions[] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25",
                                            "2026-07-28"};
    for (size_t i = 0; i < sizeof revisions / sizeof revisions[0]; i++) {
        char path[256], ref[64];
        snprintf(path, sizeof path, "tests/data/mcp-schema/%s/schema.json", revisions[i]);
        char *text = read_text(path);
        assert_non_null(text);
        size_t size = strlen(text);
        cJSON *doc = cJSON_Parse(text);
        free(text);
        assert_non_null(doc);
        const char *defs = cJSON_GetObjectItem(doc, "$defs") ? "$defs" : "definitions";
        snprintf(ref, sizeof ref, "#/%s/CallToolRequest", defs);
        double t0 = now_ns();
        char *err = NULL;
        struct tools_schema *s = tools_schema_compile_entry(doc, ref, &err);
        double t1 = now_ns();
        if (s == NULL)
            printf("%s: %s\n", revisions[i], err);
        assert_non_null(s);
        assert_null(tools_schema_unresolved(s));
        char *got = NULL;
        assert_int_equal(
            validate_text(s,
                          "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                          "\"params\":{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Oslo\"},"
                          /* 2026-07-28 requires per-request _meta; older revisions allow it */
                          "\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{},"
                          "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}",
                          NULL),
            1);
        assert_int_equal(validate_text(s,
                                       "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                                       "\"params\":{\"name\":5}}",
                                       &got),
                         0);
        assert_non_null(strstr(got, "- /params/name: expected string, got integer 5 [type]\n"));
        printf("MCP %s CallToolRequest: compiled %zu-byte document in %.2f ms\n", revisions[i],
               size, (t1 - t0) / 1e6);
        free(got);
        tools_schema_free(s);
        cJSON_Delete(doc);
    }
    char *err = NULL;
    cJSON *doc = cJSON_Parse("{\"$defs\":{\"a\":{}}}");
    assert_null(tools_schema_compile_entry(doc, "#/$defs/b", &err));
    assert_non_null(strstr(err, "does not resolve"));
    free(err);
    cJSON_Delete(doc);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

/* Median of `rounds` timings, each of `batch` validations. */
static double median_ns(const struct tools_schema *s, const cJSON *inst, int with_result)
{
    enum { ROUNDS = 201, BATCH = 50 };
    static double t[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < BATCH; i++) {
            struct tools_schema_result res;
            tools_schema_validate(s, inst, with_result ? &res : NULL);
            if (with_result)
                tools_schema_result_free(&res);
        }
        t[r] = (now_ns() - t0) / BATCH;
    }
    qsort(t, ROUNDS, sizeof t[0], cmp_double);
    return t[ROUNDS / 2];
}

static void test_speed_of_a_typical_tool_call(void **state)
{
    (void) state;
    struct tools_schema *s = compile_text(
        "{\"type\":\"object\",\"properties\":{"
        "\"path\":{\"type\":\"string\",\"pattern\":\"^[A-Za-z0-9_./-]+$\",\"maxLength\":4096},"
        "\"mode\":{\"enum\":[\"read\",\"write\",\"append\"]},"
        "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":1000},"
        "\"recursive\":{\"type\":\"boolean\"},"
        "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":10}},"
        "\"required\":[\"path\",\"mode\"],\"additionalProperties\":false}");
    cJSON *good = cJSON_Parse("{\"path\":\"src/tools/schema/schema.c\",\"mode\":\"read\",\"limit\":100,"
                              "\"recursive\":false,\"tags\":[\"c\",\"json\"]}");
    cJSON *bad = cJSON_Parse("{\"path\":\"src/tools/schema/schema.c\",\"mode\":\"up\",\"limit\":0,"
                             "\"recursive\":\"no\",\"extra\":1}");
    assert_int_equal(tools_schema_validate(s, good, NULL), 1);
    assert_int_equal(tools_schema_validate(s, bad, NULL), 0);
    double quick = median_ns(s, good, 0), full = median_ns(s, good, 1),
           failing = median_ns(s, bad, 1);
    double t0 = now_ns();
    for (int i = 0; i < 200; i++) {
        cJSON *doc =
            cJSON_Parse("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
                        "\"pattern\":\"^[A-Za-z0-9_./-]+$\"}},\"required\":[\"path\"]}");
        tools_schema_free(tools_schema_compile(doc, NULL));
        cJSON_Delete(doc);
    }
    double compile = (now_ns() - t0) / 200;
    printf("typical tool call (5 properties, required, enum, pattern): median %.2f us valid "
           "(verdict only), %.2f us valid (with result), %.2f us invalid with 4 errors; "
           "parse+compile of a small schema %.1f us\n",
           quick / 1000, full / 1000, failing / 1000, compile / 1000);
    /* Generous bound (sanitizer builds, shared machines), yet a regression to
     * milliseconds fails. */
    assert_true(quick < 200000);
    cJSON_Delete(good);
    cJSON_Delete(bad);
    tools_schema_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_texts),
        cmocka_unit_test(test_combinator_texts),
        cmocka_unit_test(test_paths_are_json_pointers),
        cmocka_unit_test(test_long_values_are_truncated),
        cmocka_unit_test(test_error_cap_and_total),
        cmocka_unit_test(test_draft_selection),
        cmocka_unit_test(test_draft04_exclusive_booleans),
        cmocka_unit_test(test_schema_loops_end_as_violations),
        cmocka_unit_test(test_deep_instances),
        cmocka_unit_test(test_large_instances_stay_fast),
        cmocka_unit_test(test_invalid_schemas),
        cmocka_unit_test(test_multiple_of_edges),
        cmocka_unit_test(test_lengths_count_code_points),
        cmocka_unit_test(test_patterns_in_schemas),
        cmocka_unit_test(test_pattern_work_is_bounded_per_validation),
        cmocka_unit_test(test_offline_references),
        cmocka_unit_test(test_mcp_schemas),
        cmocka_unit_test(test_speed_of_a_typical_tool_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
