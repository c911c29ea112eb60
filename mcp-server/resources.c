/* MCP resources: the TypeScript declarations of what programs can call,
 * readable as codemode://declarations.d.ts. */
#include "mcp-server/server_internal.h"
#include "tools/registry.h"
#include "transport/jsonrpc.h"

#include <stdlib.h>
#include <string.h>

#define DECLS_URI "codemode://declarations.d.ts"

static void add_cache_hints(struct mcp_request *r, cJSON *res)
{
    if (mcp_is_modern(r->rev)) {
        cJSON_AddNumberToObject(res, "ttlMs", 60000);
        cJSON_AddStringToObject(res, "cacheScope", "private");
    }
}

void mcp_resources_list(struct mcp_request *r)
{
    cJSON *res = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(res, "resources");
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "uri", DECLS_URI);
    cJSON_AddStringToObject(d, "name", "declarations.d.ts");
    if (mcp_has_tool_title(r->rev))
        cJSON_AddStringToObject(d, "title", "TypeScript declarations of the callable tools");
    cJSON_AddStringToObject(d, "description",
                            "What programs run by execute_code can call: tools.<server>.<tool>, "
                            "callTool, console, sleep, searchTools, describeTool");
    cJSON_AddStringToObject(d, "mimeType", "application/typescript");
    cJSON_AddItemToArray(list, d);
    add_cache_hints(r, res);
    mcp_request_result(r, res);
    cJSON_Delete(res);
}

void mcp_resources_read(struct mcp_request *r, const cJSON *params)
{
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(params, "uri");
    if (!cJSON_IsString(uri)) {
        mcp_request_error(r, RPC_INVALID_PARAMS, "resources/read: params.uri (a string) is required",
                          NULL);
        return;
    }
    if (strcmp(uri->valuestring, DECLS_URI) != 0) {
        cJSON *data = cJSON_CreateObject();
        cJSON_AddStringToObject(data, "uri", uri->valuestring);
        mcp_request_error(r, mcp_is_modern(r->rev) ? RPC_INVALID_PARAMS : MCP_ERR_RESOURCE_NOT_FOUND,
                          "Resource not found", data);
        cJSON_Delete(data);
        return;
    }
    char *text = tools_registry_declarations(r->server->cfg.tools);
    cJSON *res = cJSON_CreateObject();
    cJSON *contents = cJSON_AddArrayToObject(res, "contents");
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "uri", DECLS_URI);
    cJSON_AddStringToObject(c, "mimeType", "application/typescript");
    cJSON_AddStringToObject(c, "text", text);
    cJSON_AddItemToArray(contents, c);
    free(text);
    add_cache_hints(r, res);
    mcp_request_result(r, res);
    cJSON_Delete(res);
}
