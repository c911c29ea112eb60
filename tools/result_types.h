/* The result types learned for the downstream tools that have no
 * outputSchema (issue 27): one shape per (server, tool), learned under the
 * hash of the tool's schema (a tool whose schema changed starts over),
 * merged from every result a program received (tools/result_shape.h),
 * read from the state store at start and written back in batches. A
 * change is announced (the `changed` callback, which rebuilds the
 * declarations and sends list_changed) at most once per
 * TOOLS_RESULT_TYPES_INTERVAL_MS, the first TOOLS_RESULT_TYPES_DELAY_MS
 * after it happened, so that a burst of calls is one announcement and the
 * description a client caches changes rarely. */
#ifndef TOOLS_RESULT_TYPES_H
#define TOOLS_RESULT_TYPES_H

#include <cjson/cJSON.h>
#include <uv.h>

struct tools_state;
struct tools_result_types;

#define TOOLS_RESULT_TYPES_DELAY_MS    1000
#define TOOLS_RESULT_TYPES_INTERVAL_MS 60000
#define TOOLS_RESULT_TYPES_MAX         4096 /* tools with a learned type */

struct tools_result_types_options {
    uv_loop_t *loop;           /* NULL: nothing is announced (offline use) */
    struct tools_state *store; /* borrowed; NULL: kept in memory only */
    /* Called from the loop when a learned type changed (and was written). */
    void (*changed)(void *ud);
    void *changed_ud;
};

/* Creates the table and reads the types the store holds (when its file
 * exists; a failure is logged and the table starts empty). */
struct tools_result_types *tools_result_types_new(const struct tools_result_types_options *o);

/* Writes what changed since the last write and frees t. NULL is fine. */
void tools_result_types_free(struct tools_result_types *t);

/* The hash a tool's learned type is kept under: of its inputSchema and
 * outputSchema (the Tool object as listed). 32 hex digits, malloc'd. */
char *tools_result_types_hash(const cJSON *tool);

/* The learned type of server's tool under schema hash `hash` as a JSON
 * Schema (the caller deletes it), or NULL when none was learned. */
cJSON *tools_result_types_schema(const struct tools_result_types *t, const char *server,
                                 const char *tool, const char *hash);

/* Merges a value a program received from server's tool into its type. */
void tools_result_types_observe(struct tools_result_types *t, const char *server, const char *tool,
                                const char *hash, const cJSON *value);

/* Writes the types that changed to the store now: 0, or -1 (logged). */
int tools_result_types_flush(struct tools_result_types *t);

#endif
