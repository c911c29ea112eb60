/* The running program: one libuv loop holding the sandbox pool, the tools
 * registry and MCP servers, fed by stdio or HTTP (serve) or by the `run`
 * command acting as an in-process client of that same server. */
#ifndef MCP_SERVER_APP_H
#define MCP_SERVER_APP_H

#include <stddef.h>

struct config;

/* Serves MCP over stdin/stdout until EOF or SIGTERM/SIGINT. Returns the exit status. */
int app_serve_stdio(const struct config *cfg, const char *exe);

/* Serves MCP over HTTP on cfg->http_listen until SIGTERM/SIGINT: the first
 * signal drains (no new connections or requests; requests in progress get
 * up to codemode.http.drainTimeoutMs, default 5 s, then are cancelled), a
 * second one stops at once. Prints "mcp-codemode: listening on URL ..." on
 * stderr once bound. Returns the exit status (0 after a signal, 1 when it
 * cannot listen). */
int app_serve_http(const struct config *cfg, const char *exe);

/* Runs one program through the server's execute_code path: console lines go
 * to stderr as they happen, the result to stdout (mcp-server/run_output.h:
 * as JSON with the flag APP_RUN_JSON; APP_RUN_DRY_RUN runs it as a dry run
 * and prints the plan; `ask` tools are approved as the APP_RUN_APPROVE_*
 * flags say, else on the terminal when stderr is one, else refused; a
 * server that needs a login is logged in to, the browser opened, when
 * stdin is a terminal or $BROWSER is set, unless APP_RUN_NO_LOGIN). The
 * program runs as principal (NULL: APP_RUN_PRINCIPAL): its state scope,
 * the owner of the skills it saves, the audit log's principal. With out_dir
 * (an existing directory), images, audio, embedded resources and stashed
 * results are written there. Returns 0, 1 when the program failed, 2 on a
 * set-up error. */
#define APP_RUN_JSON 1
#define APP_RUN_DRY_RUN 2
#define APP_RUN_APPROVE_ALL 4  /* --approve all */
#define APP_RUN_APPROVE_NONE 8 /* --approve none (without either: the terminal, if any) */
#define APP_RUN_NO_LOGIN 16    /* --no-login (without it: a login when a person is there) */
#define APP_RUN_PRINCIPAL "cli"
struct app_run_options {
    int flags;             /* APP_RUN_* */
    const char *principal; /* run --principal, or NULL */
    const char *out_dir;   /* run --out, or NULL */
};
int app_run_program(const struct config *cfg, const char *exe, const char *code, size_t len,
                    const struct app_run_options *o);

/* Connects to the configured servers and prints, once they settled, either
 * the declarations the model reads (check = 0: `types`; with `full`, every
 * tool with all its docs) or each server's state and tools and what the
 * declarations cost (check = 1: `check`, exit status 1 unless all are
 * ready). token (check only; may be NULL): an access token checked as
 * codemode.http.oauth checks it first; the decisions shown are then those
 * for its scopes (exit status 1 when it is refused). */
int app_inspect(const struct config *cfg, int check, int full, const char *token);

#endif
