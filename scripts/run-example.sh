#!/bin/sh
# `make run`: the maze demo. mcp-codemode starts the example maze server
# (examples/maze/maze_server.c) as a downstream MCP server, then runs
# examples/maze/solve.js through its own execute_code path: one program, a
# hundred and more tool calls, console lines on stderr, the result on stdout.
set -eu
cd "$(dirname "$0")/.."
bin=${1:-build/mcp-codemode}
echo "== mcp-codemode run examples/maze/solve.js --config examples/config.json" >&2
"$bin" run examples/maze/solve.js --config examples/config.json
