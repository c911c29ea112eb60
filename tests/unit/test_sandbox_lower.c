/* Unit tests of the lowering pass (sandbox/lower/lower.h): output shape where the
 * exact text matters (line preservation, let/const, arrows, main-program
 * wrapper), error reports (line, column, excerpt), limits on hostile input,
 * and a fuzz pass (random bytes, token soup, truncated programs) that must
 * only ever return 0 or -1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "common/buf.h"
#include "sandbox/lower/lower.h"

static char *lower_ok(const char *src, enum lower_mode mode)
{
    struct buf out;
    struct lower_error err;
    buf_init(&out, 0);
    int rc = sandbox_lower(src, strlen(src), mode, &out, &err);
    if (rc != 0)
        fail_msg("lowering failed: %s (line %d col %d)\n%s", err.message, err.line, err.column,
                 err.excerpt);
    return buf_steal(&out);
}

static struct lower_error lower_err(const char *src, size_t len)
{
    struct buf out;
    struct lower_error err;
    buf_init(&out, 0);
    int rc = sandbox_lower(src, len, LOWER_MODE_MAIN, &out, &err);
    assert_int_equal(rc, -1);
    assert_int_equal(out.len, 0);
    buf_free(&out);
    return err;
}

static int count_lines(const char *s)
{
    int n = 1;
    for (; *s; s++)
        if (*s == '\n')
            n++;
    return n;
}

/* The line (1-based) on which needle first appears in s, or 0. */
static int line_of(const char *s, const char *needle)
{
    const char *p = strstr(s, needle);
    if (!p)
        return 0;
    int n = 1;
    for (const char *q = s; q < p; q++)
        if (*q == '\n')
            n++;
    return n;
}

/* ---- output shape ----------------------------------------------------------------- */

static void test_let_const_become_var(void **state)
{
    (void)state;
    char *o = lower_ok("let a = 1;\nconst b = 2;\n", LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, "var a = 1;"));
    assert_non_null(strstr(o, "var b = 2;"));
    assert_null(strstr(o, "let"));
    free(o);
}

static void test_shadowing_renames(void **state)
{
    (void)state;
    char *o = lower_ok("let x = 1;\n{ let x = 2; f(x); }\ng(x);\n", LOWER_MODE_SCRIPT);
    /* the inner x becomes another var; the outer keeps its name */
    assert_non_null(strstr(o, "var x = 1;"));
    assert_non_null(strstr(o, "g(x)"));
    assert_null(strstr(o, "f(x)"));
    free(o);
}

/* Eval code shares the scope of the lowered program around a direct eval:
 * its generated names must differ from the program's ($N, x$N). */
static void test_eval_mode_names(void **state)
{
    (void)state;
    const char *src = "let x = 1;\n{ let x = 2; f(x); }\nconst [a] = g(x);\n";
    char *o = lower_ok(src, LOWER_MODE_EVAL);
    assert_non_null(strstr(o, "x$e"));
    assert_non_null(strstr(o, "$e"));
    for (const char *p = o; (p = strchr(p, '$')) != NULL; p++)
        assert_true(p[1] == 'e');
    free(o);
    o = lower_ok(src, LOWER_MODE_SCRIPT);
    assert_null(strstr(o, "$e"));
    free(o);
    struct buf out;
    struct lower_error e;
    buf_init(&out, 0);
    assert_int_equal(sandbox_lower("return 1;\n", 10, LOWER_MODE_EVAL, &out, &e), -1);
    assert_non_null(strstr(e.message, "Illegal return"));
    buf_free(&out);
}

static void test_arrow_without_this_needs_no_capture(void **state)
{
    (void)state;
    char *o = lower_ok("var f = (a, b) => a + b;\n", LOWER_MODE_SCRIPT);
    /* not a constructor, and its inferred name binds nothing inside */
    assert_non_null(strstr(o, "function f(a, b) { \"use duk noctor\"; \"use duk nobind\"; return a + b; }"));
    assert_null(strstr(o, "this"));
    free(o);
    o = lower_ok("function g() { return () => this.x; }\n", LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, "= this;"));
    free(o);
}

