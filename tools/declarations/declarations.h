/* TypeScript declarations of the downstream tools, generated from their
 * inputSchema/outputSchema: the typed DSL a model reads in the execute_code
 * description (ARCHITECTURE.md section 5). Also a compact index for large
 * catalogs, one server's or one tool's declaration (describeTool), and the
 * one-line summaries searchTools returns. Output is deterministic (servers
 * and tools sorted by sanitised id) and valid under `tsc --strict`. */
#ifndef TOOLS_DECLARATIONS_H
#define TOOLS_DECLARATIONS_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct buf;

/* Full declarations past this many bytes: the caller should send the index. */
#define TOOLS_DECLARATIONS_BUDGET_DEFAULT (32 * 1024)
/* Bytes of a summary (first sentence of the description), "..." included. */
#define TOOLS_DECLARATIONS_SUMMARY_MAX 100

/* One downstream tool as the generator sees it. Everything is borrowed for
 * the duration of a call. The ids are the sanitised names the program uses
 * (tools/names.h: tools_names_assign over the servers, and over each
 * server's tools); they must be unique per (server_id, id). */
struct tools_decl_tool {
    const char *server;         /* original server name (config key) */
    const char *server_id;      /* sanitised: tools.<server_id> */
    const char *name;           /* original tool name */
    const char *id;             /* sanitised: tools.<server_id>.<id> */
    const char *title;          /* optional, may be NULL */
    const char *description;    /* optional, may be NULL */
    const cJSON *input_schema;  /* NULL means any object */
    const cJSON *output_schema; /* optional: NULL types the result unknown */
    const char *policy_note;    /* optional JSDoc line (the tool needs approval), or NULL */
};

/* All functions below append to `out` and return 0, or -ENOSPC when `out`'s
 * limit would be exceeded (out is then left exactly as it was). Input is
 * never modified. Schemas may be anything: unsupported or broken parts
 * degrade to `unknown`, recursion ends in named type aliases, never in
 * unbounded output. Allocation failure aborts (xmalloc). Tools whose
 * (server_id, id) repeat an earlier one in sorted order are skipped. */

/* The complete .d.ts: the runtime globals (tools_declarations_runtime), the
 * `Types` namespace of named schema types, and `declare const tools`. */
int tools_declarations_full(const struct tools_decl_tool *tools, size_t count, struct buf *out);

/* The runtime globals alone: ToolError, ToolArgumentError, callTool,
 * searchTools, describeTool, sleep, setTimeout, clearTimeout, console. */
int tools_declarations_runtime(struct buf *out);

/* Standalone declarations of the tools whose server_id equals `server_id`
 * (type aliases they use plus `declare const tools: { <server>: ... }`),
 * without the runtime globals. Alias names match those of the full text.
 * Returns -ENOENT when no tool has that server_id. */
int tools_declarations_server(const struct tools_decl_tool *tools, size_t count,
                              const char *server_id, struct buf *out);

/* Standalone declaration of tools[index] alone (for describeTool), in the
 * same shape as tools_declarations_server (when tools[index] repeats an id,
 * the tool kept for that id). Returns -EINVAL when index >= count. The
 * whole list is needed so alias names match the full text. */
int tools_declarations_tool(const struct tools_decl_tool *tools, size_t count, size_t index,
                            struct buf *out);

/* The compact alternative to the full text: the runtime globals, a loosely
 * typed `declare const tools`, and one comment line per tool
 * "// <server_id>.<id> - <summary>", sorted like the full text. Valid TS. */
int tools_declarations_index(const struct tools_decl_tool *tools, size_t count, struct buf *out);

/* The full text when it is at most `budget` bytes (0 = the default budget),
 * else the index. Returns 0 (full), 1 (index), or -ENOSPC as above. */
int tools_declarations_for_budget(const struct tools_decl_tool *tools, size_t count, size_t budget,
                                  struct buf *out);

/* One-line summary: the first sentence of `description` (or `title` when the
 * description is NULL or blank), whitespace collapsed, cut at a word
 * boundary to at most `max` bytes (valid UTF-8, "..." appended when cut).
 * max 0 means TOOLS_DECLARATIONS_SUMMARY_MAX. Returns a malloc'd string,
 * possibly empty; never NULL. */
char *tools_declarations_summary(const char *description, const char *title, size_t max);

#endif
