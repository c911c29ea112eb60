/* The lowering benchmark's stand-in for the host (see bench_host.h): canned
 * tool results computed from the call's arguments, so every run of the
 * representative program sees the same ~44 issues, users, pulls and runs. */
#include "bench_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/buf.h"
#include "sandbox/worker/engine.h"

enum { MAX_PENDING = 512 };

struct call {
    long id;
    char *name;
    char *args;
};

struct bench_host {
    struct call pending[MAX_PENDING];
    int npending;
    long next_id;
    unsigned long calls;
};

static const char *const repos[] = {"acme/api-server", "acme/web-app", "acme/infra"};
static const int pages[3][3] = {{20, 4, 0}, {8, 0, 0}, {12, 0, 0}};
static const char *const labels[] = {"bug", "feature", "docs", "severity:critical",
                                     "severity:high", "severity:low", "ui", "perf"};

static unsigned mix(unsigned x)
{
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    return x ^ (x >> 15);
}

static void issue_json(struct buf *b, int number)
{
    unsigned h = mix((unsigned)number * 2654435761u);
    buf_printf(b, "{\"number\":%d,\"title\":\"Issue %d: %s fails under load\",\"labels\":[",
               number, number, h % 2 ? "the importer" : "search");
    int n = (int)(h % 3);
    for (int i = 0; i < n; i++)
        buf_printf(b, "%s\"%s\"", i ? "," : "", labels[(h >> (4 + 3 * i)) % 8]);
    buf_printf(b, "],\"created_at\":\"2026-%02d-%02dT10:00:00Z\",\"assignee\":", 8 + (int)(h % 4),
               1 + (int)(h >> 8) % 28);
    if (h % 3 == 0)
        buf_append_str(b, "null");
    else
        buf_printf(b, "\"dev%u\"", h % 7);
    buf_printf(b, ",\"user\":{\"login\":\"u%u\"},\"comments\":%u}", (h >> 12) % 12, h % 17);
}

static int list_issues(struct buf *b, const cJSON *args)
{
    const char *repo = cJSON_GetStringValue(cJSON_GetObjectItem(args, "repo"));
    int page = cJSON_GetObjectItem(args, "page") ? cJSON_GetObjectItem(args, "page")->valueint : 1;
    int r = 0;
    while (r < 3 && !(repo && strcmp(repo, repos[r]) == 0))
        r++;
    if (r == 3 || page < 1 || page > 3) {
        buf_append_str(b, "{\"name\":\"ToolError\",\"message\":\"unknown repository\"}");
        return 0;
    }
    buf_append_char(b, '[');
    for (int k = 0; k < pages[r][page - 1]; k++) {
        if (k)
            buf_append_char(b, ',');
        issue_json(b, r * 1000 + (page - 1) * 20 + k + 1);
    }
    buf_append_char(b, ']');
    return 1;
}

static int get_user(struct buf *b, const cJSON *args)
{
    const char *login = cJSON_GetStringValue(cJSON_GetObjectItem(args, "login"));
    int k = login ? atoi(login + 1) : 0;
    buf_printf(b, "{\"login\":\"%s\",\"name\":", login ? login : "");
    if (k % 4 == 0)
        buf_append_str(b, "null");
    else
        buf_printf(b, "\"Person %d\"", k);
    if (k % 3 == 0)
        buf_append_str(b, ",\"company\":null}");
    else
        buf_printf(b, ",\"company\":\"@team%d\"}", k % 5);
    return 1;
}

static int list_pulls(struct buf *b)
{
    buf_append_char(b, '[');
    for (int k = 0; k < 6; k++)
        buf_printf(b, "%s{\"number\":%d,\"title\":\"%s %d\",\"draft\":%s,\"head\":{\"sha\":\"c0ffee%d\"}}",
                   k ? "," : "", 500 + k,
                   k % 2 ? "Refactor the connection pool and the retry policy of the importer"
                         : "Fix typo",
                   k, k % 4 == 3 ? "true" : "false", k);
    buf_append_char(b, ']');
    return 1;
}

