/* MCP protocol revisions this server speaks, version negotiation, and the
 * per-revision facts the reply builders need (spec: the revision pages of
 * modelcontextprotocol/modelcontextprotocol; see docs/protocol.md). */
#ifndef MCP_SERVER_PROTOCOL_H
#define MCP_SERVER_PROTOCOL_H

enum mcp_revision {
    MCP_2024_11_05,
    MCP_2025_03_26,
    MCP_2025_06_18,
    MCP_2025_11_25,
    MCP_2026_07_28,
    MCP_REVISION_COUNT
};

#define MCP_LATEST_LEGACY MCP_2025_11_25
#define MCP_LATEST MCP_2026_07_28

/* "2025-06-18" etc. */
const char *mcp_revision_name(enum mcp_revision r);

/* Parses a revision name; returns 0 and stores it, or -1 when unknown. */
int mcp_revision_parse(const char *name, enum mcp_revision *out);

/* The version to answer to an initialize request that asked for `requested`
 * (the same when it is a legacy revision we support, else the latest legacy). */
enum mcp_revision mcp_negotiate_legacy(const char *requested);

/* 1 for 2026-07-28 and later (stateless, per-request _meta). */
int mcp_is_modern(enum mcp_revision r);

/* Feature checks by revision. */
int mcp_has_structured_content(enum mcp_revision r); /* >= 2025-06-18 */
int mcp_has_tool_title(enum mcp_revision r);         /* >= 2025-06-18 */
int mcp_has_tool_annotations(enum mcp_revision r);   /* >= 2025-03-26 */
int mcp_has_progress_message(enum mcp_revision r);   /* >= 2025-03-26 */
int mcp_allows_batches(enum mcp_revision r);         /* == 2025-03-26 */
int mcp_error_id_optional(enum mcp_revision r);      /* >= 2025-11-25 */

/* _meta keys of 2026-07-28. */
#define MCP_META_PROTOCOL_VERSION "io.modelcontextprotocol/protocolVersion"
#define MCP_META_CLIENT_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"
#define MCP_META_CLIENT_INFO "io.modelcontextprotocol/clientInfo"
#define MCP_META_LOG_LEVEL "io.modelcontextprotocol/logLevel"
#define MCP_META_SERVER_INFO "io.modelcontextprotocol/serverInfo"
#define MCP_META_SUBSCRIPTION_ID "io.modelcontextprotocol/subscriptionId"

/* Error codes defined by 2026-07-28. */
#define MCP_ERR_HEADER_MISMATCH -32020
#define MCP_ERR_MISSING_CAPABILITY -32021
#define MCP_ERR_UNSUPPORTED_VERSION -32022
#define MCP_ERR_RESOURCE_NOT_FOUND -32002 /* legacy revisions only */

#endif
