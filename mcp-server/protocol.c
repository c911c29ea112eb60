/* Protocol revisions and negotiation. */
#include "mcp-server/protocol.h"

#include <string.h>

static const char *const names[MCP_REVISION_COUNT] = {
    "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28",
};

const char *mcp_revision_name(enum mcp_revision r)
{
    return (unsigned) r < MCP_REVISION_COUNT ? names[r] : "unknown";
}

int mcp_revision_parse(const char *name, enum mcp_revision *out)
{
    for (int i = 0; i < MCP_REVISION_COUNT; i++) {
        if (strcmp(name, names[i]) == 0) {
            *out = (enum mcp_revision) i;
            return 0;
        }
    }
    return -1;
}

enum mcp_revision mcp_negotiate_legacy(const char *requested)
{
    enum mcp_revision r;
    if (requested && mcp_revision_parse(requested, &r) == 0 && !mcp_is_modern(r))
        return r;
    return MCP_LATEST_LEGACY;
}

int mcp_is_modern(enum mcp_revision r)
{
    return r >= MCP_2026_07_28;
}

int mcp_has_structured_content(enum mcp_revision r)
{
    return r >= MCP_2025_06_18;
}

int mcp_has_tool_title(enum mcp_revision r)
{
    return r >= MCP_2025_06_18;
}

int mcp_has_tool_annotations(enum mcp_revision r)
{
    return r >= MCP_2025_03_26;
}

int mcp_has_progress_message(enum mcp_revision r)
{
    return r >= MCP_2025_03_26;
}

int mcp_allows_batches(enum mcp_revision r)
{
    return r == MCP_2025_03_26;
}

int mcp_error_id_optional(enum mcp_revision r)
{
    return r >= MCP_2025_11_25;
}
