/* The lowering pass: modern JavaScript and TypeScript syntax to ES5.1 for
 * Duktape, line-preserving (every output token stays on its input line, so
 * engine line numbers are the user's). Pure C, no Duktape: it runs in the
 * worker before compilation, and in `mcp-codemode lower`. */
#ifndef SANDBOX_LOWER_H
#define SANDBOX_LOWER_H

#include <stddef.h>

struct buf;

enum lower_mode {
    /* The execute_code program: the source is the body of an async function.
     * Output is one ES5 expression, `(function () { ...body... })`, whose
     * first line is the source's first line; top-level await/return work;
     * without a top-level return, a final expression statement's value is
     * returned; a program that is a single function or arrow expression is
     * called and its result returned. */
    LOWER_MODE_MAIN,
    /* A plain script (tests, the prelude's own checks): statements in, statements out. */
    LOWER_MODE_SCRIPT
};

struct lower_error {
    int line;           /* 1-based */
    int column;         /* 1-based, in code points */
    char message[256];  /* "Unexpected token '}'", "Unsupported: regular expression lookbehind" */
    char excerpt[512];  /* the source line, then a caret line under the column */
};

/* Lowers src (len bytes of UTF-8) and appends the ES5 text to out. Returns 0,
 * or -1 with *err filled (syntax error, unsupported construct, input too
 * deep or too large). Never crashes or overflows the C stack on any input. */
int sandbox_lower(const char *src, size_t len, enum lower_mode mode, struct buf *out,
                  struct lower_error *err);

#endif
