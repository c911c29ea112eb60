/* Unit tests of the 2026-07-28 request headers (tools/downstream/headers.c):
 * header value encoding (the spec's own examples), the x-mcp-header rules a
 * Streamable HTTP client must enforce, and the Mcp-Param-* headers of a call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/downstream/internal.h"

#include <stdlib.h>
#include <string.h>

static void expect_header(const char *in, size_t len, const char *want)
{
    char *got = tools__downstream_header_value(in, len);
    assert_string_equal(got, want);
    free(got);
}

static void test_values(void **state)
{
    (void) state;
    expect_header("us-west1", 8, "us-west1");
    expect_header("Hello, \xe4\xb8\x96\xe7\x95\x8c", 13, "=?base64?SGVsbG8sIOS4lueVjA==?=");
    expect_header(" padded ", 8, "=?base64?IHBhZGRlZCA=?=");
    expect_header("line1\nline2", 11, "=?base64?bGluZTEKbGluZTI=?=");
    expect_header("=?base64?literal?=", 18, "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
    expect_header("tab\tinside", 10, "=?base64?dGFiCWluc2lkZQ==?=");
    expect_header("", 0, "");
    expect_header("a b", 3, "a b"); /* an inner space is fine */
}

/* The problem with a tool whose inputSchema is `schema` (JSON), or NULL. */
static char *problem(const char *schema)
{
    char json[2048], buf[256];
    snprintf(json, sizeof json, "{\"name\":\"t\",\"inputSchema\":%s}", schema);
    cJSON *tool = cJSON_Parse(json);
    assert_non_null(tool);
    const char *p = tools__downstream_header_problem(tool, buf, sizeof buf);
    char *out = p ? strdup(p) : NULL;
    cJSON_Delete(tool);
    return out;
}

static void expect_ok(const char *schema)
{
    char *p = problem(schema);
    if (p)
        fail_msg("%s: %s", schema, p);
}

static void expect_bad(const char *schema, const char *why)
{
    char *p = problem(schema);
    if (p == NULL || strstr(p, why) == NULL)
        fail_msg("%s: got %s, want ...%s...", schema, p ? p : "(fine)", why);
    free(p);
}

static void test_annotations(void **state)
{
    (void) state;
    expect_ok("{\"type\":\"object\"}");
    expect_ok("{\"type\":\"object\",\"properties\":{\"r\":{\"type\":\"string\",\"x-mcp-header\":"
              "\"Region\"}}}");
    expect_ok("{\"type\":\"object\",\"properties\":{\"o\":{\"type\":\"object\",\"properties\":{"
              "\"n\":{\"type\":\"integer\",\"x-mcp-header\":\"N\"},"
              "\"b\":{\"type\":\"boolean\",\"x-mcp-header\":\"B\"}}}}}");
    /* A value that only looks like an annotation is data, not schema. */
    expect_ok("{\"type\":\"object\",\"default\":{\"x-mcp-header\":\"\"},\"properties\":{}}");
    expect_bad("{\"type\":\"object\",\"properties\":{\"r\":{\"type\":\"number\",\"x-mcp-header\":"
               "\"R\"}}}",
               "string, integer and boolean");
    expect_bad("{\"type\":\"object\",\"properties\":{\"r\":{\"x-mcp-header\":\"R\"}}}",
               "string, integer and boolean");
    expect_bad("{\"type\":\"object\",\"properties\":{\"r\":{\"type\":\"string\",\"x-mcp-header\":"
               "\"\"}}}",
               "HTTP token");
    expect_bad("{\"type\":\"object\",\"properties\":{\"r\":{\"type\":\"string\",\"x-mcp-header\":"
               "\"A B\"}}}",
               "HTTP token");
    expect_bad("{\"type\":\"object\",\"properties\":{"
               "\"a\":{\"type\":\"string\",\"x-mcp-header\":\"Dup\"},"
               "\"b\":{\"type\":\"string\",\"x-mcp-header\":\"dup\"}}}",
               "same name");
    expect_bad("{\"type\":\"object\",\"properties\":{\"l\":{\"type\":\"array\",\"items\":{"
               "\"type\":\"string\",\"x-mcp-header\":\"L\"}}}}",
               "reached through \"properties\"");
    expect_bad("{\"type\":\"object\",\"anyOf\":[{\"properties\":{\"a\":{\"type\":\"string\","
               "\"x-mcp-header\":\"A\"}}}]}",
               "reached through \"properties\"");
    expect_bad(
        "{\"type\":\"object\",\"$defs\":{\"d\":{\"type\":\"string\",\"x-mcp-header\":\"D\"}}}",
        "reached through \"properties\"");
    expect_bad("{\"type\":\"string\",\"x-mcp-header\":\"Root\"}", "reached through \"properties\"");
}

static void test_params(void **state)
{
    (void) state;
    cJSON *tool = cJSON_Parse(
        "{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\",\"properties\":{"
        "\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"},"
        "\"o\":{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"x-mcp-header\":"
        "\"N\"}}},\"flag\":{\"type\":\"boolean\",\"x-mcp-header\":\"Flag\"},"
        "\"q\":{\"type\":\"string\"}}}}");
    cJSON *args =
        cJSON_Parse("{\"region\":\"\xc3\xa9u\",\"o\":{\"n\":42},\"flag\":false,\"q\":\"x\"}");
    char **h = NULL;
    size_t n = 0;
    tools__downstream_param_headers(tool, args, &h, &n);
    assert_int_equal(n, 3);
    assert_string_equal(h[0], "Mcp-Param-Region: =?base64?w6l1?=");
    assert_string_equal(h[1], "Mcp-Param-N: 42");
    assert_string_equal(h[2], "Mcp-Param-Flag: false");
    assert_null(h[3]);
    for (size_t i = 0; i < n; i++)
        free(h[i]);
    free(h);
    cJSON_Delete(args);
    /* Absent, null and non-integer values give no header. */
    args = cJSON_Parse("{\"region\":null,\"o\":{\"n\":1.5}}");
    h = NULL;
    n = 0;
    tools__downstream_param_headers(tool, args, &h, &n);
    assert_int_equal(n, 0);
    assert_null(h);
    cJSON_Delete(args);
    cJSON_Delete(tool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_annotations),
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
