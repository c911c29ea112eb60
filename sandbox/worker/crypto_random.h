/* crypto.getRandomValues and crypto.randomUUID take their bytes from the
 * kernel's CSPRNG (common/random.c: getrandom, which the worker's filter
 * allows), never from the Math.random generator. */
#ifndef SANDBOX_CRYPTO_RANDOM_H
#define SANDBOX_CRYPTO_RANDOM_H

/* Adds host.fillRandom(view): fills the bytes of a typed array (or any
 * buffer object) in place; a TypeError for anything else. duk_context is
 * passed as void * (no duktape.h here). */
void sandbox_crypto_put_natives(void *duk_ctx);

#endif
