/* mcp-codemode entry point: parses the command line, loads the config, and
 * runs the chosen command (serve, run, lower, types, check, skills, state)
 * or, hidden, the sandbox zygote. Exit status: 0 ok, 1 failure, 2 usage or config error. */
#include "mcp-server/app.h"
#include "mcp-server/cli.h"
#include "mcp-server/login_cmd.h"
#include "mcp-server/config/config.h"
#include "mcp-server/run_output.h"
#include "mcp-server/skills_cmd.h"
#include "mcp-server/state_cmd.h"
#include "mcp-server/version.h"
#include "sandbox/host/image.h"
#include "sandbox/worker/engine.h"
#include "sandbox/lower/lower.h"
#include "sandbox/worker/seccomp.h"
#include "sandbox/worker/zygote_args.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/log.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

static void print_version(void)
{
    printf("%s %s\n", MCP_CODEMODE_NAME, MCP_CODEMODE_VERSION);
    printf("engine: Duktape %ld.%ld.%ld (interrupt deadline, native stack check, FASTINT)\n",
           sandbox_engine_version() / 10000, sandbox_engine_version() / 100 % 100,
           sandbox_engine_version() % 100);
    printf("sandbox: workers forked from a zygote, one client's executions each, restored "
           "between runs; %s; rlimits; no_new_privs\n",
           sandbox_seccomp_available() ? "seccomp-bpf allow-list" : "no seccomp (rlimits only)");
    printf("protocol: MCP 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28 over stdio, "
           "Streamable HTTP (/mcp) and HTTP+SSE (/sse)\n");
}

/* Reads a whole file ("-" = stdin); returns NULL with errno set. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL)
        return NULL;
    struct buf b;
    buf_init(&b, 64u << 20);
    char chunk[65536];
    size_t n;
    int too_big = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (buf_append(&b, chunk, n) < 0) {
            too_big = 1;
            break;
        }
    }
    int failed = ferror(f);
    if (f != stdin)
        fclose(f);
    if (failed || too_big) {
        buf_free(&b);
        errno = too_big ? EFBIG : EIO;
        return NULL;
    }
    *len = b.len;
    return buf_steal(&b);
}

static int load_config(const struct cli *cli, struct config *cfg)
{
    config_init(cfg);
    const char *path = cli->config_path ? cli->config_path : getenv("MCP_CODEMODE_CONFIG");
    char *err = NULL;
    if (path && *path && config_load(cfg, path, &err) != 0) {
        fprintf(stderr, "mcp-codemode: %s\n", err);
        free(err);
        return -1;
    }
    for (int i = 0; i < cli->noverrides; i++) {
        if (config_override(cfg, cli->overrides[i].key, cli->overrides[i].value, &err) != 0) {
            fprintf(stderr, "mcp-codemode: command line: %s\n", err);
            free(err);
            return -1;
        }
    }
    enum log_level level = LOG_WARNING;
    if (cfg->log_level)
        log_level_parse(cfg->log_level, &level);
    log_set_level(level);
    for (size_t i = 0; i < cfg->nwarnings; i++)
        log_msg(cfg->warning_kinds[i] == CONFIG_WARNING_IGNORED ? LOG_DEBUG : LOG_WARNING, "config",
                "%s", cfg->warnings[i]);
    return 0;
}

static char *self_exe(void)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        return NULL;
    path[n] = '\0';
    return xstrdup(path);
}

/* `lower FILE`: prints the ES5 the sandbox compiles for a program. */
static int lower_file(const char *path)
{
    size_t len;
    char *code = read_all(path, &len);
    if (code == NULL) {
        fprintf(stderr, "mcp-codemode: %s: %s\n", path, strerror(errno));
        return 2;
    }
    struct buf out;
    buf_init(&out, 0);
    struct lower_error err;
    int rc = sandbox_lower(code, len, LOWER_MODE_MAIN, &out, &err);
    if (rc == 0) {
        fwrite(out.data, 1, out.len, stdout);
        fputc('\n', stdout);
    } else {
        fprintf(stderr, "%s:%d:%d: SyntaxError: %s\n%s\n", path, err.line, err.column, err.message,
                err.excerpt);
    }
    buf_free(&out);
    free(code);
    return rc == 0 ? 0 : 1;
}

static int check_config(const struct config *cfg)
{
    printf("config: %s\n", cfg->path ? cfg->path : "(none)");
    printf("servers: %zu\n", cfg->nservers);
    for (size_t i = 0; i < cfg->nservers; i++) {
        const struct tools_server_config *s = &cfg->servers[i];
        const char *kind = s->transport == TOOLS_TRANSPORT_STDIO  ? "stdio"
                           : s->transport == TOOLS_TRANSPORT_HTTP ? "http"
                                                                    : "sse";
        printf("  %s (%s)%s%s\n", s->name, kind, s->disabled ? " disabled" : "",
               s->launches_self ? " skipped: launches mcp-codemode itself" : "");
    }
    fflush(stdout);
    return 0;
}

