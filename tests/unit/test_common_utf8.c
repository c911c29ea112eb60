/* Unit tests of common/utf8.c and the JSON string writer of common/buf.c:
 * validation, repair of ill-formed bytes, and CESU-8 surrogate pairs (how
 * Duktape stores characters outside the BMP) turned into real UTF-8. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "common/buf.h"
#include "common/json.h"
#include "common/utf8.h"

#include <string.h>

static void check_repair(const char *in, size_t n, const char *expect)
{
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(utf8_append_repaired(&b, in, n), 0);
    assert_string_equal(b.data ? b.data : "", expect);
    buf_free(&b);
}

static void test_valid(void **state)
{
    assert_true(utf8_is_valid("a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 10));
    assert_false(utf8_is_valid("\xC0\x80", 2));         /* overlong */
    assert_false(utf8_is_valid("\xED\xA0\x80", 3));     /* surrogate */
    assert_false(utf8_is_valid("\xF4\x90\x80\x80", 4)); /* > U+10FFFF */
    assert_false(utf8_is_valid("\xE2\x82", 2));         /* truncated */
}

static void test_repair(void **state)
{
    check_repair("a\xFF" "b", 3, "a\xEF\xBF\xBD" "b");
    /* U+1F600 as a CESU-8 pair (ED A0 BD ED B8 80) becomes F0 9F 98 80 */
    check_repair("\xED\xA0\xBD\xED\xB8\x80!", 7, "\xF0\x9F\x98\x80!");
    /* a lone high surrogate: one replacement for its three bytes */
    check_repair("x\xED\xA0\x80y", 5, "x\xEF\xBF\xBDy");
    /* a lone low surrogate */
    check_repair("\xED\xB0\x80", 3, "\xEF\xBF\xBD");
    /* high followed by something else */
    check_repair("\xED\xA0\xBD" "a", 4, "\xEF\xBF\xBD" "a");
}

static void test_json_string(void **state)
{
    struct buf b;
    buf_init(&b, 0);
    json_append_string(&b, "\"\\\n\x01\xED\xA0\xBD\xED\xB8\x80", 10);
    assert_string_equal(b.data, "\"\\\"\\\\\\n\\u0001\xF0\x9F\x98\x80\"");
    buf_free(&b);
}

/* The internal form (utf8.h): C0 80 is U+0000, a lone surrogate its 3 bytes;
 * JSON strings give them back as escapes; a pair is a character. */
static void test_internal_form(void **state)
{
    size_t used = 99;
    assert_int_equal(utf8_internal_unit((const unsigned char *) "\xC0\x80x", 3, &used), 0);
    assert_int_equal(used, 2);
    assert_int_equal(utf8_internal_unit((const unsigned char *) "\xED\xA0\x80", 3, &used), 0xD800);
    assert_int_equal(used, 3);
    assert_int_equal(utf8_internal_unit((const unsigned char *) "\xED\xBF\xBF", 3, &used), 0xDFFF);
    assert_int_equal(
        utf8_internal_unit((const unsigned char *) "\xED\xA0\xBD\xED\xB8\x80", 6, &used),
        -1); /* a pair */
    assert_int_equal(utf8_internal_unit((const unsigned char *) "\xC0", 1, &used), -1);
    assert_int_equal(utf8_internal_unit((const unsigned char *) "\xC0\x81", 2, &used), -1);
    assert_int_equal(utf8_internal_unit((const unsigned char *) "\xFF", 1, &used), -1);

    struct buf b;
    buf_init(&b, 0);
    json_append_string(&b,
                           "a\xC0\x80"
                           "b\xED\xB3\xBF\xED\xA0\x80"
                           "c\xC0"
                           "d",
                           13);
    assert_string_equal(b.data, "\"a\\u0000b\\udcff\\ud800c\xEF\xBF\xBD"
                                "d\"");
    buf_reset(&b);
    json_append_string(&b, "\0\xE2\x80\xA8", 4); /* a raw NUL, U+2028 kept */
    assert_string_equal(b.data, "\"\\u0000\xE2\x80\xA8\"");
    buf_free(&b);
}

/* What a terminal gets: a NUL byte, a pair's character, U+FFFD for the rest. */
static void test_external(void **state)
{
    struct buf b;
    buf_init(&b, 0);
    utf8_append_external(&b, "a\xC0\x80" "b\xED\xA0\x80\xED\xA0\xBD\xED\xB8\x80\xFF", 15);
    assert_int_equal(b.len, 14);
    assert_memory_equal(b.data, "a\0b\xEF\xBF\xBD\xF0\x9F\x98\x80\xEF\xBF\xBD", 14);
    buf_free(&b);
}

