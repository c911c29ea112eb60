/* The `codemode.sandbox` block: whether a worker serves several executions
 * of one principal (`reuse`), how many at most (`maxRunsPerWorker`), how
 * long a kept worker waits for the next one (`workerIdleMs`), whether a
 * program's sequential calls run on one CPU (`colocateCalls`), and how many
 * workers live at once (`maxWorkers`) and run one principal's executions
 * (`maxConcurrentPerPrincipal`). The user documentation is docs/config.md. */
#include "mcp-server/config/internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define DAY_MS 86400000

static const char *const sandbox_keys[] = {"reuse",
                                           "maxRunsPerWorker",
                                           "workerIdleMs",
                                           "colocateCalls",
                                           "maxWorkers",
                                           "maxConcurrentPerPrincipal",
                                           NULL};

int config__sandbox(struct config_ctx *x, cJSON *block, const struct config_kpath *p)
{
    struct config_limits *l = &x->c->limits;
    struct config_kpath rp = {p, "reuse", 0}, mp = {p, "maxRunsPerWorker", 0},
                        ip = {p, "workerIdleMs", 0}, cp = {p, "colocateCalls", 0},
                        wp = {p, "maxWorkers", 0}, pp = {p, "maxConcurrentPerPrincipal", 0};
    if (config__object(x, block, p) < 0)
        return -1;
    config__unknown_keys(x, block, p, sandbox_keys);
    const cJSON *reuse = cJSON_GetObjectItemCaseSensitive(block, "reuse");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(block, "maxRunsPerWorker");
    const cJSON *idle = cJSON_GetObjectItemCaseSensitive(block, "workerIdleMs");
    const cJSON *colocate = cJSON_GetObjectItemCaseSensitive(block, "colocateCalls");
    const cJSON *workers = cJSON_GetObjectItemCaseSensitive(block, "maxWorkers");
    const cJSON *per = cJSON_GetObjectItemCaseSensitive(block, "maxConcurrentPerPrincipal");
    int64_t n;
    static const char *const reuse_names[] = {"principal", "never", NULL};
    int which;
    if (reuse != NULL) {
        if (config__enum(x, reuse, &rp, reuse_names, &which) < 0)
            return -1;
        l->sandbox_reuse = which == 0;
    }
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
    if (colocate != NULL && config__bool(x, colocate, &cp, &l->colocate_calls) < 0)
        return -1;
    if (workers != NULL) {
        if (config__int(x, workers, &wp, 1, CONFIG_MAX_WORKERS, &n) < 0)
            return -1;
        l->max_workers = (unsigned) n;
    }
    if (per != NULL) {
        if (config__int(x, per, &pp, 1, CONFIG_MAX_WORKERS, &n) < 0)
            return -1;
        l->max_concurrent_per_principal = (unsigned) n;
    }
    return 0;
}
