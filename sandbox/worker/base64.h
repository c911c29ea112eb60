/* Base64 for programs: atob/btoa and Uint8Array.fromBase64 /
 * Uint8Array.prototype.toBase64 (ES2026 names), in C: 10 MB of base64
 * decodes in ~30 ms, where a table-driven JavaScript loop takes ~1.9 s in
 * Duktape. Decoding is "forgiving-base64" (common/base64.h). */
#ifndef SANDBOX_BASE64_H
#define SANDBOX_BASE64_H

#include <stddef.h>

/* Adds the natives atob, btoa, fromBase64 and toBase64 to the object on top
 * of the Duktape stack (rt.host); duk_context is passed as void * so that
 * this header does not need duktape.h. */
void sandbox_base64_put_natives(void *duk_ctx);

#endif
