/* The `codemode.sandbox` block: whether a worker serves several executions
 * of one principal (`reuse`), how many at most (`maxRunsPerWorker`), and
 * how long a kept worker waits for the next one (`workerIdleMs`). The user
 * documentation is docs/config.md. */
#include "mcp-server/config/internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define DAY_MS 86400000

static const char *const sandbox_keys[] = {"reuse", "maxRunsPerWorker", "workerIdleMs", NULL};

static int read_reuse(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                      struct config_limits *l)
{
    char *s;
    if (config__string(x, v, p, CONFIG_VARS_WARN, &s) < 0)
        return -1;
    int rc = 0;
    if (strcmp(s, "principal") == 0)
        l->sandbox_reuse = 1;
    else if (strcmp(s, "never") == 0)
        l->sandbox_reuse = 0;
    else {
        config__error(x, config__at(x, v, 0), p,
                      "unknown value \"%s\" (expected \"principal\" or \"never\")", s);
        rc = -1;
    }
    free(s);
    return rc;
}

int config__sandbox(struct config_ctx *x, cJSON *block, const struct config_kpath *p)
{
    struct config_limits *l = &x->c->limits;
    struct config_kpath rp = {p, "reuse", 0}, mp = {p, "maxRunsPerWorker", 0},
                        ip = {p, "workerIdleMs", 0};
    if (config__object(x, block, p) < 0)
        return -1;
    config__unknown_keys(x, block, p, sandbox_keys);
    const cJSON *reuse = cJSON_GetObjectItemCaseSensitive(block, "reuse");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(block, "maxRunsPerWorker");
    const cJSON *idle = cJSON_GetObjectItemCaseSensitive(block, "workerIdleMs");
    int64_t n;
    if (reuse != NULL && read_reuse(x, reuse, &rp, l) < 0)
        return -1;
    if (runs != NULL) {
        if (config__int(x, runs, &mp, 1, 1000000, &n) < 0)
            return -1;
        l->max_runs_per_worker = (unsigned) n;
    }
    if (idle != NULL) {
        if (config__int(x, idle, &ip, 100, DAY_MS, &n) < 0)
            return -1;
        l->worker_idle_ms = (uint64_t) n;
    }
    return 0;
}
