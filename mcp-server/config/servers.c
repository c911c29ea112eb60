/* The mcpServers entries: transport choice (command = stdio; url = http, or
 * sse when the path ends in /sse; the odd "type" spellings seen in the wild),
 * stdio and remote fields, per-server extras (tool globs, timeout, disabled,
 * approval), self-launch detection, and the tool filter. */
#include "mcp-server/config/internal.h"

#include "common/alloc.h"
#include "common/buf.h"
#include "tools/policy/policy.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_TIMEOUT_MS 86400000

static const char *const server_keys[] = {"command",
                                          "args",
                                          "env",
                                          "cwd",
                                          "type",
                                          "url",
                                          "headers",
                                          "allowTools",
                                          "denyTools",
                                          "readOnlyTools",
                                          "timeoutMs",
                                          "disabled",
                                          "approval",
                                          "policy",
                                          "maxConcurrentCalls",
                                          "callsPerSecond",
                                          "oauth",
                                          NULL};

static const char *const oauth_keys[] = {"clientId", "clientSecret",   "clientMetadataUrl",
                                         "scopes",   "redirectPort",   "resource",
                                         "grant",    "privateKeyFile", NULL};

static const struct {
    const char *name;
    enum tools_transport transport;
} type_names[] = {
    {"stdio", TOOLS_TRANSPORT_STDIO},
    {"http", TOOLS_TRANSPORT_HTTP},
    {"sse", TOOLS_TRANSPORT_SSE},
    {"streamable-http", TOOLS_TRANSPORT_HTTP},
    {"streamableHttp", TOOLS_TRANSPORT_HTTP},
    {"streamable_http", TOOLS_TRANSPORT_HTTP},
};

static const char *const transport_names[] = {"stdio", "http", "sse"};

static cJSON *get(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* --- transport -------------------------------------------------------------- */

static int parse_type(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                      enum tools_transport *out)
{
    char *t;
    if (config__string(x, v, p, CONFIG_VARS_WARN, &t) < 0)
        return -1;
    for (size_t k = 0; k < sizeof type_names / sizeof type_names[0]; k++) {
        if (strcasecmp(t, type_names[k].name) == 0) {
            *out = type_names[k].transport;
            free(t);
            return 0;
        }
    }
    config__error(x, config__at(x, v, 0), p,
                  "unknown transport \"%s\" (expected stdio, http, sse or streamable-http)", t);
    free(t);
    return -1;
}

/* An explicit "type" must agree with command/url; it then decides. */
static int apply_type(struct config_ctx *x, const cJSON *type, int has_command,
                      const struct config_kpath *p, struct tools_server_config *s)
{
    struct config_kpath kp = {p, "type", 0};
    enum tools_transport t;
    if (parse_type(x, type, &kp, &t) < 0)
        return -1;
    if ((t == TOOLS_TRANSPORT_STDIO) != has_command) {
        config__error(x, config__at(x, type, 0), &kp, "type \"%s\" needs \"%s\"",
                      transport_names[t], has_command ? "url" : "command");
        return -1;
    }
    s->transport = t;
    return 0;
}

/* Checks command/url/type agree; sets s->transport (sse inference comes later). */
static int choose_transport(struct config_ctx *x, const cJSON *m, const struct config_kpath *p,
                            struct tools_server_config *s)
{
    const cJSON *cmd = get(m, "command"), *url = get(m, "url"), *type = get(m, "type");
    size_t at = config__at(x, m, 1);
    if (cmd && url) {
        config__error(x, at, p,
                      "has both \"command\" and \"url\"; use \"command\" for a local "
                      "(stdio) server or \"url\" for a remote one");
        return -1;
    }
    if (!cmd && !url) {
        static const char *const wanted[] = {"command", "url", NULL};
        const char *typo = NULL, *meant = NULL;
        for (const cJSON *k = m->child; k != NULL && meant == NULL; k = k->next)
            if ((meant = config__suggest(k->string, wanted)) != NULL)
                typo = k->string;
        config__error(x, at, p,
                      "needs \"command\" (a local stdio server) or \"url\" (a remote "
                      "http or sse server)%s%s%s%s%s",
                      typo ? "; \"" : "", typo ? typo : "",
                      typo ? "\" is not a key (did you mean \"" : "", meant ? meant : "",
                      meant ? "\"?)" : "");
        return -1;
    }
    s->transport = cmd ? TOOLS_TRANSPORT_STDIO : TOOLS_TRANSPORT_HTTP;
    return type == NULL ? 0 : apply_type(x, type, cmd != NULL, p, s);
}

/* --- stdio ------------------------------------------------------------------ */

static int read_env(struct config_ctx *x, cJSON *v, const struct config_kpath *p,
                    struct tools_server_config *s)
{
    if (config__object(x, v, p) < 0)
        return -1;
    size_t i = 0;
    s->env = xcalloc((size_t) cJSON_GetArraySize(v) + 1, sizeof *s->env);
    for (const cJSON *e = v->child; e != NULL; e = e->next) {
        struct config_kpath kp = {p, e->string, 0};
        char *val;
        if (e->string[0] == '\0' || strchr(e->string, '=') != NULL) {
            config__error(x, config__at(x, e, 1), &kp,
                          "invalid variable name (empty or containing '=')");
            return -1;
        }
        if (config__string(x, e, &kp, CONFIG_VARS_WARN, &val) < 0)
            return -1;
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "%s=%s", e->string, val);
        free(val);
        s->env[i++] = buf_steal(&b);
    }
    return 0;
}

