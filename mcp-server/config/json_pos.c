/* Strict JSON scanner for the configuration file: walks the raw text beside
 * cJSON's tree (same document order) to record where each item's key and
 * value start, and names syntax errors precisely (trailing comma, comment,
 * unterminated string, ...). Lines and columns are computed on demand. */
#include "mcp-server/config/json_pos.h"

#include "common/alloc.h"
#include "common/utf8.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct config_json_item_pos {
    const cJSON *item;
    size_t key_off;
    size_t val_off;
};

struct scan {
    struct config_json_pos *p;
    const char *s;
    size_t n, i;
    size_t err_off;
    config_json_keep_fn *keep;
    unsigned depth;
};

static int scan_value(struct scan *sc, const cJSON *item, size_t key_off);

__attribute__((format(printf, 3, 4))) static int fail(struct scan *sc, size_t off, const char *fmt,
                                                      ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sc->p->msg, sizeof sc->p->msg, fmt, ap);
    va_end(ap);
    sc->err_off = off;
    return -1;
}

static void skip_ws(struct scan *sc)
{
    while (sc->i < sc->n) {
        char c = sc->s[sc->i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        sc->i++;
    }
}

static int at(const struct scan *sc, char c)
{
    return sc->i < sc->n && sc->s[sc->i] == c;
}

static void record(struct scan *sc, const cJSON *item, size_t key_off, size_t val_off)
{
    struct config_json_pos *p = sc->p;
    if (p->nitems == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 64;
        p->items = xrealloc(p->items, p->cap * sizeof *p->items);
    }
    p->items[p->nitems++] = (struct config_json_item_pos){item, key_off, val_off};
}

static int unexpected(struct scan *sc)
{
    unsigned char c = (unsigned char) sc->s[sc->i];
    if (c == '/')
        return fail(sc, sc->i, "comments are not allowed in JSON");
    if (c == '\'')
        return fail(sc, sc->i, "strings must be in double quotes");
    if (c == '}' || c == ']' || c == ',' || c == ':')
        return fail(sc, sc->i, "expected a value, found '%c'", c);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        return fail(sc, sc->i,
                    "unexpected '%c' (strings need double quotes; literals are true, false, null)",
                    c);
    if (c > 0x20 && c < 0x7f)
        return fail(sc, sc->i, "unexpected character '%c'", c);
    return fail(sc, sc->i, "unexpected byte 0x%02x", c);
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char c = s[k];
        int d = (c >= '0' && c <= '9')   ? c - '0'
                : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                         : -1;
        if (d < 0)
            return -1;
        v = v * 16 + (unsigned) d;
    }
    *out = v;
    return 0;
}

/* \uXXXX at sc->i (the backslash), with its low surrogate when needed. */
static int scan_unicode_escape(struct scan *sc)
{
    size_t i = sc->i;
    unsigned cp, lo;
    if (sc->n - i < 6 || hex4(sc->s + i + 2, &cp) < 0)
        return fail(sc, i, "invalid \\u escape (expected 4 hex digits)");
    if (cp == 0)
        return fail(sc, i, "\\u0000 is not allowed in a string");
    if (cp >= 0xDC00 && cp <= 0xDFFF)
        return fail(sc, i, "unpaired surrogate in a \\u escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (sc->n - i < 12 || sc->s[i + 6] != '\\' || sc->s[i + 7] != 'u' ||
            hex4(sc->s + i + 8, &lo) < 0 || lo < 0xDC00 || lo > 0xDFFF)
            return fail(sc, i, "unpaired surrogate in a \\u escape");
        sc->i += 6;
    }
    sc->i += 6;
    return 0;
}

static int scan_escape(struct scan *sc, size_t start)
{
    if (sc->i + 1 >= sc->n)
        return fail(sc, start, "unterminated string");
    char e = sc->s[sc->i + 1];
    if (e == 'u')
        return scan_unicode_escape(sc);
    if (strchr("\"\\/bfnrt", e) == NULL || e == '\0') {
        if ((unsigned char) e > 0x20 && (unsigned char) e < 0x7f)
            return fail(sc, sc->i, "invalid escape \\%c (write \\\\ for a backslash)", e);
        return fail(sc, sc->i, "invalid escape in a string");
    }
    sc->i += 2;
    return 0;
}

static int scan_string(struct scan *sc)
{
    size_t start = sc->i++;
    for (;;) {
        if (sc->i >= sc->n)
            return fail(sc, start, "unterminated string");
        unsigned char c = (unsigned char) sc->s[sc->i];
        if (c == '"') {
            sc->i++;
            return 0;
        }
        if (c == '\\') {
            if (scan_escape(sc, start) < 0)
                return -1;
        } else if (c == '\n') {
            return fail(sc, start, "unterminated string (a string cannot span lines)");
        } else if (c < 0x20) {
            return fail(sc, sc->i, "control character U+%04X in a string (escape it)", c);
        } else if (c >= 0x80) {
            size_t k = utf8_valid_prefix((const unsigned char *) sc->s + sc->i, sc->n - sc->i);
            if (k == 0)
                return fail(sc, sc->i, "invalid UTF-8 in a string");
            sc->i += k;
        } else {
            sc->i++;
        }
    }
}