static void test_main_wrapper(void **state)
{
    (void)state;
    char *o = lower_ok("const a = await f();\na + 1\n", LOWER_MODE_MAIN);
    assert_int_equal(strncmp(o, "(function () {", 14), 0);
    assert_non_null(strstr(o, "__await(f())"));
    assert_non_null(strstr(o, "return ($1 = a + 1, $1);"));
    assert_int_equal(o[strlen(o) - 1], ')');
    assert_int_equal(count_lines(o), 3);
    free(o);
    /* a top-level return anywhere disables the implicit result */
    o = lower_ok("if (x) return 1;\nx + 2\n", LOWER_MODE_MAIN);
    assert_null(strstr(o, "x + 2, "));
    free(o);
    /* a lone (async) arrow is called */
    o = lower_ok("async () => {\n  return 5;\n}\n", LOWER_MODE_MAIN);
    assert_non_null(strstr(o, "return ($1 = (function"));
    assert_non_null(strstr(o, ")(), $1);"));
    free(o);
}

static void test_line_preservation(void **state)
{
    (void)state;
    static const char *src =
        "const {a,\n"
        "  b = M2,\n"
        "  ...r} = o;\n"
        "for (const x of xs) {\n"
        "  M5(x);\n"
        "}\n"
        "class K extends B {\n"
        "  f = M8;\n"
        "  m() { return super.m(M9); }\n"
        "}\n"
        "const s = `one\n"
        "two ${M12} three`;\n"
        "const g = async (p = M13) =>\n"
        "  await M14(p?.q ?? M14b);\n"
        "label: for (let i = 0; i < 3; i++) { fns.push(() => i); M15(); }\n"
        "M16()\n";
    char *o = lower_ok(src, LOWER_MODE_MAIN);
    assert_int_equal(count_lines(o), count_lines(src));
    /* defaults of a multi-line pattern run after the initialiser: its line */
    assert_int_equal(line_of(o, "M2"), 3);
    assert_int_equal(line_of(o, "M5"), 5);
    assert_int_equal(line_of(o, "M9"), 9);
    assert_int_equal(line_of(o, "\"one\\n\""), 11);
    assert_int_equal(line_of(o, "M12"), 12);
    assert_int_equal(line_of(o, "M13"), 13);
    assert_int_equal(line_of(o, "M14("), 14);
    assert_int_equal(line_of(o, "M14b"), 14);
    assert_int_equal(line_of(o, "M15"), 15);
    assert_int_equal(line_of(o, "M16"), 16);
    free(o);
}

static void test_return_keeps_its_argument(void **state)
{
    (void)state;
    /* a return whose argument starts on a later line must not meet ASI */
    char *o = lower_ok("function f() {\n  return (\n    1 + 2\n  );\n}\n", LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, "return ("));
    free(o);
}

static void test_typescript_erased(void **state)
{
    (void)state;
    char *o = lower_ok("interface I { a: number }\n"
                       "type T = I | null;\n"
                       "function f<T extends object>(x: T, y?: string): T { return x as T; }\n"
                       "let v = f<I>({ a: 1 })!;\n"
                       "enum E { A, B = 4 }\n",
                       LOWER_MODE_SCRIPT);
    assert_null(strstr(o, "interface"));
    assert_null(strstr(o, "number"));
    assert_non_null(strstr(o, "function f(x, y)"));
    assert_non_null(strstr(o, "f({a: 1})"));
    assert_non_null(strstr(o, "E[E[\"B\"] = 4] = \"B\""));
    assert_int_equal(count_lines(o), 6);
    free(o);
}

