/* The `codemode.state` and `codemode.skills` blocks: whether the built-in
 * namespaces are on, where the database lives (and its default under the
 * XDG state directory), whose state a program sees (scope), the quotas,
 * whose skills a program sees and who may replace them (skills.scope,
 * skills.admins), and whether saved skills are also MCP tools. docs/config.md is the user's view. */
#include "mcp-server/config/internal.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "tools/state/store.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024 * 1024)

static const char *const state_keys[] = {"enabled",       "path",          "scope", "maxValueBytes",
                                         "maxTotalBytes", "busyTimeoutMs", NULL};
static const char *const skills_keys[] = {"enabled", "exposeAsTools", "scope", "admins", NULL};
static const char *const scope_names[] = {"principal", "server", NULL};

/* false turns the namespace off; true or an object keeps it on. */
static int read_switch(struct config_ctx *x, cJSON *v, const struct config_kpath *p, int *on,
                       int *is_object)
{
    *is_object = 0;
    if (cJSON_IsBool(v)) {
        *on = cJSON_IsTrue(v);
        return 0;
    }
    if (config__object(x, v, p) < 0)
        return -1;
    *is_object = 1;
    const cJSON *enabled = cJSON_GetObjectItemCaseSensitive(v, "enabled");
    struct config_kpath ep = {p, "enabled", 0};
    return enabled ? config__bool(x, enabled, &ep, on) : 0;
}

int config__state(struct config_ctx *x, cJSON *block, const struct config_kpath *p)
{
    struct config_state *st = &x->c->state;
    int is_object;
    if (read_switch(x, block, p, &st->state, &is_object) < 0)
        return -1;
    if (!is_object)
        return 0;
    config__unknown_keys(x, block, p, state_keys);
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(block, "path");
    const cJSON *scope = cJSON_GetObjectItemCaseSensitive(block, "scope");
    struct config_kpath pp = {p, "path", 0}, sp = {p, "scope", 0};
    if (path != NULL) {
        char *s;
        if (config__string(x, path, &pp, CONFIG_VARS_REQUIRED, &s) < 0)
            return -1;
        free(st->path);
        st->path = s;
    }
    int which;
    if (scope != NULL) {
        if (config__enum(x, scope, &sp, scope_names, &which) < 0)
            return -1;
        st->per_principal = which == 0;
    }
    if (config__member_uint(x, block, p, "maxValueBytes", 16, 256 * MIB, &st->max_value_bytes) < 0 ||
        config__member_uint(x, block, p, "maxTotalBytes", 1024, 1ll << 40, &st->max_total_bytes) < 0)
        return -1;
    return config__member_uint(x, block, p, "busyTimeoutMs", 1, 60000, &st->busy_timeout_ms);
}

int config__skills(struct config_ctx *x, cJSON *block, const struct config_kpath *p)
{
    struct config_state *st = &x->c->state;
    int is_object;
    if (read_switch(x, block, p, &st->skills, &is_object) < 0)
        return -1;
    if (!is_object)
        return 0;
    config__unknown_keys(x, block, p, skills_keys);
    const cJSON *expose = cJSON_GetObjectItemCaseSensitive(block, "exposeAsTools");
    const cJSON *scope = cJSON_GetObjectItemCaseSensitive(block, "scope");
    const cJSON *admins = cJSON_GetObjectItemCaseSensitive(block, "admins");
    struct config_kpath ep = {p, "exposeAsTools", 0}, sp = {p, "scope", 0}, ap = {p, "admins", 0};
    if (expose && config__bool(x, expose, &ep, &st->expose_skills) < 0)
        return -1;
    int which;
    if (scope) {
        if (config__enum(x, scope, &sp, scope_names, &which) < 0)
            return -1;
        st->skills_per_principal = which == 0;
    }
    if (admins) {
        config__free_list(st->skill_admins);
        st->skill_admins = NULL;
        return config__string_list(x, admins, &ap, &st->skill_admins);
    }
    return 0;
}

char *config_state_path(const struct config *c)
{
    if (c->state.path)
        return xstrdup(c->state.path);
    struct buf b;
    buf_init(&b, 0);
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        buf_printf(&b, "%s/mcp-codemode/state.db", xdg);
    else if (home && home[0] == '/')
        buf_printf(&b, "%s/.local/state/mcp-codemode/state.db", home);
    else
        buf_append_str(&b, "/tmp/mcp-codemode-state/state.db");
    return buf_steal(&b);
}

void config_state_store(const struct config *c, const char *path, struct tools_state_options *o)
{
    const struct config_state *st = &c->state;
    *o = (struct tools_state_options){
        .path = path,
        .max_value_bytes = st->max_value_bytes,
        .max_total_bytes = st->max_total_bytes,
        .busy_timeout_ms = (unsigned) st->busy_timeout_ms,
        .url = st->store_url,
        .max_connections = (unsigned) st->store_max_connections,
        .connect_timeout_ms = (unsigned) st->store_connect_timeout_ms,
        .statement_timeout_ms = (unsigned) st->store_statement_timeout_ms,
    };
}
