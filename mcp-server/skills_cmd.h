/* The `skills` subcommand: save, list and delete saved skills in the state
 * database without a running server (docs/javascript.md, Skills). */
#ifndef MCP_SERVER_SKILLS_CMD_H
#define MCP_SERVER_SKILLS_CMD_H

#include "mcp-server/cli.h"

struct config;

/* Runs cli->skill.action; code (save: the program text) and schema (save:
 * JSON text of the inputSchema, or NULL) are borrowed. Returns the exit
 * status: 0 done, 1 refused or failed (message on stderr), 2 bad input. */
int skills_cmd_run(const struct config *cfg, const struct cli *cli, const char *code,
                   const char *schema);

#endif