static int is_digit(const struct scan *sc)
{
    return sc->i < sc->n && sc->s[sc->i] >= '0' && sc->s[sc->i] <= '9';
}

static int digits(struct scan *sc)
{
    if (!is_digit(sc))
        return -1;
    while (is_digit(sc))
        sc->i++;
    return 0;
}

static int scan_number(struct scan *sc)
{
    size_t start = sc->i;
    if (at(sc, '-'))
        sc->i++;
    if (at(sc, '0'))
        sc->i++;
    else if (digits(sc) < 0)
        return fail(sc, start, "invalid number");
    if (at(sc, '.')) {
        sc->i++;
        if (digits(sc) < 0)
            return fail(sc, start, "invalid number");
    }
    if (at(sc, 'e') || at(sc, 'E')) {
        sc->i++;
        if (at(sc, '+') || at(sc, '-'))
            sc->i++;
        if (digits(sc) < 0)
            return fail(sc, start, "invalid number");
    }
    if (sc->i < sc->n && strchr("0123456789.+-eE", sc->s[sc->i]) != NULL)
        return fail(sc, start, "invalid number (no leading zeros, one '.', one exponent)");
    return 0;
}

static int scan_literal(struct scan *sc)
{
    static const char *const words[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++) {
        size_t len = strlen(words[k]);
        if (sc->n - sc->i >= len && memcmp(sc->s + sc->i, words[k], len) == 0) {
            size_t end = sc->i + len;
            char c = end < sc->n ? sc->s[end] : ' ';
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
                sc->i = end;
                return 0;
            }
        }
    }
    return unexpected(sc);
}

/* After a member or element: ',' (not before the closer) or the closer. */
static int scan_separator(struct scan *sc, char closer, int *done)
{
    skip_ws(sc);
    if (at(sc, ',')) {
        size_t comma = sc->i++;
        skip_ws(sc);
        if (at(sc, closer))
            return fail(sc, comma, "trailing comma (not allowed in JSON)");
        *done = 0;
        return 0;
    }
    if (at(sc, closer)) {
        sc->i++;
        *done = 1;
        return 0;
    }
    if (sc->i >= sc->n)
        return fail(sc, sc->i, "unexpected end of file, expected ',' or '%c'", closer);
    if (at(sc, '/'))
        return fail(sc, sc->i, "comments are not allowed in JSON");
    return fail(sc, sc->i, "expected ',' or '%c' (missing comma?)", closer);
}

static int scan_member(struct scan *sc, const cJSON *child)
{
    skip_ws(sc);
    if (sc->i >= sc->n)
        return fail(sc, sc->i, "unexpected end of file in an object");
    if (!at(sc, '"')) {
        if (at(sc, '/'))
            return fail(sc, sc->i, "comments are not allowed in JSON");
        if (at(sc, '\''))
            return fail(sc, sc->i, "keys must be in double quotes");
        if ((unsigned char) sc->s[sc->i] <= 0x20 || (unsigned char) sc->s[sc->i] >= 0x7f)
            return unexpected(sc);
        return fail(sc, sc->i, "expected a key in double quotes");
    }
    size_t key_off = sc->i;
    if (scan_string(sc) < 0)
        return -1;
    skip_ws(sc);
    if (!at(sc, ':'))
        return fail(sc, sc->i, "expected ':' after the key");
    sc->i++;
    if (child != NULL && sc->depth == 1 && sc->keep != NULL && !sc->keep(child->string)) {
        skip_ws(sc);
        record(sc, child, key_off, sc->i);
        child = NULL;
    }
    return scan_value(sc, child, key_off);
}

static int enter(struct scan *sc)
{
    if (++sc->depth > CONFIG_JSON_MAX_DEPTH)
        return fail(sc, sc->i, "nested more than %d levels deep", CONFIG_JSON_MAX_DEPTH);
    sc->i++;
    skip_ws(sc);
    return 0;
}

static int scan_object(struct scan *sc, const cJSON *item)
{
    if (enter(sc) < 0)
        return -1;
    const cJSON *child = cJSON_IsObject(item) ? item->child : NULL;
    int done = at(sc, '}');
    if (done)
        sc->i++;
    while (!done) {
        if (scan_member(sc, child) < 0 || scan_separator(sc, '}', &done) < 0)
            return -1;
        child = child ? child->next : NULL;
    }
    sc->depth--;
    return 0;
}

