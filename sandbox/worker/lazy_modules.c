/* rt.host.load(name): runs one of the prelude's lazily loaded modules
 * (sandbox/worker/lazy_modules.h) in the current heap. */
#include "sandbox/worker/lazy_modules.h"

#include "duktape.h"

#include <string.h>

static duk_ret_t native_load(duk_context *ctx)
{
    const char *name = duk_require_string(ctx, 0);
    const struct sandbox_lazy_module *m = sandbox_lazy_modules;
    while (m->name && strcmp(m->name, name) != 0)
        m++;
    if (m->name == NULL)
        return duk_error(ctx, DUK_ERR_TYPE_ERROR, "no prelude module '%s'", name);
    duk_push_lstring(ctx, m->source, m->len);
    duk_push_sprintf(ctx, "prelude/%s.js", m->name);
    duk_compile(ctx, DUK_COMPILE_EVAL);
    duk_call(ctx, 0); /* -> the module function (G, rt) */
    duk_push_global_object(ctx);
    duk_push_global_stash(ctx);
    duk_get_prop_string(ctx, -1, "rt");
    duk_remove(ctx, -2);
    duk_call(ctx, 2);
    return 0;
}

void sandbox_lazy_put_native(void *duk_ctx)
{
    duk_context *ctx = duk_ctx;
    duk_push_c_function(ctx, native_load, 1);
    duk_put_prop_string(ctx, -2, "load");
}
