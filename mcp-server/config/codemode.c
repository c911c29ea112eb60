/* The `codemode` block: execution limits (one table gives each key its field,
 * range and unit, shared by the file and by command-line overrides), the log
 * level, and the HTTP listener settings. */
#include "mcp-server/config/internal.h"

#include "common/alloc.h"
#include "common/log.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DAY_MS 86400000
#define MIB    (1024 * 1024)

struct limit_field {
    const char *key;
    size_t off, size;
    int64_t min, max;
    uint64_t scale; /* file unit to field unit (MiB to bytes) */
};

#define LIMIT(key, field, min, max, scale)                                                         \
    {                                                                                              \
        key, offsetof(struct config_limits, field), sizeof(((struct config_limits *) 0)->field),   \
            min, max, scale                                                                        \
    }

static const struct limit_field limit_fields[] = {
    LIMIT("poolSize", pool_size, 1, 64, 1),
    LIMIT("timeoutMs", timeout_ms, 1, DAY_MS, 1),
    LIMIT("maxTimeoutMs", max_timeout_ms, 1, DAY_MS, 1),
    LIMIT("memoryLimitMb", memory_bytes, 8, 4096, MIB),
    LIMIT("maxResultBytes", max_result_bytes, 1024, 256 * MIB, 1),
    LIMIT("maxLogBytes", max_log_bytes, 0, 64 * MIB, 1),
    LIMIT("maxCallArgumentBytes", max_call_argument_bytes, 1024, 256 * MIB, 1),
    LIMIT("maxMessageBytes", max_message_bytes, 65536, 1024 * MIB, 1),
    LIMIT("maxToolCalls", max_tool_calls, 0, 1000000, 1),
    LIMIT("maxConcurrentCalls", max_concurrent_calls, 1, 4096, 1),
    LIMIT("callTimeoutMs", call_timeout_ms, 1, DAY_MS, 1),
};
#define NLIMITS (sizeof limit_fields / sizeof limit_fields[0])

static const char *const codemode_keys[] = {"poolSize",
                                            "timeoutMs",
                                            "maxTimeoutMs",
                                            "memoryLimitMb",
                                            "maxResultBytes",
                                            "maxLogBytes",
                                            "maxCallArgumentBytes",
                                            "maxMessageBytes",
                                            "maxToolCalls",
                                            "maxConcurrentCalls",
                                            "callTimeoutMs",
                                            "declarationsBudget",
                                            "declarations",
                                            "logLevel",
                                            "http",
                                            "policy",
                                            "audit",
                                            "sandbox",
                                            "state",
                                            "skills",
                                            "stash",
                                            "store",
                                            NULL};

static const char *const http_keys[] = {"listen",           "authToken",        "allowedOrigins",
                                        "sessionTimeoutMs", "idleTimeoutMs",    "headersTimeoutMs",
                                        "requestTimeoutMs", "drainTimeoutMs",   "instanceId",
                                        "maxConnections",   "publicUrl",        "oauth",
                                        NULL};

/* The integer keys of codemode.http: milliseconds. */
static const struct http_timeout_field {
    const char *key;
    size_t off;
    int64_t min, max;
} http_timeout_fields[] = {
    {"sessionTimeoutMs", offsetof(struct config_http_timeouts, session), 1000, 7 * DAY_MS},
    {"idleTimeoutMs", offsetof(struct config_http_timeouts, idle), 100, DAY_MS},
    {"headersTimeoutMs", offsetof(struct config_http_timeouts, headers), 100, DAY_MS},
    {"requestTimeoutMs", offsetof(struct config_http_timeouts, request), 100, DAY_MS},
    {"drainTimeoutMs", offsetof(struct config_http_timeouts, drain), 1, DAY_MS},
};

static void set_limit(struct config_limits *l, const struct limit_field *f, int64_t v)
{
    uint64_t u = (uint64_t) v * f->scale;
    unsigned small = (unsigned) u;
    memcpy((char *) l + f->off, f->size == sizeof small ? (void *) &small : (void *) &u, f->size);
}