static int read_command(struct config_ctx *x, const cJSON *m, const struct config_kpath *p,
                        struct tools_server_config *s)
{
    const cJSON *v = get(m, "command");
    struct config_kpath kp = {p, "command", 0};
    if (config__string(x, v, &kp, CONFIG_VARS_REQUIRED, &s->command) < 0)
        return -1;
    if (s->command[0] == '\0' && !s->disabled) {
        config__error(x, config__at(x, v, 0), &kp, "must not be empty");
        return -1;
    }
    return 0;
}

static void ignored_keys(struct config_ctx *x, const cJSON *m, const struct config_kpath *p,
                         const char *const *keys, const char *why)
{
    for (; *keys; keys++) {
        const cJSON *v = get(m, *keys);
        struct config_kpath kp = {p, *keys, 0};
        if (v != NULL)
            config__warn(x, CONFIG_WARNING, config__at(x, v, 1), &kp, "ignored %s", why);
    }
}

/* A Windows path ("C:/x", "C:\\x") in a file copied from Windows: not ours to resolve. */
static int drive_path(const char *p)
{
    return ((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':' &&
           (p[2] == '/' || p[2] == '\\');
}

/* *path (relative, not a drive path) becomes x->dir/ *path. */
static void from_config_folder(const struct config_ctx *x, char **path)
{
    if (x->dir == NULL || (*path)[0] == '/' || (*path)[0] == '\0' || drive_path(*path))
        return;
    const char *rest = *path;
    while (rest[0] == '.' && rest[1] == '/') /* "./bin/x" is "bin/x" */
        rest += 2;
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "%s%s%s", x->dir, strcmp(x->dir, "/") == 0 ? "" : "/", rest);
    free(*path);
    *path = buf_steal(&b);
}

/* A relative cwd is a folder next to the config file; so is a relative
 * command with a slash when the entry has no cwd (with one, the command is
 * found from there, as a shell in that folder would). A bare command is
 * looked up in PATH. */
static void resolve_paths(const struct config_ctx *x, struct tools_server_config *s)
{
    if (s->cwd != NULL)
        from_config_folder(x, &s->cwd);
    else if (strchr(s->command, '/') != NULL)
        from_config_folder(x, &s->command);
}

static int read_stdio(struct config_ctx *x, const cJSON *m, const struct config_kpath *p,
                      struct tools_server_config *s)
{
    static const char *const remote_only[] = {"headers", "oauth", NULL};
    struct config_kpath args = {p, "args", 0}, env = {p, "env", 0}, cwd = {p, "cwd", 0};
    if (read_command(x, m, p, s) < 0)
        return -1;
    if (get(m, "args") != NULL) {
        if (config__string_list(x, get(m, "args"), &args, &s->args) < 0)
            return -1;
    } else {
        s->args = xcalloc(1, sizeof *s->args);
    }
    if (get(m, "env") != NULL && read_env(x, get(m, "env"), &env, s) < 0)
        return -1;
    if (get(m, "cwd") != NULL &&
        config__string(x, get(m, "cwd"), &cwd, CONFIG_VARS_WARN, &s->cwd) < 0)
        return -1;
    if (s->cwd != NULL && s->cwd[0] == '\0') {
        free(s->cwd); /* empty: mcp-codemode's own working directory */
        s->cwd = NULL;
    }
    resolve_paths(x, s);
    ignored_keys(x, m, p, remote_only, "for a stdio server (it applies to \"url\" servers)");
    return 0;
}

/* --- http / sse ------------------------------------------------------------- */

static const char *url_problem(const char *u)
{
    size_t scheme = strncasecmp(u, "http://", 7) == 0    ? 7
                    : strncasecmp(u, "https://", 8) == 0 ? 8
                                                         : 0;
    if (scheme == 0)
        return "expected an http:// or https:// URL";
    if (u[scheme] == '\0' || strchr("/?#", u[scheme]) != NULL)
        return "the URL has no host";
    for (const unsigned char *q = (const unsigned char *) u; *q; q++)
        if (*q <= 0x20 || *q == 0x7f)
            return "the URL contains a space or control character (percent-encode it)";
    return NULL;
}

/* A URL whose path ends in /sse (before any query or fragment) is legacy SSE. */
static int looks_like_sse(const char *u)
{
    const char *host = strstr(u, "//") + 2;
    const char *path = host + strcspn(host, "/?#");
    if (*path != '/')
        return 0; /* no path: "http://h?x=/sse" is not sse */
    size_t n = strcspn(path, "?#");
    if (n > 1 && path[n - 1] == '/')
        n--;
    return n >= 4 && strncasecmp(path + n - 4, "/sse", 4) == 0;
}

static int header_name_ok(const char *k)
{
    if (*k == '\0')
        return 0;
    for (; *k; k++)
        if (!(*k >= 'a' && *k <= 'z') && !(*k >= 'A' && *k <= 'Z') && !(*k >= '0' && *k <= '9') &&
            strchr("!#$%&'*+-.^_`|~", *k) == NULL)
            return 0;
    return 1;
}

static int read_header(struct config_ctx *x, const cJSON *e, const struct config_kpath *kp,
                       char **out)
{
    char *val;
    if (!header_name_ok(e->string)) {
        config__error(x, config__at(x, e, 1), kp, "invalid header name");
        return -1;
    }
    if (config__string(x, e, kp, CONFIG_VARS_WARN, &val) < 0)
        return -1;
    if (strpbrk(val, "\r\n") != NULL) {
        config__error(x, config__at(x, e, 0), kp, "header value contains a line break");
        free(val);
        return -1;
    }
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "%s: %s", e->string, val);
    free(val);
    *out = buf_steal(&b);
    return 0;
}