static void test_regex_lowering(void **state)
{
    (void)state;
    char *o = lower_ok("var r = /(?<y>\\d+)-\\k<y>/s;\n", LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, "__re(/(\\d+)-\\1/, [\"y\", 1])"));
    free(o);
    o = lower_ok("var r = /a.b[.]/s;\n", LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, "/a[\\s\\S]b[.]/"));
    free(o);
}

/* The u flag: code-point atoms become surrogate-pair-aware groups, the flag goes. */
static void test_regex_unicode_lowering(void **state)
{
    (void)state;
    static const struct {
        const char *src, *want;
    } cases[] = {
        {"/a./u", "/a(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|(?![\\uD800-\\uDBFF][\\uDC00-\\uDFFF])"
                  "[^\\n\\r\\u2028\\u2029])/;"},
        {"/./su", "/(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|(?![\\uD800-\\uDBFF][\\uDC00-\\uDFFF])"
                  "[\\s\\S])/;"},
        /* a class of BMP characters stays a class */
        {"/[a-z\\d]+/giu", "/[\\u0061-\\u007A\\d]+/gi;"},
        /* astral endpoints: one alternative per high surrogate run */
        {"/[\\u{1F600}-\\u{1F64F}]/u", "/(?:\\uD83D[\\uDE00-\\uDE4F])/;"},
        {"/[\\u{103FF}-\\u{10C00}]/u", "/(?:\\uD800\\uDFFF|[\\uD801-\\uD802][\\uDC00-\\uDFFF]|"
                                       "\\uD803\\uDC00)/;"},
        {"/[x\xf0\x9f\x98\x80]/u", "/(?:[\\u0078]|\\uD83D\\uDE00)/;"},
        /* a negated class: the BMP rest, guarded, and the astral code points left out */
        {"/[^\\u{10000}-\\u{103FF}]/u", "/(?:(?![\\uD800-\\uDBFF][\\uDC00-\\uDFFF])"
                                        "[^]|[\\uD801-\\uDBFF][\\uDC00-\\uDFFF])/;"},
        {"/[^\\S]/u", "/(?:(?![\\uD800-\\uDBFF][\\uDC00-\\uDFFF])[^\\S])/;"},
        {"/\\S+/u", "/(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|(?![\\uD800-\\uDBFF][\\uDC00-\\uDFFF])"
                    "\\S)+/;"},
        /* an astral atom is one: a quantifier applies to the whole pair */
        {"/\\u{1F600}+\\uD83D\\uDE01?\\u0041/u", "/(?:\\uD83D\\uDE00)+(?:\\uD83D\\uDE01)?\\u0041/;"},
        {"/\\s\\w\\d/u", "/\\s\\w\\d/;"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[256];
        snprintf(src, sizeof src, "var r = %s;\n", cases[i].src);
        char *o = lower_ok(src, LOWER_MODE_SCRIPT);
        if (!strstr(o, cases[i].want))
            fail_msg("%s: got %s", cases[i].src, o);
        free(o);
    }
    static const char *const bad[] = {"/[\\u{110000}]/u", "/\\u{}/u", "/[\\d-z]/u", "/[z-a]/u",
                                      "/[\\q]/u", "/[\\p{L}]/u", "/[a/u"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct lower_error e = lower_err(bad[i], strlen(bad[i]));
        if (!strstr(e.message, "regular expression"))
            fail_msg("%s: got '%s'", bad[i], e.message);
    }
}

/* ?? with an unparenthesised || or && operand is an early error; parentheses make it valid */
static void test_nullish_mixed_with_logical(void **state)
{
    (void)state;
    static const char *const bad[] = {"a ?? b || c", "a || b ?? c", "a && b ?? c", "a ?? b && c",
                                      "a ?? b ?? c || d"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct lower_error e = lower_err(bad[i], strlen(bad[i]));
        if (!strstr(e.message, "Cannot mix"))
            fail_msg("%s: got '%s'", bad[i], e.message);
        assert_int_equal(e.line, 1);
    }
    static const char *const good[] = {"(a ?? b) || c;", "a ?? (b || c);", "(a && b) ?? c;",
                                       "a ?? b ?? c;", "a || b && c;"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        free(lower_ok(good[i], LOWER_MODE_SCRIPT));
}

/* A main program that only parses with `await` as a name runs as that script;
 * one that mixes both keeps the async body's error. */
static void test_main_await_as_identifier(void **state)
{
    (void)state;
    char *o = lower_ok("var await = 1;\nasync function await2() {}\nawait;\n", LOWER_MODE_MAIN);
    assert_non_null(strstr(o, "var await = 1;"));
    assert_int_equal(count_lines(o), 4);
    free(o);
    o = lower_ok("const v = await 1;\nv\n", LOWER_MODE_MAIN);
    assert_non_null(strstr(o, "__await"));
    free(o);
    const char *mixed = "var await = 1;\nawait f();\n";
    struct lower_error e = lower_err(mixed, strlen(mixed));
    assert_int_equal(e.line, 1);
    assert_non_null(strstr(e.message, "await"));
}

/* The safety rule of research/duktape.md 1.4: no await/yield ever moves
 * into a function the lowering made up. */
static void test_await_never_in_synthesised_function(void **state)
{
    (void)state;
    static const char *srcs[] = {
        "for (let i = 0; i < 3; i++) { await x; fns.push(() => i); }\n",
        "for (const [k, v] of await m) { await f(k); fns.push(() => v); }\n",
        "const { a = await d(), ...r } = await o;\n",
        "f(...(await xs), await y?.z?.(await w));\n",
        "for await (const x of gen()) { s += x ?? await q; }\n",
    };
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        char *o = lower_ok(srcs[i], LOWER_MODE_MAIN);
        const char *aw = strstr(o, "__await(");
        assert_non_null(aw);
        /* the only functions before the first await are the main wrapper
         * and arrows the source wrote after it */
        const char *fn = strstr(o + 14, "function");
        assert_true(fn == NULL || fn > aw);
        free(o);
    }
}

static void test_loop_closures_use_catch_scopes(void **state)
{
    (void)state;
    char *o = lower_ok("for (let i = 0; i < 3; i++) fns.push(() => i);\n", LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, "catch (i)"));
    assert_non_null(strstr(o, "finally {"));
    free(o);
    /* no closure, no catch scope: a plain var loop */
    o = lower_ok("for (let i = 0; i < 3; i++) s += i;\n", LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, "for (var i = 0; i < 3; i++)"));
    assert_null(strstr(o, "catch"));
    free(o);
}