static int read_limits(struct config_ctx *x, const cJSON *block, const struct config_kpath *p,
                       struct config_limits *l)
{
    for (size_t k = 0; k < NLIMITS; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(block, limit_fields[k].key);
        struct config_kpath kp = {p, limit_fields[k].key, 0};
        int64_t n;
        if (v == NULL)
            continue;
        if (config__int(x, v, &kp, limit_fields[k].min, limit_fields[k].max, &n) < 0)
            return -1;
        set_limit(l, &limit_fields[k], n);
    }
    return 0;
}

/* timeoutMs <= maxTimeoutMs. The message names maxTimeoutMs when blame_max
 * (it was the one set), else timeoutMs; at is the offending value's offset. */
static int check_timeouts(struct config_ctx *x, const struct config_kpath *p,
                          const struct config_limits *l, int blame_max, size_t at)
{
    if (l->timeout_ms <= l->max_timeout_ms)
        return 0;
    struct config_kpath tp = {p, "timeoutMs", 0}, mp = {p, "maxTimeoutMs", 0};
    if (blame_max)
        config__error(x, at, &mp, "%llu is less than timeoutMs (%llu)",
                      (unsigned long long) l->max_timeout_ms, (unsigned long long) l->timeout_ms);
    else
        config__error(x, at, &tp, "%llu is more than maxTimeoutMs (%llu)",
                      (unsigned long long) l->timeout_ms, (unsigned long long) l->max_timeout_ms);
    return -1;
}

static int check_file_timeouts(struct config_ctx *x, const cJSON *block,
                               const struct config_kpath *p, const struct config_limits *l)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(block, "timeoutMs");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(block, "maxTimeoutMs");
    int blame_max = t == NULL && m != NULL;
    return check_timeouts(x, p, l, blame_max, config__at(x, blame_max ? m : t, 0));
}

static int read_log_level(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                          char **out)
{
    char *name;
    enum log_level level;
    if (config__string(x, v, p, CONFIG_VARS_WARN, &name) < 0)
        return -1;
    if (log_level_parse(name, &level) < 0) {
        config__error(x, config__at(x, v, 0), p,
                      "unknown log level \"%s\" (expected debug, info, notice, warning, error, "
                      "critical, alert, emergency or off)",
                      name);
        free(name);
        return -1;
    }
    free(name);
    *out = xstrdup(log_level_name(level));
    return 0;
}

static int all_digits(const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (s[k] < '0' || s[k] > '9')
            return 0;
    return n > 0;
}

static const char *listen_problem(const char *s)
{
    const char *colon = strrchr(s, ':');
    if (s[0] == '[') {
        const char *end = strchr(s, ']');
        if (end == NULL || end == s + 1 || end[1] != ':')
            return "expected [IPV6]:PORT, for example [::1]:8080";
        colon = end + 1;
    } else if (colon == NULL || colon == s) {
        return "expected HOST:PORT, for example 127.0.0.1:8080";
    } else if (memchr(s, ':', (size_t) (colon - s)) != NULL) {
        return "write an IPv6 host in brackets, for example [::1]:8080";
    }
    for (const char *q = s; q < colon; q++)
        if ((unsigned char) *q <= 0x20 || *q == '/')
            return "invalid host";
    size_t n = strlen(colon + 1);
    if (n > 5 || !all_digits(colon + 1, n) || atoi(colon + 1) > 65535)
        return "the port must be a number from 0 to 65535 (0: any free port)";
    return NULL;
}

static int origin_ok(const char *o)
{
    size_t scheme = strncasecmp(o, "http://", 7) == 0    ? 7
                    : strncasecmp(o, "https://", 8) == 0 ? 8
                                                         : 0;
    if (scheme == 0 || o[scheme] == '\0')
        return 0;
    for (const unsigned char *q = (const unsigned char *) o + scheme; *q; q++)
        if (*q <= 0x20 || strchr("/?#", *q) != NULL)
            return 0;
    return 1;
}