static int scan_array(struct scan *sc, const cJSON *item)
{
    if (enter(sc) < 0)
        return -1;
    const cJSON *child = cJSON_IsArray(item) ? item->child : NULL;
    int done = at(sc, ']');
    if (done)
        sc->i++;
    while (!done) {
        if (scan_value(sc, child, CONFIG_JSON_NOPOS) < 0 || scan_separator(sc, ']', &done) < 0)
            return -1;
        child = child ? child->next : NULL;
    }
    sc->depth--;
    return 0;
}

static int scan_value(struct scan *sc, const cJSON *item, size_t key_off)
{
    skip_ws(sc);
    if (sc->i >= sc->n)
        return fail(sc, sc->i, "unexpected end of file, expected a value");
    if (item != NULL)
        record(sc, item, key_off, sc->i);
    char c = sc->s[sc->i];
    if (c == '{')
        return scan_object(sc, item);
    if (c == '[')
        return scan_array(sc, item);
    if (c == '"')
        return scan_string(sc);
    if (c == '-' || (c >= '0' && c <= '9'))
        return scan_number(sc);
    if (c == 't' || c == 'f' || c == 'n')
        return scan_literal(sc);
    return unexpected(sc);
}

static int by_item(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) ((const struct config_json_item_pos *) a)->item;
    uintptr_t y = (uintptr_t) ((const struct config_json_item_pos *) b)->item;
    return x < y ? -1 : x > y;
}

int config_json_pos_build(struct config_json_pos *p, const char *text, size_t len,
                          const cJSON *root, config_json_keep_fn *keep, size_t *err_off)
{
    memset(p, 0, sizeof *p);
    p->text = text;
    p->len = len;
    struct scan sc = {.p = p, .s = text, .n = len, .keep = keep};
    if (scan_value(&sc, root, CONFIG_JSON_NOPOS) < 0)
        goto fail;
    skip_ws(&sc);
    if (sc.i < sc.n) {
        fail(&sc, sc.i, "unexpected text after the JSON value");
        goto fail;
    }
    if (p->nitems > 1)
        qsort(p->items, p->nitems, sizeof *p->items, by_item);
    return 0;
fail:
    *err_off = sc.err_off;
    return -1;
}

size_t config_json_pos_of(const struct config_json_pos *p, const cJSON *item, int key)
{
    struct config_json_item_pos k = {.item = item};
    const struct config_json_item_pos *e =
        item ? bsearch(&k, p->items, p->nitems, sizeof *p->items, by_item) : NULL;
    if (e == NULL)
        return CONFIG_JSON_NOPOS;
    return key && e->key_off != CONFIG_JSON_NOPOS ? e->key_off : e->val_off;
}

static void build_lines(struct config_json_pos *p)
{
    size_t cap = 64;
    p->lines = xmalloc(cap * sizeof *p->lines);
    p->lines[p->nlines++] = 0;
    for (const char *q = p->text; (q = memchr(q, '\n', p->len - (size_t) (q - p->text)));) {
        q++;
        if (p->nlines == cap)
            p->lines = xrealloc(p->lines, (cap *= 2) * sizeof *p->lines);
        p->lines[p->nlines++] = (size_t) (q - p->text);
    }
}

void config_json_pos_linecol(struct config_json_pos *p, size_t off, unsigned *line, unsigned *col)
{
    if (p->lines == NULL)
        build_lines(p);
    if (off > p->len)
        off = p->len;
    size_t lo = 0, hi = p->nlines; /* last line start <= off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    size_t chars = 0;
    for (size_t k = p->lines[lo]; k < off; k++)
        chars += ((unsigned char) p->text[k] & 0xC0) != 0x80;
    *line = (unsigned) (lo + 1);
    *col = (unsigned) (chars + 1);
}

/* Decoded bytes of the escape at s (the backslash), and its length in s. */
static size_t escape_size(const char *s, size_t avail, size_t *raw)
{
    unsigned cp;
    *raw = 2;
    if (avail < 6 || s[1] != 'u' || hex4(s + 2, &cp) < 0)
        return 1;
    *raw = 6;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        *raw = avail >= 12 ? 12 : 6;
        return 4;
    }
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3;
}

size_t config_json_pos_in_string(const struct config_json_pos *p, size_t val_off, size_t decoded)
{
    size_t i = val_off + 1, d = 0;
    while (i < p->len && d < decoded && p->text[i] != '"') {
        size_t raw = 1;
        d += p->text[i] == '\\' ? escape_size(p->text + i, p->len - i, &raw) : 1;
        i += raw;
    }
    return i < p->len ? i : p->len;
}

void config_json_pos_free(struct config_json_pos *p)
{
    free(p->items);
    free(p->lines);
    p->items = NULL;
    p->lines = NULL;
    p->nitems = p->cap = p->nlines = 0;
}
