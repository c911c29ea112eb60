/* The configuration loader's entry points: defaults, reading the file (BOM,
 * size cap, directories), parsing with cJSON plus the position scanner, and
 * the top level (mcpServers, codemode; other keys are reported and ignored). */
#include "mcp-server/config/config.h"

#include "common/alloc.h"
#include "common/buf.h"
#include "mcp-server/config/internal.h"
#include "tools/declarations/declarations.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE_BYTES (16 * 1024 * 1024)

void config_init(struct config *c)
{
    memset(c, 0, sizeof *c);
    c->limits = (struct config_limits){
        .pool_size = 2,
        .timeout_ms = 30000,
        .max_timeout_ms = 300000,
        .memory_bytes = 64u * 1024 * 1024,
        .max_result_bytes = 1024 * 1024,
        .max_log_bytes = 256 * 1024,
        .max_call_argument_bytes = 4u * 1024 * 1024,
        .max_message_bytes = 16u * 1024 * 1024,
        .max_tool_calls = 1000,
        .max_concurrent_calls = 256,
        .call_timeout_ms = 60000,
        .declarations_budget = TOOLS_DECLARATIONS_BUDGET_DEFAULT,
        .sandbox_reuse = 1,
        .max_runs_per_worker = 1000,
        .worker_idle_ms = 60000,
        .colocate_calls = 1,
        .max_concurrent_per_principal = 4,
        .stash_max_entries = 64,
        .stash_max_bytes = 64u * 1024 * 1024,
        .stash_ttl_ms = 15 * 60 * 1000,
    };
    c->state = (struct config_state){.state = 1,
                                     .skills = 1,
                                     .per_principal = 1,
                                     .skills_per_principal = 1,
                                     .max_value_bytes = 1024 * 1024,
                                     .max_total_bytes = 64u * 1024 * 1024,
                                     .busy_timeout_ms = 1000};
    c->learn_result_types = 1;
    c->http_oauth.clock_skew_seconds = 60;
    tools_policy_init(&c->policy);
}

void config_free(struct config *c)
{
    free(c->path);
    for (size_t i = 0; i < c->nservers; i++)
        config__server_free(&c->servers[i]);
    free(c->servers);
    free(c->log_level);
    free(c->http_listen);
    free(c->http_auth_token);
    free(c->http_public_url);
    config__http_oauth_free(&c->http_oauth);
    free(c->http_instance_id);
    tools_policy_free(&c->policy);
    free(c->audit_path);
    free(c->state.path);
    free(c->state.store_url);
    config__free_list(c->state.skill_admins);
    config__free_list(c->http_allowed_origins);
    config__free_list(c->declarations_preferred);
    config__free_list(c->warnings);
    free(c->warning_kinds);
    memset(c, 0, sizeof *c);
}

/* --- reading ---------------------------------------------------------------- */

static char *file_error(const char *path, const char *what, int errnum)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "%s: %s", path, what);
    if (errnum)
        buf_printf(&b, ": %s", strerror(errnum));
    return buf_steal(&b);
}

static char *too_large(const char *path)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "%s: file too large (the limit is %d MiB)", path, MAX_FILE_BYTES / 1024 / 1024);
    return buf_steal(&b);
}

/* Reads fd into b (capped at MAX_FILE_BYTES). Returns 0, 1 when the file is
 * larger than the cap, or -1 on a read error (errno set). */
static int read_all(int fd, struct buf *b)
{
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? -1 : 0;
        if (buf_append(b, chunk, (size_t) n) < 0)
            return 1;
    }
}

/* Returns the file's bytes (NUL-terminated) or NULL with *err set. */
static char *read_file(const char *path, size_t *len, char **err)
{
    struct stat st;
    struct buf b;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *err = file_error(path, "cannot open", errno);
        return NULL;
    }
    int r = 0;
    buf_init(&b, MAX_FILE_BYTES);
    if (fstat(fd, &st) < 0)
        *err = file_error(path, "cannot stat", errno);
    else if (S_ISDIR(st.st_mode))
        *err = file_error(path, "is a directory, expected a JSON file", 0);
    else if (S_ISREG(st.st_mode) && st.st_size > MAX_FILE_BYTES)
        *err = too_large(path);
    else if ((r = read_all(fd, &b)) < 0)
        *err = file_error(path, "cannot read", errno);
    else if (r > 0)
        *err = too_large(path);
    close(fd);
    if (*err != NULL) {
        buf_free(&b);
        return NULL;
    }
    *len = b.len;
    return buf_steal(&b);
}

/* --- parsing ---------------------------------------------------------------- */

static int keep_top(const char *key)
{
    return strcmp(key, "mcpServers") == 0 || strcmp(key, "codemode") == 0;
}

