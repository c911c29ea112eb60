/* The running program: one libuv loop holding the sandbox pool, the tools
 * registry and an MCP server, fed by stdio (serve) or by the `run` command
 * acting as an in-process client of that same server. */
#ifndef MCP_SERVER_APP_H
#define MCP_SERVER_APP_H

#include <stddef.h>

struct config;

/* Serves MCP over stdin/stdout until EOF or SIGTERM/SIGINT. Returns the exit status. */
int app_serve_stdio(const struct config *cfg, const char *exe);

/* Runs one program through the server's execute_code path: console lines go
 * to stderr as they happen, the result to stdout (as JSON with json != 0).
 * Returns 0, 1 when the program failed, 2 on a set-up error. */
int app_run_program(const struct config *cfg, const char *exe, const char *code, size_t len,
                    int json);

/* Connects to the configured servers and prints, once they settled, either
 * the declarations programs see (check = 0: `types`) or each server's state
 * and tools (check = 1: `check`, exit status 1 unless all are ready). */
int app_inspect(const struct config *cfg, int check);

#endif
