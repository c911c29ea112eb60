/* The declarations of the built-in `resources` and `prompts` namespaces
 * (sandbox/prelude/56_resources.js), for the downstream servers that offer
 * resources or prompts: a preamble of their own, appended after the tools'
 * declarations. */
#ifndef TOOLS_DECLARATIONS_RESOURCES_H
#define TOOLS_DECLARATIONS_RESOURCES_H

#include <stddef.h>

struct buf;

/* Appends `declare const resources` (when nres > 0) and `declare const
 * prompts` (when nprompts > 0) to out, with the servers' names (borrowed,
 * original spelling) as the string literal type of the server argument. */
void tools_declarations_resources(const char *const *res, size_t nres, const char *const *prompts,
                                  size_t nprompts, struct buf *out);

#endif
