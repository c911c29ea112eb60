/* Shared internals of the configuration loader (mcp-server/config/ only): the loading
 * context, key paths for messages, diagnostics with file positions, and
 * typed readers of cJSON values that report what they expected and got. */
#ifndef MCP_SERVER_CONFIG_INTERNAL_H
#define MCP_SERVER_CONFIG_INTERNAL_H

#include "mcp-server/config/config.h"
#include "mcp-server/config/json_pos.h"

#include <stdint.h>

struct buf;
struct cJSON;

#define CONFIG_MAX_WARNINGS 200

/* A key path, linked from the leaf up: {up, "timeoutMs"} under
 * {up, "github"} under {NULL, "mcpServers"}. key NULL = array element. */
struct config_kpath {
    const struct config_kpath *up;
    const char *key;
    size_t index;
};

struct config_ctx {
    struct config *c;
    const char *file;           /* NULL: messages carry no "FILE:LINE:COL: " */
    char *dir;                  /* the file's folder, absolute: relative command and cwd
                                   paths are resolved against it (NULL: not resolved) */
    struct config_json_pos pos; /* valid when file != NULL */
    char *err;                  /* the first error; later ones are dropped */
    int quiet_unset;            /* inside a disabled entry: unset variables are not reported */
    int no_expand;              /* command-line values: taken literally */
    size_t suppressed;          /* warnings past CONFIG_MAX_WARNINGS */
};

/* How a string's unset ${VAR} (no default) is treated. */
enum config_vars { CONFIG_VARS_WARN, CONFIG_VARS_REQUIRED };

/* --- diag.c ---------------------------------------------------------- */

/* Byte offset of item's key (key != 0) or value; CONFIG_JSON_NOPOS if unknown. */
size_t config__at(const struct config_ctx *x, const struct cJSON *item, int key);

/* Records "FILE:LINE:COL: PATH: message" as the error unless one is set. */
void config__error(struct config_ctx *x, size_t off, const struct config_kpath *p, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));

