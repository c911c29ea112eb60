/* Saved skills as MCP tools of our own server (codemode.skills.exposeAsTools):
 * each skill is listed next to execute_code with its description and input
 * schema, and a call of one runs `return await skills.<name>(arguments)` as
 * an execute_code program: the same sandbox, limits, policy and audit. */
#include "mcp-server/server_internal.h"
#include "tools/state/service.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdlib.h>
#include <string.h>

static int exposed(const struct mcp_server *s)
{
    return s->cfg.expose_skills && tools_state_service_has_skills(s->cfg.state);
}

void mcp_skill_tools_list(struct mcp_server *s, cJSON *tools)
{
    if (!exposed(s))
        return;
    cJSON *seen = tools_state_service_skills(s->cfg.state, mcp_state_principal(s));
    const cJSON *row;
    cJSON_ArrayForEach(row, seen)
    {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddItemToObject(t, "name",
                              cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(row, "name"), 1));
        cJSON_AddItemToObject(
            t, "description",
            cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(row, "description"), 1));
        cJSON_AddItemToObject(
            t, "inputSchema",
            cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(row, "inputSchema"), 1));
        cJSON_AddItemToArray(tools, t);
    }
    cJSON_Delete(seen);
}

/* 1 when the principal of s sees a skill of that name. */
static int is_skill(const struct mcp_server *s, const char *name)
{
    cJSON *seen = tools_state_service_skills(s->cfg.state, mcp_state_principal(s));
    const cJSON *row;
    int found = 0;
    cJSON_ArrayForEach(row, seen)
    {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(row, "name")->valuestring, name) == 0)
            found = 1;
    }
    cJSON_Delete(seen);
    return found;
}

char *mcp_skill_tools_code(const struct mcp_server *s, const char *name, const cJSON *arguments)
{
    if (!exposed(s) || !is_skill(s, name))
        return NULL;
    char *args = arguments ? json_print(arguments) : xstrdup("{}");
    struct buf code;
    buf_init(&code, 0);
    buf_append_str(&code, "return await skills[");
    json_append_string(&code, name, strlen(name));
    buf_printf(&code, "](%s);", args);
    free(args);
    return buf_steal(&code);
}

int mcp_skill_tools_call(struct mcp_request *r, const char *name, const cJSON *arguments)
{
    char *code = mcp_skill_tools_code(r->server, name, arguments);
    if (code == NULL)
        return 0;
    cJSON *call = cJSON_CreateObject();
    cJSON_AddStringToObject(call, "code", code);
    free(code);
    mcp_execute(r, call);
    cJSON_Delete(call);
    return 1;
}