/* skills save|list|delete: reads the code and schema files for save. */
static int skills_command(const struct cli *cli, const struct config *cfg)
{
    size_t len;
    char *code = NULL, *schema = NULL;
    const char *bad = NULL;
    if (cli->file && (code = read_all(cli->file, &len)) == NULL)
        bad = cli->file;
    else if (cli->skill.schema_file && (schema = read_all(cli->skill.schema_file, &len)) == NULL)
        bad = cli->skill.schema_file;
    int rc = 2;
    if (bad)
        fprintf(stderr, "mcp-codemode: %s: %s\n", bad, strerror(errno));
    else
        rc = skills_cmd_run(cfg, cli, code, schema);
    free(code);
    free(schema);
    return rc;
}

/* state list|get|set|delete: reads set's value from stdin for "-". */
static int state_command(const struct cli *cli, const struct config *cfg)
{
    size_t len;
    char *stdin_value = NULL;
    if (cli->state.value && strcmp(cli->state.value, "-") == 0 &&
        (stdin_value = read_all("-", &len)) == NULL) {
        fprintf(stderr, "mcp-codemode: stdin: %s\n", strerror(errno));
        return 2;
    }
    int rc = state_cmd_run(cfg, cli, stdin_value ? stdin_value : cli->state.value);
    free(stdin_value);
    return rc;
}

/* run FILE: --out's directory first (exit 2 when it cannot be made). */
static int run_command(const struct cli *cli, const struct config *cfg, const char *exe)
{
    char err[512];
    if (cli->out_dir && run_output_make_dir(cli->out_dir, err, sizeof err) != 0) {
        fprintf(stderr, "mcp-codemode: %s\n", err);
        return 2;
    }
    size_t len;
    char *code = read_all(cli->file, &len);
    if (code == NULL) {
        fprintf(stderr, "mcp-codemode: %s: %s\n", cli->file, strerror(errno));
        return 2;
    }
    struct app_run_options o = {
        .flags = (cli->json ? APP_RUN_JSON : 0) | (cli->dry_run ? APP_RUN_DRY_RUN : 0) |
                 cli->approve | (cli->no_login ? APP_RUN_NO_LOGIN : 0),
        .principal = cli->principal,
        .out_dir = cli->out_dir,
    };
    int rc = app_run_program(cfg, exe, code, len, &o);
    free(code);
    return rc;
}

static int with_config(const struct cli *cli)
{
    struct config cfg;
    if (load_config(cli, &cfg) != 0) {
        config_free(&cfg);
        return 2;
    }
    char *self = self_exe();
    char *exe = self ? sandbox_image_path(self) : NULL; /* what the pool starts as its zygote */
    free(self);
    int rc = 0;
    if (exe == NULL) {
        fprintf(stderr, "mcp-codemode: cannot find its own executable (/proc/self/exe)\n");
        rc = 1;
    } else if (cli->cmd == CLI_SERVE) {
        rc = cfg.http_listen ? app_serve_http(&cfg, exe) : app_serve_stdio(&cfg, exe);
    } else if (cli->cmd == CLI_RUN) {
        rc = run_command(cli, &cfg, exe);
    } else if (cli->cmd == CLI_SKILLS) {
        rc = skills_command(cli, &cfg);
    } else if (cli->cmd == CLI_STATE) {
        rc = state_command(cli, &cfg);
    } else if (cli->cmd == CLI_LOGIN || cli->cmd == CLI_LOGOUT) {
        rc = login_cmd_run(&cfg, cli);
    } else if (cli->cmd == CLI_TYPES) {
        rc = app_inspect(&cfg, 0, cli->full, NULL);
    } else if (cli->cmd == CLI_CHECK) {
        rc = check_config(&cfg);
        if (rc == 0)
            rc = app_inspect(&cfg, 1, 0, cli->token);
    }
    free(exe);
    config_free(&cfg);
    return rc;
}

int main(int argc, char **argv)
{
    alloc_install_cjson_hooks();
    /* libuv's allocations fail like ours: logged, then abort (common/alloc.h). */
    uv_replace_allocator(xmalloc, xrealloc, xcalloc, free);
    signal(SIGPIPE, SIG_IGN);
    char err[256];
    if (sandbox_zygote_args_match(argc, argv)) { /* the pool runs this binary as its zygote */
        struct sandbox_zygote_args z;
        if (sandbox_zygote_args_parse(argc, argv, &z, err, sizeof err) != 0) {
            fprintf(stderr, "mcp-codemode: %s\n", err);
            return 2;
        }
        return sandbox_zygote_run(&z);
    }
    struct cli cli;
    if (cli_parse(argc, argv, &cli, err, sizeof err) != 0) {
        fprintf(stderr, "mcp-codemode: %s\n", err);
        return 2;
    }
    switch (cli.cmd) {
    case CLI_HELP:
        cli_usage(stdout);
        return 0;
    case CLI_VERSION:
        print_version();
        return 0;
    case CLI_LOWER:
        return lower_file(cli.file);
    default:
        return with_config(&cli);
    }
}
