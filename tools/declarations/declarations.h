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

/* Tokens of declarations the description may cost (tools_declarations_budgeted
 * when budget is 0 it means nothing fits but names; this is the default the
 * config applies). Tokens are estimated by tools_declarations_tokens. */
#define TOOLS_DECLARATIONS_BUDGET_DEFAULT 12000
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
    size_t rank;                /* budget priority: lower keeps its detail longer (ties: output order) */
    const cJSON *observed_output; /* optional: without output_schema, the type learned from
                                     results (a JSON Schema), declared as observed */
    int login_only; /* 1: stands for every tool of a server whose tools are not known until
                       an OAuth login (server and server_id set; id ""; the rest unused):
                       declared as an index signature whose doc says how to log in */
};

/* How much of one tool a text shows. The description starts every tool at
 * DOCS and reduces them one step at a time, lowest priority first, until the
 * text fits its budget; FULL is the whole text (types --full, describeTool,
 * the resources). */
enum tools_decl_level {
    TOOLS_DECL_FULL,      /* every word of the descriptions and schema docs */
    TOOLS_DECL_DOCS,      /* first sentence of a long description, argument docs cut to a
                             few words, no examples or long tags */
    TOOLS_DECL_SUMMARY,   /* the signature and the first sentence of the description */
    TOOLS_DECL_SIGNATURE, /* argument names, types, required/optional, enums; the result type */
    TOOLS_DECL_NAME,      /* the name alone, loosely typed (describeTool gives the rest) */
};
#define TOOLS_DECL_LEVELS 5

/* What tools_declarations_budgeted wrote: its size and each tool's level. */
struct tools_decl_report {
    size_t bytes, tokens; /* of the text written (tokens: tools_declarations_tokens) */
    size_t budget;        /* tokens it had to fit */
    size_t per_level[TOOLS_DECL_LEVELS]; /* tools at each level */
    unsigned char *levels; /* malloc'd, one enum tools_decl_level per tool index; the
                              caller frees it (tools whose id repeats: TOOLS_DECL_NAME) */
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

/* The full text when it is at most `budget` bytes (0 = 32 KiB), else the
 * index. Returns 0 (full), 1 (index), or -ENOSPC as above. */
int tools_declarations_for_budget(const struct tools_decl_tool *tools, size_t count, size_t budget,
                                  struct buf *out);

/* What the model reads: the runtime globals and every tool at the most
 * detail that lets the whole text fit `budget` tokens. Every tool starts at
 * TOOLS_DECL_DOCS; while the text is over budget, tools are reduced one level
 * at a time in reverse priority order (highest rank first, then last in
 * output order first): all of them to SUMMARY before any goes to SIGNATURE,
 * all to SIGNATURE before any goes to NAME. When even names alone do not
 * fit, names alone are written. `report` (may be NULL) gets the sizes and
 * levels. Returns the number of tools reduced below DOCS, or -ENOSPC. */
int tools_declarations_budgeted(const struct tools_decl_tool *tools, size_t count, size_t budget,
                                struct buf *out, struct tools_decl_report *report);

/* The same text with the levels given (one per tool index; NULL: all FULL,
 * which is tools_declarations_full). */
int tools_declarations_at(const struct tools_decl_tool *tools, size_t count,
                          const unsigned char *levels, struct buf *out);

/* The token estimate every budget uses: one token per 4 bytes of UTF-8,
 * rounded up (docs/config.md gives its measured error against o200k_base). */
size_t tools_declarations_tokens(size_t bytes);

/* The name of a level as check and the log print it ("docs", "summary", ...). */
const char *tools_declarations_level_name(enum tools_decl_level level);

/* One-line summary: the first sentence of `description` (or `title` when the
 * description is NULL or blank), whitespace collapsed, cut at a word
 * boundary to at most `max` bytes (valid UTF-8, "..." appended when cut).
 * max 0 means TOOLS_DECLARATIONS_SUMMARY_MAX. Returns a malloc'd string,
 * possibly empty; never NULL. */
char *tools_declarations_summary(const char *description, const char *title, size_t max);

#endif
