/* How the arguments of a tool call are shown to the person asked to approve
 * it (docs/policy.md, "Approvals"): keys sorted, never a silent prefix. */
#ifndef MCP_SERVER_APPROVAL_VIEW_H
#define MCP_SERVER_APPROVAL_VIEW_H

#include <cjson/cJSON.h>

/* Arguments whose canonical JSON is at most this many bytes are shown whole. */
#define MCP_APPROVAL_VIEW_WHOLE_MAX 4096

/* The arguments (NULL: none, shown as {}) as text for a person, malloc'd:
 * - their canonical JSON (keys sorted at every level, compact) when it is at
 *   most MCP_APPROVAL_VIEW_WHOLE_MAX bytes: one line;
 * - otherwise a first line with their size and the SHA-256 of their compact
 *   JSON as the program sent it (the audit log's argumentsSha256), then one
 *   line per field, keys sorted, nested objects and arrays field by field:
 *   a value whose JSON is short is shown whole, a long string as its first
 *   bytes with its size, never cut without saying so. Past a bound on the
 *   number of lines, one last line says how many fields (and bytes) were
 *   not listed.
 * In both forms the characters that can hide or reorder text on a screen
 * (C1 controls, bidirectional overrides and isolates, zero-width and line
 * separators, the BOM) are written as \uXXXX escapes, like control characters
 * (the text stays valid JSON where it is JSON). */
char *mcp_approval_view(const cJSON *args);

#endif