static int read_listen(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                       char **out)
{
    char *s;
    if (config__string(x, v, p, CONFIG_VARS_REQUIRED, &s) < 0)
        return -1;
    const char *why = listen_problem(s);
    if (why != NULL) {
        config__error(x, config__at(x, v, 0), p, "%s", why);
        free(s);
        return -1;
    }
    free(*out);
    *out = s;
    return 0;
}

static int read_token(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                      char **out)
{
    char *s;
    if (config__string(x, v, p, CONFIG_VARS_REQUIRED, &s) < 0)
        return -1;
    if (s[0] == '\0') {
        config__error(x, config__at(x, v, 0), p,
                      "empty token (remove the key to serve without authentication)");
        free(s);
        return -1;
    }
    free(*out);
    *out = s;
    return 0;
}

/* codemode.http.instanceId: 1 to HTTP_INSTANCE_ID_MAX ASCII letters and
 * digits (it starts every session id, so a proxy can route on it). */
static int read_instance_id(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                            char **out)
{
    char *s;
    if (config__string(x, v, p, CONFIG_VARS_REQUIRED, &s) < 0)
        return -1;
    size_t n = strlen(s);
    int ok = n >= 1 && n <= CONFIG_INSTANCE_ID_MAX;
    for (size_t i = 0; ok && i < n; i++)
        ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
             (s[i] >= '0' && s[i] <= '9');
    if (!ok) {
        config__error(x, config__at(x, v, 0), p,
                      "\"%s\" is not 1 to %d ASCII letters and digits", s,
                      CONFIG_INSTANCE_ID_MAX);
        free(s);
        return -1;
    }
    free(*out);
    *out = s;
    return 0;
}

/* An item of codemode.http.allowedOrigins (config__checked_list). */
static int check_origin(struct config_ctx *x, const cJSON *e, const struct config_kpath *p,
                        const char *origin)
{
    if (origin_ok(origin))
        return 0;
    config__error(x, config__at(x, e, 0), p,
                  "expected an origin such as http://localhost:6274 (scheme://host[:port], "
                  "no path or trailing slash)");
    return -1;
}

static int read_http_timeouts(struct config_ctx *x, const cJSON *v, const struct config_kpath *p)
{
    for (size_t k = 0; k < sizeof http_timeout_fields / sizeof http_timeout_fields[0]; k++) {
        const struct http_timeout_field *f = &http_timeout_fields[k];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(v, f->key);
        struct config_kpath kp = {p, f->key, 0};
        int64_t n;
        if (item == NULL)
            continue;
        if (config__int(x, item, &kp, f->min, f->max, &n) < 0)
            return -1;
        *(uint64_t *) ((char *) &x->c->http_timeouts + f->off) = (uint64_t) n;
    }
    return 0;
}

static int read_max_connections(struct config_ctx *x, const cJSON *v, const struct config_kpath *p)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(v, "maxConnections");
    struct config_kpath kp = {p, "maxConnections", 0};
    int64_t n;
    if (item == NULL)
        return 0;
    if (config__int(x, item, &kp, 1, 1048576, &n) < 0)
        return -1;
    x->c->http_max_connections = (unsigned) n;
    return 0;
}

static int read_http(struct config_ctx *x, cJSON *v, const struct config_kpath *p)
{
    struct config *c = x->c;
    struct config_kpath lp = {p, "listen", 0}, tp = {p, "authToken", 0},
                        op = {p, "allowedOrigins", 0}, ip = {p, "instanceId", 0};
    if (config__object(x, v, p) < 0)
        return -1;
    config__unknown_keys(x, v, p, http_keys);
    const cJSON *listen = cJSON_GetObjectItemCaseSensitive(v, "listen");
    const cJSON *token = cJSON_GetObjectItemCaseSensitive(v, "authToken");
    const cJSON *origins = cJSON_GetObjectItemCaseSensitive(v, "allowedOrigins");
    const cJSON *instance = cJSON_GetObjectItemCaseSensitive(v, "instanceId");
    if (instance != NULL && read_instance_id(x, instance, &ip, &c->http_instance_id) < 0)
        return -1;
    if (listen != NULL && read_listen(x, listen, &lp, &c->http_listen) < 0)
        return -1;
    if (token != NULL && read_token(x, token, &tp, &c->http_auth_token) < 0)
        return -1;
    if (origins != NULL &&
        config__checked_list(x, origins, &op, check_origin, &c->http_allowed_origins) < 0)
        return -1;
    if (read_max_connections(x, v, p) < 0)
        return -1;
    const cJSON *public_url = cJSON_GetObjectItemCaseSensitive(v, "publicUrl");
    cJSON *oauth = cJSON_GetObjectItemCaseSensitive(v, "oauth");
    struct config_kpath up = {p, "publicUrl", 0}, aup = {p, "oauth", 0};
    if (public_url != NULL && config__http_public_url(x, public_url, &up) < 0)
        return -1;
    if (oauth != NULL && config__http_oauth(x, oauth, &aup) < 0)
        return -1;
    if (config__http_auth_exclusive(x, oauth, p) < 0)
        return -1;
    return read_http_timeouts(x, v, p);
}

