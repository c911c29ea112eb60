/* The `codemode.stash` block: how many whole results (and content.stash
 * values) are kept as codemode://stash/ resources (`maxEntries`), how many
 * bytes in all (`maxBytes`) and how long (`ttlMs`). The user documentation
 * is docs/config.md. */
#include "mcp-server/config/internal.h"

#include <cjson/cJSON.h>

#define DAY_MS 86400000
#define GIB    (1024ll * 1024 * 1024)

static const char *const stash_keys[] = {"maxEntries", "maxBytes", "ttlMs", NULL};

int config__stash(struct config_ctx *x, cJSON *block, const struct config_kpath *p)
{
    struct config_limits *l = &x->c->limits;
    struct config_kpath ep = {p, "maxEntries", 0}, bp = {p, "maxBytes", 0}, tp = {p, "ttlMs", 0};
    if (config__object(x, block, p) < 0)
        return -1;
    config__unknown_keys(x, block, p, stash_keys);
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(block, "maxEntries");
    const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(block, "maxBytes");
    const cJSON *ttl = cJSON_GetObjectItemCaseSensitive(block, "ttlMs");
    int64_t n;
    if (entries != NULL) {
        if (config__int(x, entries, &ep, 0, 100000, &n) < 0)
            return -1;
        l->stash_max_entries = (unsigned) n;
    }
    if (bytes != NULL) {
        if (config__int(x, bytes, &bp, 1024, 4 * GIB, &n) < 0)
            return -1;
        l->stash_max_bytes = (uint64_t) n;
    }
    if (ttl != NULL) {
        if (config__int(x, ttl, &tp, 1, 7ll * DAY_MS, &n) < 0)
            return -1;
        l->stash_ttl_ms = (uint64_t) n;
    }
    return 0;
}
