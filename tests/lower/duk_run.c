/* Test harness for the lowering pass: runs ES5 files in a sandbox-variant
 * Duktape heap (stub runtime `rt`/`G` + the given prelude files, then the
 * program) and prints console output. Throwaway until the engine lands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "duktape.h"
#include "sandbox/limits.h"

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)len + 1);
    if (fread(s, 1, (size_t)len, f) != (size_t)len) exit(2);
    s[len] = 0; fclose(f); *n = (size_t)len; return s;
}

static duk_ret_t native_print(duk_context *ctx)
{
    duk_push_string(ctx, " ");
    duk_insert(ctx, 0);
    duk_join(ctx, duk_get_top(ctx) - 1);
    printf("%s\n", duk_safe_to_string(ctx, -1));
    return 0;
}

int main(int argc, char **argv)
{
    duk_context *ctx = duk_create_heap_default();
    sandbox_limits_stack_init(7u << 20);
    duk_push_global_object(ctx);
    duk_push_c_function(ctx, native_print, DUK_VARARGS);
    duk_put_prop_string(ctx, -2, "print");
    duk_pop(ctx);
    for (int i = 1; i < argc; i++) {
        size_t n; char *src = slurp(argv[i], &n);
        duk_push_string(ctx, argv[i]);
        if (duk_pcompile_lstring_filename(ctx, 0, src, n) != 0 || duk_pcall(ctx, 0) != 0) {
            duk_get_prop_string(ctx, -1, "stack");
            fprintf(stderr, "%s: %s\n", argv[i], duk_safe_to_string(ctx, -1));
            return 1;
        }
        duk_pop(ctx);
        free(src);
    }
    duk_destroy_heap(ctx);
    return 0;
}