/* codemode.policy and codemode.audit (mcp-server/config/policy.c). */
static int read_authority(struct config_ctx *x, cJSON *block, const struct config_kpath *p)
{
    struct config_kpath pp = {p, "policy", 0}, ap = {p, "audit", 0};
    cJSON *policy = cJSON_GetObjectItemCaseSensitive(block, "policy");
    cJSON *audit = cJSON_GetObjectItemCaseSensitive(block, "audit");
    if (policy != NULL && config__policy(x, policy, &pp) < 0)
        return -1;
    return audit != NULL ? config__audit(x, audit, &ap) : 0;
}

/* codemode.state, codemode.skills (mcp-server/config/state.c) and codemode.store (store.c). */
static int read_state_blocks(struct config_ctx *x, cJSON *block, const struct config_kpath *p)
{
    struct config_kpath sp = {p, "state", 0}, kp = {p, "skills", 0}, tp = {p, "store", 0};
    cJSON *state = cJSON_GetObjectItemCaseSensitive(block, "state");
    cJSON *skills = cJSON_GetObjectItemCaseSensitive(block, "skills");
    cJSON *store = cJSON_GetObjectItemCaseSensitive(block, "store");
    if (state != NULL && config__state(x, state, &sp) < 0)
        return -1;
    if (store != NULL && config__store(x, store, &tp) < 0)
        return -1;
    return skills != NULL ? config__skills(x, skills, &kp) : 0;
}

int config__codemode(struct config_ctx *x, cJSON *block, const struct config_kpath *p)
{
    struct config *c = x->c;
    struct config_kpath lp = {p, "logLevel", 0}, hp = {p, "http", 0}, sp = {p, "sandbox", 0};
    if (config__object(x, block, p) < 0)
        return -1;
    config__unknown_keys(x, block, p, codemode_keys);
    if (read_limits(x, block, p, &c->limits) < 0 ||
        check_file_timeouts(x, block, p, &c->limits) < 0)
        return -1;
    const cJSON *level = cJSON_GetObjectItemCaseSensitive(block, "logLevel");
    cJSON *http = cJSON_GetObjectItemCaseSensitive(block, "http");
    if (level != NULL) {
        char *name;
        if (read_log_level(x, level, &lp, &name) < 0)
            return -1;
        free(c->log_level);
        c->log_level = name;
    }
    if (http != NULL && read_http(x, http, &hp) < 0)
        return -1;
    cJSON *sandbox = cJSON_GetObjectItemCaseSensitive(block, "sandbox");
    if (sandbox != NULL && config__sandbox(x, sandbox, &sp) < 0)
        return -1;
    if (read_state_blocks(x, block, p) < 0)
        return -1;
    if (config__declarations(x, block, p) < 0)
        return -1;
    struct config_kpath tp = {p, "stash", 0};
    cJSON *stash = cJSON_GetObjectItemCaseSensitive(block, "stash");
    if (stash != NULL && config__stash(x, stash, &tp) < 0)
        return -1;
    return read_authority(x, block, p);
}

/* --- command-line overrides ------------------------------------------------- */

