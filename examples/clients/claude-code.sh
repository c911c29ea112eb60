#!/bin/sh
# Claude Code: register mcp-codemode as a stdio MCP server for the current
# project (or use --scope user for every project).
claude mcp add codemode -- /usr/local/bin/mcp-codemode --config "$HOME/.config/mcp-codemode/servers.json"
