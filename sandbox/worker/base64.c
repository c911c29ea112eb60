/* Base64 natives of the sandbox (see base64.h): the four functions the
 * prelude wraps as atob, btoa, Uint8Array.fromBase64 and
 * Uint8Array.prototype.toBase64, on the codec of common/base64.c. */
#include "sandbox/worker/base64.h"
#include "common/base64.h"

#include "duktape.h"

#include <string.h>

static duk_ret_t invalid(duk_context *ctx, const char *what)
{
    duk_push_error_object(ctx, DUK_ERR_ERROR, "%s", what);
    duk_push_string(ctx, "InvalidCharacterError");
    duk_put_prop_string(ctx, -2, "name");
    return duk_throw(ctx);
}

/* [s] -> bytes decoded (a fixed buffer on the stack), or an error thrown. */
static unsigned char *decode_arg(duk_context *ctx, size_t *len)
{
    duk_size_t n;
    const char *s = duk_require_lstring(ctx, 0, &n);
    unsigned char *out = duk_push_fixed_buffer(ctx, n / 4 * 3 + 3);
    long got = base64_decode(s, n, out);
    if (got < 0)
        invalid(ctx, "the string is not valid base64");
    *len = (size_t) got;
    return out;
}

/* atob(s): a "binary string", one character (U+0000..U+00FF) per byte. */
static duk_ret_t native_atob(duk_context *ctx)
{
    size_t len, wide = 0;
    unsigned char *bytes = decode_arg(ctx, &len);
    for (size_t i = 0; i < len; i++)
        wide += bytes[i] >= 0x80;
    if (wide == 0) {
        duk_push_lstring(ctx, (const char *) bytes, len);
        return 1;
    }
    unsigned char *out = duk_push_fixed_buffer(ctx, len + wide);
    for (size_t i = 0, o = 0; i < len; i++) {
        if (bytes[i] < 0x80)
            out[o++] = bytes[i];
        else {
            out[o++] = (unsigned char) (0xC0 | bytes[i] >> 6);
            out[o++] = (unsigned char) (0x80 | (bytes[i] & 0x3F));
        }
    }
    duk_buffer_to_string(ctx, -1);
    return 1;
}

/* btoa(s): each character must be U+0000..U+00FF (internally one byte, or
 * two bytes led by 0xC2 or 0xC3). */
static duk_ret_t native_btoa(duk_context *ctx)
{
    duk_size_t n;
    const unsigned char *s = (const unsigned char *) duk_require_lstring(ctx, 0, &n);
    unsigned char *bytes = duk_push_fixed_buffer(ctx, n ? n : 1);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < 0x80)
            bytes[len++] = s[i];
        else if ((s[i] == 0xC2 || s[i] == 0xC3) && i + 1 < n && (s[i + 1] & 0xC0) == 0x80) {
            bytes[len++] = (unsigned char) ((s[i] & 0x1F) << 6 | (s[i + 1] & 0x3F));
            i++;
        } else
            return invalid(ctx,
                           "btoa: the string has characters outside Latin-1 (U+0000 to U+00FF)");
    }
    char *out = duk_push_fixed_buffer(ctx, (len + 2) / 3 * 4 + 1);
    size_t o = base64_encode(bytes, len, out);
    duk_push_lstring(ctx, out, o);
    return 1;
}

/* fromBase64(s): a new Uint8Array of the bytes, a view of the decoding
 * buffer itself (no copy). */
static duk_ret_t native_from_base64(duk_context *ctx)
{
    size_t len;
    decode_arg(ctx, &len);
    duk_push_buffer_object(ctx, -1, 0, len, DUK_BUFOBJ_UINT8ARRAY);
    return 1;
}

/* toBase64(view): the base64 of a typed array's or ArrayBuffer's bytes. */
static duk_ret_t native_to_base64(duk_context *ctx)
{
    duk_size_t n = 0;
    if (!duk_is_buffer_data(ctx, 0))
        return duk_error(ctx, DUK_ERR_TYPE_ERROR, "toBase64: not a Uint8Array");
    const unsigned char *data = duk_get_buffer_data(ctx, 0, &n);
    char *out = duk_push_fixed_buffer(ctx, (n + 2) / 3 * 4 + 1);
    size_t o = base64_encode(data, n, out);
    duk_push_lstring(ctx, out, o);
    return 1;
}

void sandbox_base64_put_natives(void *duk_ctx)
{
    duk_context *ctx = duk_ctx;
    static const duk_function_list_entry fns[] = {
        {"atob", native_atob, 1},
        {"btoa", native_btoa, 1},
        {"fromBase64", native_from_base64, 1},
        {"toBase64", native_to_base64, 1},
        {NULL, NULL, 0},
    };
    duk_put_function_list(ctx, -1, fns);
}
