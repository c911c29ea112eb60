/* The ECMA-262 pattern matcher of tools/schema/regex.c: syntax, Unicode-mode
 * semantics on code points, lookaround, backreferences, compile errors, and
 * bounded work on catastrophic patterns. Expected values follow Node's
 * new RegExp(p, "u").test(s). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tools/schema/regex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 1 match, 0 no match, -1 budget; -2 when the pattern does not compile. */
static int search(const char *pattern, const char *s)
{
    char *err = NULL;
    struct schema__regex *re = schema__regex_compile(pattern, &err);
    if (re == NULL) {
        free(err);
        return -2;
    }
    int r = schema__regex_search(re, s, strlen(s), NULL);
    schema__regex_free(re);
    return r;
}

struct rcase {
    const char *pattern, *text;
    int want;
};

static void check_cases(const struct rcase *cases, size_t n)
{
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        int got = search(cases[i].pattern, cases[i].text);
        if (got != cases[i].want) {
            printf("pattern /%s/ on \"%s\": want %d, got %d\n", cases[i].pattern, cases[i].text,
                   cases[i].want, got);
            failed++;
        }
    }
    assert_int_equal(failed, 0);
}

#define CHECK(cases) check_cases(cases, sizeof cases / sizeof cases[0])

static void test_literals_and_search(void **state)
{
    (void) state;
    static const struct rcase cases[] = {
        {"abc", "xxabcxx", 1},
        {"abc", "ab", 0},
        {"^abc", "xabc", 0},
        {"abc$", "abcx", 0},
        {"^abc$", "abc", 1},
        {"", "", 1},
        {"^$", "", 1},
        {"^$", "x", 0},
        {"a|b|c", "zzc", 1},
        {"^(ab|cd)+$", "abcdab", 1},
        {"^(ab|cd)+$", "abce", 0},
        /* Annex B leniency (what Node accepts without the u flag): */
        {"x{", "x{", 1},
        {"a}", "a}", 1},
        {"^\\.$", ".", 1},
        {"^\\.$", "a", 0},
        {"^\\/$", "/", 1},
        {"^\\$\\^$", "$^", 1},
    };
    CHECK(cases);
}

static void test_class_escapes(void **state)
{
    (void) state;
    static const struct rcase cases[] = {
        {"^\\d+$", "0123456789", 1},
        {"^\\d$", "\xd9\xa3", 0}, /* ARABIC-INDIC DIGIT THREE: \d is ASCII only */
        {"^\\D+$", "ab", 1},
        {"^\\w+$", "az_AZ09", 1},
        {"^\\w+$", "h\xc3\xa9llo", 0}, /* \w is ASCII only without the i flag */
        {"^\\W+$", "!?", 1},
        {"^\\s+$", " \t\n\r\v\f\xc2\xa0\xe3\x80\x80\xef\xbb\xbf",
         1},                      /* incl. U+00A0 U+3000 U+FEFF */
        {"^\\s$", "\xc2\x85", 0}, /* U+0085 is not \s */
        {"^\\S+$", "ab", 1},
        {"^[^a-z]+$", "ABC123", 1},
        {"^[^a-z]+$", "ABc", 0},
        {"^[a\\-z]+$", "-az", 1},
        {"^[a-]+$", "a-", 1},
        {"^[-a]+$", "-a", 1},
        {"^[\\]]$", "]", 1},
        {"^[\\b]$", "\b", 1},
        {"^[\\d-x]+$", "1-x", 1}, /* Annex B: "-" after a class escape is literal */
        {"^[\\w.-]+@[\\w.-]+$", "a.b@c-d.e", 1},
        {"^.+$", "a\nb", 0},
        {"^[\\s\\S]+$", "a\nb", 1},
        {"^.$", "\xe2\x80\xa8", 0}, /* U+2028 is a line terminator */
    };
    CHECK(cases);
}

