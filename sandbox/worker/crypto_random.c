/* rt.host.fillRandom(view): the bytes under crypto.getRandomValues and
 * crypto.randomUUID (sandbox/prelude/lazy/crypto/). */
#include "sandbox/worker/crypto_random.h"
#include "common/random.h"

#include "duktape.h"

static duk_ret_t native_fill_random(duk_context *ctx)
{
    duk_size_t len = 0;
    void *data = duk_get_buffer_data(ctx, 0, &len);
    if (data == NULL && len == 0 && !duk_is_buffer_data(ctx, 0))
        return duk_error(ctx, DUK_ERR_TYPE_ERROR, "crypto.getRandomValues: not a typed array");
    if (len > 0)
        random_bytes(data, len);
    return 0;
}

void sandbox_crypto_put_natives(void *duk_ctx)
{
    duk_context *ctx = duk_ctx;
    duk_push_c_function(ctx, native_fill_random, 1);
    duk_put_prop_string(ctx, -2, "fillRandom");
}
