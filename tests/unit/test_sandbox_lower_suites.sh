#!/bin/sh
# The lowering pass's suites (tests/lower/README.md): builds the drivers for
# this build, runs the differential cases (tests/lower/cases, recorded from
# Node), and, when TEST262_DIR names a test262 checkout (harness/ and
# test/language/), the test262 directories that matter for lowering, failing
# when a directory passes fewer tests than tests/lower/test262-floor.json
# records. test262 is not vendored: without TEST262_DIR it says it is skipped.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
# run-tests.sh exports the binary of the build under test (build/ or build-san/)
B=$(basename "$(dirname "${MCP_CODEMODE_BIN:-$root/build/mcp-codemode}")")
fail=0
echo "== lower: building the drivers in $B/lower"
sh tests/lower/build.sh "$B" || exit 1
node tests/lower/run.mjs "$B" || fail=1
if [ -z "${TEST262_DIR:-}" ]; then
    echo "test262: skipped: set TEST262_DIR to a tc39/test262 checkout (harness/, test/language/)"
elif [ "$B" = build-san ]; then
    echo "test262: skipped under the sanitizers (run it against build/)"
else
    LOWER_RUNJS="$root/$B/lower/runjs" node tests/lower/test262.mjs "$TEST262_DIR" -j 2 \
        --floor tests/lower/test262-floor.json || fail=1
fi
exit $fail