static void test_decode_nul(void **state)
{
    char s[] = "a\xC0\x80" "b\xED\xA0\x80\xC0";
    size_t n = utf8_decode_nul(s, sizeof s - 1);
    assert_int_equal(n, 7);
    assert_memory_equal(s, "a\0b\xED\xA0\x80\xC0", 8);
    char t[] = "plain";
    assert_int_equal(utf8_decode_nul(t, 5), 5);
    assert_string_equal(t, "plain");
}

static void test_length(void **state)
{
    assert_int_equal(utf8_length("a\xC3\xA9\xF0\x9F\x98\x80", 7), 3);
    assert_int_equal(utf8_length("a\xC0\x80" "b\xED\xA0\x80", 7), 4);
}

static void test_cut_length(void **state)
{
    (void) state;
    const char *s = "ab\xC3\xA9\xF0\x9F\x98\x80z"; /* a b é 😀 z */
    assert_int_equal(utf8_cut_length(s, 9, 20), 9);  /* short enough: all of it */
    assert_int_equal(utf8_cut_length(s, 9, 3), 2);   /* never inside é */
    assert_int_equal(utf8_cut_length(s, 9, 4), 4);
    assert_int_equal(utf8_cut_length(s, 9, 7), 4);   /* never inside 😀 */
    assert_int_equal(utf8_cut_length(s, 9, 8), 8);
    assert_int_equal(utf8_cut_length("a\xC0\x80", 3, 2), 1); /* nor inside U+0000's internal form */
}

/* Text for the JS engine: each well-formed 4-byte sequence becomes its CESU-8
 * pair (two UTF-16 code units); nothing else changes. */
static void check_pairs(const char *in, size_t n, const char *expect, size_t expect_len)
{
    assert_int_equal(n + 2 * utf8_astral_count(in, n), expect_len);
    char out[128];
    assert_true(expect_len <= sizeof out);
    assert_int_equal(utf8_astral_to_pairs(in, n, out), expect_len);
    assert_memory_equal(out, expect, expect_len);
}

static void test_astral_pairs(void **state)
{
    /* U+1F600: F0 9F 98 80 -> D83D DE00 */
    check_pairs("a\xF0\x9F\x98\x80" "b", 6, "a\xED\xA0\xBD\xED\xB8\x80" "b", 8);
    /* U+20000 (CJK extension B) -> D840 DC00; U+10FFFF -> DBFF DFFF; U+10000 -> D800 DC00 */
    check_pairs("\xF0\xA0\x80\x80", 4, "\xED\xA1\x80\xED\xB0\x80", 6);
    check_pairs("\xF4\x8F\xBF\xBF", 4, "\xED\xAF\xBF\xED\xBF\xBF", 6);
    check_pairs("\xF0\x90\x80\x80", 4, "\xED\xA0\x80\xED\xB0\x80", 6);
    /* ASCII, 2- and 3-byte characters, NUL and JSON escapes are left alone */
    check_pairs("{\"s\":\"\\ud83d\\u0000\xC3\xA9\xE2\x82\xAC\"}", 25,
                "{\"s\":\"\\ud83d\\u0000\xC3\xA9\xE2\x82\xAC\"}", 25);
    check_pairs("x\0y", 3, "x\0y", 3);
    /* lone surrogates and C0 80 (the internal form) and CESU-8 pairs already made */
    check_pairs("\xED\xA0\x80\xC0\x80\xED\xA0\xBD\xED\xB8\x80", 11,
                "\xED\xA0\x80\xC0\x80\xED\xA0\xBD\xED\xB8\x80", 11);
    /* ill-formed 4-byte leads: past U+10FFFF, overlong, F5-FF, a bad continuation */
    check_pairs("\xF4\x90\x80\x80", 4, "\xF4\x90\x80\x80", 4);
    check_pairs("\xF0\x8F\xBF\xBF", 4, "\xF0\x8F\xBF\xBF", 4);
    check_pairs("\xF5\x80\x80\x80\xFF", 5, "\xF5\x80\x80\x80\xFF", 5);
    check_pairs("\xF0\x9F\x98" "a", 4, "\xF0\x9F\x98" "a", 4);
    /* cut at the end of the buffer: the partial sequence stays as it is */
    check_pairs("ab\xF0\x9F\x98", 5, "ab\xF0\x9F\x98", 5);
    check_pairs("\xF0", 1, "\xF0", 1);
    check_pairs("", 0, "", 0);
    /* a character at every offset around the 8-byte ASCII fast path */
    for (size_t at = 0; at < 20; at++) {
        char in[32], expect[32];
        memset(in, 'x', sizeof in);
        memset(expect, 'x', sizeof expect);
        memcpy(in + at, "\xF0\x9F\x98\x80", 4);
        memcpy(expect + at, "\xED\xA0\xBD\xED\xB8\x80", 6);
        check_pairs(in, 24, expect, 26);
    }
    /* two in a row, and one as the last bytes */
    check_pairs("\xF0\x9F\x98\x80\xF0\xA0\x80\x80", 8,
                "\xED\xA0\xBD\xED\xB8\x80\xED\xA1\x80\xED\xB0\x80", 12);
    check_pairs("0123456789\xF0\x9F\x98\x80", 14, "0123456789\xED\xA0\xBD\xED\xB8\x80", 16);
}