static int list_runs(struct buf *b, const cJSON *args)
{
    const char *ref = cJSON_GetStringValue(cJSON_GetObjectItem(args, "ref"));
    unsigned h = mix(ref ? (unsigned)strlen(ref) * 31u + (unsigned)ref[strlen(ref) - 1] : 7u);
    static const char *const names[] = {"build", "test", "lint", "e2e"};
    buf_append_str(b, "{\"runs\":[");
    for (int i = 0; i < 4; i++)
        buf_printf(b, "%s{\"name\":\"%s\",\"conclusion\":\"%s\",\"started_at\":\"2026-11-19T10:00:00Z\","
                      "\"finished_at\":\"2026-11-19T10:%02u:%02uZ\"}",
                   i ? "," : "", names[i], (h >> i) % 5 == 0 ? "failure" : "success",
                   (h >> (2 * i)) % 50, (h >> i) % 60);
    buf_append_str(b, "]}");
    return 1;
}

/* The result (ok 1) or error (ok 0) JSON of one call. */
static int compute(const char *name, const char *args_json, struct buf *b)
{
    cJSON *args = cJSON_Parse(args_json);
    int ok = 1;
    if (strcmp(name, "github.list_issues") == 0)
        ok = list_issues(b, args);
    else if (strcmp(name, "github.get_user") == 0)
        ok = get_user(b, args);
    else if (strcmp(name, "github.list_pulls") == 0)
        ok = list_pulls(b);
    else if (strcmp(name, "ci.list_runs") == 0)
        ok = list_runs(b, args);
    else if (strcmp(name, "kv.get") == 0)
        buf_append_str(b, "{\"value\":[{\"name\":\"ada\",\"from\":0,\"to\":1790000000000},"
                          "{\"name\":\"bob\",\"from\":1790000000000,\"to\":1900000000000}]}");
    else if (strcmp(name, "github.create_issue") == 0)
        buf_append_str(b, "{\"number\":777,\"url\":\"https://github.example/acme/triage/issues/777\"}");
    else if (strcmp(name, "kv.set") == 0)
        buf_append_str(b, "{\"ok\":true}");
    else {
        buf_printf(b, "{\"name\":\"ToolError\",\"message\":\"unknown tool %s\"}", name);
        ok = 0;
    }
    cJSON_Delete(args);
    return ok;
}

/* Answers are computed once and kept for the process: runs after the first
 * pay only the lookup, as a real worker receives finished JSON text. */
enum { MAX_CACHED = 256 };
static struct cached {
    char *key, *json;
    size_t len;
    int ok;
} cache[MAX_CACHED];
static int ncached;

static int answer(const char *name, const char *args_json, const char **json, size_t *len)
{
    struct buf key;
    buf_init(&key, 0);
    buf_printf(&key, "%s %s", name, args_json);
    for (int i = 0; i < ncached; i++)
        if (strcmp(cache[i].key, key.data) == 0) {
            buf_free(&key);
            *json = cache[i].json;
            *len = cache[i].len;
            return cache[i].ok;
        }
    if (ncached == MAX_CACHED) {
        fprintf(stderr, "bench host: too many distinct calls\n");
        exit(1);
    }
    struct cached *c = &cache[ncached++];
    struct buf b;
    buf_init(&b, 0);
    c->ok = compute(name, args_json, &b);
    c->len = b.len;
    c->json = buf_steal(&b);
    c->key = buf_steal(&key);
    *json = c->json;
    *len = c->len;
    return c->ok;
}

