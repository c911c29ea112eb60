/* The `state` subcommand: list, get, set and delete the keys programs keep
 * with state.* (docs/config.md, The state command), in the scope of one
 * principal or of the server, through the state store's interface
 * (tools/state/), with the checks, quotas and errors of state.* in a
 * program. Also the parsing of its words and flags for mcp-server/cli.c. */
#ifndef MCP_SERVER_STATE_CMD_H
#define MCP_SERVER_STATE_CMD_H

#include "mcp-server/cli.h"

#include <stddef.h>

struct config;

/* A word after `state`: the action, then its key, then (set) its value.
 * 0, or -1 when a is not expected there. */
int state_cmd_word(struct cli *cli, const char *a);

/* Where the value of flag a[0..nlen) of `state` goes (--scope,
 * --if-version), or NULL when it is not one of them. */
const char **state_cmd_flag(struct cli *cli, const char *a, size_t nlen);

/* The checks of a whole `state` command line: 0, or -1 with err. */
int state_cmd_check(const struct cli *cli, char *err, size_t errsz);

/* Runs cli->state.action; value is set's JSON text (read from stdin by the
 * caller for "-"), else NULL. Prints the outcome on stdout (JSON with
 * cli->json) and errors on stderr. Returns the exit status: 0 done, 1 the
 * key, database or store refused (no such key, no database, quota,
 * conflict), 2 bad input (not JSON). */
int state_cmd_run(const struct config *cfg, const struct cli *cli, const char *value);

#endif
