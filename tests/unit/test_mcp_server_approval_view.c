/* Unit tests of mcp-server/execute/approval_view.c: short arguments whole with keys
 * sorted at every level; long ones as a digest and every field (the one
 * after a 1 MB field included), long strings as their start with their size;
 * an explicit line for the fields past the line bound; characters that hide
 * or reorder text escaped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/execute/approval_view.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *view_of(const char *json)
{
    cJSON *v = json_parse(json, strlen(json));
    assert_non_null(v);
    char *out = mcp_approval_view(v);
    cJSON_Delete(v);
    return out;
}

static void test_short_whole_and_sorted(void **state)
{
    (void) state;
    char *v = view_of("{\"z\":1,\"a\":{\"y\":[{\"b\":2,\"a\":1}],\"x\":null},\"m\":\"s\"}");
    assert_string_equal(v, "{\"a\":{\"x\":null,\"y\":[{\"a\":1,\"b\":2}]},\"m\":\"s\",\"z\":1}");
    free(v);
    v = mcp_approval_view(NULL);
    assert_string_equal(v, "{}");
    free(v);
    /* 700 bytes (past the old 600-byte prefix) with the dangerous field last: all shown */
    char json[1024];
    snprintf(json, sizeof json, "{\"note\":\"%0680d\",\"zcommand\":\"rm -rf /\"}", 0);
    v = view_of(json);
    assert_string_equal(v, json);
    free(v);
}

static void test_long_every_field(void **state)
{
    (void) state;
    size_t big = 1000000;
    char *json = malloc(big + 1000);
    char long_key[121];
    memset(long_key, 'k', 120);
    long_key[120] = '\0';
    char *p = json + sprintf(json, "{\"b\":\"");
    memset(p, 'x', big);
    p += big;
    sprintf(p,
            "\",\"a\":{\"deep\":\"%0300d\",\"k\":1},\"then\":\"rm -rf /\",\"we ird\":[1],"
            "\"%s\":2}",
            7, long_key);
    char *v = view_of(json);
    assert_true(strlen(v) < 4000);
    assert_non_null(strstr(v, "too long to show whole; SHA-256 of their JSON: "));
    /* every field, keys sorted, by path */
    const char *a = strstr(v, "\n  a: object of 2 fields");
    const char *deep = strstr(v, "\n  a.deep: string of 300 bytes, only its start shown: \"0000");
    const char *k = strstr(v, "\n  a.k: 1");
    const char *b = strstr(v, "\n  b: string of 1000000 bytes, only its start shown: \"xxx");
    const char *then = strstr(v, "\n  then: \"rm -rf /\"");
    const char *weird = strstr(v, "\n  [\"we ird\"]: [1]");
    assert_non_null(a);
    assert_non_null(deep);
    assert_non_null(k);
    assert_non_null(b);
    assert_non_null(then);
    assert_non_null(weird);
    /* an identifier too long for .name is quoted (and cut) */
    assert_null(strstr(v, "\n  kkkk"));
    assert_non_null(strstr(v, "\n  [\"kkkk"));
    assert_true(a < deep && deep < k && k < b && b < then && then < weird);
    assert_null(strstr(v, "NOT LISTED"));
    free(v);
    free(json);
}

static void test_line_bound_is_said(void **state)
{
    (void) state;
    char *json = malloc(100000);
    size_t n = (size_t) sprintf(json, "{");
    for (int i = 0; i < 1000; i++)
        n += (size_t) sprintf(json + n, "%s\"f%04d\":\"%040d\"", i ? "," : "", i, i);
    sprintf(json + n, "}");
    char *v = view_of(json);
    assert_non_null(strstr(v, "\n  f0199: "));
    assert_null(strstr(v, "\n  f0200: "));
    assert_non_null(strstr(v, "\n  ... and 800 more fields ("));
    assert_non_null(strstr(v, "NOT LISTED: deny unless you know what they hold."));
    free(v);
    free(json);
}

static void test_hiding_characters_escaped(void **state)
{
    (void) state;
    /* U+202E (right-to-left override), U+200B (zero width space), U+0085 (C1 NEL),
     * U+E0041 (tag); é stays as it is */
    char *v =
        view_of("{\"cmd\":\"ls \xe2\x80\xae\x66\x64\x70.exe\xe2\x80\x8b\xc2\x85\xf3\xa0\x81\x81 "
                "\xc3\xa9\"}");
    assert_string_equal(v, "{\"cmd\":\"ls \\u202efdp.exe\\u200b\\u0085\\udb40\\udc41 \xc3\xa9\"}");
    cJSON *back = json_parse(v, strlen(v)); /* still JSON, the same characters */
    assert_non_null(back);
    cJSON_Delete(back);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_whole_and_sorted),
        cmocka_unit_test(test_long_every_field),
        cmocka_unit_test(test_line_bound_is_said),
        cmocka_unit_test(test_hiding_characters_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
