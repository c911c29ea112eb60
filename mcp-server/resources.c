/* MCP resources: the TypeScript declarations of what programs can call,
 * readable as codemode://declarations.d.ts, and those of each server as
 * codemode://servers/<id>.d.ts; stashed results (codemode://stash/<id>,
 * stash_link.c) are readable by their principal but not listed. */
#include "mcp-server/server_internal.h"
#include "mcp-server/stash.h"
#include "mcp-server/execute/stash_link.h"
#include "tools/registry.h"
#include "transport/jsonrpc.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>

#define DECLS_URI     "codemode://declarations.d.ts"
#define SERVER_PREFIX "codemode://servers/"
#define SERVER_SUFFIX ".d.ts"

static void add_cache_hints(struct mcp_request *r, cJSON *res)
{
    if (mcp_is_modern(r->rev)) {
        cJSON_AddNumberToObject(res, "ttlMs", 60000);
        cJSON_AddStringToObject(res, "cacheScope", "private");
    }
}

static cJSON *resource(struct mcp_request *r, const char *uri, const char *name, const char *title,
                       const char *description)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "uri", uri);
    cJSON_AddStringToObject(d, "name", name);
    if (mcp_has_tool_title(r->rev))
        cJSON_AddStringToObject(d, "title", title);
    cJSON_AddStringToObject(d, "description", description);
    cJSON_AddStringToObject(d, "mimeType", "application/typescript");
    return d;
}

void mcp_resources_list(struct mcp_request *r)
{
    cJSON *res = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(res, "resources");
    cJSON_AddItemToArray(list, resource(r, DECLS_URI, "declarations.d.ts",
                                        "TypeScript declarations of the callable tools",
                                        "What programs run by execute_code can call: "
                                        "tools.<server>.<tool>, callTool, console, sleep, "
                                        "searchTools, describeTool"));
    char **ids, **names;
    size_t n = tools_registry_servers(r->server->cfg.tools, &ids, &names);
    for (size_t i = 0; i < n; i++) {
        struct buf uri, name, title;
        buf_init(&uri, 0);
        buf_init(&name, 0);
        buf_init(&title, 0);
        buf_printf(&uri, SERVER_PREFIX "%s" SERVER_SUFFIX, ids[i]);
        buf_printf(&name, "%s.d.ts", ids[i]);
        buf_printf(&title, "TypeScript declarations of the tools of server \"%s\"", names[i]);
        cJSON_AddItemToArray(list, resource(r, uri.data, name.data, title.data, title.data));
        buf_free(&uri);
        buf_free(&name);
        buf_free(&title);
    }
    tools_registry_free_names(ids, n);
    tools_registry_free_names(names, n);
    add_cache_hints(r, res);
    mcp_request_result(r, res);
}

/* The text behind a resource URI, or NULL. */
static char *resource_text(struct mcp_request *r, const char *uri)
{
    if (strcmp(uri, DECLS_URI) == 0)
        return tools_registry_declarations_full(r->server->cfg.tools,
                                                mcp_state_principal(r->server));
    size_t plen = strlen(SERVER_PREFIX), slen = strlen(SERVER_SUFFIX), n = strlen(uri);
    if (n <= plen + slen || strncmp(uri, SERVER_PREFIX, plen) != 0 ||
        strcmp(uri + n - slen, SERVER_SUFFIX) != 0)
        return NULL;
    char *id = xstrndup(uri + plen, n - plen - slen);
    char *text = tools_registry_declarations_server(r->server->cfg.tools, id);
    free(id);
    return text;
}

static void not_found(struct mcp_request *r, const char *uri)
{
    cJSON *data = cJSON_CreateObject();
    cJSON_AddStringToObject(data, "uri", uri);
    mcp_request_error(r, mcp_is_modern(r->rev) ? RPC_INVALID_PARAMS : MCP_ERR_RESOURCE_NOT_FOUND,
                      "Resource not found", data);
    cJSON_Delete(data);
}

/* Answers with one contents entry (consumed) and the cache hints (private:
 * a stash entry is one principal's, and it never changes). */
static void reply_contents(struct mcp_request *r, cJSON *c)
{
    cJSON *res = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(res, "contents"), c);
    add_cache_hints(r, res);
    mcp_request_result(r, res);
}

/* A stash entry's contents (taken over), or NULL: not found. */
static void stash_fetched(struct mcp_request *r, const char *uri, cJSON *contents)
{
    if (contents == NULL)
        not_found(r, uri);
    else
        reply_contents(r, contents);
}

void mcp_resources_read(struct mcp_request *r, const cJSON *params)
{
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(params, "uri");
    if (!cJSON_IsString(uri)) {
        mcp_request_error(r, RPC_INVALID_PARAMS,
                          "resources/read: params.uri (a string) is required", NULL);
        return;
    }
    if (strncmp(uri->valuestring, MCP_STASH_PREFIX, strlen(MCP_STASH_PREFIX)) == 0) {
        cJSON *c = mcp_stash_link_contents(r, uri->valuestring);
        if (c == NULL && mcp_stash_link_fetch(r, uri->valuestring, stash_fetched))
            return; /* another instance's, maybe (PostgreSQL) */
        stash_fetched(r, uri->valuestring, c);
        return;
    }
    char *text = resource_text(r, uri->valuestring);
    if (text == NULL) {
        not_found(r, uri->valuestring);
        return;
    }
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "uri", uri->valuestring);
    cJSON_AddStringToObject(c, "mimeType", "application/typescript");
    cJSON_AddStringToObject(c, "text", text);
    free(text);
    reply_contents(r, c);
}