/* Appends the same shape of message to c->warnings (at most CONFIG_MAX_WARNINGS). */
void config__warn(struct config_ctx *x, enum config_warning_kind kind, size_t off,
                  const struct config_kpath *p, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Appends the path: mcpServers.github.args[2]; odd keys as ["my key"]. */
void config__path(struct buf *b, const struct config_kpath *p);

/* Appends a short description of a value for "got ...": "two" (quoted,
 * shortened), 1.5, true, null, an object, an array. */
void config__describe(struct buf *b, const struct cJSON *v);

/* The known key nearest to key (case-insensitive edit distance), or NULL. */
const char *config__suggest(const char *key, const char *const *known);

/* Warns about every member of obj not in known (NULL-terminated). */
void config__unknown_keys(struct config_ctx *x, const struct cJSON *obj,
                          const struct config_kpath *p, const char *const *known);

/* --- value.c --------------------------------------------------------- */

/* Each reader reports a type or range problem through config__error and
 * returns -1; on success it returns 0 and fills *out (malloc'd for strings
 * and lists: the caller owns them). */
int config__string(struct config_ctx *x, const struct cJSON *v, const struct config_kpath *p,
                   enum config_vars vars, char **out);
int config__int(struct config_ctx *x, const struct cJSON *v, const struct config_kpath *p,
                int64_t min, int64_t max, int64_t *out);
/* config__int of block's member `key` (under p) into *out; nothing when the
 * member is absent. */
int config__member_uint(struct config_ctx *x, const struct cJSON *block,
                        const struct config_kpath *p, const char *key, int64_t min, int64_t max,
                        uint64_t *out);
int config__bool(struct config_ctx *x, const struct cJSON *v, const struct config_kpath *p,
                 int *out);
/* One of names (NULL-terminated): *out is its index; anything else is an
 * error that lists the accepted values. */
int config__enum(struct config_ctx *x, const struct cJSON *v, const struct config_kpath *p,
                 const char *const *names, int *out);
/* A NULL-terminated list of expanded strings from an array of strings. */
int config__string_list(struct config_ctx *x, const struct cJSON *v, const struct config_kpath *p,
                        char ***out);
/* Checks one item of a config__checked_list: 0 when item (the string at e,
 * path p) is accepted, else -1 after a config__error at e. */
typedef int config__item_check(struct config_ctx *x, const struct cJSON *e,
                               const struct config_kpath *p, const char *item);
/* config__string_list whose every item check accepts (the first refused one
 * is the error). On success the list replaces *out, whose old list is freed;
 * on failure *out is left as it was. */
int config__checked_list(struct config_ctx *x, const struct cJSON *v, const struct config_kpath *p,
                         config__item_check *check, char ***out);
/* 1 when s is an OAuth scope-token (RFC 6749 section 3.3): non-empty
 * printable ASCII without spaces, quotes or backslashes. */
int config__scope_ok(const char *s);
/* Checks v is an object and removes duplicate keys (the last one wins, as in
 * JavaScript's JSON.parse), warning about each removed member. */
int config__object(struct config_ctx *x, struct cJSON *v, const struct config_kpath *p);

/* Frees a NULL-terminated list of strings (NULL is fine). */
void config__free_list(char **list);

/* --- servers.c / codemode.c ----------------------------------- */

/* Reads the mcpServers object into x->c->servers. Returns 0 or -1. */
int config__servers(struct config_ctx *x, struct cJSON *servers, const struct config_kpath *p);
void config__server_free(struct tools_server_config *s);

/* self.c: 1 when a stdio entry would start mcp-codemode itself: the
 * command's basename is "mcp-codemode", or the command (resolved like
 * execvp: against cwd when relative with a '/', else through PATH, the
 * entry's env PATH first) is the same file as /proc/self/exe. */
int config__launches_self(const char *command, const char *cwd, char *const *env);

/* policy.c: codemode.policy and codemode.audit into x->c, and an entry's
 * "policy" object into s->policy. Return 0 or -1. */
int config__policy(struct config_ctx *x, struct cJSON *v, const struct config_kpath *p);
int config__audit(struct config_ctx *x, struct cJSON *v, const struct config_kpath *p);
int config__server_policy(struct config_ctx *x, struct cJSON *v, const struct config_kpath *p,
                          struct tools_server_config *s);

/* http_oauth.c: codemode.http.oauth and codemode.http.publicUrl into x->c;
 * the error when authToken and oauth are both set (at: the member to point
 * at, may be NULL); freeing the block. Return 0 or -1. */
int config__http_oauth(struct config_ctx *x, struct cJSON *v, const struct config_kpath *p);
int config__http_public_url(struct config_ctx *x, const struct cJSON *v,
                            const struct config_kpath *p);
int config__http_auth_exclusive(struct config_ctx *x, const struct cJSON *at,
                                const struct config_kpath *p);
void config__http_oauth_free(struct config_http_oauth *o);

/* Reads the codemode block into x->c. Returns 0 or -1. */
int config__codemode(struct config_ctx *x, struct cJSON *block, const struct config_kpath *p);

/* state.c: reads the codemode.state and codemode.skills blocks (an object,
 * or false to turn the namespace off) into x->c->state. Returns 0 or -1. */
int config__state(struct config_ctx *x, struct cJSON *block, const struct config_kpath *p);
int config__skills(struct config_ctx *x, struct cJSON *block, const struct config_kpath *p);
/* store.c: reads the codemode.store block (a PostgreSQL URL and its pool)
 * into x->c->state. Returns 0 or -1. */
int config__store(struct config_ctx *x, struct cJSON *block, const struct config_kpath *p);

/* sandbox.c: reads the codemode.sandbox block into x->c->limits. Returns 0 or -1. */
int config__sandbox(struct config_ctx *x, struct cJSON *block, const struct config_kpath *p);

/* stash.c: reads the codemode.stash block into x->c->limits. Returns 0 or -1. */
int config__stash(struct config_ctx *x, struct cJSON *block, const struct config_kpath *p);

/* --- declarations.c ---------------------------------------------------- */

/* codemode.declarations and the deprecated codemode.declarationsBudget, both
 * read from the codemode block. */
int config__declarations(struct config_ctx *x, struct cJSON *codemode, const struct config_kpath *p);
/* One budget value: tokens, or bytes (the deprecated key; bytes / 4). */
int config__declarations_budget(struct config_ctx *x, const struct cJSON *v,
                                const struct config_kpath *p);
int config__declarations_budget_bytes(struct config_ctx *x, const struct cJSON *v,
                                      const struct config_kpath *p);

#endif
