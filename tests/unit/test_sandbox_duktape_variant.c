/* Unit tests of the compiler patches of our Duktape build (sandbox/duktape/patches/,
 * 0011 to 0013: token replay in the compiler's second pass, ASCII fast paths
 * of the lexer, direct appends of declarations): programs whose meaning depends on what the patches
 * skip or shortcut (line terminators and automatic semicolons, regexp versus division, strict mode,
 * escaped and non-ASCII identifiers, error lines) give the results and errors of stock Duktape,
 * also when mark-and-sweep runs during a compile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "duktape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Evaluates src in a fresh heap; returns its value (or the error) as text. */
static char *eval_in(duk_context *ctx, const char *src)
{
    duk_push_string(ctx, src);
    duk_push_string(ctx, "program.js");
    int rc = duk_pcompile(ctx, DUK_COMPILE_EVAL);
    if (rc == 0)
        rc = duk_pcall(ctx, 0);
    char *out;
    if (rc != 0 && duk_is_error(ctx, -1)) {
        duk_get_prop_string(ctx, -1, "lineNumber");
        long line = (long) duk_get_int(ctx, -1);
        duk_pop(ctx);
        const char *msg = duk_safe_to_string(ctx, -1);
        out = malloc(strlen(msg) + 32);
        sprintf(out, "%s @%ld", msg, line);
    } else {
        out = strdup(duk_safe_to_string(ctx, -1));
    }
    duk_pop(ctx);
    return out;
}

static char *eval_str(const char *src)
{
    duk_context *ctx = duk_create_heap_default();
    assert_non_null(ctx);
    char *out = eval_in(ctx, src);
    duk_destroy_heap(ctx);
    return out;
}

#define EXPECT(src, want)                                                                          \
    do {                                                                                           \
        char *got_ = eval_str(src);                                                                \
        if (strcmp(got_, (want)) != 0)                                                             \
            fail_msg("%s\n  got:  %s\n  want: %s", (src), got_, (want));                           \
        free(got_);                                                                                \
    } while (0)

/* A line terminator before a replayed token still inserts a semicolon (the
 * code of the second pass is the code that runs). */
static void test_asi_in_second_pass(void **state)
{
    (void) state;
    EXPECT("function f() { var a = 1\nvar b = 2\nreturn\na + b }\nString(f())", "undefined");
    EXPECT("function f() { var a = 1\nvar b = 2\nreturn a\n+ b }\nf()", "3");
    EXPECT("function f() { var i = 1, j = 5\ni\n++j\nreturn [i, j].join() }\nf()", "1,6");
    /* No line terminator before the skipped function's closing brace. */
    EXPECT("var f = function () { return 1 }\n(2)\nf", "1");
    EXPECT("function g() { var h = function () { return 7 }\n(3)\nreturn h }\ng()", "7");
}

/* Regexp literals after ')' and '}' and division, in functions compiled twice. */
static void test_regexp_and_division(void **state)
{
    (void) state;
    EXPECT("function f(s) { if (s) /b+/g.test(s); var n = s.length / 2 / 1;\n"
           "return s.replace(/b+/g, 'c') + n }\nf('abbb')",
           "ac2");
    EXPECT("function g() {}\n/x/.test('x')", "true");
    EXPECT("function h(a, g) { return (function () {} / 1, a / 2 / g) }\nString(h(8, 2))", "2");
    EXPECT("function k() { var re = /[/\\]]+/; return re.exec('a/]b')[0] }\nk()", "/]");
    EXPECT("function m() { return [1, 2].map(function (x) { return x / 2 })[1] / /1/.source }\nm()",
           "1");
}

/* Escaped and non-ASCII identifiers; escaped keywords are identifiers. */
static void test_identifiers(void **state)
{
    (void) state;
    EXPECT("function f() { var \\u0061bc = 1, caf\xc3\xa9 = 2, a\xc3\xa9 = 3, ab\\u0063d = 4;\n"
           "return abc + caf\xc3\xa9 + a\xc3\xa9 + abcd }\nf()",
           "10");
    EXPECT("function f() { var o = {}; o.\\u0069f = 5; return o['if'] }\nf()", "5");
    EXPECT("function f() { var \xce\xbb\xce\xbb = 6; return \xce\xbb\xce\xbb }\nf()", "6");
    EXPECT("var zz = 1; zz", "1");
    EXPECT("function f() { var let = 1, yield_ = 2; return let + yield_ }\nf()", "3");
}

/* Strict mode starts at the directive: tokens before it were lexed sloppy. */
static void test_strict_directive(void **state)
{
    (void) state;
    EXPECT("function f() { 'use strict'; return typeof this }\nf()", "undefined");
    EXPECT("function f() { return typeof this }\nf()", "object");
    char *o = eval_str("function f() {\n 'use strict';\n var x = 010;\n}");
    assert_non_null(strstr(o, "SyntaxError"));
    free(o);
    o = eval_str("function f() {\n 'use strict';\n var implements = 1;\n}");
    assert_non_null(strstr(o, "SyntaxError"));
    free(o);
}

