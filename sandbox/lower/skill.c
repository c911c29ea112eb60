/* Lowering of a saved skill's code (sandbox/lower/skill.h): the wrapper
 * function around the code, and errors mapped back from the wrapper's lines
 * to the code's. */
#include "sandbox/lower/skill.h"
#include "common/buf.h"

#include <stdio.h>
#include <string.h>

#define NAME_MAX_BYTES 64

static int is_identifier(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > NAME_MAX_BYTES || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return 0;
    }
    return 1;
}

/* Line `line` (1-based) of code: its start and length, or NULL past the end. */
static const char *line_at(const char *code, size_t len, int line, size_t *n)
{
    const char *p = code, *end = code + len;
    for (int l = 1; l < line; l++) {
        const char *nl = memchr(p, '\n', (size_t) (end - p));
        if (nl == NULL)
            return NULL;
        p = nl + 1;
    }
    const char *nl = memchr(p, '\n', (size_t) (end - p));
    *n = (size_t) ((nl ? nl : end) - p);
    if (*n && p[*n - 1] == '\r')
        (*n)--;
    return p;
}

static int count_lines(const char *code, size_t len)
{
    int n = 1;
    for (size_t i = 0; i < len; i++)
        n += code[i] == '\n';
    return n;
}

static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return 0;
    return 1;
}

/* Code points in s[0..n). */
static int columns(const char *s, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char) s[i] & 0xc0) != 0x80;
    return c;
}

/* err, which the lowering reported at a line of the wrapper, at the code's
 * line and column instead. The wrapper's lines between its first and last
 * are the code's lines as they are (so is the excerpt); an error on its
 * closing line (the code ended too early) goes after the code's last
 * character, with the excerpt rebuilt from the code. */
static void map_error(const char *code, size_t len, struct lower_error *err)
{
    int last = count_lines(code, len);
    err->line -= SANDBOX_SKILL_LINE_OFFSET;
    if (err->line >= 1 && err->line <= last)
        return;
    size_t n = 0;
    const char *text = NULL;
    if (err->line < 1) { /* the wrapper's first line: cannot happen for a valid name */
        err->line = 1;
    } else { /* the end of the code's last line that is not blank */
        err->line = last;
        while (err->line > 1 && (text = line_at(code, len, err->line, &n)) && blank(text, n))
            err->line--;
        if (strncmp(err->message, "Unexpected token", 16) == 0) /* the wrapper's "})" */
            snprintf(err->message, sizeof err->message,
                     "Unexpected end of input (a block, call or literal is not closed)");
    }
    if ((text = line_at(code, len, err->line, &n)) == NULL)
        return;
    err->column = columns(text, n) + 1;
    int caret = err->column - 1, shown = (int) (n > 200 ? 200 : n);
    if (caret > 250)
        caret = 250;
    snprintf(err->excerpt, sizeof err->excerpt, "%.*s\n%*s^", shown, text, caret, "");
}

int sandbox_lower_skill(const char *name, const char *code, size_t len, struct buf *out,
                        struct lower_error *err)
{
    struct buf src;
    buf_init(&src, 0);
    buf_append_str(&src, "(async function ");
    if (name && is_identifier(name))
        buf_printf(&src, "skill_%s", name);
    buf_append_str(&src, "(args) {\n"); /* SANDBOX_SKILL_LINE_OFFSET lines before the code */
    buf_append(&src, code, len);
    buf_append_str(&src, "\n})");
    struct lower_error scratch;
    if (err == NULL)
        err = &scratch;
    int rc = sandbox_lower(src.data, src.len, LOWER_MODE_EVAL, out, err);
    if (rc != 0)
        map_error(code, len, err);
    buf_free(&src);
    return rc;
}
