/* Base64 for programs: atob/btoa and Uint8Array.fromBase64 /
 * Uint8Array.prototype.toBase64 (ES2026 names), in C so that 10 MB of
 * base64 costs milliseconds, not the seconds a JavaScript loop takes in
 * Duktape. Decoding is "forgiving-base64" (WHATWG): ASCII whitespace is
 * ignored, padding is optional, anything else is an error. */
#ifndef SANDBOX_BASE64_H
#define SANDBOX_BASE64_H

#include <stddef.h>

/* Decodes in[0..n) into out (room for n / 4 * 3 + 3 bytes). Returns the
 * number of bytes written, or -1 when the text is not base64. */
long sandbox_base64_decode(const char *in, size_t n, unsigned char *out);

/* Encodes in[0..n) with padding into out (room for (n + 2) / 3 * 4 bytes);
 * returns the length written (no NUL). */
size_t sandbox_base64_encode(const unsigned char *in, size_t n, char *out);

/* Adds the natives atob, btoa, fromBase64 and toBase64 to the object on top
 * of the Duktape stack (rt.host); duk_context is passed as void * so that
 * this header does not need duktape.h. */
void sandbox_base64_put_natives(void *duk_ctx);

#endif
