#!/bin/sh
# `make run`: runs the example program through the server's own execution
# path (mcp-codemode run) and prints its console output and result.
set -eu
cd "$(dirname "$0")/.."
bin=${1:-build/mcp-codemode}
echo "== mcp-codemode run examples/hello.js" >&2
"$bin" run examples/hello.js --config examples/config.json
