/* Command-line parsing and help. */
#include "mcp-server/cli.h"
#include "mcp-server/app.h"
#include "mcp-server/state_cmd.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct flag {
    const char *name;
    const char *key; /* config key it overrides */
    const char *arg;
    const char *help;
};

static const struct flag flags[] = {
    {"--http", "http.listen", "HOST:PORT", "serve MCP over HTTP at /mcp and /sse (port 0: any free port)"},
    {"--auth-token", "http.authToken", "TOKEN", "bearer token required on HTTP requests"},
    {"--log-level", "logLevel", "LEVEL", "stderr log level (default warning): debug, info, notice, warning, error, critical, alert, emergency, off"},
    {"--pool-size", "poolSize", "N", "sandbox workers kept ready (default 2)"},
    {"--timeout-ms", "timeoutMs", "MS", "default time limit of a program (default 30000)"},
    {"--max-timeout-ms", "maxTimeoutMs", "MS", "largest timeoutMs a call may ask for (default 300000)"},
    {"--memory-limit-mb", "memoryLimitMb", "MB", "JavaScript heap limit per program (default 64)"},
    {"--max-result-bytes", "maxResultBytes", "N", "cap on a result's JSON (default 1048576)"},
    {"--max-log-bytes", "maxLogBytes", "N", "cap on console output per program (default 262144)"},
    {"--max-call-argument-bytes", "maxCallArgumentBytes", "N", "cap on one tool call's arguments as JSON (default 4194304)"},
    {"--max-message-bytes", "maxMessageBytes", "N", "cap on one incoming message (default 16777216)"},
    {"--max-tool-calls", "maxToolCalls", "N", "tool calls per program (default 1000)"},
    {"--max-concurrent-calls", "maxConcurrentCalls", "N", "tool calls in flight per program (default 256)"},
    {"--call-timeout-ms", "callTimeoutMs", "MS", "default downstream call timeout (default 60000)"},
    {"--declarations-tokens", "declarations.budget", "TOKENS", "tokens the tools' declarations may cost in the description (default 12000)"},
    {"--declarations-budget", "declarationsBudget", "BYTES", "deprecated: the same budget in bytes (bytes / 4 tokens)"},
    {"--audit-log", "audit.path", "FILE", "append one JSON line per execution and tool call (docs/policy.md)"},
};
#define NFLAGS (sizeof flags / sizeof flags[0])