static int override_limit(struct config_ctx *x, const struct limit_field *f, const char *value)
{
    struct config_limits l = x->c->limits;
    struct config_kpath kp = {NULL, f->key, 0};
    size_t n = strlen(value);
    cJSON *v = all_digits(value, n) && n <= 15 ? cJSON_CreateNumber(strtod(value, NULL))
                                               : cJSON_CreateString(value);
    int64_t num;
    int r = config__int(x, v, &kp, f->min, f->max, &num);
    cJSON_Delete(v);
    if (r < 0)
        return -1;
    set_limit(&l, f, num);
    if (check_timeouts(x, NULL, &l, strcmp(f->key, "maxTimeoutMs") == 0, CONFIG_JSON_NOPOS) < 0)
        return -1;
    x->c->limits = l;
    return 0;
}

static int override_log_level(struct config_ctx *x, const cJSON *v)
{
    struct config_kpath kp = {NULL, "logLevel", 0};
    char *name;
    if (read_log_level(x, v, &kp, &name) < 0)
        return -1;
    free(x->c->log_level);
    x->c->log_level = name;
    return 0;
}

static int override_audit(struct config_ctx *x, const char *value)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "path", value);
    struct config_kpath ap = {NULL, "audit", 0};
    int r = config__audit(x, o, &ap);
    cJSON_Delete(o);
    return r;
}

/* declarationsBudget (bytes) and declarations.budget (tokens). */
static int override_budget(struct config_ctx *x, const char *key, const char *value)
{
    size_t n = strlen(value);
    cJSON *v = all_digits(value, n) && n <= 15 ? cJSON_CreateNumber(strtod(value, NULL))
                                               : cJSON_CreateString(value);
    struct config_kpath dp = {NULL, "declarations", 0}, bp = {&dp, "budget", 0};
    struct config_kpath op = {NULL, "declarationsBudget", 0};
    int r = strcmp(key, "declarationsBudget") == 0
                ? config__declarations_budget_bytes(x, v, &op)
                : config__declarations_budget(x, v, &bp);
    cJSON_Delete(v);
    return r;
}

static int override_text(struct config_ctx *x, const char *key, const char *value)
{
    struct config_kpath http = {NULL, "http", 0};
    struct config_kpath lp = {&http, "listen", 0}, tp = {&http, "authToken", 0};
    cJSON *v = cJSON_CreateString(value);
    int r = -1;
    if (strcmp(key, "logLevel") == 0)
        r = override_log_level(x, v);
    else if (strcmp(key, "http.listen") == 0)
        r = read_listen(x, v, &lp, &x->c->http_listen);
    else if (strcmp(key, "http.authToken") == 0) {
        char *before = x->c->http_auth_token ? xstrdup(x->c->http_auth_token) : NULL;
        r = read_token(x, v, &tp, &x->c->http_auth_token);
        if (r == 0 && config__http_auth_exclusive(x, NULL, &tp) < 0) {
            free(x->c->http_auth_token); /* c is unchanged on error */
            x->c->http_auth_token = before;
            before = NULL;
            r = -1;
        }
        free(before);
    } else if (strcmp(key, "audit.path") == 0)
        r = override_audit(x, value);
    else if (strcmp(key, "declarationsBudget") == 0 || strcmp(key, "declarations.budget") == 0)
        r = override_budget(x, key, value);
    else
        config__error(x, CONFIG_JSON_NOPOS, NULL, "%s: not a setting that can be overridden", key);
    cJSON_Delete(v);
    return r;
}

int config_override(struct config *c, const char *key, const char *value, char **err)
{
    struct config_ctx x = {.c = c, .no_expand = 1};
    int r = -1;
    for (size_t k = 0; k < NLIMITS; k++)
        if (strcmp(key, limit_fields[k].key) == 0)
            r = override_limit(&x, &limit_fields[k], value);
    if (r < 0 && x.err == NULL)
        r = override_text(&x, key, value);
    if (r < 0)
        *err = x.err ? x.err : xstrdup("invalid override");
    else
        free(x.err);
    return r;
}
