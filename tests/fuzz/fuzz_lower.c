/* Fuzz target: the lowering pass (sandbox/lower/: JavaScript/TypeScript to
 * ES5). The first byte picks the mode (program, script, eval code); the rest
 * is the source. It must never crash, hang or leak; when it accepts the
 * source, its output must keep the line count (program mode) and, for an
 * ASCII source, compile in Duktape (compiled only, never run). Non-ASCII
 * sources are not compiled: the lexer takes any non-space code point above
 * U+007F as an identifier character, where Duktape wants a Unicode letter,
 * so "\u07eb" is an identifier to one and a SyntaxError to the other (the
 * program still gets a SyntaxError, from Duktape, on the right line); the
 * same goes for an escape in an ASCII source ("a\u0097"), whose "invalid
 * token" is let through. */
#include "fuzz.h"

#include "common/buf.h"
#include "sandbox/lower/lower.h"

#include "duktape.h"

#include <string.h>

static duk_context *ctx;
static unsigned compiles;

static void fatal(void *udata, const char *msg)
{
    fprintf(stderr, "duktape fatal: %s\n", msg ? msg : "");
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup();
    ctx = duk_create_heap(NULL, NULL, NULL, NULL, fatal);
    return 0;
}

/* Lines ended by LF, CR or CRLF; -1 when the text has U+2028 or U+2029,
 * which end a line in a template but not in a string literal (ES2019),
 * so that counting them needs a lexer. */
static long count_lines(const char *s, size_t n)
{
    long lines = 1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n' || s[i] == '\r') {
            if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
                i++;
            lines++;
        } else if ((unsigned char) s[i] == 0xE2 && i + 2 < n && (unsigned char) s[i + 1] == 0x80 &&
                   ((unsigned char) s[i + 2] == 0xA8 || (unsigned char) s[i + 2] == 0xA9)) {
            return -1;
        }
    }
    return lines;
}

/* Compiles the output as sloppy code: its "use strict" directives (class
 * bodies) are neutralised, because the lowering leaves strict-mode early
 * errors of the source (reserved words such as `private`, legacy octal
 * numbers) to Duktape on purpose; what is checked is the lowering's own
 * syntax. */
static duk_ret_t compile(duk_context *c, void *udata)
{
    const struct buf *out = udata;
    size_t n = out->len;
    char *copy = xmalloc(n + 1);
    memcpy(copy, out->data ? out->data : "", n);
    for (char *p = copy; (p = memmem(p, n - (size_t) (p - copy), "\"use strict\"", 12)) != NULL;
         p++)
        memcpy(p, "\"use sloppy", 11); /* same length: lines and columns stay */
    duk_push_lstring(c, copy, n);
    free(copy);
    duk_push_string(c, "lowered");
    duk_compile(c, DUK_COMPILE_EVAL);
    return 0;
}

/* Compile errors that are the source's and that the lowering leaves to
 * Duktape on purpose (reported on the right line): regular expression
 * bodies are passed through unchecked, as are label/break/continue targets
 * and assignment targets, which Duktape checks itself; and Duktape's own
 * recursion limits. */
static int input_fault(const char *msg)
{
    static const char *const phrases[] = {
        "regexp",
        "pattern",
        "quantifier",
        "parenthesis",
        "backreference",
        "invalid range",
        "invalid escape",
        "recursion limit",
        "label",
        "break",
        "continue",
        "lvalue",
        "exponent too large", /* Duktape's: 1e400 is a RangeError, not Infinity */
        NULL};
    for (int i = 0; phrases[i]; i++)
        if (strstr(msg, phrases[i]))
            return 1;
    return 0;
}

/* Duktape's own parser bug: an `in` anywhere inside a for statement's
 * initialiser, even nested in parentheses, brackets or call arguments
 * where ES5 allows it ("for (var k = f(1 in o); ...)"), is a SyntaxError.
 * Outputs with a for and an `in` are not judged. */
static int duktape_for_in(const struct buf *out)
{
    return out->len && memmem(out->data, out->len, "for (", 5) &&
           memmem(out->data, out->len, " in ", 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    enum lower_mode mode = data[0] % 3 == 0   ? LOWER_MODE_MAIN
                           : data[0] % 3 == 1 ? LOWER_MODE_SCRIPT
                                              : LOWER_MODE_EVAL;
    const char *src = (const char *) data + 1;
    size_t len = size - 1;
    struct buf out;
    buf_init(&out, 0);
    struct lower_error err;
    int rc = sandbox_lower(src, len, mode, &out, &err);
    if (rc != 0) {
        FUZZ_CHECK(out.len == 0, "output left after an error");
        FUZZ_CHECK(err.line >= 1 && err.column >= 1, "error position %d:%d", err.line, err.column);
        FUZZ_CHECK(memchr(err.message, '\0', sizeof err.message) != NULL, "message unterminated");
    } else {
        if (mode == LOWER_MODE_MAIN && count_lines(src, len) >= 0)
            FUZZ_CHECK(count_lines(out.data, out.len) == count_lines(src, len),
                       "line count changed: %ld -> %ld", count_lines(src, len),
                       count_lines(out.data, out.len));
        int ascii = 1;
        for (size_t i = 0; i < len && ascii; i++)
            ascii = (unsigned char) src[i] < 0x80;
        if (ascii && duk_safe_call(ctx, compile, &out, 0, 1) != 0 &&
            !input_fault(duk_safe_to_string(ctx, -1)) && !duktape_for_in(&out) &&
            !(strstr(duk_safe_to_string(ctx, -1), "invalid token") && memmem(src, len, "\\u", 2))) {
            fprintf(stderr, "lowered output does not compile: %s\n--- output:\n%.*s\n",
                    duk_safe_to_string(ctx, -1), (int) out.len, out.data);
            abort();
        }
        if (ascii)
            duk_pop(ctx);
        if (++compiles % 1000 == 0)
            duk_gc(ctx, 0);
    }
    buf_free(&out);
    return 0;
}