void cli_usage(FILE *f)
{
    fputs("usage: mcp-codemode [serve] [CONFIG.json] [--stdio] [options]\n"
          "       mcp-codemode run FILE.js|- [CONFIG.json] [--json] [--dry-run] [--approve all|none]\n"
          "                        [--principal P] [--out DIR] [--no-login] [options]\n"
          "       mcp-codemode lower FILE.js|-\n"
          "       mcp-codemode types [CONFIG.json] [--full]\n"
          "       mcp-codemode check [--token TOKEN] [CONFIG.json]\n"
          "       mcp-codemode skills save --name NAME --description TEXT [--schema FILE.json] --file FILE.js|- [CONFIG.json]\n"
          "       mcp-codemode skills list | skills delete NAME   [CONFIG.json]\n"
          "       mcp-codemode state list [PREFIX] | get KEY | set KEY JSON|- [--if-version N] | delete KEY\n"
          "                          [--principal P | --scope server] [--json] [CONFIG.json]\n"
          "       mcp-codemode login SERVER [--no-browser] [CONFIG.json] | logout SERVER [CONFIG.json]\n"
          "       mcp-codemode --version | --help\n\n"
          "An MCP server with one tool, execute_code, that runs JavaScript in a sandbox;\n"
          "programs call the tools of the downstream MCP servers in the config file.\n\n"
          "commands:\n"
          "  serve          serve MCP (the default): over stdio, or over HTTP with --http\n"
          "  run FILE|-     run a program through the server's execution path; prints console\n"
          "                 lines on stderr and the result on stdout; exit 1 if it failed\n"
          "  lower FILE|-   print the ES5 the sandbox runs for a program\n"
          "  types          print the TypeScript declarations the model reads (--full: every\n"
          "                 tool with all its docs, as describeTool shows one)\n"
          "  check          validate the config file and list its servers\n"
          "  skills         save, list or delete the saved skills (programs callable as\n"
          "                 skills.<name>(args)) in the state database\n"
          "  state          list, read, write or delete the keys programs keep with state.*\n"
          "  login SERVER   log in to a remote server that needs OAuth (docs/oauth.md); logout\n"
          "                 SERVER forgets its tokens\n\n"
          "options:\n"
          "  -c, --config FILE  Claude Desktop style config (mcpServers + codemode block);\n"
          "                 default: $MCP_CODEMODE_CONFIG when set. Also a plain word\n"
          "                 (CONFIG.json above): a path ending in .json, containing a /,\n"
          "                 or naming a file\n"
          "  --stdio        serve over stdin/stdout (default)\n"
          "  --json         run: print the structured result as JSON; state: print JSON\n"
          "  --dry-run      run: send only allowed read-only calls; print the others, not sent,\n"
          "                 with what the policy would do with each\n"
          "  --approve all|none  run: approve every tool that asks, or none (default: ask on\n"
          "                 the terminal when there is one, else none)\n"
          "  --principal P  run: run the program as principal P (its state, the owner of its\n"
          "                 skills; default cli); state: the keys of principal P\n"
          "  --out DIR      run: write images, audio, embedded resources and stashed results\n"
          "                 to files in DIR (created if missing) and print their paths\n"
          "  --scope server|principal  state: the server's keys, or a principal's (default:\n"
          "                 those run sees under codemode.state.scope)\n"
          "  --if-version N state set: only when the key is at version N (0: does not exist)\n"
          "  --no-browser   login: print the URL and read the redirected URL pasted on stdin\n"
          "  --no-login     run: never open a login page; a call to a server that needs a\n"
          "                 login fails with ToolAuthError (default: log in when stdin is a\n"
          "                 terminal or $BROWSER is set)\n"
          "  --token TOKEN  check: verify an access token as codemode.http.oauth does and show\n"
          "                 the decisions for its scopes\n",
          f);
    for (size_t i = 0; i < NFLAGS; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s %s", flags[i].name, flags[i].arg);
        fprintf(f, "  %-30s %s\n", left, flags[i].help);
    }
    fputs("  --version      print the version and sandbox features\n"
          "  --help         this text\n\n"
          "Options override the config file's codemode block. See docs/config.md.\n",
          f);
}

static const struct flag *find_flag(const char *name, size_t len)
{
    for (size_t i = 0; i < NFLAGS; i++)
        if (strlen(flags[i].name) == len && strncmp(flags[i].name, name, len) == 0)
            return &flags[i];
    return NULL;
}

static int parse_command(const char *word, struct cli *out)
{
    static const struct {
        const char *name;
        enum cli_command cmd;
    } cmds[] = {{"serve", CLI_SERVE}, {"run", CLI_RUN},     {"lower", CLI_LOWER},
                {"types", CLI_TYPES}, {"check", CLI_CHECK}, {"skills", CLI_SKILLS},
                {"state", CLI_STATE}, {"login", CLI_LOGIN}, {"logout", CLI_LOGOUT}};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (strcmp(word, cmds[i].name) == 0) {
            out->cmd = cmds[i].cmd;
            return 0;
        }
    }
    return -1;
}

/* Sets the config path once (-c, --config or a positional path). */
static int set_config(struct cli *out, const char *path, char *err, size_t errsz)
{
    if (out->config_path) {
        snprintf(err, errsz, "the config file is given twice (\"%s\" and \"%s\")",
                 out->config_path, path);
        return -1;
    }
    out->config_path = path;
    return 0;
}

/* A word that is not a command is the config file when it looks like one:
 * it ends in .json, contains a slash, or names an existing file. */
