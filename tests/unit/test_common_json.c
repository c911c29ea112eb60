/* Unit tests of common/json.c: exact numbers (cJSON's printer loses the last
 * digit of 2^53-1), compact structure, string escaping and repair, parsing
 * that keeps \u0000 and lone surrogates, and engine JSON text made valid. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "common/json.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>

static void roundtrip(const char *in, const char *expect)
{
    cJSON *v = cJSON_Parse(in);
    assert_non_null(v);
    char *out = json_print(v);
    assert_string_equal(out, expect);
    free(out);
    cJSON_Delete(v);
}

static void test_numbers(void **state)
{
    roundtrip("9007199254740991", "9007199254740991");
    roundtrip("-9007199254740991", "-9007199254740991");
    roundtrip("0.1", "0.1");
    roundtrip("1e21", "1e+21");
    roundtrip("123456789012345678", "1.2345678901234568e+17");
    roundtrip("3.141592653589793", "3.141592653589793");
    roundtrip("-0", "0");
    roundtrip("1.5e-7", "1.5e-07");
    roundtrip("[0.30000000000000004, 2.5, 100]", "[0.30000000000000004,2.5,100]");
    /* Integers below 2^53 take a path without printf; from 2^53 on, %.0f. */
    roundtrip("[7, -7, 10, -10, 1000000, 4294967296, -4294967297]",
              "[7,-7,10,-10,1000000,4294967296,-4294967297]");
    roundtrip("[9007199254740992, -9007199254740992, 1e16, 99999999999999990]",
              "[9007199254740992,-9007199254740992,10000000000000000,99999999999999984]");
}

static void test_structure(void **state)
{
    roundtrip(" { \"a\" : [ 1 , true , null , \"x\\n\\\"\" ] , \"b\" : { } } ",
              "{\"a\":[1,true,null,\"x\\n\\\"\"],\"b\":{}}");
}

static void test_strings_repaired(void **state)
{
    cJSON *s = cJSON_CreateString("a\xED\xA0\xBD\xED\xB8\x80\xFF");
    char *out = json_print(s);
    assert_string_equal(out, "\"a\xF0\x9F\x98\x80\xEF\xBF\xBD\"");
    free(out);
    cJSON_Delete(s);
    out = json_print(NULL);
    assert_string_equal(out, "null");
    free(out);
}

/* json_parse keeps what cJSON cuts or rejects; json_print gives it back. */
static void parsed(const char *in, const char *expect)
{
    cJSON *v = json_parse(in, strlen(in));
    if (expect == NULL) {
        assert_null(v);
        return;
    }
    assert_non_null(v);
    char *out = json_print(v);
    assert_string_equal(out, expect);
    free(out);
    cJSON_Delete(v);
}

static void test_parse_whole_strings(void **state)
{
    parsed("\"a\\u0000b\"", "\"a\\u0000b\"");
    parsed("{\"k\\u0000x\":\"\\ud800\"}", "{\"k\\u0000x\":\"\\ud800\"}");
    parsed("[\"\\udc00\\ud800\", \"\\uD800\\uDC00\", \"\\ud83d\\ude00x\"]",
           "[\"\\udc00\\ud800\",\"\xF0\x90\x80\x80\",\"\xF0\x9F\x98\x80x\"]");
    parsed("\"\\\\u0000\"", "\"\\\\u0000\""); /* an escaped backslash, then text */
    parsed("\"\\ud800\\u0041\"", "\"\\ud800A\"");
    parsed("\"\\u2028\\u2029\"", "\"\xE2\x80\xA8\xE2\x80\xA9\"");
    parsed(" {\"a\":1} \n", "{\"a\":1}");
    parsed("{\"a\":1} x", NULL); /* bytes after the value */
    parsed("\"\\u00\"", NULL);
    parsed("\"\\", NULL);
    parsed("", NULL);
    /* the internal form as a C string: no NUL inside */
    cJSON *v = json_parse("\"a\\u0000b\"", 10);
    assert_int_equal(strlen(v->valuestring), 4);
    assert_memory_equal(v->valuestring,
                        "a\xC0\x80"
                        "b",
                        4);
    cJSON_Delete(v);
}

static void test_engine_text(void **state)
{
    struct buf b;
    buf_init(&b, 0);
    /* Duktape writes lone surrogates and astral characters as CESU-8 */
    const char in[] = "{\"a\":\"x\xED\xA0\x80y\",\"b\":\"\xED\xA0\xBD\xED\xB8\x80\xFF\"}";
    json_append_engine_text(&b, in, sizeof in - 1);
    assert_string_equal(b.data, "{\"a\":\"x\\ud800y\",\"b\":\"\xF0\x9F\x98\x80\xEF\xBF\xBD\"}");
    cJSON *v = json_parse(b.data, b.len);
    assert_non_null(v);
    cJSON_Delete(v);
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),          cmocka_unit_test(test_structure),
        cmocka_unit_test(test_strings_repaired), cmocka_unit_test(test_parse_whole_strings),
        cmocka_unit_test(test_engine_text),
    };
    return cmocka_run_group_tests_name("common_json", tests, NULL, NULL);
}
