#!/bin/sh
# Runs the test suites against the build in directory B (build or build-san).
# Usage: run-tests.sh B [unit|e2e|programs|conformance|fuzz]...  (no suite named: all of them)
set -eu
cd "$(dirname "$0")/.."
B=$1
shift
suites=${*:-unit e2e programs conformance fuzz}
export MCP_CODEMODE_BIN="$PWD/$B/mcp-codemode"
fail=0
for s in $suites; do
    case $s in
    unit)
        for t in "$B"/tests/test_*; do
            [ -x "$t" ] || continue
            echo "== unit: $(basename "$t")"
            "$t" || fail=1
        done
        ;;
    e2e)
        if ls tests/e2e/*.test.mjs >/dev/null 2>&1; then
            echo "== e2e"
            node --test --test-concurrency=2 tests/e2e/*.test.mjs || fail=1
            # the state, skills, stash and learned-types suites again on PostgreSQL (codemode.store),
            # on a throwaway cluster (tests/lib/pg_cluster.sh), when the server binaries
            # are there (the OAuth rows' unit test runs on both backends by itself)
            if sh tests/lib/pg_cluster.sh available; then
                echo "== e2e on PostgreSQL (state, skills, stash, result types)"
                MCP_CODEMODE_TEST_STORE=postgres node --test --test-concurrency=2 \
                    tests/e2e/state.test.mjs tests/e2e/skills.test.mjs \
                    tests/e2e/skills-errors.test.mjs tests/e2e/skills-maze.test.mjs \
                    tests/e2e/content.test.mjs tests/e2e/result-types.test.mjs || fail=1
            else
                echo "== e2e on PostgreSQL: skipped (no initdb/pg_ctl; scripts/setup.sh installs postgresql)"
            fi
        fi
        ;;
    programs)
        if [ -f tests/programs/run.mjs ]; then
            echo "== programs"
            node tests/programs/run.mjs || fail=1
        fi
        ;;
    conformance)
        echo "== conformance (official MCP conformance suite, tests/conformance/run.mjs)"
        node tests/conformance/run.mjs || fail=1
        echo "== conformance: client authorization (tests/conformance/auth.mjs)"
        node tests/conformance/auth.mjs || fail=1
        ;;
    fuzz)
        # every libFuzzer target over its corpus and regressions, plus a few
        # seconds of fuzzing (build-fuzz/, clang; skipped with a reason without it)
        sh scripts/run-fuzz.sh ci || fail=1
        ;;
    *) echo "run-tests: unknown suite $s" >&2; exit 2 ;;
    esac
done
exit $fail