static void test_unicode_code_points(void **state)
{
    (void) state;
    static const struct rcase cases[] = {
        {"^.$", "\xf0\x9f\x98\x80", 1}, /* one emoji is one code point */
        {"^..$", "\xf0\x9f\x98\x80", 0},
        {"^\\u{1F600}$", "\xf0\x9f\x98\x80", 1},
        {"^\\uD83D\\uDE00$", "\xf0\x9f\x98\x80", 1}, /* surrogate pair escapes join */
        {"^[\\u{1F600}-\\u{1F64F}]$", "\xf0\x9f\x98\x83", 1},
        {"^[^\xf0\x9f\x98\x80]$", "\xf0\x9f\x98\x80", 0},
        {"^[^\xf0\x9f\x98\x80]$", "a", 1},
        {"^caf.$", "caf\xc3\xa9", 1},
        {"^\\x41\\u0042$", "AB", 1},
        {"^\\p{Letter}+$", "Hello\xcf\x80", 1},
        {"^\\p{Letter}+$", "123", 0},
        {"^\\p{L}+$", "\xe6\x97\xa5\xe6\x9c\xac", 1},
        {"^\\p{Lu}\\p{Ll}+$", "\xc3\x89mile", 1},
        {"^\\P{L}+$", "123", 1},
        {"^[\\p{L}\\d]+$", "ab12\xcf\x80", 1},
        {"^\\p{Nd}+$", "12\xd9\xa3", 1},
        {"^\\p{gc=Lu}$", "A", 1},
        {"^\\p{General_Category=Ll}$", "A", 0},
        {"^\\p{ASCII}+$", "abc", 1},
        {"^\\p{ASCII}+$", "ab\xc3\xa9", 0},
    };
    CHECK(cases);
}

static void test_quantifiers(void **state)
{
    (void) state;
    static const struct rcase cases[] = {
        {"^a{2,3}$", "a", 0},
        {"^a{2,3}$", "aa", 1},
        {"^a{2,3}$", "aaa", 1},
        {"^a{2,3}$", "aaaa", 0},
        {"^a{2,}$", "aaaaaa", 1},
        {"^a{2}$", "aa", 1},
        {"^a{2,3}?$", "aaa", 1},
        {"^a+?$", "aaa", 1},
        {"^<.+?>$", "<a><b>", 1},
        {"a.*?b", "axxbyyb", 1},
        {"^a.*?b$", "axxbyyb", 1},
        {"^(?:a|b)*?c$", "ababc", 1},
        {"^(a?){3}$", "aa", 1},
        {"^(a*?)*$", "aaa", 1},
        {"^(a*)*$", "aaab", 0},
        {"^(?:a+|b+)*c$", "aaabbbbaaac", 1},
        {"^\\d+(\\.\\d+)?$", "3.14", 1},
        {"^\\d+(\\.\\d+)?$", "3.", 0},
        {"^[a-c]{1,64}$", "abcabc", 1},
    };
    CHECK(cases);
}

static void test_assertions_and_lookaround(void **state)
{
    (void) state;
    static const struct rcase cases[] = {
        {"\\bfoo\\b", "a foo b", 1},
        {"\\bfoo\\b", "afoob", 0},
        {"\\Bfoo", "afoo", 1},
        {"^(?=.*\\d)(?=.*[a-z]).{8,}$", "abcdefg1", 1},
        {"^(?=.*\\d)(?=.*[a-z]).{8,}$", "abcdefgh", 0},
        {"^(?!foo)\\w+$", "foobar", 0},
        {"^(?!foo)\\w+$", "barfoo", 1},
        {"^(?:(?!ab).)*$", "xxaxbx", 1},
        {"^(?:(?!ab).)*$", "xxabx", 0},
        {"(?<=\\$)\\d+", "cost $42", 1},
        {"(?<=\\$)\\d+", "cost 42", 0},
        {"(?<!\\$)\\b\\d+", "$42", 0},
        {"(?<!\\$)\\b\\d+", "x 42", 1},
    };
    CHECK(cases);
}

static void test_groups_and_backrefs(void **state)
{
    (void) state;
    static const struct rcase cases[] = {
        {"^(\\w+)\\s\\1$", "hello hello", 1},
        {"^(\\w+)\\s\\1$", "hello world", 0},
        {"^(?<w>\\w+)-\\k<w>$", "ab-ab", 1},
        {"^(?<w>\\w+)-\\k<w>$", "ab-ac", 0},
        {"^((a)|b)+$", "ab", 1},
        {"^(a|ab)(c|bcd)(d*)$", "abcd", 1},
        {"^(a+?)\\1$", "aaaa", 1},
    };
    CHECK(cases);
}

