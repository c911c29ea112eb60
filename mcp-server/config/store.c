/* The `codemode.store` block: the PostgreSQL database that several
 * instances share for state, skills and the stash (url, with ${VAR}s for
 * the password), and its connection pool. Without it the store is the
 * SQLite file of codemode.state.path. docs/config.md is the user's view. */
#include "mcp-server/config/internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char *const store_keys[] = {"url", "maxConnections", "connectTimeoutMs",
                                         "statementTimeoutMs", NULL};

int config__store(struct config_ctx *x, cJSON *block, const struct config_kpath *p)
{
    struct config_state *st = &x->c->state;
    if (config__object(x, block, p) < 0)
        return -1;
    config__unknown_keys(x, block, p, store_keys);
    const cJSON *url = cJSON_GetObjectItemCaseSensitive(block, "url");
    struct config_kpath up = {p, "url", 0};
    if (url == NULL) {
        config__error(x, config__at(x, block, 0), p,
                      "expected \"url\": the PostgreSQL database to share, as "
                      "\"postgresql://user@host/db\" (a password in ${PGPASSWORD} or .pgpass)");
        return -1;
    }
    char *s;
    if (config__string(x, url, &up, CONFIG_VARS_REQUIRED, &s) < 0)
        return -1;
    if (strncmp(s, "postgresql://", 13) != 0 && strncmp(s, "postgres://", 11) != 0) {
        config__error(x, config__at(x, url, 0), &up,
                      "expected a PostgreSQL URL \"postgresql://user@host:port/db?...\"");
        free(s);
        return -1;
    }
    free(st->store_url);
    st->store_url = s;
    if (config__member_uint(x, block, p, "maxConnections", 1, 64, &st->store_max_connections) < 0 ||
        config__member_uint(x, block, p, "connectTimeoutMs", 100, 600000, &st->store_connect_timeout_ms) <
            0)
        return -1;
    return config__member_uint(x, block, p, "statementTimeoutMs", 100, 3600000,
                       &st->store_statement_timeout_ms);
}
