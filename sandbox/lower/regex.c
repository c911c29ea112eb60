/* Regular expression literals for Duktape's ES5 engine: named groups become
 * plain groups (with the names handed to __re so matches get .groups, and
 * \k<name> becomes a numbered backreference), the s flag becomes [\s\S],
 * the u flag is dropped once its code-point atoms are rewritten for UTF-16
 * (regex_unicode.c); the y flag, lookbehind and Unicode property escapes are
 * errors with a reason. */
#include <stdio.h>
#include <string.h>

#include "sandbox/lower/internal.h"

#define MAX_GROUPS 256

struct re {
    struct lower_ctx *cx;
    const char *s;
    size_t n;         /* body length */
    uint32_t pos;     /* source offset of the literal */
    int dotall, unicode;
    const char *names[MAX_GROUPS];
    size_t name_len[MAX_GROUPS];
    int name_group[MAX_GROUPS];
    int nnames;
};

static void fail(struct re *r, size_t at, const char *msg)
{
    lower__error_at(r->cx, r->pos + 1 + (uint32_t)at, "%s", msg);
}

/* First pass: group numbers of named groups. */
static void collect_names(struct re *r)
{
    int group = 0, in_class = 0;
    for (size_t i = 0; i < r->n; i++) {
        char c = r->s[i];
        if (c == '\\') {
            i++;
            continue;
        }
        if (in_class) {
            if (c == ']')
                in_class = 0;
            continue;
        }
        if (c == '[') {
            in_class = 1;
        } else if (c == '(') {
            if (i + 1 < r->n && r->s[i + 1] == '?') {
                if (i + 2 < r->n && r->s[i + 2] == '<' && i + 3 < r->n && r->s[i + 3] != '=' &&
                    r->s[i + 3] != '!') {
                    size_t j = i + 3;
                    while (j < r->n && r->s[j] != '>')
                        j++;
                    if (j >= r->n)
                        fail(r, i, "Invalid regular expression: unterminated group name");
                    /* the name goes into a string of the output: an identifier only */
                    for (size_t k = i + 3; k < j; k++) {
                        char d = r->s[k];
                        if (!(d == '_' || d == '$' || (d >= 'a' && d <= 'z') ||
                              (d >= 'A' && d <= 'Z') || (k > i + 3 && d >= '0' && d <= '9')))
                            fail(r, k, "Invalid regular expression: invalid capture group name "
                                       "(ASCII identifiers only)");
                    }
                    if (j == i + 3)
                        fail(r, i, "Invalid regular expression: empty capture group name");
                    group++;
                    if (r->nnames >= MAX_GROUPS)
                        fail(r, i, "Unsupported: too many named groups");
                    r->names[r->nnames] = r->s + i + 3;
                    r->name_len[r->nnames] = j - (i + 3);
                    r->name_group[r->nnames++] = group;
                }
            } else {
                group++;
            }
        }
    }
}

static int group_of(struct re *r, const char *name, size_t len)
{
    for (int i = 0; i < r->nnames; i++)
        if (r->name_len[i] == len && memcmp(r->names[i], name, len) == 0)
            return r->name_group[i];
    return -1;
}

/* An escape at s[i] == '\\'; returns the index of its last character. */
static size_t escape(struct re *r, size_t i, struct buf *out)
{
    if (i + 1 >= r->n)
        fail(r, i, "Invalid regular expression: \\ at end of pattern");
    char c = r->s[i + 1];
    if (c == 'k' && i + 2 < r->n && r->s[i + 2] == '<' && r->nnames) {
        size_t j = i + 3;
        while (j < r->n && r->s[j] != '>')
            j++;
        int g = group_of(r, r->s + i + 3, j - (i + 3));
        if (j >= r->n || g < 0)
            fail(r, i, "Invalid regular expression: unknown group name in \\k<...>");
        char tmp[16];
        snprintf(tmp, sizeof tmp, "\\%d", g);
        buf_append_str(out, tmp);
        return j;
    }
    if (r->unicode && (c == 'p' || c == 'P'))
        fail(r, i, "Unsupported: Unicode property escapes \\p{...} in regular expressions "
                   "(Duktape's RegExp has no Unicode property tables)");
    buf_append_char(out, '\\');
    buf_append_char(out, c);
    return i + 1;
}

