/* The u flag of regular expression literals for Duktape's RegExp, which matches
 * UTF-16 code units: '.', \D, \W, \S, character classes and astral characters
 * become surrogate-pair-aware groups, so a character outside the BMP matches as
 * one (and a quantifier applies to all of it), as in ES2015. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/utf8.h"
#include "sandbox/lower/internal.h"

#define MAX_ASTRAL 256 /* astral ranges in one class */

/* a surrogate pair, and "not at the start of one" */
#define RE_PAIR     "[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]"
#define RE_NOT_PAIR "(?!" RE_PAIR ")"

struct ure {
    struct lower_ctx *cx;
    const char *s;
    size_t n;
    uint32_t pos; /* source offset of the pattern's first character */
};

struct range {
    uint32_t lo, hi;
};

/* A class item: a code point (esc 0) or a class escape (esc is d, D, w, W, s or S). */
struct atom {
    uint32_t cp;
    char esc;
};

static void ufail(struct ure *u, size_t at, const char *msg)
{
    lower__error_at(u->cx, u->pos + (uint32_t) at, "%s", msg);
}

static int hexval(char h)
{
    return (h >= '0' && h <= '9')   ? h - '0'
           : (h >= 'a' && h <= 'f') ? h - 'a' + 10
           : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                    : -1;
}

/* n hex digits at s[i]; -1 if they are not all there */
static long hexn(struct ure *u, size_t i, int n)
{
    long v = 0;
    for (int k = 0; k < n; k++) {
        if (i + (size_t) k >= u->n || hexval(u->s[i + (size_t) k]) < 0)
            return -1;
        v = v * 16 + hexval(u->s[i + (size_t) k]);
    }
    return v;
}

/* \u at s[i] == '\\': \uHHHH, a \uHHHH\uHHHH surrogate pair (one code point with
 * the u flag) or \u{H...}. Stores the code point; returns the index of the last character. */
static size_t u_escape(struct ure *u, size_t i, uint32_t *cp)
{
    if (i + 2 < u->n && u->s[i + 2] == '{') {
        size_t j = i + 3;
        unsigned long v = 0;
        while (j < u->n && u->s[j] != '}') {
            int h = hexval(u->s[j]);
            if (h < 0 || v > 0x10ffff)
                ufail(u, i, "Invalid regular expression: bad \\u{...} escape");
            v = v * 16 + (unsigned long) h;
            j++;
        }
        if (j >= u->n || j == i + 3 || v > 0x10ffff)
            ufail(u, i, "Invalid regular expression: bad \\u{...} escape");
        *cp = (uint32_t) v;
        return j;
    }
    long v = hexn(u, i + 2, 4);
    if (v < 0)
        ufail(u, i, "Invalid regular expression: bad \\u escape");
    if (v >= 0xd800 && v <= 0xdbff && i + 7 < u->n && u->s[i + 6] == '\\' && u->s[i + 7] == 'u') {
        long lo = hexn(u, i + 8, 4);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
            *cp = 0x10000 + (((uint32_t) v - 0xd800) << 10) + ((uint32_t) lo - 0xdc00);
            return i + 11;
        }
    }
    *cp = (uint32_t) v;
    return i + 5;
}

/* A UTF-8 sequence at s[i] (first byte >= 0x80); returns the index of its last byte. */
static size_t utf8_char(struct ure *u, size_t i, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *) u->s + i;
    size_t len = utf8_valid_prefix(p, u->n - i);
    if (len < 2)
        ufail(u, i, "Invalid regular expression: ill-formed UTF-8");
    uint32_t v = p[0] & (0xff >> (len + 1));
    for (size_t k = 1; k < len; k++)
        v = (v << 6) | (p[k] & 0x3f);
    *cp = v;
    return i + len - 1;
}

