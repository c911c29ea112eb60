/* What a program sees of a downstream tools/call (ARCHITECTURE.md section 4):
 * structuredContent when present (checked against the outputSchema), else
 * one text item parsed as JSON, else that text, else the content array;
 * isError results become ToolError. Also shapes ToolArgumentError from
 * schema violations. Output is JSON text for the worker's settle. */
#ifndef TOOLS_RESULT_MAP_H
#define TOOLS_RESULT_MAP_H

#include <cjson/cJSON.h>

struct buf;
struct tools_catalog_tool;
struct tools_schema_result;

/* Appends to out the JSON of the program's value (returns 1), or of an error
 * {"name","message","tool",...} (returns 0). `result` is the downstream
 * CallToolResult, borrowed. */
int tools_result_map(const struct tools_catalog_tool *t, const cJSON *result, struct buf *out);

/* The same, calling seen (when not NULL) with the value the program
 * receives, before it is written (not for errors). */
typedef void tools_result_seen_cb(void *ud, const cJSON *value);
int tools_result_map_seen(const struct tools_catalog_tool *t, const cJSON *result, struct buf *out,
                          tools_result_seen_cb *seen, void *ud);

/* Appends the JSON of a ToolArgumentError for tool t from its violations. */
void tools_result_argument_error(const struct tools_catalog_tool *t,
                                 const struct tools_schema_result *r, struct buf *out);

/* Appends the JSON of an error {"name": name, "message": message, "tool"?}. */
void tools_result_error(const char *name, const char *message, const char *tool, struct buf *out);

#endif