static void test_compile_errors(void **state)
{
    (void) state;
    static const char *const bad[] = {
        "[",
        "(",
        ")",
        "*a",
        "a**",
        "\\q",
        "a{3,2}",
        "[z-a]",
        "(?i)a",
        "\\k<x>",
        "^(a)\\2$",
        "\\p{Foo}",
        "\\p{Script=Greek}",
        "\\u{110000}",
        "\\c1",
        "(?<1a>x)",
        "a{1,100001}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *err = NULL;
        struct schema__regex *re = schema__regex_compile(bad[i], &err);
        if (re != NULL)
            printf("pattern /%s/ compiled but should not\n", bad[i]);
        assert_null(re);
        assert_non_null(err);
        assert_true(strlen(err) > 5);
        free(err);
    }
    char *err = NULL;
    assert_null(schema__regex_compile("\\p{Script=Greek}", &err));
    assert_non_null(strstr(err, "unsupported Unicode property"));
    free(err);
    /* A huge expansion of counted repetitions is refused, not built. */
    assert_null(schema__regex_compile("(?:a{1000}){1000}", &err));
    assert_non_null(strstr(err, "too large"));
    free(err);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void test_catastrophic_patterns_end_fast(void **state)
{
    (void) state;
    char text[64];
    memset(text, 'a', 30);
    strcpy(text + 30, "!");
    double t0 = now_ms();
    /* Memoised: a definite "no match", in linear time. */
    assert_int_equal(search("^(a+)+$", text), 0);
    assert_int_equal(search("^(a|aa)+$", text), 0);
    assert_int_equal(search("(a*)*b", text), 0);
    assert_int_equal(search("^(\\w+\\s?)*$", text), 0);
    double t1 = now_ms();
    /* With a backreference there is no memo: the step budget ends it. */
    assert_int_equal(search("^(a|a)+\\1$", text), -1);
    double t2 = now_ms();
    printf("catastrophic patterns: memoised %.3f ms for 4, budget-bounded %.3f ms\n", t1 - t0,
           t2 - t1);
    assert_true(t1 - t0 < 100);
    assert_true(t2 - t1 < 2000);
}

static void test_explicit_budget(void **state)
{
    (void) state;
    struct schema__regex *re = schema__regex_compile("^(a|a)+\\1b$", NULL);
    assert_non_null(re);
    const char *text = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    unsigned long budget = 1000;
    assert_int_equal(schema__regex_search(re, text, strlen(text), &budget), -1);
    assert_int_equal(budget, 0);
    budget = 1000;
    assert_int_equal(schema__regex_search(re, "aab", 3, &budget), 1);
    assert_true(budget > 0 && budget < 1000);
    schema__regex_free(re);
}

static void test_long_input_is_linear(void **state)
{
    (void) state;
    size_t n = 200000;
    char *text = malloc(n + 1);
    memset(text, 'x', n);
    text[n] = '\0';
    struct schema__regex *re = schema__regex_compile("^[a-z]+$", NULL);
    assert_int_equal(schema__regex_search(re, text, n, NULL), 1);
    text[n - 1] = '!';
    assert_int_equal(schema__regex_search(re, text, n, NULL), 0);
    schema__regex_free(re);
    /* Unanchored and quadratic for a naive backtracker; linear with the memo. */
    re = schema__regex_compile("a*b", NULL);
    memset(text, 'a', n);
    assert_int_equal(schema__regex_search(re, text, n, NULL), 0);
    schema__regex_free(re);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literals_and_search),
        cmocka_unit_test(test_class_escapes),
        cmocka_unit_test(test_unicode_code_points),
        cmocka_unit_test(test_quantifiers),
        cmocka_unit_test(test_assertions_and_lookaround),
        cmocka_unit_test(test_groups_and_backrefs),
        cmocka_unit_test(test_compile_errors),
        cmocka_unit_test(test_catastrophic_patterns_end_fast),
        cmocka_unit_test(test_explicit_budget),
        cmocka_unit_test(test_long_input_is_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