static int read_headers(struct config_ctx *x, cJSON *v, const struct config_kpath *p,
                        struct tools_server_config *s)
{
    if (config__object(x, v, p) < 0)
        return -1;
    size_t i = 0;
    s->headers = xcalloc((size_t) cJSON_GetArraySize(v) + 1, sizeof *s->headers);
    for (const cJSON *e = v->child; e != NULL; e = e->next) {
        struct config_kpath kp = {p, e->string, 0};
        if (read_header(x, e, &kp, &s->headers[i++]) < 0)
            return -1;
    }
    return 0;
}

static int read_oauth(struct config_ctx *x, cJSON *o, const struct config_kpath *p,
                      struct tools_server_config *s);

static int read_remote(struct config_ctx *x, const cJSON *m, const struct config_kpath *p,
                       struct tools_server_config *s)
{
    static const char *const stdio_only[] = {"args", "env", "cwd", NULL};
    const cJSON *v = get(m, "url");
    struct config_kpath kp = {p, "url", 0}, hp = {p, "headers", 0};
    if (config__string(x, v, &kp, CONFIG_VARS_REQUIRED, &s->url) < 0)
        return -1;
    const char *why = url_problem(s->url);
    if (why != NULL && !(s->disabled && s->url[0] == '\0')) {
        config__error(x, config__at(x, v, 0), &kp, "%s", why);
        return -1;
    }
    if (why == NULL && get(m, "type") == NULL && looks_like_sse(s->url))
        s->transport = TOOLS_TRANSPORT_SSE;
    if (get(m, "headers") != NULL && read_headers(x, get(m, "headers"), &hp, s) < 0)
        return -1;
    struct config_kpath op = {p, "oauth", 0};
    if (get(m, "oauth") != NULL && read_oauth(x, get(m, "oauth"), &op, s) < 0)
        return -1;
    ignored_keys(x, m, p, stdio_only, "for a remote server (it applies to \"command\" servers)");
    return 0;
}

/* --- oauth (docs/oauth.md) ------------------------------------------------- */

static int oauth_string(struct config_ctx *x, const cJSON *o, const struct config_kpath *p,
                        const char *key, enum config_vars vars, char **out)
{
    struct config_kpath kp = {p, key, 0};
    const cJSON *v = get(o, key);
    return v == NULL ? 0 : config__string(x, v, &kp, vars, out);
}