static int only_whitespace(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strchr(" \t\r\n", s[i]) == NULL || s[i] == '\0')
            return 0;
    return 1;
}

/* Parses text into *root with positions in x->pos; reports syntax errors. */
static int parse(struct config_ctx *x, const char *text, size_t len, cJSON **root)
{
    const char *end = NULL;
    size_t off;
    if (only_whitespace(text, len)) {
        x->err = file_error(x->file, "empty file: expected a JSON object", 0);
        return -1;
    }
    *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (config_json_pos_build(&x->pos, text, len, *root, keep_top, &off) < 0) {
        config__error(x, off, NULL, "invalid JSON: %s", x->pos.msg);
        return -1;
    }
    if (*root == NULL) { /* cJSON refused what the scanner accepted: unlikely */
        config__error(x, end ? (size_t) (end - text) : 0, NULL, "invalid JSON");
        return -1;
    }
    return 0;
}

static void ignore_top_level(struct config_ctx *x, const cJSON *m)
{
    static const char *const known[] = {"mcpServers", "codemode", NULL};
    struct config_kpath kp = {NULL, m->string, 0};
    size_t at = config__at(x, m, 1);
    const char *hint = config__suggest(m->string, known);
    if (strcmp(m->string, "servers") == 0)
        config__warn(x, CONFIG_WARNING, at, &kp,
                     "ignored: servers are read from \"mcpServers\" (Claude Desktop's format)");
    else if (hint != NULL)
        config__warn(x, CONFIG_WARNING, at, &kp, "unknown key (did you mean %s?)", hint);
    else
        config__warn(x, CONFIG_WARNING_IGNORED, at, &kp, "not an mcp-codemode setting, ignored");
}

static int read_top(struct config_ctx *x, cJSON *root)
{
    if (!cJSON_IsObject(root)) {
        struct buf got;
        buf_init(&got, 0);
        config__describe(&got, root);
        config__error(x, config__at(x, root, 0), NULL,
                      "expected a JSON object at the top level, got %s", got.data);
        buf_free(&got);
        return -1;
    }
    config__object(x, root, NULL);
    for (cJSON *m = root->child; m != NULL; m = m->next) {
        struct config_kpath kp = {NULL, m->string, 0};
        if (strcmp(m->string, "mcpServers") == 0) {
            if (config__servers(x, m, &kp) < 0)
                return -1;
        } else if (strcmp(m->string, "codemode") == 0) {
            if (config__codemode(x, m, &kp) < 0)
                return -1;
        } else {
            ignore_top_level(x, m);
        }
    }
    return 0;
}

/* The absolute folder of the config file at `path`, or NULL when the
 * working directory cannot be read. */
static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    struct buf b;
    buf_init(&b, 0);
    if (path[0] != '/') {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd) == NULL) {
            buf_free(&b);
            return NULL;
        }
        buf_printf(&b, "%s", cwd);
        if (slash)
            buf_printf(&b, "/%.*s", (int) (slash - path), path);
    } else {
        buf_printf(&b, "%.*s", slash == path ? 1 : (int) (slash - path), path);
    }
    return buf_steal(&b);
}

int config_load(struct config *c, const char *path, char **err)
{
    struct config_ctx x = {.c = c, .file = path, .dir = folder_of(path)};
    size_t len;
    cJSON *root = NULL;
    *err = NULL;
    free(c->path);
    c->path = xstrdup(path);
    char *data = read_file(path, &len, err);
    if (data == NULL) {
        free(x.dir);
        return -1;
    }
    size_t bom = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (parse(&x, data + bom, len - bom, &root) == 0)
        read_top(&x, root);
    if (x.suppressed > 0) { /* the last warning makes room for a summary */
        size_t more = x.suppressed + 1;
        free(c->warnings[--c->nwarnings]);
        c->warnings[c->nwarnings] = NULL;
        config__warn(&x, CONFIG_WARNING, CONFIG_JSON_NOPOS, NULL, "%zu more warnings not shown",
                     more);
    }
    for (size_t i = 0; x.err == NULL && i < c->nservers; i++)
        if (c->servers[i].oauth) { /* the tokens live in the state store */
            struct tools_oauth_config *o = c->servers[i].oauth;
            o->store_path = config_state_path(c);
            o->store_url = c->state.store_url ? xstrdup(c->state.store_url) : NULL;
            o->store_max_connections = (unsigned) c->state.store_max_connections;
            o->store_connect_timeout_ms = (unsigned) c->state.store_connect_timeout_ms;
            o->store_statement_timeout_ms = (unsigned) c->state.store_statement_timeout_ms;
        }
    cJSON_Delete(root);
    config_json_pos_free(&x.pos);
    free(data);
    free(x.dir);
    *err = x.err;
    return x.err ? -1 : 0;
}
