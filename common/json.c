/* Exact compact JSON printing of cJSON trees (see json.h). */
#include "common/json.h"
#include "common/buf.h"
#include "common/utf8.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decimal digits of v without printf (ids, counts and indexes are most of
 * the numbers we print, several per tool call). */
static int append_integer(struct buf *out, int64_t v)
{
    char tmp[24], *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t) -v : (uint64_t) v;
    do {
        *--p = (char) ('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    return buf_append(out, p, (size_t) (tmp + sizeof tmp - p));
}

int json_append_string(struct buf *b, const char *s, size_t len)
{
    size_t start = b->len;
    static const char hex[] = "0123456789abcdef";
    if (buf_append_char(b, '"') < 0)
        goto fail;
    size_t i = 0;
    while (i < len) {
        /* a run of printable ASCII that needs no escape: one append */
        size_t run = i;
        while (run < len && (unsigned char) s[run] >= 0x20 && (unsigned char) s[run] < 0x80 &&
               s[run] != '"' && s[run] != '\\')
            run++;
        if (run > i) {
            if (buf_append(b, s + i, run - i) < 0)
                goto fail;
            i = run;
            continue;
        }
        unsigned char c = (unsigned char) s[i];
        if (c >= 0x80) {
            size_t n = utf8_valid_prefix((const unsigned char *) s + i, len - i);
            size_t used;
            int unit = n ? -1 : utf8_internal_unit((const unsigned char *) s + i, len - i, &used);
            if (unit >= 0) { /* U+0000 or a lone surrogate (common/utf8.h) */
                char u[6] = {'\\',
                             'u',
                             hex[unit >> 12],
                             hex[(unit >> 8) & 15],
                             hex[(unit >> 4) & 15],
                             hex[unit & 15]};
                if (buf_append(b, u, 6) < 0)
                    goto fail;
                i += used;
            } else if (n == 0) {
                char rep[4];
                size_t rlen = utf8_repair_one((const unsigned char *) s + i, len - i, rep, &used);
                if (buf_append(b, rep, rlen) < 0)
                    goto fail;
                i += used;
            } else {
                if (buf_append(b, s + i, n) < 0)
                    goto fail;
                i += n;
            }
            continue;
        }
        const char *esc = NULL;
        char u[6];
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        default:
            if (c < 0x20) {
                u[0] = '\\', u[1] = 'u', u[2] = '0', u[3] = '0', u[4] = hex[c >> 4], u[5] = hex[c & 15];
                if (buf_append(b, u, 6) < 0)
                    goto fail;
                i++;
                continue;
            }
        }
        if (esc ? buf_append_str(b, esc) : buf_append_char(b, (char) c))
            goto fail;
        i++;
    }
    if (buf_append_char(b, '"') < 0)
        goto fail;
    return 0;
fail:
    b->len = start;
    if (b->data)
        b->data[start] = '\0';
    return -1;
}

