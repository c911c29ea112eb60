/* Random bytes for crypto.getRandomValues and crypto.randomUUID: the
 * kernel's CSPRNG (getrandom, which the worker's filter allows), never the
 * Math.random generator. */
#ifndef SANDBOX_CRYPTO_RANDOM_H
#define SANDBOX_CRYPTO_RANDOM_H

#include <stddef.h>

/* Fills buf with len random bytes; 0 on success, -1 if the kernel failed. */
int sandbox_random_bytes(void *buf, size_t len);

/* Adds host.fillRandom(view): fills the bytes of a typed array (or any
 * buffer object) in place; a TypeError for anything else. duk_context is
 * passed as void * (no duktape.h here). */
void sandbox_crypto_put_natives(void *duk_ctx);

#endif