static long host_call(void *ud, const char *op, const char *name, const char *args, size_t len,
                      char *msg, size_t msg_size)
{
    struct bench_host *h = ud;
    (void)len;
    if (strcmp(op, "tool") != 0 || h->npending == MAX_PENDING) {
        snprintf(msg, msg_size, "the benchmark host answers tool calls only");
        return -1;
    }
    struct call *c = &h->pending[h->npending++];
    c->id = ++h->next_id;
    c->name = strdup(name);
    c->args = strdup(args);
    h->calls++;
    return c->id;
}

/* Console lines are dropped, or printed to stderr when BENCH_LOG is set. */
static void host_log(void *ud, const char *level, const char *text, size_t len)
{
    (void)ud;
    if (getenv("BENCH_LOG"))
        fprintf(stderr, "[%s] %.*s\n", level, (int)len, text);
}

/* A worker's template heap was built in the zygote's zone (sandbox/worker/zone.h),
 * not with malloc: its garbage never reaches glibc's fast bins. Here the
 * engine is built with malloc right after the previous one was destroyed,
 * and the first request of a few KB in the run (the lowering arena or the
 * compiler) made glibc consolidate thousands of freed blocks (~57K
 * instructions that no worker pays). One such request now does it before
 * the run. (volatile: the pair must not be optimised away.) */
static void consolidate_malloc(void)
{
    void *volatile p = malloc(64u << 10);
    free(p);
}

struct bench_host *bench_host_create(struct sandbox_engine **engine)
{
    struct bench_host *h = calloc(1, sizeof *h);
    struct sandbox_engine_host eh = {h, host_call, host_log};
    char *err = NULL;
    *engine = sandbox_engine_create(&eh, &err);
    if (!h || !*engine) {
        fprintf(stderr, "engine: %s\n", err ? err : "out of memory");
        exit(1);
    }
    consolidate_malloc();
    return h;
}

void bench_host_destroy(struct bench_host *h, struct sandbox_engine *e)
{
    sandbox_engine_destroy(e);
    for (int i = 0; i < h->npending; i++) {
        free(h->pending[i].name);
        free(h->pending[i].args);
    }
    free(h);
}

/* Settles every pending call, oldest first (calls made while settling wait
 * for the next round). */
static void settle_all(struct bench_host *h, struct sandbox_engine *e)
{
    struct call batch[MAX_PENDING];
    int n = h->npending;
    memcpy(batch, h->pending, (size_t)n * sizeof *batch);
    h->npending = 0;
    for (int i = 0; i < n; i++) {
        const char *json;
        size_t len;
        int ok = answer(batch[i].name, batch[i].args, &json, &len);
        sandbox_engine_settle(e, batch[i].id, ok, json, len);
        free(batch[i].name);
        free(batch[i].args);
    }
}

/* The catalog a real worker is given (tools.<server>.<tool> are then plain
 * properties, not names resolved on each access). */
static const char catalog[] =
    "{\"github\":{\"name\":\"github\",\"tools\":{\"list_issues\":\"list_issues\","
    "\"get_user\":\"get_user\",\"list_pulls\":\"list_pulls\",\"create_issue\":\"create_issue\"}},"
    "\"ci\":{\"name\":\"ci\",\"tools\":{\"list_runs\":\"list_runs\"}},"
    "\"kv\":{\"name\":\"kv\",\"tools\":{\"get\":\"get\",\"set\":\"set\"}}}";

char *bench_host_run(struct bench_host *h, struct sandbox_engine *e, const char *src, size_t len)
{
    struct sandbox_run_limits l = {60000, 512u << 20, 256};
    sandbox_engine_start(e, src, len, catalog, &l);
    while (sandbox_engine_state(e) == SANDBOX_RUNNING) {
        if (h->npending) {
            settle_all(h, e);
            continue;
        }
        if (sandbox_engine_next_timer(e) < 0) {
            sandbox_engine_abort(e, "Error", "stalled");
            break;
        }
        sandbox_engine_run_timers(e);
    }
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 1 << 20, &out);
    return buf_steal(&out);
}

unsigned long bench_host_calls(const struct bench_host *h)
{
    return h->calls;
}
