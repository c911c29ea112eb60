/* Base64 (RFC 4648, standard alphabet): encoding with padding, and
 * WHATWG "forgiving-base64" decoding (see base64.h). */
#include "common/base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int sextet(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

long base64_decode(const char *in, size_t n, unsigned char *out)
{
    unsigned acc = 0;
    size_t digits = 0, pads = 0, o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char) in[i];
        if (is_space(c))
            continue;
        if (c == '=') {
            pads++;
            continue;
        }
        int v = sextet(c);
        if (v < 0 || pads)
            return -1; /* not base64, or data after padding */
        acc = (acc << 6) | (unsigned) v;
        if (++digits % 4 == 0) {
            out[o++] = (unsigned char) (acc >> 16);
            out[o++] = (unsigned char) (acc >> 8);
            out[o++] = (unsigned char) acc;
            acc = 0;
        }
    }
    size_t rest = digits % 4;
    if (rest == 1 || (pads && (rest + pads) % 4 != 0) || pads > 2)
        return -1;
    if (rest == 2)
        out[o++] = (unsigned char) (acc >> 4);
    else if (rest == 3) {
        out[o++] = (unsigned char) (acc >> 10);
        out[o++] = (unsigned char) (acc >> 2);
    }
    return (long) o;
}

size_t base64_encode(const unsigned char *in, size_t n, char *out)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        unsigned v = (unsigned) in[i] << 16 | (unsigned) in[i + 1] << 8 | in[i + 2];
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = alphabet[(v >> 6) & 63];
        out[o++] = alphabet[v & 63];
    }
    if (i < n) {
        unsigned v = (unsigned) in[i] << 16 | (i + 1 < n ? (unsigned) in[i + 1] << 8 : 0);
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
        out[o++] = '=';
    }
    return o;
}
