/* What clients and models read about execute_code: the tool's description
 * (the contract of ARCHITECTURE.md section 4, kept short) with the
 * declarations of callable tools, its input and output schemas, and the
 * server instructions. */
#include "mcp-server/server_internal.h"
#include "mcp-server/config/config.h"
#include "tools/registry.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>

static const char contract[] =
    "Run a JavaScript program in a sandbox and return its result. The code (modern JavaScript "
    "or TypeScript) is the body of an async function: use await and return, or end with an "
    "expression.\n"
    "Call tools as `await tools.<server>.<tool>(args)`; start several and await Promise.all to "
    "run them at once. A call resolves to the tool's structuredContent, else its text parsed as "
    "JSON, else the text, else its content array; failures throw the errors declared below. "
    "console output comes back with the result. No require, file system, network or "
    "environment; the clock is UTC, Intl formats en-US.\n";

const char *mcp_describe_instructions(void)
{
    return "mcp-codemode runs JavaScript programs that call the tools of other MCP servers. "
           "Prefer one execute_code call that does the whole job (loops, branches, "
           "Promise.all) over many small calls; return only what you need to see.";
}

static void add_limits(struct buf *b, const struct config_limits *l)
{
    buf_printf(b,
               "Limits: %llu s of run time by default (timeoutMs, at most %llu s), %llu MiB of "
               "memory, %llu KiB of result (a larger one is kept as a resource) and %llu KiB of "
               "console output.\n",
               (unsigned long long) (l->timeout_ms / 1000),
               (unsigned long long) (l->max_timeout_ms / 1000),
               (unsigned long long) (l->memory_bytes >> 20),
               (unsigned long long) (l->max_result_bytes >> 10),
               (unsigned long long) (l->max_log_bytes >> 10));
}

/* props.name = {type, description}; type may be NULL. Returns the new object. */
static cJSON *add_property(cJSON *props, const char *name, const char *type,
                           const char *description)
{
    cJSON *p = cJSON_AddObjectToObject(props, name);
    if (type)
        cJSON_AddStringToObject(p, "type", type);
    cJSON_AddStringToObject(p, "description", description);
    return p;
}

/* props.name = an array of `items` (a type), described. */
static void add_array_property(cJSON *props, const char *name, const char *items,
                               const char *description)
{
    cJSON *a = add_property(props, name, "array", description);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(a, "items"), "type", items);
}

/* allow, dryRun, maxToolCalls (docs/policy.md). */
static void add_authority_properties(cJSON *props)
{
    add_array_property(props, "allow", "string",
                       "only these tools may be called: \"server.tool\", \"server.*\" or \"*\" "
                       "(narrows the policy)");
    add_property(props, "dryRun", "boolean",
                 "send only allowed read-only calls; list the others in plannedCalls");
    cJSON *m = add_property(props, "maxToolCalls", "integer",
                            "tool calls allowed in this run (at most the server's limit)");
    cJSON_AddNumberToObject(m, "minimum", 0);
}

static cJSON *input_schema(const struct config_limits *l)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "type", "object");
    cJSON *props = cJSON_AddObjectToObject(s, "properties");
    add_property(props, "code", "string",
                 "the program: the body of an async function");
    cJSON *t =
        add_property(props, "timeoutMs", "integer", "time limit in milliseconds");
    cJSON_AddNumberToObject(t, "minimum", 1);
    cJSON_AddNumberToObject(t, "maximum", (double) l->max_timeout_ms);
    add_authority_properties(props);
    cJSON *req = cJSON_AddArrayToObject(s, "required");
    cJSON_AddItemToArray(req, cJSON_CreateString("code"));
    cJSON_AddFalseToObject(s, "additionalProperties");
    return s;
}

static cJSON *output_schema(void)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "type", "object");
    cJSON *props = cJSON_AddObjectToObject(s, "properties");
    add_property(props, "result", NULL, "the program's return value");
    add_array_property(props, "logs", "string", "console lines");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(props, "error"), "type", "object");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(props, "stats"), "type", "object");
    add_property(props, "resultTruncated", "object",
                 "the result was over the limit: bytes, limit, uri of the whole");
    add_array_property(props, "content", "object",
                       "the content blocks the program returned");
    add_array_property(props, "plannedCalls", "object",
                       "dry run: the calls recorded, not sent");
    cJSON *req = cJSON_AddArrayToObject(s, "required");
    cJSON_AddItemToArray(req, cJSON_CreateString("logs"));
    cJSON_AddItemToArray(req, cJSON_CreateString("stats"));
    return s;
}

cJSON *mcp_describe_execute_code(struct mcp_server *s, enum mcp_revision rev)
{
    const struct config_limits *l = s->cfg.limits;
    struct buf d;
    buf_init(&d, 0);
    buf_append_str(&d, contract);
    add_limits(&d, l);
    char *decls = tools_registry_declarations(s->cfg.tools, mcp_state_principal(s));
    buf_append_str(&d, "\nTools available to the program (TypeScript declarations):\n");
    buf_append_str(&d, decls);
    free(decls);

    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "name", "execute_code");
    if (mcp_has_tool_title(rev))
        cJSON_AddStringToObject(t, "title", "Execute code");
    cJSON_AddStringToObject(t, "description", d.data);
    buf_free(&d);
    cJSON_AddItemToObject(t, "inputSchema", input_schema(l));
    if (mcp_has_structured_content(rev))
        cJSON_AddItemToObject(t, "outputSchema", output_schema());
    if (mcp_has_tool_annotations(rev)) {
        cJSON *a = cJSON_AddObjectToObject(t, "annotations");
        cJSON_AddBoolToObject(a, "readOnlyHint", 0);
        cJSON_AddBoolToObject(a, "destructiveHint", 1);
        cJSON_AddBoolToObject(a, "idempotentHint", 0);
        cJSON_AddBoolToObject(a, "openWorldHint", 1);
    }
    return t;
}