int json_append_number(struct buf *out, double d)
{
    if (isnan(d) || isinf(d))
        return buf_append_str(out, "null");
    if (d == 0)
        return buf_append_char(out, '0');
    if (d == floor(d) && fabs(d) < 9007199254740992.0) /* 2^53: exact in an int64 */
        return append_integer(out, (int64_t) d);
    if (d == floor(d) && fabs(d) < 1e17)
        return buf_printf(out, "%.0f", d);
    char tmp[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    return buf_append_str(out, tmp);
}

static int append(struct buf *out, const cJSON *item, int depth)
{
    if (item == NULL || depth > 10000)
        return buf_append_str(out, "null");
    switch (item->type & 0xFF) {
    case cJSON_False:
        return buf_append_str(out, "false");
    case cJSON_True:
        return buf_append_str(out, "true");
    case cJSON_NULL:
        return buf_append_str(out, "null");
    case cJSON_Number:
        return json_append_number(out, item->valuedouble);
    case cJSON_String:
        return json_append_string(out, item->valuestring ? item->valuestring : "",
                                      item->valuestring ? strlen(item->valuestring) : 0);
    case cJSON_Raw:
        return buf_append_str(out, item->valuestring ? item->valuestring : "null");
    case cJSON_Array:
    case cJSON_Object: {
        int obj = (item->type & 0xFF) == cJSON_Object;
        if (buf_append_char(out, obj ? '{' : '[') < 0)
            return -1;
        for (const cJSON *c = item->child; c; c = c->next) {
            if (c != item->child && buf_append_char(out, ',') < 0)
                return -1;
            if (obj) {
                const char *k = c->string ? c->string : "";
                if (json_append_string(out, k, strlen(k)) < 0 || buf_append_char(out, ':') < 0)
                    return -1;
            }
            if (append(out, c, depth + 1) < 0)
                return -1;
        }
        return buf_append_char(out, obj ? '}' : ']');
    }
    default:
        return buf_append_str(out, "null");
    }
}

int json_append(struct buf *out, const cJSON *item)
{
    return append(out, item, 0);
}

char *json_print(const cJSON *item)
{
    struct buf b;
    buf_init(&b, 0);
    json_append(&b, item);
    return buf_steal(&b);
}

/* --- parsing: \u0000 and lone surrogates ---------------------------------------- */

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char) (c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The code unit of the escape \uXXXX at p, or -1. */
static long escape_at(const char *p, const char *end)
{
    if (end - p < 6 || p[0] != '\\' || p[1] != 'u')
        return -1;
    long v = 0;
    for (int i = 2; i < 6; i++) {
        int d = hex_digit(p[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Appends code unit u (0 or a surrogate) in the internal form (common/utf8.h). */
static void append_internal_unit(struct buf *b, unsigned u)
{
    if (u == 0) {
        buf_append(b, "\xC0\x80", 2);
        return;
    }
    char t[3] = {(char) 0xED, (char) (0x80 | ((u >> 6) & 0x3F)), (char) (0x80 | (u & 0x3F))};
    buf_append(b, t, 3);
}

/* Rewrites the escapes cJSON cannot hold (\u0000, which it would cut at, and
 * lone surrogates, which it rejects) into the internal form's raw bytes.
 * Returns 1 with the new text in *out, or 0 when text needs no change. */
static int rewrite_escapes(const char *text, size_t len, struct buf *out)
{
    const char *p = text, *end = text + len, *copied = text;
    int changed = 0;
    while (p < end && (p = memchr(p, '\\', (size_t) (end - p))) != NULL) {
        long u = escape_at(p, end);
        if (u < 0) { /* another escape (or an invalid one, for cJSON to reject) */
            p += 2;
            continue;
        }
        if (u >= 0xD800 && u <= 0xDBFF) {
            long lo = escape_at(p + 6, end);
            if (lo >= 0xDC00 && lo <= 0xDFFF) { /* a pair: cJSON decodes it */
                p += 12;
                continue;
            }
        } else if (u != 0 && (u < 0xDC00 || u > 0xDFFF)) {
            p += 6;
            continue;
        }
        if (!changed)
            buf_init(out, 0);
        changed = 1;
        buf_append(out, copied, (size_t) (p - copied));
        append_internal_unit(out, (unsigned) u);
        p += 6;
        copied = p;
    }
    if (changed)
        buf_append(out, copied, (size_t) (end - copied));
    return changed;
}

static int only_space(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p == end;
}

cJSON *json_parse(const char *text, size_t len)
{
    struct buf b;
    int rewritten = rewrite_escapes(text, len, &b);
    const char *t = rewritten ? b.data : text;
    size_t n = rewritten ? b.len : len;
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(t, n, &end, 0);
    if (v && !only_space(end, t + n)) {
        cJSON_Delete(v);
        v = NULL;
    }
    if (rewritten)
        buf_free(&b);
    return v;
}

/* --- JSON text from the JS engine ------------------------------------------------- */

int json_append_engine_text(struct buf *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *) s;
    static const char hex[] = "0123456789abcdef";
    size_t i = 0, run = 0;
    while (i < n) {
        size_t k = p[i] < 0x80 ? 1 : utf8_valid_prefix(p + i, n - i);
        if (k) {
            i += k;
            continue;
        }
        if (buf_append(out, s + run, i - run) < 0)
            return -1;
        size_t used;
        int unit = utf8_internal_unit(p + i, n - i, &used);
        if (unit >= 0) {
            char u[6] = {
                '\\',          'u', hex[unit >> 12], hex[(unit >> 8) & 15], hex[(unit >> 4) & 15],
                hex[unit & 15]};
            if (buf_append(out, u, 6) < 0)
                return -1;
        } else {
            char rep[4];
            size_t rlen = utf8_repair_one(p + i, n - i, rep, &used);
            if (buf_append(out, rep, rlen) < 0)
                return -1;
        }
        i += used;
        run = i;
    }
    return buf_append(out, s + run, n - run);
}

/* --- counting values ----------------------------------------------------------------- */

unsigned long long json_text_values(const char *s, size_t n)
{
    unsigned long long values = 0;
    int any = 0, in_string = 0, opened = 0; /* opened: a container began, nothing in it yet */
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        if (opened && c != ']' && c != '}')
            values++; /* a container with something in it: its first child */
        opened = 0;
        any = 1;
        if (c == '"')
            in_string = 1;
        else if (c == '[' || c == '{')
            opened = 1;
        else if (c == ',')
            values++;
    }
    return any ? values + 1 : 0;
}