/* An async body that reads neither this nor arguments (nor eval, super,
 * new.target) is spawned without them; a class constructor's check is one
 * expression. */
static void test_async_body_this_only_when_read(void **state)
{
    (void)state;
    char *o = lower_ok("async function f(a) { return a; }\n"
                       "async function g() { return this.x; }\n"
                       "async function h() { return eval('1'); }\n"
                       "class C {}\n"
                       "class D extends C { async m() { return super.toString; } }\n",
                       LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, "__spawn(function () { \"use duk noctor\";return a; });"));
    assert_non_null(strstr(o, "return this.x; }, this, arguments);"));
    assert_non_null(strstr(o, "eval(__evalCode('1')); }, this, arguments);"));
    assert_non_null(strstr(o, "this instanceof C || __noNew(\"C\");"));
    const char *m = strstr(o, "toString");
    assert_non_null(m);
    assert_non_null(strstr(m, "}, this, arguments);"));
    free(o);
}

static void test_for_of_array_fast_path(void **state)
{
    (void)state;
    char *o = lower_ok("function f(xs) { for (const x of xs) s += x; }\n", LOWER_MODE_SCRIPT);
    /* arrays run as an index loop (other iterables through a record read
     * the same way): the test reads length, the value by index */
    assert_non_null(strstr(o, ".__arr$ || ("));
    assert_non_null(strstr(o, " = __of("));
    assert_non_null(strstr(o, ".length; ) "));
    assert_non_null(strstr(o, "var x = $"));
    assert_non_null(strstr(o, "finally"));
    free(o);
    /* a loop of the program's top level (not inside another loop) runs
     * once: no array test, __of always (it returns arrays as they are) */
    o = lower_ok("for (const x of xs) s += x;\n", LOWER_MODE_SCRIPT);
    assert_null(strstr(o, "__arr$"));
    assert_non_null(strstr(o, " = __of(xs); try { do { for ("));
    assert_non_null(strstr(o, "} while (__more($"));
    assert_non_null(strstr(o, "finally { __done($"));
    free(o);
    o = lower_ok("while (g()) for (const x of xs) s += x;\n", LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, ".__arr$ || ("));
    free(o);
    /* known arrays (a literal; a let/const initialised with one and never
     * assigned again): no test, no try */
    o = lower_ok("const ys = [1, 2];\nfor (const y of ys) s += y;\nfor (const w of [3]) s += w;\n",
                 LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, " < ys.length; ) { var y = ys[$"));
    assert_null(strstr(o, "__of("));
    assert_null(strstr(o, "try"));
    free(o);
    o = lower_ok("let zs = [1];\nzs = g();\nfor (const z of zs) s += z;\n", LOWER_MODE_SCRIPT);
    assert_non_null(strstr(o, "__of("));
    free(o);
}

