/* Command-line parsing: subcommands, flags (which override the config
 * file's codemode block), and the help text that documents every flag. */
#ifndef MCP_SERVER_CLI_H
#define MCP_SERVER_CLI_H

#include <stddef.h>
#include <stdio.h>

enum cli_command {
    CLI_SERVE,
    CLI_RUN,
    CLI_LOWER,
    CLI_TYPES,
    CLI_CHECK,
    CLI_SKILLS,
    CLI_STATE,
    CLI_LOGIN,
    CLI_LOGOUT,
    CLI_VERSION,
    CLI_HELP
};

#define CLI_MAX_OVERRIDES 32

struct cli {
    enum cli_command cmd;
    const char *config_path;
    const char *file;   /* run, lower: a path or "-" */
    int json;           /* run --json */
    int dry_run;        /* run --dry-run */
    int full;           /* types --full */
    int approve;        /* run --approve: APP_RUN_APPROVE_ALL or _NONE (app.h), 0 = not given */
    const char *principal; /* run, state: --principal (checked: 1 to 256 bytes, no control characters) */
    const char *out_dir;   /* run --out DIR */
    const char *token;     /* check --token: an access token for codemode.http.oauth */
    const char *server;    /* login, logout: the server's name */
    int no_browser;        /* login --no-browser */
    int no_login;          /* run --no-login */
    struct {
        const char *key; /* config key, e.g. "poolSize" */
        const char *value;
    } overrides[CLI_MAX_OVERRIDES];
    int noverrides;
    /* skills: the action (save, list, delete) and its arguments */
    struct {
        const char *action, *name, *description, *schema_file;
    } skill;
    /* state: the action (list, get, set, delete), its key (list: the prefix),
     * set's value (JSON text or "-"), --scope, --if-version (mcp-server/state_cmd.h) */
    struct {
        const char *action, *key, *value, *scope, *if_version;
    } state;
};

/* Parses argv. Returns 0, or -1 with a message in err (for exit status 2). */
int cli_parse(int argc, char **argv, struct cli *out, char *err, size_t errsz);

void cli_usage(FILE *f);

#endif