static int oauth_resource(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                          struct tools_oauth_config *a)
{
    a->send_resource = 1;
    if (v == NULL)
        return 0;
    if (cJSON_IsBool(v)) {
        a->send_resource = cJSON_IsTrue(v);
        return 0;
    }
    if (config__string(x, v, p, CONFIG_VARS_REQUIRED, &a->resource) < 0)
        return -1;
    if (strncmp(a->resource, "https://", 8) != 0 && strncmp(a->resource, "http://", 7) != 0) {
        config__error(x, config__at(x, v, 0), p, "expected true, false or an absolute http(s) URI");
        return -1;
    }
    return 0;
}

static int read_oauth(struct config_ctx *x, cJSON *o, const struct config_kpath *p,
                      struct tools_server_config *s)
{
    static const char *const grants[] = {"authorization_code", "client_credentials", NULL};
    struct config_kpath sp = {p, "scopes", 0}, rp = {p, "redirectPort", 0}, gp = {p, "grant", 0},
                        up = {p, "resource", 0};
    if (config__object(x, o, p) < 0)
        return -1;
    config__unknown_keys(x, o, p, oauth_keys);
    struct tools_oauth_config *a = s->oauth = xcalloc(1, sizeof *a);
    int64_t port;
    int grant = 0;
    if (oauth_string(x, o, p, "clientId", CONFIG_VARS_REQUIRED, &a->client_id) < 0 ||
        oauth_string(x, o, p, "clientSecret", CONFIG_VARS_REQUIRED, &a->client_secret) < 0 ||
        oauth_string(x, o, p, "clientMetadataUrl", CONFIG_VARS_REQUIRED, &a->client_metadata_url) <
            0 ||
        oauth_string(x, o, p, "privateKeyFile", CONFIG_VARS_REQUIRED, &a->private_key_file) < 0)
        return -1;
    if (get(o, "scopes") && config__string_list(x, get(o, "scopes"), &sp, &a->scopes) < 0)
        return -1;
    if (get(o, "redirectPort")) {
        if (config__int(x, get(o, "redirectPort"), &rp, 1, 65535, &port) < 0)
            return -1;
        a->redirect_port = (unsigned) port;
    }
    if (get(o, "grant") && config__enum(x, get(o, "grant"), &gp, grants, &grant) < 0)
        return -1;
    a->client_credentials = grant == 1;
    if (a->client_metadata_url && strncmp(a->client_metadata_url, "https://", 8) != 0) {
        struct config_kpath mp = {p, "clientMetadataUrl", 0};
        config__error(x, config__at(x, get(o, "clientMetadataUrl"), 0), &mp,
                      "a client metadata document URL must be https://");
        return -1;
    }
    return oauth_resource(x, get(o, "resource"), &up, a);
}

static void free_oauth(struct tools_oauth_config *a)
{
    if (a == NULL)
        return;
    free(a->client_id);
    free(a->client_secret);
    free(a->client_metadata_url);
    config__free_list(a->scopes);
    free(a->resource);
    free(a->private_key_file);
    free(a->store_path);
    free(a->store_url);
    free(a);
}

/* --- extras ----------------------------------------------------------------- */

static int read_globs(struct config_ctx *x, const cJSON *m, const struct config_kpath *p,
                      const char *key, char ***out)
{
    const cJSON *v = get(m, key);
    struct config_kpath kp = {p, key, 0};
    if (v == NULL)
        return 0;
    if (config__string_list(x, v, &kp, out) < 0)
        return -1;
    if ((*out)[0] == NULL && strcmp(key, "allowTools") == 0)
        config__warn(x, CONFIG_WARNING, config__at(x, v, 0), &kp,
                     "empty list: no tool of this server can be called");
    return 0;
}

static int read_approval(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                         struct tools_server_config *s)
{
    if (cJSON_IsBool(v)) {
        s->approval = xstrdup(cJSON_IsTrue(v) ? "true" : "false");
        return 0;
    }
    if (cJSON_IsString(v))
        return config__string(x, v, p, CONFIG_VARS_WARN, &s->approval);
    struct buf got;
    buf_init(&got, 0);
    config__describe(&got, v);
    config__error(x, config__at(x, v, 0), p, "expected a string or a boolean, got %s", got.data);
    buf_free(&got);
    return -1;
}

