/* The prelude's modules that load on first use (sandbox/prelude/lazy/NAME/,
 * sandbox/prelude/78_lazy.js): each one's source, embedded at build time
 * (scripts/embed_lazy.sh) as a function expression (function (G, rt) {...}),
 * compiled and run by rt.host.load(NAME) in the heap of the run that needs
 * it. */
#ifndef SANDBOX_LAZY_MODULES_H
#define SANDBOX_LAZY_MODULES_H

#include <stddef.h>

struct sandbox_lazy_module {
    const char *name;
    const char *source;
    size_t len;
};

/* Ends with an entry whose name is NULL. */
extern const struct sandbox_lazy_module sandbox_lazy_modules[];

/* [ ... host ] -> [ ... host ]: puts host.load(name), which compiles the
 * module and calls it with the global object and the runtime object (the
 * global stash's "rt"); an unknown name is a TypeError. */
void sandbox_lazy_put_native(void *duk_ctx);

#endif
