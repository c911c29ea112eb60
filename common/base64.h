/* Base64 (RFC 4648, standard alphabet). Decoding is WHATWG
 * "forgiving-base64" (as atob): ASCII whitespace is ignored and padding is
 * optional; any other character, data after padding, a lone final digit or
 * wrong padding is an error. */
#ifndef COMMON_BASE64_H
#define COMMON_BASE64_H

#include <stddef.h>

/* Decodes in[0..n) into out (room for n / 4 * 3 + 3 bytes). Returns the
 * number of bytes written, or -1 when the text is not base64. */
long base64_decode(const char *in, size_t n, unsigned char *out);

/* Encodes in[0..n) with padding into out (room for (n + 2) / 3 * 4 bytes);
 * returns the length written (no NUL). */
size_t base64_encode(const unsigned char *in, size_t n, char *out);

#endif
