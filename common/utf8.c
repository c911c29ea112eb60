/* UTF-8 validation (RFC 3629 well-formedness) and repair with U+FFFD. */
#include "common/utf8.h"
#include "common/buf.h"

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
        if (buf_append(out, s + run, i - run) < 0 || buf_append(out, "\xEF\xBF\xBD", 3) < 0)
            return -1;
        i++;
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
        i += k ? k : 1;
        count++;
    }
    return count;
}
