/* The catalog: an immutable snapshot of every callable downstream tool,
 * built from the servers' tool lists and the config's policy. It holds the
 * sanitised names programs use, the compiled input/output schemas the host
 * validates with, and produces what workers and models read (the worker
 * catalog, declarations, search results, one tool's declaration).
 * Rebuilt whenever a server's tool list changes. */
#ifndef TOOLS_CATALOG_H
#define TOOLS_CATALOG_H

#include "tools/policy/policy.h"

#include <cjson/cJSON.h>
#include <stddef.h>

struct tools_catalog;
struct tools_result_types;
struct tools_schema;
struct tools_server_config;

/* One server's contribution. */
struct tools_catalog_server {
    const char *name;                  /* config key */
    const struct tools_server_config *policy; /* allowTools/denyTools; may be NULL */
    const cJSON *tools;                /* array of Tool objects as the server listed them; may be NULL */
    int supports_tasks;                /* 1 when taskSupport "required" tools can be called */
    const cJSON *excluded;             /* [{"name","reason"}] left out upstream; may be NULL */
    const char *unavailable;           /* why the server has no tools now (down, unsupported), or NULL */
    const struct tools_policy *rules;  /* codemode.policy; NULL: the defaults */
    char *const *preferred;            /* codemode.declarations.preferred patterns
                                          (NULL-terminated), or NULL */
    const struct tools_result_types *learned; /* types learned from results (tools
                                          without outputSchema), or NULL: not learned */
    /* 1: no tool list until an OAuth login, which a call can start: declared
     * as any tool name, and tools_catalog_login_server finds it */
    int login_only;
};

struct tools_catalog_tool {
    const char *server;      /* original server name */
    const char *server_id;   /* sanitised */
    const char *name;        /* original tool name */
    const char *id;          /* sanitised, unique within the server */
    const cJSON *tool;       /* the Tool object (owned by the catalog) */
    struct tools_schema *input;   /* compiled inputSchema; NULL when absent or unusable */
    struct tools_schema *output;  /* compiled outputSchema; NULL when absent or unusable */
    const char *input_problem;    /* why `input` is NULL although a schema was given, or NULL */
    size_t server_index;     /* position of its server in the build input */
    enum tools_policy_decision decision; /* allow, ask or deny */
    const char *decision_source;  /* what decided it (tools_policy_decide's source) */
    const char *allow_advice;     /* ask: the rule that lets it through unattended
                                     (tools_policy_allow_advice); else NULL */
    const char *required_scope;   /* the OAuth scope the deciding rule requires (without it
                                     the decision is deny), or NULL */
    int read_only;           /* annotations.readOnlyHint is true, or readOnlyTools says so */
    const char *schema_hash; /* results are learned under this hash (tools/result_types.h):
                                the tool has no outputSchema and learning is on; else NULL */
};

/* Builds a catalog (copies what it needs) holding one reference. Tools
 * filtered out by allowTools/denyTools are left out; tools whose policy
 * decision is deny stay resolvable (so a call gets ToolPolicyError) but are
 * left out of the worker catalog, declarations, search and describe, and
 * listed as not callable; tools that can only run as tasks are left
 * out when the server does not support tasks, and listed in the
 * declarations as unavailable. */
struct tools_catalog *tools_catalog_build(const struct tools_catalog_server *servers, size_t n,
                                          size_t budget);

/* Reference counting: a call in flight keeps the snapshot it resolved
 * against alive while the registry moves on to a newer one. */
struct tools_catalog *tools_catalog_retain(struct tools_catalog *c);
void tools_catalog_release(struct tools_catalog *c);

size_t tools_catalog_count(const struct tools_catalog *c);
const struct tools_catalog_tool *tools_catalog_at(const struct tools_catalog *c, size_t i);

/* Resolves "server.tool" (original or sanitised names; the server is the
 * text before the first dot). Returns the tool, or NULL with *why set to a
 * malloc'd message naming the nearest names ("Unknown tool ... Did you mean:
 * ...?") or saying a configured server is not available. */
const struct tools_catalog_tool *tools_catalog_resolve(const struct tools_catalog *c,
                                                       const char *qualified, char **why);

/* The build index of the server of "server.tool" (original or sanitised
 * names) when it was built login_only (its tools are not known until a
 * login), else -1. */
long tools_catalog_login_server(const struct tools_catalog *c, const char *qualified);

/* 1 when `server` (original name) has tools in the catalog or was part of the build. */
int tools_catalog_has_server(const struct tools_catalog *c, const char *server);

/* Why the server named (original or sanitised) by the first len bytes of
 * `server` has no tools, or NULL. */
const char *tools_catalog_server_problem(const struct tools_catalog *c, const char *server,
                                         size_t len);

/* {"jsServer":{"name":"server","problem":"why it has no tools","tools":{"jsTool":"tool"},
 * "hidden":{"jsTool":"tool"},"login":true}} for workers ("login": a login_only
 * server, any name of which is a call for the host): "tools" the tools that are not
 * denied and, when grant is not NULL, that one of its patterns matches;
 * "hidden" (only when there are some) the others, which programs can still
 * call (not enumerate), so that the host's gate says why the call is refused;
 * "problem" only for a server that has one, and only with_problems. malloc'd. */
char *tools_catalog_worker_json(const struct tools_catalog *c, char *const *grant,
                                int with_problems);

/* Declarations for the execute_code description: every tool at the most
 * detail that fits the build's `budget` (tokens; tools_declarations_budgeted),
 * then the tools that are not callable. Identical for identical tools.
 * malloc'd. */
char *tools_catalog_declarations(const struct tools_catalog *c);

/* Appends what those declarations cost and which tools were reduced, and
 * how: "declarations: N tools, about T tokens (budget B), R reduced: ..."
 * then one line per reduced level naming its tools (at most 8 each when
 * `brief`). */
struct buf;
void tools_catalog_declarations_report(const struct tools_catalog *c, struct buf *b, int brief);

/* The full declarations (resources, `mcp-codemode types`), or those of one
 * server (server_id, sanitised), or NULL when it has no tools. malloc'd. */
char *tools_catalog_declarations_full(const struct tools_catalog *c);
char *tools_catalog_declarations_server(const struct tools_catalog *c, const char *server_id);

/* The servers of the build: count, and each one's original name and id. */
size_t tools_catalog_server_count(const struct tools_catalog *c);
const char *tools_catalog_server_name(const struct tools_catalog *c, size_t i);
const char *tools_catalog_server_id(const struct tools_catalog *c, size_t i);

/* JSON text of searchTools(query): [{"name":"server.tool","summary":"..."}],
 * best matches first, at most `limit`. Only tools that are not denied and,
 * when grant is not NULL, that one of its patterns matches. malloc'd. */
char *tools_catalog_search(const struct tools_catalog *c, const char *query, size_t limit,
                           char *const *grant);

/* The policy names of a tool (for tools_policy_granted and friends). */
struct tools_policy_names tools_catalog_policy_names(const struct tools_catalog_tool *t);

/* The declaration of one tool (describeTool), or NULL (also for a denied
 * tool). malloc'd. */
char *tools_catalog_describe(const struct tools_catalog *c, const struct tools_catalog_tool *t);

#endif
