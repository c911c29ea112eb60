/* The `login` and `logout` commands (docs/oauth.md): an OAuth login to one
 * remote server of the config, the person reached through $BROWSER (else
 * xdg-open) or, with --no-browser, by the printed URL and the redirected
 * URL pasted on standard input; logout forgets the server's tokens. */
#ifndef MCP_SERVER_LOGIN_CMD_H
#define MCP_SERVER_LOGIN_CMD_H

#include "mcp-server/cli.h"

struct config;

/* Runs cli->cmd (CLI_LOGIN or CLI_LOGOUT) for server cli->server. Prints
 * the outcome; returns the exit status: 0 done, 1 the login failed, 2 bad
 * input (no such server, not an OAuth entry). */
int login_cmd_run(const struct config *cfg, const struct cli *cli);

#endif
