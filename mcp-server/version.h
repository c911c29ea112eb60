/* The product's name and version, as reported to clients and by --version. */
#ifndef MCP_SERVER_VERSION_H
#define MCP_SERVER_VERSION_H

#define MCP_CODEMODE_NAME "mcp-codemode"
#define MCP_CODEMODE_VERSION "0.1.0"

#endif
