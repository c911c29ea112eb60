/* The host's view of downstream tools: answers the host calls a program makes
 * (tool calls, searchTools, describeTool), provides the catalog of callable
 * names for workers and the declarations for the execute_code description,
 * and reports when they change. */
#ifndef TOOLS_REGISTRY_H
#define TOOLS_REGISTRY_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <uv.h>

struct tools_registry;
struct tools_call;
struct config;

/* The answer to a host call: ok with the JSON text of the value, or failed
 * with the JSON text of {"name","message",...} (ToolError, ToolArgumentError,
 * Error). The text is valid during the callback. */
typedef void tools_reply_cb(void *ud, int ok, const char *json, size_t len);

/* Creates the registry for the configured downstream servers (config may be
 * NULL: no servers). */
struct tools_registry *tools_registry_new(uv_loop_t *loop, const struct config *config);
void tools_registry_free(struct tools_registry *r);

/* Starts a host call; op is "tool", "search" or "describe", name the text
 * the program gave, args borrowed. cb runs exactly once, unless the call is
 * cancelled first; it may run before this function returns, which then
 * returns NULL. Otherwise the handle cancels it (tools_call_cancel). */
struct tools_call *tools_registry_call(struct tools_registry *r, const char *op, const char *name,
                                       const cJSON *args, tools_reply_cb *cb, void *ud);
void tools_call_cancel(struct tools_call *c);

/* The catalog for workers: {"jsServer":{"name":"server","tools":{"jsTool":"tool"}}},
 * malloc'd. */
char *tools_registry_catalog(struct tools_registry *r);

/* TypeScript declarations of what programs can call, for the execute_code
 * description, malloc'd. */
char *tools_registry_declarations(struct tools_registry *r);

#endif