/* ---- errors ------------------------------------------------------------------------ */

static void test_syntax_error_position(void **state)
{
    (void)state;
    const char *src = "let a = 1;\nlet b = (2 + ;\n";
    struct lower_error e = lower_err(src, strlen(src));
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 14);
    assert_non_null(strstr(e.message, "Unexpected token ';'"));
    assert_string_equal(e.excerpt, "let b = (2 + ;\n             ^");
}

/* `await` in a function that is not async: the error is at the await, says
 * why, and names where the enclosing function starts */
static void test_await_outside_async_function(void **state)
{
    (void)state;
    const char *src = "const xs = [1, 2];\nxs.forEach(x => {\n  await sleep(1);\n});\n";
    struct lower_error e = lower_err(src, strlen(src));
    assert_int_equal(e.line, 3);
    assert_int_equal(e.column, 3);
    assert_string_equal(e.message, "'await' is only valid in async functions: the enclosing arrow "
                                   "function at line 2, column 12 is not async (mark it `async`)");
    src = "function f() {\n  for await (const x of g()) {}\n}\n";
    e = lower_err(src, strlen(src));
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 7);
    assert_non_null(strstr(e.message, "the enclosing function at line 1, column 1 is not async"));
    src = "async function f(a = await g()) {}";
    e = lower_err(src, strlen(src));
    assert_non_null(strstr(e.message, "'await' is not allowed in a function's parameters"));
    src = "async () => { (a = await g()) => a; };";
    e = lower_err(src, strlen(src));
    assert_non_null(strstr(e.message, "'await' is not allowed in an arrow function's parameters"));
    /* the top level of the program is an async body */
    free(lower_ok("await 1;\nconst f = async (x = 1) => (y = async () => await y) => 0;\n",
                  LOWER_MODE_MAIN));
}

static void test_column_counts_code_points(void **state)
{
    (void)state;
    const char *src = "const s = \"\xc3\xa9\xc3\xa9\"; )";
    struct lower_error e = lower_err(src, strlen(src));
    assert_int_equal(e.line, 1);
    assert_int_equal(e.column, 17);
}

