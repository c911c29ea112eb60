/* Unit tests of common/json.c: exact numbers (cJSON's printer loses the last
 * digit of 2^53-1), compact structure, string escaping and repair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "common/json.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_strings_repaired),
    };
    return cmocka_run_group_tests_name("common_json", tests, NULL, NULL);
}
