/* Unit tests of common/buf.c's appenders on the tool-call path: printf into
 * the room a buffer has (one pass) and past it (grown, second pass), the cap
 * refusing without a trace, characters, and JSON strings whose plain runs are
 * copied whole between escapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "common/buf.h"
#include "common/json.h"

#include <string.h>

static void test_printf_into_room_and_past_it(void **state)
{
    (void) state;
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(buf_printf(&b, "%s=%d", "a", 1), 0); /* empty: grown first */
    assert_string_equal(b.data, "a=1");
    assert_int_equal(buf_printf(&b, ",%ld", 123456789L), 0); /* fits in the room */
    assert_string_equal(b.data, "a=1,123456789");
    char big[300];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(buf_printf(&b, "[%s]", big), 0); /* past the room */
    assert_int_equal(b.len, 13 + 2 + 299);
    assert_int_equal(b.data[b.len - 1], ']');
    assert_int_equal(b.data[b.len], '\0');
    assert_int_equal(strlen(b.data), b.len);
    buf_free(&b);
}

static void test_printf_over_the_limit_leaves_the_buffer(void **state)
{
    (void) state;
    struct buf b;
    buf_init(&b, 16);
    assert_int_equal(buf_append_str(&b, "0123456789"), 0);
    /* fits in the allocation's room, but not under the cap */
    assert_int_equal(buf_printf(&b, "%s", "abcdefghij"), -1);
    assert_int_equal(b.len, 10);
    assert_string_equal(b.data, "0123456789");
    assert_int_equal(buf_printf(&b, "%d", 42), 0);
    assert_string_equal(b.data, "012345678942");
    buf_free(&b);
}

static void test_append_char(void **state)
{
    (void) state;
    struct buf b;
    buf_init(&b, 0);
    for (int i = 0; i < 200; i++)
        assert_int_equal(buf_append_char(&b, (char) ('a' + i % 26)), 0);
    assert_int_equal(b.len, 200);
    assert_int_equal(strlen(b.data), 200);
    assert_int_equal(b.data[199], 'a' + 199 % 26);
    buf_free(&b);
    buf_init(&b, 2);
    assert_int_equal(buf_append_char(&b, 'x'), 0);
    assert_int_equal(buf_append_char(&b, 'y'), 0);
    assert_int_equal(buf_append_char(&b, 'z'), -1); /* the cap holds for single characters */
    assert_string_equal(b.data, "xy");
    buf_free(&b);
}

static void check_json(const char *in, size_t n, const char *expect)
{
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(json_append_string(&b, in, n), 0);
    assert_string_equal(b.data, expect);
    assert_int_equal(b.len, strlen(expect));
    buf_free(&b);
}

static void test_json_string_runs_and_escapes(void **state)
{
    (void) state;
    check_json("", 0, "\"\"");
    check_json("plain text, no escapes", 22, "\"plain text, no escapes\"");
    check_json("{\"message\":\"x\",\"n\":1}", 21, "\"{\\\"message\\\":\\\"x\\\",\\\"n\\\":1}\"");
    check_json("a\\b\nc\td\x01"
               "e\x7f",
               10, "\"a\\\\b\\nc\\td\\u0001e\x7f\"");
    check_json("caf\xC3\xA9 ok", 8, "\"caf\xC3\xA9 ok\"");
    check_json("a\xC0\x80"
               "b",
               4, "\"a\\u0000b\"");                /* the internal form of U+0000 */
    check_json("x\xFFy", 3, "\"x\xEF\xBF\xBDy\""); /* invalid byte: replaced */
}

static void test_json_string_limit(void **state)
{
    (void) state;
    struct buf b;
    buf_init(&b, 8);
    assert_int_equal(buf_append_str(&b, "ab"), 0);
    assert_int_equal(json_append_string(&b, "0123456789", 10), -1);
    assert_string_equal(b.data, "ab"); /* nothing of the refused string stays */
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_printf_into_room_and_past_it),
        cmocka_unit_test(test_printf_over_the_limit_leaves_the_buffer),
        cmocka_unit_test(test_append_char),
        cmocka_unit_test(test_json_string_runs_and_escapes),
        cmocka_unit_test(test_json_string_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