static void test_unsupported_messages(void **state)
{
    (void)state;
    static const struct {
        const char *src, *needle;
    } cases[] = {
        {"/(?<=a)b/", "lookbehind"},
        {"/a/y", "sticky"},
        {"/\\p{L}/u", "property"},
        {"let n = 10n;", "BigInt"},
        {"import x from 'y';", "import"},
        {"export const a = 1;", "export"},
        {"@dec class A {}", "decorators"},
        {"namespace N { }", "namespaces"},
        {"`unterminated", "Unterminated template"},
        {"'abc", "Unterminated string"},
        {"/* open", "Unterminated comment"},
        {"x = #p;", "Unexpected"},
        {"class A { m() { return this.#nope; } }", "#nope"},
        {"({a = 1});", "shorthand"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lower_error e = lower_err(cases[i].src, strlen(cases[i].src));
        if (!strstr(e.message, cases[i].needle))
            fail_msg("%s: got '%s'", cases[i].src, e.message);
        assert_true(e.line >= 1 && e.column >= 1);
    }
}

static void test_deep_nesting_is_an_error(void **state)
{
    (void)state;
    static const char opens[] = "([{";
    for (int k = 0; k < 3; k++) {
        size_t n = 100000;
        char *s = malloc(n + 1);
        memset(s, opens[k], n);
        s[n] = 0;
        struct lower_error e = lower_err(s, n);
        assert_non_null(strstr(e.message, "too deep"));
        free(s);
    }
    /* long left-deep chains too */
    size_t n = 200000;
    char *s = malloc(n * 2 + 2);
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = 'a';
        s[2 * i + 1] = '+';
    }
    s[2 * n] = 'a';
    s[2 * n + 1] = 0;
    struct lower_error e = lower_err(s, 2 * n + 1);
    assert_non_null(strstr(e.message, "too deep"));
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = 'a';
        s[2 * i + 1] = '.';
    }
    e = lower_err(s, 2 * n + 1);
    assert_non_null(strstr(e.message, "too deep"));
    free(s);
}

static void test_moderate_nesting_is_fine(void **state)
{
    (void)state;
    struct buf src;
    buf_init(&src, 0);
    for (int i = 0; i < 100; i++)
        buf_append_str(&src, "(");
    buf_append_str(&src, "1");
    for (int i = 0; i < 100; i++)
        buf_append_str(&src, ")");
    char *o = lower_ok(src.data, LOWER_MODE_MAIN);
    free(o);
    buf_free(&src);
}

static void test_large_program(void **state)
{
    (void)state;
    /* 10 MB of statements lowers (or is refused cleanly) */
    struct buf src, out;
    buf_init(&src, 0);
    buf_init(&out, 0);
    while (src.len < (10u << 20))
        buf_append_str(&src, "{ const v = [1, 2, 3].map(x => x * 2); total += v.length; }\n");
    struct lower_error err;
    int rc = sandbox_lower(src.data, src.len, LOWER_MODE_MAIN, &out, &err);
    assert_int_equal(rc, 0);
    assert_true(out.len > src.len / 2);
    buf_free(&src);
    buf_free(&out);
    /* a huge string literal */
    buf_init(&src, 0);
    buf_append_str(&src, "const s = \"");
    while (src.len < (4u << 20))
        buf_append_str(&src, "abcdefghij");
    buf_append_str(&src, "\";\ns.length\n");
    rc = sandbox_lower(src.data, src.len, LOWER_MODE_MAIN, &out, &err);
    assert_int_equal(rc, 0);
    buf_free(&src);
    buf_free(&out);
}

static void test_too_large_input(void **state)
{
    (void)state;
    size_t n = (size_t)17 << 20;
    char *s = malloc(n);
    memset(s, ' ', n);
    struct lower_error e = lower_err(s, n);
    assert_non_null(strstr(e.message, "too large"));
    free(s);
}

