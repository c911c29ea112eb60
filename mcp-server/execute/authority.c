/* execute_code's authority arguments (allow, dryRun, maxToolCalls), the
 * execution_start / execution_end lines of the audit log, and the dry run's
 * planned calls in the result. The per-call decisions live in tools/
 * (tools/registry.c, tools/policy/); this file only reads and reports. */
#include "mcp-server/execute/internal.h"
#include "mcp-server/execute/plan.h"
#include "tools/gate/gate.h"
#include "tools/policy/audit.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/sha256.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(char *msg, size_t msgsz, const char *text)
{
    snprintf(msg, msgsz, "%s", text);
    return -1;
}

static int read_allow(const cJSON *v, struct mcp_authority *a, char *msg, size_t msgsz)
{
    if (!cJSON_IsArray(v))
        return bad(msg, msgsz,
                   "execute_code: allow must be an array of tool patterns (\"server.tool\", "
                   "\"server.*\" or \"*\")");
    size_t n = (size_t) cJSON_GetArraySize(v), i = 0;
    a->allow = xcalloc(n + 1, sizeof *a->allow);
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        const char *why =
            cJSON_IsString(e) ? tools_exec_pattern_problem(e->valuestring) : "not a string";
        if (why) {
            snprintf(msg, msgsz, "execute_code: allow[%zu] is not a tool pattern: %s", i, why);
            return -1;
        }
        a->allow[i] = xstrdup(e->valuestring);
    }
    return 0;
}

/* maxToolCalls: 0 (no tool calls: pure computation) or more, lowered to
 * the config's limit (cap, which may be 0 too). */
static int read_max_calls(const cJSON *v, unsigned cap, struct mcp_authority *a, char *msg,
                          size_t msgsz)
{
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < 0 ||
        v->valuedouble > 4294967295.0) {
        snprintf(msg, msgsz,
                 "execute_code: maxToolCalls must be an integer from 0 (no tool calls) to %u "
                 "(larger values are lowered to the server's limit)",
                 cap);
        return -1;
    }
    a->max_calls = v->valuedouble < (double) cap ? (unsigned) v->valuedouble : cap;
    return 0;
}

int mcp_authority_read(const cJSON *arguments, unsigned max_calls, struct mcp_authority *a,
                       char *msg, size_t msgsz)
{
    memset(a, 0, sizeof *a);
    a->max_calls = max_calls;
    const cJSON *allow = cJSON_GetObjectItemCaseSensitive(arguments, "allow");
    const cJSON *dry = cJSON_GetObjectItemCaseSensitive(arguments, "dryRun");
    const cJSON *maxc = cJSON_GetObjectItemCaseSensitive(arguments, "maxToolCalls");
    if (allow && read_allow(allow, a, msg, msgsz) < 0)
        return -1;
    if (dry && !cJSON_IsBool(dry))
        return bad(msg, msgsz, "execute_code: dryRun must be a boolean");
    a->dry_run = cJSON_IsTrue(dry);
    if (maxc && read_max_calls(maxc, max_calls, a, msg, msgsz) < 0)
        return -1;
    return 0;
}

void mcp_authority_free(struct mcp_authority *a)
{
    for (size_t i = 0; a->allow && a->allow[i]; i++)
        free(a->allow[i]);
    free(a->allow);
    a->allow = NULL;
}

void mcp_authority_audit_start(struct mcp_request *r, const char *id, const char *code,
                               const struct mcp_authority *a)
{
    struct tools_audit *log = r->server->cfg.audit;
    if (log == NULL)
        return;
    cJSON *ev = cJSON_CreateObject();
    char hex[65];
    sha256_hex(code, strlen(code), hex);
    cJSON_AddStringToObject(ev, "executionId", id);
    cJSON_AddStringToObject(ev, "principal", r->server->principal ? r->server->principal : "stdio");
    cJSON_AddStringToObject(ev, "codeSha256", hex);
    cJSON_AddNumberToObject(ev, "codeBytes", (double) strlen(code));
    if (a->dry_run)
        cJSON_AddTrueToObject(ev, "dryRun");
    if (a->allow) {
        cJSON *g = cJSON_AddArrayToObject(ev, "allow");
        for (size_t i = 0; a->allow[i]; i++)
            cJSON_AddItemToArray(g, cJSON_CreateString(a->allow[i]));
    }
    tools_audit_write(log, "execution_start", ev);
}

void mcp_authority_audit_end(struct mcp_request *r, const char *id, const char *outcome,
                             const char *error_name, double duration_ms, unsigned tool_calls)
{
    struct tools_audit *log = r->server->cfg.audit;
    if (log == NULL)
        return;
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "executionId", id);
    cJSON_AddStringToObject(ev, "outcome", outcome);
    if (error_name)
        cJSON_AddStringToObject(ev, "error", error_name);
    cJSON_AddNumberToObject(ev, "durationMs", duration_ms);
    cJSON_AddNumberToObject(ev, "toolCalls", tool_calls);
    tools_audit_write(log, "execution_end", ev);
}

void mcp_authority_add_planned(cJSON *result, const cJSON *planned)
{
    struct buf b;
    buf_init(&b, 0);
    mcp_plan_append(&b, planned, 0);
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "type", "text");
    cJSON_AddStringToObject(t, "text", b.data);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(result, "content"), t);
    buf_free(&b);
    cJSON *sc = cJSON_GetObjectItemCaseSensitive(result, "structuredContent");
    if (sc)
        cJSON_AddItemToObject(sc, "plannedCalls", cJSON_Duplicate(planned, 1));
}