/* A character class atom at s[i] (not ']'); returns the index of its last character. */
static size_t class_atom(struct ure *u, size_t i, struct atom *a)
{
    unsigned char c = (unsigned char) u->s[i];
    a->esc = 0;
    if (c >= 0x80)
        return utf8_char(u, i, &a->cp);
    if (c != '\\') {
        a->cp = c;
        return i;
    }
    if (i + 1 >= u->n)
        ufail(u, i, "Invalid regular expression: \\ at end of pattern");
    char e = u->s[i + 1];
    switch (e) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 's':
    case 'S':
        a->esc = e;
        return i + 1;
    case 'b':
        a->cp = 8;
        return i + 1;
    case 't':
        a->cp = 9;
        return i + 1;
    case 'n':
        a->cp = 10;
        return i + 1;
    case 'v':
        a->cp = 11;
        return i + 1;
    case 'f':
        a->cp = 12;
        return i + 1;
    case 'r':
        a->cp = 13;
        return i + 1;
    case '0':
        if (i + 2 < u->n && u->s[i + 2] >= '0' && u->s[i + 2] <= '9')
            break;
        a->cp = 0;
        return i + 1;
    case 'c':
        if (i + 2 < u->n && ((u->s[i + 2] | 0x20) >= 'a' && (u->s[i + 2] | 0x20) <= 'z')) {
            a->cp = (uint32_t) (u->s[i + 2] & 31);
            return i + 2;
        }
        break;
    case 'x': {
        long v = hexn(u, i + 2, 2);
        if (v < 0)
            break;
        a->cp = (uint32_t) v;
        return i + 3;
    }
    case 'u':
        return u_escape(u, i, &a->cp);
    case 'p':
    case 'P':
        ufail(u, i,
              "Unsupported: Unicode property escapes \\p{...} in regular expressions "
              "(Duktape's RegExp has no Unicode property tables)");
        break;
    default:
        if (strchr("^$\\.*+?()[]{}|/-", e)) {
            a->cp = (unsigned char) e;
            return i + 1;
        }
    }
    ufail(u, i, "Invalid regular expression: invalid escape in a character class (u flag)");
    return i;
}

static void put_unit(struct buf *out, uint32_t unit)
{
    char tmp[16];
    snprintf(tmp, sizeof tmp, "\\u%04X", (unsigned) unit);
    buf_append_str(out, tmp);
}

static void put_pair(struct buf *out, uint32_t cp)
{
    put_unit(out, 0xd800 + ((cp - 0x10000) >> 10));
    put_unit(out, 0xdc00 + ((cp - 0x10000) & 0x3ff));
}

static void put_unit_range(struct buf *out, uint32_t lo, uint32_t hi)
{
    if (lo == hi) {
        put_unit(out, lo);
        return;
    }
    buf_append_char(out, '[');
    put_unit(out, lo);
    buf_append_char(out, '-');
    put_unit(out, hi);
    buf_append_char(out, ']');
}

/* Alternatives (each preceded by '|') matching the pairs of code points lo..hi (astral). */
static void put_astral_range(struct buf *out, uint32_t lo, uint32_t hi)
{
    uint32_t hlo = 0xd800 + ((lo - 0x10000) >> 10), llo = 0xdc00 + ((lo - 0x10000) & 0x3ff);
    uint32_t hhi = 0xd800 + ((hi - 0x10000) >> 10), lhi = 0xdc00 + ((hi - 0x10000) & 0x3ff);
    buf_append_char(out, '|');
    if (hlo == hhi) {
        put_unit(out, hlo);
        put_unit_range(out, llo, lhi);
        return;
    }
    if (llo != 0xdc00) {
        put_unit(out, hlo);
        put_unit_range(out, llo, 0xdfff);
        buf_append_char(out, '|');
        hlo++;
    }
    uint32_t hmid = lhi == 0xdfff ? hhi : hhi - 1;
    if (hlo <= hmid) {
        put_unit_range(out, hlo, hmid);
        put_unit_range(out, 0xdc00, 0xdfff);
        if (hmid != hhi)
            buf_append_char(out, '|');
    }
    if (hmid != hhi) {
        put_unit(out, hhi);
        put_unit_range(out, 0xdc00, lhi);
    }
}

