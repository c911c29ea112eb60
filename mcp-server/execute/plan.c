/* The dry run's planned calls as readable lines (mcp-server/execute/plan.h). */
#include "mcp-server/execute/plan.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* What the policy would do with a call that was recorded: a built-in
 * (state.*, skills.*) is done, a tool is sent; "ask" asks first. */
static void append_decision(struct buf *b, const cJSON *call)
{
    const char *tool = str_of(call, "tool"), *decision = str_of(call, "decision");
    const char *by = str_of(call, "decidedBy");
    int builtin = tool && (strncmp(tool, "state.", 6) == 0 || strncmp(tool, "skills.", 7) == 0);
    if (decision == NULL)
        return;
    if (strcmp(decision, "ask") == 0)
        buf_append_str(b, ": would ask for approval (");
    else if (strcmp(decision, "allow") == 0)
        buf_printf(b, ": would be %s (allowed by ", builtin ? "done" : "sent");
    else
        buf_printf(b, ": %s (", decision);
    buf_append_str(b, by ? by : "the policy");
    buf_append_str(b, builtin || strcmp(decision, "allow") != 0 ? ")" : "; not read-only)");
}

/* The arguments' JSON, cut at max bytes (0: whole) on a character boundary. */
static void append_arguments(struct buf *b, const cJSON *args, size_t max)
{
    char *json = args ? json_print(args) : NULL;
    size_t len = json ? strlen(json) : 0;
    if (json == NULL) {
        buf_append_str(b, "{}");
    } else if (max == 0 || len <= max) {
        buf_append(b, json, len);
    } else {
        while (max > 0 && ((unsigned char) json[max] & 0xc0) == 0x80)
            max--; /* not inside a UTF-8 sequence */
        buf_append(b, json, max);
        buf_append_str(b, "...");
    }
    free(json);
}

void mcp_plan_append(struct buf *b, const cJSON *planned, size_t max_argument_bytes)
{
    int n = cJSON_GetArraySize(planned), i = 0;
    buf_printf(b, "dry run: %d planned call%s (validated, not sent)%s", n, n == 1 ? "" : "s",
               n ? ":" : "");
    for (const cJSON *p = planned ? planned->child : NULL; p; p = p->next) {
        const char *tool = str_of(p, "tool");
        buf_printf(b, "\n%d. %s ", ++i, tool ? tool : "?");
        append_arguments(b, cJSON_GetObjectItemCaseSensitive(p, "arguments"), max_argument_bytes);
        append_decision(b, p);
    }
}
