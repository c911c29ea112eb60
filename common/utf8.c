/* UTF-8 validation (RFC 3629 well-formedness) and repair with U+FFFD. */
#include "common/utf8.h"
#include "common/buf.h"

#include <stdint.h>
#include <string.h>

size_t utf8_valid_prefix(const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (n < len)
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

/* The 16-bit value of a CESU-8 encoded surrogate at p (ED A0..BF 80..BF), or 0. */
static unsigned surrogate_at(const unsigned char *p, size_t n)
{
    if (n < 3 || p[0] != 0xED || p[1] < 0xA0 || p[1] > 0xBF || (p[2] & 0xC0) != 0x80)
        return 0;
    return 0xD000u | ((unsigned) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
}

size_t utf8_repair_one(const unsigned char *p, size_t n, char out[4], size_t *consumed)
{
    unsigned hi = surrogate_at(p, n);
    if (hi >= 0xD800 && hi <= 0xDBFF) {
        unsigned lo = surrogate_at(p + 3, n - 3 < n ? n - 3 : 0);
        if (n >= 6 && lo >= 0xDC00 && lo <= 0xDFFF) {
            unsigned cp = 0x10000u + ((hi - 0xD800u) << 10) + (lo - 0xDC00u);
            out[0] = (char) (0xF0 | (cp >> 18));
            out[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
            out[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
            out[3] = (char) (0x80 | (cp & 0x3F));
            *consumed = 6;
            return 4;
        }
    }
    *consumed = hi ? 3 : 1;
    memcpy(out, "\xEF\xBF\xBD", 3);
    return 3;
}

int utf8_internal_unit(const unsigned char *p, size_t n, size_t *consumed)
{
    if (n >= 2 && p[0] == 0xC0 && p[1] == 0x80) {
        *consumed = 2;
        return 0;
    }
    unsigned u = surrogate_at(p, n);
    if (u == 0)
        return -1;
    if (u <= 0xDBFF && surrogate_at(p + 3, n - 3 < n ? n - 3 : 0) >= 0xDC00)
        return -1; /* a pair: one character, repaired by utf8_repair_one */
    *consumed = 3;
    return (int) u;
}

int utf8_is_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *) s;
    size_t i = 0;
    while (i < n) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = utf8_valid_prefix(p + i, n - i);
        if (k == 0)
            return 0;
        i += k;
    }
    return 1;
}

int utf8_append_repaired(struct buf *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *) s;
    size_t i = 0, run = 0;
    while (i < n) {
        size_t k = p[i] < 0x80 ? 1 : utf8_valid_prefix(p + i, n - i);
        if (k) {
            i += k;
            continue;
        }
        char rep[4];
        size_t used;
        size_t rlen = utf8_repair_one(p + i, n - i, rep, &used);
        if (buf_append(out, s + run, i - run) < 0 || buf_append(out, rep, rlen) < 0)
            return -1;
        i += used;
        run = i;
    }
    return buf_append(out, s + run, n - run);
}

size_t utf8_length(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *) s;
    size_t i = 0, count = 0;
    while (i < n) {
        size_t k = p[i] < 0x80 ? 1 : utf8_valid_prefix(p + i, n - i);
        if (k == 0 && utf8_internal_unit(p + i, n - i, &k) < 0)
            k = 1;
        i += k;
        count++;
    }
    return count;
}

size_t utf8_decode_nul(char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if ((unsigned char) s[i] == 0xC0 && i + 1 < n && (unsigned char) s[i + 1] == 0x80) {
            s[o++] = '\0';
            i++;
        } else
            s[o++] = s[i];
    }
    if (o < n)
        s[o] = '\0';
    return o;
}

int utf8_append_external(struct buf *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *) s;
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
        char rep[4];
        size_t rlen;
        if (utf8_internal_unit(p + i, n - i, &used) == 0)
            rlen = 1, rep[0] = '\0';
        else
            rlen = utf8_repair_one(p + i, n - i, rep, &used);
        if (buf_append(out, rep, rlen) < 0)
            return -1;
        i += used;
        run = i;
    }
    return buf_append(out, s + run, n - run);
}

size_t utf8_cut_length(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return len;
    size_t n = max;
    while (n > 0 && ((unsigned char) s[n] & 0xC0) == 0x80)
        n--;
    return n;
}

/* Whether any of the 8 bytes at p has its top bit set (not all ASCII). */
static int word_has_high_bit(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return (w & 0x8080808080808080ull) != 0;
}

size_t utf8_astral_count(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *) s;
    size_t i = 0, count = 0;
    while (i < n) {
        if (n - i >= 8 && !word_has_high_bit(p + i)) {
            i += 8;
            continue;
        }
        if (p[i] < 0xF0) {
            i++;
            continue;
        }
        size_t k = utf8_valid_prefix(p + i, n - i);
        count += k == 4;
        i += k ? k : 1;
    }
    return count;
}

size_t utf8_astral_to_pairs(const char *s, size_t n, char *out)
{
    const unsigned char *p = (const unsigned char *) s;
    size_t i = 0, o = 0, run = 0;
    while (i < n) {
        if (n - i >= 8 && !word_has_high_bit(p + i)) {
            i += 8;
            continue;
        }
        if (p[i] < 0xF0 || utf8_valid_prefix(p + i, n - i) != 4) {
            i++;
            continue;
        }
        memcpy(out + o, s + run, i - run);
        o += i - run;
        uint32_t cp = ((uint32_t) (p[i] & 0x07) << 18) | ((uint32_t) (p[i + 1] & 0x3F) << 12) |
                      ((uint32_t) (p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F);
        uint32_t units[2] = {0xD800 + ((cp - 0x10000) >> 10), 0xDC00 + ((cp - 0x10000) & 0x3FF)};
        for (int u = 0; u < 2; u++) {
            out[o++] = (char) (0xE0 | (units[u] >> 12));
            out[o++] = (char) (0x80 | ((units[u] >> 6) & 0x3F));
            out[o++] = (char) (0x80 | (units[u] & 0x3F));
        }
        i += 4;
        run = i;
    }
    if (n > run)
        memcpy(out + o, s + run, n - run);
    return o + n - run;
}
