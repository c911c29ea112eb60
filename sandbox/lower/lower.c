/* Entry point of the lowering pass: checks the input, runs the parser, the
 * scope analysis and the emitter over one arena, and turns any failure into
 * a struct lower_error with line, column and a caret excerpt. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sandbox/lower/internal.h"

void lower__line_col(struct lower_ctx *cx, uint32_t pos, int *line, int *col)
{
    int l = 1, c = 1;
    if (pos > cx->len)
        pos = cx->len;
    for (uint32_t i = 0; i < pos; i++) {
        unsigned char ch = (unsigned char)cx->src[i];
        if (ch == '\n' || (ch == '\r' && !(i + 1 < cx->len && cx->src[i + 1] == '\n'))) {
            l++;
            c = 1;
        } else if ((ch & 0xc0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}

static void make_excerpt(struct lower_ctx *cx, uint32_t pos, int col, char *out, size_t cap)
{
    uint32_t start = pos > cx->len ? cx->len : pos, end;
    while (start > 0 && cx->src[start - 1] != '\n' && cx->src[start - 1] != '\r')
        start--;
    end = start;
    while (end < cx->len && cx->src[end] != '\n' && cx->src[end] != '\r')
        end++;
    size_t len = end - start;
    int caret = col - 1;
    /* long lines: show a window around the column */
    if (len > 200) {
        uint32_t from = pos > 100 ? pos - 100 : 0;
        if (from < start)
            from = start;
        while (from > start && (cx->src[from] & 0xc0) == 0x80)
            from--;
        caret = 0;
        for (uint32_t i = from; i < pos && i < cx->len; i++)
            if ((cx->src[i] & 0xc0) != 0x80)
                caret++;
        start = from;
        len = end - start > 200 ? 200 : end - start;
        while (len > 0 && start + len < cx->len && (cx->src[start + len] & 0xc0) == 0x80)
            len--;
    }
    if (caret > 250)
        caret = 250;
    if (caret < 0)
        caret = 0;
    int n = snprintf(out, cap, "%.*s\n%*s^", (int)len, cx->src + start, caret, "");
    (void)n;
}

void lower__error_at(struct lower_ctx *cx, uint32_t pos, const char *fmt, ...)
{
    if (cx->spec_jmp)
        longjmp(*cx->spec_jmp, 1);
    struct lower_error *e = cx->err;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    lower__line_col(cx, pos, &e->line, &e->column);
    make_excerpt(cx, pos, e->column, e->excerpt, sizeof e->excerpt);
    longjmp(cx->fail, 1);
}

void lower__oom(struct lower_ctx *cx)
{
    cx->spec_jmp = NULL;
    lower__error_at(cx, 0, "Program too large to lower (out of memory)");
}

static int run(struct lower_ctx *cx, struct buf *out)
{
    struct parser p;
    memset(&p, 0, sizeof p);
    p.cx = cx;
    p.spec_budget = 2000000 + 8 * (long)cx->len;
    lower__lex_init(&p.lx, cx->src, cx->len, &cx->names, &cx->arena);
    if (cx->mode == LOWER_MODE_MAIN) {
        p.in_async = !cx->main_script;
        p.in_func = 1;
    }
    cx->program = lower__parse_program(&p);
    cx->line_starts = p.lx.line_starts;
    cx->nlines = p.lx.nlines;
    lower__analyse(cx);
    return lower__emit_program(cx, out);
}

static int lower_once(struct lower_ctx *cx, struct buf *out)
{
    volatile int rc = -1; /* set between setjmp and longjmp */
    if (lower__names_init(&cx->names, &cx->arena) < 0) {
        snprintf(cx->err->message, sizeof cx->err->message, "Out of memory");
        return -1;
    }
    cx->names.sep = cx->mode == LOWER_MODE_EVAL ? "$e" : "$";
    if (setjmp(cx->fail) == 0)
        rc = run(cx, out);
    lower__arena_free(&cx->arena);
    buf_free(&cx->scratch);
    buf_free(&cx->scratch2);
    return rc;
}

/* Does the source hold the word await (outside anything: a cheap pre-check)? */
static int mentions_await(const char *src, size_t len)
{
    for (size_t i = 0; i + 5 <= len; i++)
        if (src[i] == 'a' && memcmp(src + i, "await", 5) == 0)
            return 1;
    return 0;
}

int sandbox_lower(const char *src, size_t len, enum lower_mode mode, struct buf *out,
                  struct lower_error *err)
{
    struct lower_ctx cx;
    struct lower_error scratch;
    if (!err)
        err = &scratch;
    memset(err, 0, sizeof *err);
    memset(&cx, 0, sizeof cx);
    cx.src = src;
    cx.len = (uint32_t)len;
    cx.mode = mode;
    cx.err = err;
    if (len > LOWER_MAX_INPUT) {
        err->line = 1;
        err->column = 1;
        snprintf(err->message, sizeof err->message, "Program too large (%zu bytes, limit %u)", len,
                 LOWER_MAX_INPUT);
        return -1;
    }
    size_t out_len0 = out->len;
    int rc = lower_once(&cx, out);
    if (rc < 0 && mode == LOWER_MODE_MAIN && mentions_await(src, len)) {
        /* A program that is no async body but a script using `await` as a
         * name (var await, async function await() {}) runs as that script;
         * any other failure keeps the first error. */
        struct lower_error first = *err;
        out->len = out_len0;
        if (out->data)
            out->data[out_len0] = 0;
        struct lower_ctx again;
        memset(&again, 0, sizeof again);
        again.src = src;
        again.len = (uint32_t)len;
        again.mode = mode;
        again.err = err;
        again.main_script = 1;
        memset(err, 0, sizeof *err);
        rc = lower_once(&again, out);
        if (rc < 0)
            *err = first;
    }
    if (rc < 0 && out->len > out_len0) {
        out->len = out_len0;
        if (out->data)
            out->data[out_len0] = 0;
    }
    return rc;
}