/* ---- fuzz ------------------------------------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

static void lower_any(const char *s, size_t n)
{
    struct buf out;
    struct lower_error err;
    buf_init(&out, 0);
    for (int mode = 0; mode < 2; mode++) {
        int rc = sandbox_lower(s, n, mode ? LOWER_MODE_SCRIPT : LOWER_MODE_MAIN, &out, &err);
        assert_true(rc == 0 || rc == -1);
        if (rc < 0) {
            assert_true(err.line >= 1);
            assert_true(err.message[0] != 0);
        }
        buf_reset(&out);
    }
    buf_free(&out);
}

static const char *const soup[] = {
    "let", "const", "var", "x", "y", "=", "=>", "(", ")", "[", "]", "{", "}", ",", ";", ".",
    "?.", "??", "?", ":", "...", "async", "await", "function", "*", "yield", "class",
    "extends", "super", "this", "new", "return", "for", "of", "in", "if", "else", "`a${",
    "}`", "`t`", "/re/g", "/", "1", "0x1_0", "'s'", "\"d\"", "#p", "static", "get", "set",
    "<", ">", "T", "as", "satisfies", "!", "interface", "type", "enum", "try", "catch",
    "finally", "throw", "switch", "case", "default", "break", "continue", "lbl:", "\n",
    "++", "--", "+=", "?" "?=", "||=", "&&=", "**", "delete", "typeof", "void", "new.target",
    "import", "export", "@", "\\u0061", "\xe2\x80\xa8", "\xff", "#!", "/*", "*/", "//",
};

static const char *const programs[] = {
    "const {a, b: [c = 1, ...d], ...e} = obj;\nfor (const [k, v] of m) { fns.push(() => k + v); }\n",
    "class A extends B { #x = 1; static s = 2; constructor(p) { super(p); } get g() { return "
    "super.g + this.#x; } static { A.t = 3; } }\n",
    "async function* g(a = 1, ...r) { for await (const x of y) { yield x ?? a; } return await "
    "z?.[0]?.(...r); }\n",
    "const t = tag`a${b}c${`n${d}`}`; label: for (let i = 0; i < 3; i++) { if (i) continue "
    "label; }\n",
    "enum E { A = 1, B, C = 'c' }\nfunction f<T extends keyof U, U>(x: T): Promise<U[T]> { "
    "return x as any; }\n",
    "let o = { a, [k]: 1, m() {}, get x() { return 1 }, async *h() {}, ...s };\nx ||= y &&= z "
    "?" "?= 0;\n",
    "try { throw e } catch ({ message }) { console.log(message) } finally { done() }\nswitch "
    "(x) { case 1: let y = 2; break; default: }\n",
};

static void test_fuzz_random_bytes(void **state)
{
    (void)state;
    char buf[512];
    for (int it = 0; it < 3000; it++) {
        size_t n = rnd() % sizeof buf;
        for (size_t i = 0; i < n; i++)
            buf[i] = (char)(rnd() & 0xff);
        lower_any(buf, n);
    }
}

static void test_fuzz_token_soup(void **state)
{
    (void)state;
    struct buf b;
    buf_init(&b, 0);
    for (int it = 0; it < 4000; it++) {
        buf_reset(&b);
        int n = (int)(rnd() % 60);
        for (int i = 0; i < n; i++) {
            buf_append_str(&b, soup[rnd() % (sizeof soup / sizeof soup[0])]);
            buf_append_char(&b, (rnd() & 3) ? ' ' : '\n');
        }
        lower_any(b.data ? b.data : "", b.len);
    }
    buf_free(&b);
}

static void test_fuzz_truncations_and_mutations(void **state)
{
    (void)state;
    for (size_t p = 0; p < sizeof programs / sizeof programs[0]; p++) {
        const char *s = programs[p];
        size_t n = strlen(s);
        lower_any(s, n);
        for (size_t cut = 0; cut < n; cut++)
            lower_any(s, cut);
        char *m = malloc(n + 1);
        for (int it = 0; it < 300; it++) {
            memcpy(m, s, n + 1);
            int edits = 1 + (int)(rnd() % 3);
            for (int k = 0; k < edits; k++)
                m[rnd() % n] = "(){}[];,=.`'\"/#<>?:x1 \n"[rnd() % 24];
            lower_any(m, n);
        }
        free(m);
    }
}

