/* The tools registry. With no downstream servers configured every tool name
 * is unknown, searchTools finds nothing and the declarations list only the
 * built-ins. */
#include "tools/registry.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>

struct tools_registry {
    uv_loop_t *loop;
};

struct tools_registry *tools_registry_new(uv_loop_t *loop, const struct config *config)
{
    (void) config;
    struct tools_registry *r = xcalloc(1, sizeof *r);
    r->loop = loop;
    return r;
}

void tools_registry_free(struct tools_registry *r)
{
    free(r);
}

static void reply_error(tools_reply_cb *cb, void *ud, const char *name, const char *msg)
{
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, "{\"name\":");
    buf_append_json_string(&b, name, strlen(name));
    buf_append_str(&b, ",\"message\":");
    buf_append_json_string(&b, msg, strlen(msg));
    buf_append_str(&b, "}");
    cb(ud, 0, b.data, b.len);
    buf_free(&b);
}

struct tools_call *tools_registry_call(struct tools_registry *r, const char *op, const char *name,
                                       const cJSON *args, tools_reply_cb *cb, void *ud)
{
    (void) r;
    (void) args;
    if (strcmp(op, "search") == 0) {
        cb(ud, 1, "[]", 2);
        return NULL;
    }
    struct buf m;
    buf_init(&m, 0);
    buf_printf(&m, "Unknown tool \"%.200s\": no downstream MCP servers are configured "
                   "(add them under \"mcpServers\" in the config file)",
               name);
    reply_error(cb, ud, "Error", m.data);
    buf_free(&m);
    return NULL;
}

void tools_call_cancel(struct tools_call *c)
{
    (void) c;
}

char *tools_registry_catalog(struct tools_registry *r)
{
    (void) r;
    return xstrdup("{}");
}

char *tools_registry_declarations(struct tools_registry *r)
{
    (void) r;
    return xstrdup("declare const tools: {};\n");
}
