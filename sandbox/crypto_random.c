/* rt.host.fillRandom(view): the bytes under crypto.getRandomValues and
 * crypto.randomUUID (sandbox/prelude/lazy/crypto/), from getrandom(2). */
#include "sandbox/crypto_random.h"

#include "duktape.h"

#include <errno.h>
#include <sys/random.h>

int sandbox_random_bytes(void *buf, size_t len)
{
    unsigned char *p = buf;
    while (len > 0) {
        ssize_t n = getrandom(p, len, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t) n;
    }
    return 0;
}

static duk_ret_t native_fill_random(duk_context *ctx)
{
    duk_size_t len = 0;
    void *data = duk_get_buffer_data(ctx, 0, &len);
    if (data == NULL && len == 0 && !duk_is_buffer_data(ctx, 0))
        return duk_error(ctx, DUK_ERR_TYPE_ERROR, "crypto.getRandomValues: not a typed array");
    if (len > 0 && sandbox_random_bytes(data, len) != 0)
        return duk_error(ctx, DUK_ERR_ERROR,
                         "crypto.getRandomValues: the system gave no random bytes");
    return 0;
}

void sandbox_crypto_put_natives(void *duk_ctx)
{
    duk_context *ctx = duk_ctx;
    duk_push_c_function(ctx, native_fill_random, 1);
    duk_put_prop_string(ctx, -2, "fillRandom");
}