static int looks_like_config(const char *word)
{
    size_t n = strlen(word);
    return (n > 5 && strcmp(word + n - 5, ".json") == 0) || strchr(word, '/') != NULL ||
           access(word, F_OK) == 0;
}

/* Reads the value of --name VALUE or --name=VALUE. */
static const char *take_value(int argc, char **argv, int *i, const char *eq)
{
    if (eq)
        return eq + 1;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* skills: the action, then (delete) the name. 0, or -1 when a is not expected. */
static int skill_word(struct cli *out, const char *a)
{
    if (out->skill.action == NULL)
        out->skill.action = a;
    else if (strcmp(out->skill.action, "delete") == 0 && out->skill.name == NULL)
        out->skill.name = a;
    else
        return -1;
    return 0;
}

/* skills save's flags: where the value of flag a goes, or NULL when a is not one. */
static const char **skill_flag(struct cli *out, const char *a, size_t nlen)
{
    const char **slot = NULL;
    if (nlen == 6 && !strncmp(a, "--name", 6))
        slot = &out->skill.name;
    else if (nlen == 13 && !strncmp(a, "--description", 13))
        slot = &out->skill.description;
    else if (nlen == 8 && !strncmp(a, "--schema", 8))
        slot = &out->skill.schema_file;
    else if (nlen == 6 && !strncmp(a, "--file", 6))
        slot = &out->file;
    return slot;
}

static int skill_check(const struct cli *out, char *err, size_t errsz)
{
    const char *a = out->skill.action;
    if (a && !strcmp(a, "list"))
        return 0;
    if (a && !strcmp(a, "delete") && out->skill.name)
        return 0;
    if (a && !strcmp(a, "save") && out->skill.name && out->skill.description && out->file)
        return 0;
    snprintf(err, errsz, "skills: expected save --name NAME --description TEXT --file FILE.js "
                         "[--schema FILE.json], list, or delete NAME");
    return -1;
}

/* --principal (run, state) and --out (run): where the value goes, or NULL. */
static const char **run_flag(struct cli *out, const char *a, size_t nlen)
{
    if (nlen == 11 && !strncmp(a, "--principal", 11) &&
        (out->cmd == CLI_RUN || out->cmd == CLI_STATE))
        return &out->principal;
    if (nlen == 5 && !strncmp(a, "--out", 5) && out->cmd == CLI_RUN)
        return &out->out_dir;
    if (nlen == 7 && !strncmp(a, "--token", 7) && out->cmd == CLI_CHECK)
        return &out->token;
    return NULL;
}

/* A principal as named in the audit log ("stdio", "http-session:<sha-256>"). */
static int principal_check(const char *p, char *err, size_t errsz)
{
    size_t n = strlen(p);
    int ok = n > 0 && n <= 256;
    for (size_t i = 0; ok && i < n; i++)
        ok = (unsigned char) p[i] >= 0x20 && p[i] != 0x7f;
    if (!ok)
        snprintf(err, errsz, "--principal takes a principal's name as the audit log shows it "
                             "(1 to 256 bytes, no control characters)");
    return ok ? 0 : -1;
}

int cli_parse(int argc, char **argv, struct cli *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    out->cmd = CLI_SERVE;
    int i = 1;
    if (i < argc && argv[i][0] != '-') {
        if (parse_command(argv[i], out) == 0) {
            i++;
        } else if (!looks_like_config(argv[i])) {
            snprintf(err, errsz,
                     "unknown command \"%s\" (see --help; a config file is a path ending in "
                     ".json or containing a /, or -c FILE)",
                     argv[i]);
            return -1;
        }
    }
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        size_t nlen = eq ? (size_t) (eq - a) : strlen(a);
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if ((out->cmd == CLI_RUN || out->cmd == CLI_LOWER) && out->file == NULL) {
                out->file = a;
                continue;
            }
            if (out->cmd == CLI_SKILLS && skill_word(out, a) == 0)
                continue;
            if (out->cmd == CLI_STATE && state_cmd_word(out, a) == 0)
                continue;
            if ((out->cmd == CLI_LOGIN || out->cmd == CLI_LOGOUT) && out->server == NULL) {
                out->server = a;
                continue;
            }
            if (out->cmd != CLI_LOWER && strcmp(a, "-") != 0) {
                if (set_config(out, a, err, errsz) != 0)
                    return -1;
                continue;
            }
            snprintf(err, errsz, "unexpected argument \"%s\" (see --help)", a);
            return -1;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            out->cmd = CLI_HELP;
            return 0;
        }
        if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
            out->cmd = CLI_VERSION;
            return 0;
        }
        if (!strcmp(a, "--stdio"))
            continue;
        if (!strcmp(a, "--json")) {
            out->json = 1;
            continue;
        }
        if (!strcmp(a, "--dry-run")) {
            out->dry_run = 1;
            continue;
        }
        if (!strcmp(a, "--no-browser") && out->cmd == CLI_LOGIN) {
            out->no_browser = 1;
            continue;
        }
        if (!strcmp(a, "--no-login") && out->cmd == CLI_RUN) {
            out->no_login = 1;
            continue;
        }
        if (!strcmp(a, "--full") && out->cmd == CLI_TYPES) {
            out->full = 1;
            continue;
        }
        if (nlen == 9 && !strncmp(a, "--approve", 9)) {
            const char *who = take_value(argc, argv, &i, eq);
            if (who == NULL)
                goto missing;
            if (strcmp(who, "all") && strcmp(who, "none")) {
                snprintf(err, errsz, "--approve takes all or none, not \"%s\"", who);
                return -1;
            }
            out->approve = strcmp(who, "all") == 0 ? APP_RUN_APPROVE_ALL : APP_RUN_APPROVE_NONE;
            continue;
        }
        const char *v;
        if ((nlen == 8 && !strncmp(a, "--config", 8)) || !strcmp(a, "-c")) {
            if ((v = take_value(argc, argv, &i, eq)) == NULL)
                goto missing;
            if (set_config(out, v, err, errsz) != 0)
                return -1;
            continue;
        }
        const char **slot = out->cmd == CLI_SKILLS  ? skill_flag(out, a, nlen)
                            : out->cmd == CLI_STATE ? state_cmd_flag(out, a, nlen)
                                                    : NULL;
        if (slot == NULL)
            slot = run_flag(out, a, nlen);
        if (slot) {
            if ((*slot = take_value(argc, argv, &i, eq)) == NULL)
                goto missing;
            continue;
        }
        const struct flag *f = find_flag(a, nlen);
        if (f == NULL) {
            snprintf(err, errsz, "unknown option \"%.*s\" (see --help)", (int) nlen, a);
            return -1;
        }
        if ((v = take_value(argc, argv, &i, eq)) == NULL)
            goto missing;
        if (out->noverrides == CLI_MAX_OVERRIDES) {
            snprintf(err, errsz, "too many options");
            return -1;
        }
        out->overrides[out->noverrides].key = f->key;
        out->overrides[out->noverrides].value = v;
        out->noverrides++;
    }
    if ((out->cmd == CLI_RUN || out->cmd == CLI_LOWER) && out->file == NULL) {
        snprintf(err, errsz, "%s needs a file (or - for stdin)",
                 out->cmd == CLI_RUN ? "run" : "lower");
        return -1;
    }
    if ((out->cmd == CLI_LOGIN || out->cmd == CLI_LOGOUT) && out->server == NULL) {
        snprintf(err, errsz, "%s needs the name of a server of the config",
                 out->cmd == CLI_LOGIN ? "login" : "logout");
        return -1;
    }
    if (out->principal && principal_check(out->principal, err, errsz) != 0)
        return -1;
    if (out->cmd == CLI_SKILLS)
        return skill_check(out, err, errsz);
    if (out->cmd == CLI_STATE)
        return state_cmd_check(out, err, errsz);
    return 0;
missing:
    snprintf(err, errsz, "option %s needs a value", argv[i]);
    return -1;
}