static void check_flags(struct re *r, const char *flags, size_t nf, char *keep)
{
    size_t nk = 0;
    for (size_t i = 0; i < nf; i++) {
        char f = flags[i];
        if (memchr(flags, f, i))
            fail(r, r->n + 1 + i, "Invalid regular expression flags");
        switch (f) {
        case 'g': case 'i': case 'm':
            keep[nk++] = f;
            keep[nk] = 0;
            break;
        case 's':
            r->dotall = 1;
            break;
        case 'u':
            r->unicode = 1;
            break;
        case 'y':
            fail(r, r->n + 1 + i, "Unsupported: the regular expression flag y (sticky): Duktape's "
                                  "RegExp cannot anchor a match at lastIndex; use ^ on a slice");
            break;
        case 'd':
            fail(r, r->n + 1 + i, "Unsupported: the regular expression flag d (match indices)");
            break;
        case 'v':
            fail(r, r->n + 1 + i, "Unsupported: the regular expression flag v");
            break;
        default:
            fail(r, r->n + 1 + i, "Invalid regular expression flags");
        }
    }
}

static void body(struct re *r, struct buf *out)
{
    int in_class = 0;
    for (size_t i = 0; i < r->n; i++) {
        char c = r->s[i];
        unsigned char uc = (unsigned char)c;
        if (r->unicode) {
            size_t end = lower__regex_u_atom(r->cx, r->s, r->n, r->pos + 1, i, r->dotall, out);
            if (end != (size_t)-1) {
                i = end;
                continue;
            }
        }
        if (c == '\\') {
            i = escape(r, i, out);
            continue;
        }
        if (in_class) {
            if (c == ']')
                in_class = 0;
            buf_append_char(out, c);
            continue;
        }
        if (c == '[') {
            in_class = 1;
        } else if (c == '(' && i + 2 < r->n && r->s[i + 1] == '?' && r->s[i + 2] == '<') {
            if (i + 3 < r->n && (r->s[i + 3] == '=' || r->s[i + 3] == '!'))
                fail(r, i, "Unsupported: regular expression lookbehind (?<= ...) / (?<! ...): "
                           "Duktape's RegExp has no lookbehind");
            size_t j = i + 3;
            while (j < r->n && r->s[j] != '>')
                j++;
            buf_append_char(out, '(');
            i = j;
            continue;
        } else if (c == '.' && r->dotall) {
            buf_append_str(out, "[\\s\\S]");
            continue;
        } else if (uc == 0xe2 && i + 2 < r->n && (unsigned char)r->s[i + 1] == 0x80 &&
                   ((unsigned char)r->s[i + 2] == 0xa8 || (unsigned char)r->s[i + 2] == 0xa9)) {
            buf_append_str(out, (unsigned char)r->s[i + 2] == 0xa8 ? "\\u2028" : "\\u2029");
            i += 2;
            continue;
        }
        buf_append_char(out, c);
    }
}

int lower__regex(struct lower_ctx *cx, const char *s, size_t n, uint32_t pos, struct buf *out)
{
    struct re r;
    memset(&r, 0, sizeof r);
    r.cx = cx;
    r.pos = pos;
    size_t close = n - 1;
    while (close > 0 && s[close] != '/')
        close--;
    r.s = s + 1;
    r.n = close - 1;
    char flags[8] = "";
    if (n - close - 1 > 6)
        fail(&r, r.n + 1, "Invalid regular expression flags");
    check_flags(&r, s + close + 1, n - close - 1, flags);
    collect_names(&r);
    if (r.nnames)
        buf_append_str(out, "__re(");
    buf_append_char(out, '/');
    body(&r, out);
    buf_append_char(out, '/');
    buf_append_str(out, flags);
    if (r.nnames) {
        buf_append_str(out, ", [");
        for (int i = 0; i < r.nnames; i++) {
            char tmp[32];
            buf_printf(out, "%s\"%.*s\", ", i ? ", " : "", (int)r.name_len[i], r.names[i]);
            snprintf(tmp, sizeof tmp, "%d", r.name_group[i]);
            buf_append_str(out, tmp);
        }
        buf_append_str(out, "])");
    }
    return 0;
}