/* Every differential case (tests/lower/cases), cut at every third byte:
 * the truncations of real programs reach deep into the parser. */
static void test_fuzz_case_truncations(void **state)
{
    (void)state;
    DIR *d = opendir("tests/lower/cases");
    if (!d)
        skip(); /* run from the repository root (scripts/run-tests.sh does) */
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 4 || (strcmp(e->d_name + n - 3, ".js") != 0 && strcmp(e->d_name + n - 3, ".ts") != 0))
            continue;
        char path[512];
        snprintf(path, sizeof path, "tests/lower/cases/%s", e->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        char buf[8192];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        for (size_t cut = 0; cut <= len; cut += 3)
            lower_any(buf, cut);
        files++;
    }
    closedir(d);
    assert_true(files > 100);
}

/* Found by tests/fuzz/fuzz_lower: an erased TypeScript declaration as the
 * body of if/while/a label left no statement, so the next one became the
 * body; a TS non-null assertion after a literal was kept; "0_1" lost its
 * separator; a regex group name went unchecked into a string. */
static void test_fuzz_findings(void **state)
{
    (void) state;
    char *o = lower_ok("if (x) type T = number;\nf();\n", LOWER_MODE_SCRIPT);
    assert_string_equal(o, "if (x);\nf();\n");
    free(o);
    o = lower_ok("l: declare let s: string;\nwhile (x) interface I {}\n", LOWER_MODE_SCRIPT);
    assert_string_equal(o, "l: ;\nwhile (x);\n");
    free(o);
    o = lower_ok("y = 8! + \"s\"!;\n", LOWER_MODE_SCRIPT);
    assert_string_equal(o, "y = 8 + \"s\";\n");
    free(o);
    struct lower_error e = lower_err("x = 0_1;\n", 9);
    assert_string_equal(e.message, "Numeric separator can not be used after leading 0");
    e = lower_err("x = /(?<\"y>a)/;\n", 15);
    assert_non_null(strstr(e.message, "invalid capture group name"));
    e = lower_err("function* g() { !yield 1; }\n", 29);
    assert_int_equal(e.column, 18);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_let_const_become_var),
        cmocka_unit_test(test_shadowing_renames),
        cmocka_unit_test(test_eval_mode_names),
        cmocka_unit_test(test_fuzz_findings),
        cmocka_unit_test(test_arrow_without_this_needs_no_capture),
        cmocka_unit_test(test_main_wrapper),
        cmocka_unit_test(test_line_preservation),
        cmocka_unit_test(test_return_keeps_its_argument),
        cmocka_unit_test(test_typescript_erased),
        cmocka_unit_test(test_regex_lowering),
        cmocka_unit_test(test_regex_unicode_lowering),
        cmocka_unit_test(test_nullish_mixed_with_logical),
        cmocka_unit_test(test_main_await_as_identifier),
        cmocka_unit_test(test_await_never_in_synthesised_function),
        cmocka_unit_test(test_loop_closures_use_catch_scopes),
        cmocka_unit_test(test_async_body_this_only_when_read),
        cmocka_unit_test(test_for_of_array_fast_path),
        cmocka_unit_test(test_syntax_error_position),
        cmocka_unit_test(test_column_counts_code_points),
        cmocka_unit_test(test_await_outside_async_function),
        cmocka_unit_test(test_unsupported_messages),
        cmocka_unit_test(test_deep_nesting_is_an_error),
        cmocka_unit_test(test_moderate_nesting_is_fine),
        cmocka_unit_test(test_large_program),
        cmocka_unit_test(test_too_large_input),
        cmocka_unit_test(test_fuzz_random_bytes),
        cmocka_unit_test(test_fuzz_token_soup),
        cmocka_unit_test(test_fuzz_truncations_and_mutations),
        cmocka_unit_test(test_fuzz_case_truncations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
