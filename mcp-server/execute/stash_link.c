/* execute_code and the stash (see stash_link.h): the link blocks, the
 * content.stash host call, and the resources/read side. */
#include "mcp-server/execute/stash_link.h"
#include "mcp-server/config/config.h"
#include "mcp-server/execute/content.h"
#include "mcp-server/execute/internal.h"
#include "mcp-server/stash.h"
#include "tools/result_map.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdlib.h>
#include <string.h>

#define WHOLE_NAME "whole-result.json"
#define WHOLE_NOTE "the whole result of an execute_code run"

static int put(struct mcp_request *r, const char *mime, int blob, const char *data, size_t len,
               char uri[MCP_STASH_URI_MAX])
{
    struct mcp_stash *s = r->server->cfg.stash;
    if (s == NULL)
        return -1;
    return mcp_stash_put(s, r->server->worker_principal, mime, blob, data, len,
                         uv_now(r->server->cfg.loop), uri);
}

cJSON *mcp_stash_link_adopt(struct mcp_request *r, char *text, size_t len, char *uri)
{
    struct mcp_stash *s = r->server->cfg.stash;
    if (s == NULL) {
        free(text);
        return NULL;
    }
    if (mcp_stash_adopt(s, r->server->worker_principal, "application/json", 0, text, len,
                        uv_now(r->server->cfg.loop), uri) != 0)
        return NULL;
    return mcp_content_link(r->rev, uri, WHOLE_NAME, "application/json", (double) len, WHOLE_NOTE);
}

cJSON *mcp_stash_link_keep(struct mcp_request *r, const char *text, size_t len, char *uri)
{
    if (put(r, "application/json", 0, text, len, uri) != 0)
        return NULL;
    return mcp_content_link(r->rev, uri, WHOLE_NAME, "application/json", (double) len, WHOLE_NOTE);
}

int mcp_stash_link_call(struct mcp_request *r, const cJSON *value, struct buf *out)
{
    const char *mime;
    int blob;
    char *owned, uri[MCP_STASH_URI_MAX];
    const char *data = mcp_content_stash_form(value, &mime, &blob, &owned);
    size_t len = strlen(data);
    const struct config_limits *l = r->server->cfg.limits;
    int ok = put(r, mime, blob, data, len, uri) == 0;
    if (ok) {
        cJSON *link = mcp_content_link(MCP_LATEST, uri, "stashed value", mime,
                                       blob ? (double) (len / 4 * 3) : (double) len, NULL);
        char *text = json_print(link);
        buf_append_str(out, text);
        free(text);
        cJSON_Delete(link);
    } else {
        struct buf msg;
        buf_init(&msg, 0);
        if (r->server->cfg.stash == NULL || l->stash_max_entries == 0)
            buf_append_str(&msg,
                           "content.stash: the stash is off (codemode.stash.maxEntries is 0)");
        else
            buf_printf(&msg,
                       "content.stash: the value is %zu bytes, over the stash's limit of %llu "
                       "bytes (codemode.stash.maxBytes)",
                       len, (unsigned long long) l->stash_max_bytes);
        tools_result_error("Error", msg.data, NULL, out);
        buf_free(&msg);
    }
    free(owned);
    return ok;
}

cJSON *mcp_stash_link_contents(struct mcp_request *r, const char *uri)
{
    struct mcp_stash *s = r->server->cfg.stash;
    size_t len;
    const char *mime;
    int blob;
    const char *data = s ? mcp_stash_get(s, r->server->worker_principal, uri,
                                         uv_now(r->server->cfg.loop), &len, &mime, &blob)
                         : NULL;
    if (data == NULL)
        return NULL;
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "uri", uri);
    cJSON_AddStringToObject(c, "mimeType", mime);
    cJSON_AddStringToObject(c, blob ? "blob" : "text", data);
    return c;
}