/* Errors name the user's line: syntax errors (in either pass) and runtime ones. */
static void test_error_lines(void **state)
{
    (void) state;
    EXPECT("function f() {\n\n  null.x;\n}\nf()", "TypeError: cannot read property 'x' of null @3");
    EXPECT("var s = 'a\\\nb';\nfunction h() {\n /* c\n d */ return undefined.y; }\nh()",
           "TypeError: cannot read property 'y' of undefined @5");
    char *o = eval_str("function f() {\n var x = 1;\n var y = ;\n}");
    assert_non_null(strstr(o, "SyntaxError"));
    assert_non_null(strstr(o, "(line 3)"));
    free(o);
    o = eval_str("function f() {\n var x = 1;\n");
    assert_non_null(strstr(o, "SyntaxError"));
    assert_non_null(strstr(o, "end of input"));
    free(o);
    o = eval_str("function f() {\n lbl: for (;;) { break nope; }\n}");
    assert_non_null(strstr(o, "SyntaxError"));
    assert_non_null(strstr(o, "(line 2)"));
    free(o);
}

/* Declarations (hoisted vars and functions, in order) and labels (reset after
 * each statement) as recorded by the first pass. */
static void test_declarations_and_labels(void **state)
{
    (void) state;
    EXPECT("function f() { var r = [typeof a, typeof g, g(), h()]; var a = 1;\n"
           "function g() { return 'g' } function h() { return i() } function i() { return 'i' }\n"
           "var a = 2, b = a; r.push(a, b); return r.join() }\nf()",
           "undefined,function,g,i,2,2");
    EXPECT("function f() { var n = 0;\n"
           "outer: for (var i = 0; i < 3; i++) { inner: for (var j = 0; j < 3; j++) {\n"
           "if (j == 1) continue outer; if (i == 2) break outer; n += 10 * i + j; } }\n"
           "a: { b: { break a; } n = -1; } c: for (;;) { break c; }\n"
           "d: for (var k = 0; k < 2; k++) { e: { if (k) break d; break e; } n += 100; }\n"
           "return n }\nf()",
           "110");
    char *o = eval_str("function f() {\n a: { a: ; }\n}");
    assert_non_null(strstr(o, "SyntaxError"));
    free(o);
    EXPECT("function f() {\n a: { }\n a: { break a; }\n return 1 }\nf()", "1");
}

/* An allocator that fails every 7th call: Duktape then runs an emergency
 * mark-and-sweep and retries, so collections happen in the middle of
 * compiles; the recorded token strings must survive them. */
static unsigned long alloc_calls;
static void *flaky_alloc(void *udata, duk_size_t size)
{
    (void) udata;
    return ++alloc_calls % 7 == 0 ? NULL : malloc(size);
}
static void *flaky_realloc(void *udata, void *ptr, duk_size_t size)
{
    (void) udata;
    return ++alloc_calls % 7 == 0 && size > 0 ? NULL : realloc(ptr, size);
}
static void plain_free(void *udata, void *ptr)
{
    (void) udata;
    free(ptr);
}

static void test_collections_during_compile(void **state)
{
    (void) state;
    duk_context *ctx = duk_create_heap(flaky_alloc, flaky_realloc, plain_free, NULL, NULL);
    assert_non_null(ctx);
    /* Many distinct identifiers and strings, in nested functions. */
    size_t cap = 1 << 20, len = 0;
    char *src = malloc(cap);
    len += (size_t) sprintf(src + len, "function outer() { var total = 0;\n");
    for (int i = 0; i < 300; i++)
        len += (size_t) sprintf(src + len,
                                "function f%d(a%d) { var s%d = 'v%d_' + a%d; "
                                "return s%d.length + (function () { return q%d_%d(); "
                                "function q%d_%d() { return %d } })() }\n"
                                "total += f%d('x%d');\n",
                                i, i, i, i, i, i, i, i, i, i, i, i, i);
    len += (size_t) sprintf(src + len, "return total }\nouter()");
    assert_true(len < cap);
    char *o = eval_in(ctx, src);
    /* f_i returns len('v<i>_x<i>') + i. */
    long want = 0;
    for (int i = 0; i < 300; i++) {
        char t[64];
        want += (long) sprintf(t, "v%d_x%d", i, i) + i;
    }
    char w[32];
    sprintf(w, "%ld", want);
    assert_string_equal(o, w);
    free(o);
    free(src);
    duk_destroy_heap(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_asi_in_second_pass),
        cmocka_unit_test(test_regexp_and_division),
        cmocka_unit_test(test_identifiers),
        cmocka_unit_test(test_strict_directive),
        cmocka_unit_test(test_error_lines),
        cmocka_unit_test(test_declarations_and_labels),
        cmocka_unit_test(test_collections_during_compile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