/* maxConcurrentCalls (1 to 4096) and callsPerSecond (a number > 0, at most 10000). */
static int read_limits(struct config_ctx *x, const cJSON *m, const struct config_kpath *p,
                       struct tools_server_config *s)
{
    struct config_kpath cp = {p, "maxConcurrentCalls", 0}, rp = {p, "callsPerSecond", 0};
    const cJSON *rate = get(m, "callsPerSecond");
    int64_t n;
    if (get(m, "maxConcurrentCalls") != NULL) {
        if (config__int(x, get(m, "maxConcurrentCalls"), &cp, 1, 4096, &n) < 0)
            return -1;
        s->max_concurrent_calls = (unsigned) n;
    }
    if (rate == NULL)
        return 0;
    if (!cJSON_IsNumber(rate) || !(rate->valuedouble > 0) || rate->valuedouble > 10000) {
        struct buf got;
        buf_init(&got, 0);
        config__describe(&got, rate);
        config__error(x, config__at(x, rate, 0), &rp,
                      "expected a number above 0 and at most 10000, got %s", got.data);
        buf_free(&got);
        return -1;
    }
    s->calls_per_second = rate->valuedouble;
    return 0;
}

static int read_extras(struct config_ctx *x, const cJSON *m, const struct config_kpath *p,
                       struct tools_server_config *s)
{
    struct config_kpath tp = {p, "timeoutMs", 0}, ap = {p, "approval", 0};
    int64_t ms;
    if (read_globs(x, m, p, "allowTools", &s->allow_tools) < 0 ||
        read_globs(x, m, p, "denyTools", &s->deny_tools) < 0 ||
        read_globs(x, m, p, "readOnlyTools", &s->read_only_tools) < 0)
        return -1;
    if (get(m, "timeoutMs") != NULL) {
        if (config__int(x, get(m, "timeoutMs"), &tp, 1, MAX_TIMEOUT_MS, &ms) < 0)
            return -1;
        s->timeout_ms = (uint64_t) ms;
    }
    if (get(m, "approval") != NULL && read_approval(x, get(m, "approval"), &ap, s) < 0)
        return -1;
    if (read_limits(x, m, p, s) < 0)
        return -1;
    struct config_kpath pp = {p, "policy", 0};
    cJSON *policy = get(m, "policy");
    return policy != NULL ? config__server_policy(x, policy, &pp, s) : 0;
}

/* --- entries ---------------------------------------------------------------- */

static int read_disabled(struct config_ctx *x, const cJSON *m, const struct config_kpath *p,
                         struct tools_server_config *s)
{
    struct config_kpath kp = {p, "disabled", 0};
    const cJSON *v = get(m, "disabled");
    return v == NULL ? 0 : config__bool(x, v, &kp, &s->disabled);
}

static int read_entry(struct config_ctx *x, cJSON *m, const struct config_kpath *p,
                      struct tools_server_config *s)
{
    s->name = xstrdup(m->string);
    if (m->string[0] == '\0') {
        config__error(x, config__at(x, m, 1), p, "a server name must not be empty");
        return -1;
    }
    if (config__object(x, m, p) < 0 || read_disabled(x, m, p, s) < 0)
        return -1;
    config__unknown_keys(x, m, p, server_keys);
    x->quiet_unset = s->disabled;
    int r = choose_transport(x, m, p, s);
    if (r == 0)
        r = s->transport == TOOLS_TRANSPORT_STDIO ? read_stdio(x, m, p, s)
                                                  : read_remote(x, m, p, s);
    if (r == 0)
        r = read_extras(x, m, p, s);
    x->quiet_unset = 0;
    if (r == 0 && s->transport == TOOLS_TRANSPORT_STDIO && s->command[0] != '\0' &&
        config__launches_self(s->command, s->cwd, s->env)) {
        s->launches_self = 1;
        config__warn(x, CONFIG_WARNING, config__at(x, m, 1), p,
                     "skipped: launches mcp-codemode itself");
    }
    return r;
}

int config__servers(struct config_ctx *x, cJSON *servers, const struct config_kpath *p)
{
    struct config *c = x->c;
    if (config__object(x, servers, p) < 0)
        return -1;
    size_t n = (size_t) cJSON_GetArraySize(servers);
    c->servers = xrealloc(c->servers, (c->nservers + n + 1) * sizeof *c->servers);
    for (cJSON *m = servers->child; m != NULL; m = m->next) {
        struct config_kpath kp = {p, m->string, 0};
        struct tools_server_config *s = &c->servers[c->nservers++];
        memset(s, 0, sizeof *s);
        if (read_entry(x, m, &kp, s) < 0)
            return -1;
    }
    return 0;
}

void config__server_free(struct tools_server_config *s)
{
    free(s->name);
    free(s->command);
    config__free_list(s->args);
    config__free_list(s->env);
    free(s->cwd);
    free(s->url);
    config__free_list(s->headers);
    free_oauth(s->oauth);
    config__free_list(s->allow_tools);
    config__free_list(s->deny_tools);
    config__free_list(s->read_only_tools);
    free(s->approval);
    tools_policy_rules_free(s->policy, s->npolicy);
}