static int range_cmp(const void *a, const void *b)
{
    const struct range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Sorts and merges ranges in place; returns the new count. */
static int merge_ranges(struct range *r, int n)
{
    if (n == 0)
        return 0;
    qsort(r, (size_t) n, sizeof *r, range_cmp);
    int k = 0;
    for (int i = 1; i < n; i++) {
        if (r[i].lo <= r[k].hi + 1) {
            if (r[i].hi > r[k].hi)
                r[k].hi = r[i].hi;
        } else {
            r[++k] = r[i];
        }
    }
    return k + 1;
}

struct uclass {
    struct range ast[MAX_ASTRAL]; /* astral code points of the class's items */
    int nast;
    int all_astral; /* \D, \W or \S: every astral code point */
    int high;       /* the BMP items may include a high surrogate */
    int nbmp;       /* BMP items */
};

static void add_astral(struct ure *u, size_t at, struct uclass *k, uint32_t lo, uint32_t hi)
{
    if (k->nast >= MAX_ASTRAL)
        ufail(u, at, "Unsupported: too many characters above U+FFFF in one character class");
    k->ast[k->nast].lo = lo;
    k->ast[k->nast++].hi = hi;
}

/* BMP items lo..hi into bmp (when not NULL) */
static void add_bmp(struct uclass *k, uint32_t lo, uint32_t hi, struct buf *bmp)
{
    k->nbmp++;
    if (lo <= 0xdbff && hi >= 0xd800)
        k->high = 1;
    if (!bmp)
        return;
    put_unit(bmp, lo);
    if (hi != lo) {
        buf_append_char(bmp, '-');
        put_unit(bmp, hi);
    }
}

/* Reads the class whose '[' is at s[i]: its astral ranges into k and the text of its BMP
 * items (without brackets) into bmp. Returns the index of the closing ']'. */
static size_t read_class(struct ure *u, size_t i, struct uclass *k, struct buf *bmp)
{
    size_t start = i;
    memset(k, 0, sizeof *k);
    i++;
    if (i < u->n && u->s[i] == '^')
        i++;
    while (i < u->n && u->s[i] != ']') {
        struct atom a, b;
        size_t at = i;
        i = class_atom(u, i, &a) + 1;
        if (i + 1 < u->n && u->s[i] == '-' && u->s[i + 1] != ']') {
            size_t bt = i + 1;
            i = class_atom(u, bt, &b) + 1;
            if (a.esc || b.esc)
                ufail(u, at, "Invalid regular expression: a class escape in a range (u flag)");
            if (a.cp > b.cp)
                ufail(u, at, "Invalid regular expression: range out of order in character class");
            if (a.cp <= 0xffff)
                add_bmp(k, a.cp, b.cp > 0xffff ? 0xffff : b.cp, bmp);
            if (b.cp > 0xffff)
                add_astral(u, at, k, a.cp > 0x10000 ? a.cp : 0x10000, b.cp);
            continue;
        }
        if (a.esc) {
            k->nbmp++;
            if (a.esc == 'D' || a.esc == 'W' || a.esc == 'S')
                k->all_astral = k->high = 1;
            if (bmp) {
                buf_append_char(bmp, '\\');
                buf_append_char(bmp, a.esc);
            }
        } else if (a.cp > 0xffff) {
            add_astral(u, at, k, a.cp, a.cp);
        } else {
            add_bmp(k, a.cp, a.cp, bmp);
        }
    }
    if (i >= u->n)
        ufail(u, start, "Invalid regular expression: missing ]");
    k->nast = merge_ranges(k->ast, k->nast);
    return i;
}

/* The class at s[i] == '['; returns the index of its ']'. */
static size_t rewrite_class(struct ure *u, size_t i, struct buf *out)
{
    struct uclass k;
    int negated = i + 1 < u->n && u->s[i + 1] == '^';
    read_class(u, i, &k, NULL);
    if (!negated && !k.nast && !k.all_astral && !k.high) {
        /* only BMP characters that are not high surrogates: a plain class */
        buf_append_char(out, '[');
        size_t end = read_class(u, i, &k, out);
        buf_append_char(out, ']');
        return end;
    }
    buf_append_str(out, "(?:");
    size_t alts = out->len;
    /* the BMP alternative, kept from matching the first half of a pair */
    int has_bmp = negated || k.nbmp;
    if (has_bmp) {
        if (negated || k.high)
            buf_append_str(out, RE_NOT_PAIR);
        buf_append_str(out, negated ? "[^" : "[");
        size_t end = read_class(u, i, &k, out);
        buf_append_char(out, ']');
        i = end;
    } else {
        i = read_class(u, i, &k, NULL);
    }
    if (!negated) {
        if (k.all_astral) {
            buf_append_str(out, "|" RE_PAIR);
        } else {
            for (int j = 0; j < k.nast; j++)
                put_astral_range(out, k.ast[j].lo, k.ast[j].hi);
        }
    } else if (!k.all_astral) {
        /* the astral code points the class leaves out */
        uint32_t next = 0x10000;
        for (int j = 0; j < k.nast; j++) {
            if (k.ast[j].lo > next)
                put_astral_range(out, next, k.ast[j].lo - 1);
            next = k.ast[j].hi + 1;
        }
        if (next <= 0x10ffff) {
            if (next == 0x10000)
                buf_append_str(out, "|" RE_PAIR);
            else
                put_astral_range(out, next, 0x10ffff);
        }
    }
    if (!has_bmp && out->data && out->len > alts && out->data[alts] == '|') {
        /* astral alternatives only: drop the first '|' */
        memmove(out->data + alts, out->data + alts + 1, out->len - alts);
        out->len--;
    }
    buf_append_char(out, ')');
    return i;
}

size_t lower__regex_u_atom(struct lower_ctx *cx, const char *s, size_t n, uint32_t pos, size_t i,
                           int dotall, struct buf *out)
{
    struct ure u = {cx, s, n, pos};
    unsigned char c = (unsigned char) s[i];
    if (c == '[')
        return rewrite_class(&u, i, out);
    if (c == '.') {
        buf_append_str(out, "(?:" RE_PAIR "|" RE_NOT_PAIR);
        buf_append_str(out, dotall ? "[\\s\\S])" : "[^\\n\\r\\u2028\\u2029])");
        return i;
    }
    if (c >= 0x80) {
        uint32_t cp;
        size_t end = utf8_char(&u, i, &cp);
        if (cp == 0x2028 || cp == 0x2029) {
            put_unit(out, cp);
        } else if (cp > 0xffff) {
            buf_append_str(out, "(?:");
            put_pair(out, cp);
            buf_append_char(out, ')');
        } else {
            buf_append(out, s + i, end - i + 1);
        }
        return end;
    }
    if (c == '\\' && i + 1 < n) {
        char e = s[i + 1];
        if ((unsigned char)e >= 0x80)
            ufail(&u, i, "Invalid regular expression: invalid escape (u flag)");
        if (e == 'D' || e == 'W' || e == 'S') {
            buf_printf(out, "(?:" RE_PAIR "|" RE_NOT_PAIR "\\%c)", e);
            return i + 1;
        }
        if (e == 'u') {
            uint32_t cp;
            size_t end = u_escape(&u, i, &cp);
            if (cp > 0xffff) {
                buf_append_str(out, "(?:");
                put_pair(out, cp);
                buf_append_char(out, ')');
            } else {
                put_unit(out, cp);
            }
            return end;
        }
    }
    return (size_t) -1;
}
