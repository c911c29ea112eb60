/* ${VAR} and ${VAR:-default} expansion of configuration strings from the
 * environment. `$${` is a literal `${`; every other `$` is literal, so
 * existing values such as "pa$$word" or "echo $HOME" pass through unchanged.
 * Internal to mcp-server/config/. */
#ifndef MCP_SERVER_CONFIG_EXPAND_H
#define MCP_SERVER_CONFIG_EXPAND_H

#include <stddef.h>

#define CONFIG_EXPAND_MAX_NESTING 16

/* Called for each ${NAME} without a default whose variable is not set (once
 * per occurrence, in order). off is the byte offset of its `$` in s. */
typedef void config_expand_unset_fn(void *ud, const char *name, size_t off);

/* Expands s (NUL-terminated) using getenv. NAME is [A-Za-z_][A-Za-z0-9_]*;
 * ${NAME:-default} uses default (itself expanded; braces in it nest) when
 * NAME is unset or empty; ${NAME} of an unset NAME gives "" and calls unset
 * (may be NULL). Returns a malloc'd string, or NULL with *err (a static
 * message) and *err_off (byte offset in s) for a malformed reference. */
char *config_expand(const char *s, config_expand_unset_fn *unset, void *ud, const char **err,
                    size_t *err_off);

#endif