/* Random mixes of ASCII runs, 4-byte characters, their prefixes and stray
 * bytes, at every alignment: the same as a byte-by-byte reference. */
static void test_astral_pairs_random(void **state)
{
    static const char *const pieces[] = {"abcdefgh", "x", "\xF0\x9F\x98\x80", "\xF0\x9F\x98",
                                         "\xC3\xA9", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF",
                                         "0123456789abcdef", "\xF0\xA0\x80\x80"};
    unsigned seed = 12345;
    for (int round = 0; round < 2000; round++) {
        char in[256], expect[512], out[512];
        size_t n = 0, e = 0;
        int count = 0;
        while (n < 200) {
            seed = seed * 1103515245u + 12345u;
            const char *p = pieces[(seed >> 16) % (sizeof pieces / sizeof *pieces)];
            memcpy(in + n, p, strlen(p));
            n += strlen(p);
        }
        size_t cut = n - (seed >> 8) % 4; /* end inside a sequence now and then */
        for (size_t i = 0; i < cut;) {
            size_t k = utf8_valid_prefix((const unsigned char *) in + i, cut - i);
            if (k == 4) {
                unsigned cp = ((unsigned) (in[i] & 7) << 18) | ((unsigned) (in[i + 1] & 63) << 12) |
                              ((unsigned) (in[i + 2] & 63) << 6) | (unsigned) (in[i + 3] & 63);
                unsigned hi = 0xD800 + ((cp - 0x10000) >> 10), lo = 0xDC00 + ((cp - 0x10000) & 0x3FF);
                unsigned u[2] = {hi, lo};
                for (int j = 0; j < 2; j++) {
                    expect[e++] = (char) (0xE0 | (u[j] >> 12));
                    expect[e++] = (char) (0x80 | ((u[j] >> 6) & 63));
                    expect[e++] = (char) (0x80 | (u[j] & 63));
                }
                count++;
                i += 4;
            } else
                expect[e++] = in[i++];
        }
        assert_int_equal(utf8_astral_count(in, cut), count);
        assert_int_equal(utf8_astral_to_pairs(in, cut, out), e);
        assert_memory_equal(out, expect, e);
    }
}

/* What the engine's form gives back on the way out: the pair is the 4-byte
 * character again, a lone surrogate an escape (as Node's JSON.stringify). */
static void test_astral_round_trip(void **state)
{
    const char in[] = "\"\xF0\x9F\x98\x80\xED\xA0\x80\xF0\xA0\x80\x80\"";
    char pairs[64];
    size_t n = utf8_astral_to_pairs(in, sizeof in - 1, pairs);
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(json_append_engine_text(&b, pairs, n), 0);
    assert_string_equal(b.data, "\"\xF0\x9F\x98\x80\\ud800\xF0\xA0\x80\x80\"");
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_repair),
        cmocka_unit_test(test_json_string),
        cmocka_unit_test(test_internal_form),
        cmocka_unit_test(test_external),
        cmocka_unit_test(test_decode_nul),
        cmocka_unit_test(test_length),
        cmocka_unit_test(test_cut_length),
        cmocka_unit_test(test_astral_pairs),
        cmocka_unit_test(test_astral_pairs_random),
        cmocka_unit_test(test_astral_round_trip),
    };
    return cmocka_run_group_tests_name("common_utf8", tests, NULL, NULL);
}
