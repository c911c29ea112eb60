#!/bin/sh
# Runs every benchmark against the build in directory B and prints each one's
# report: tests/bench/bench_*.mjs (Node, pinned npm modules) and any built C
# benchmark binaries B/bench/bench_*. Builds the C helpers they need: the
# stdio client, the machine probe, the proxy benchmark's echo server and
# direct client, and the engine benchmark (linked against B's library).
# Usage: run-bench.sh [B]   (B defaults to build)
# Env: BENCH_OUT=FILE       raw numbers as JSON (passed to each benchmark as is)
#      BENCH_OUT_DIR=DIR    instead, each benchmark writes DIR/NAME.json
#      BENCH_QUICK=1 and the other knobs in tests/bench/bench_stdio.mjs
# Exit status: 0 unless a benchmark found something broken (a failed call, a
# dead server). Slow numbers never fail: this is a benchmark, not a test.
set -eu
cd "$(dirname "$0")/.."
B=${1:-build}
export MCP_CODEMODE_BIN="$PWD/$B/mcp-codemode"
if [ ! -x "$MCP_CODEMODE_BIN" ]; then
    echo "run-bench: $MCP_CODEMODE_BIN is missing: run make first" >&2
    exit 2
fi
if [ ! -d tests/node_modules/@modelcontextprotocol/sdk ]; then
    echo "run-bench: the pinned npm modules are missing: run 'make npm-deps' (or cd tests && npm ci)" >&2
    exit 2
fi

mkdir -p "$B/bench"
CWARN="-std=c11 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
# Builds tests/bench/NAME.c into B/bench/NAME when missing or older than its
# source (or, with a third argument, than that file too); the rest are flags.
build_c() {
    name=$1
    dep=$2
    shift 2
    out="$B/bench/$name"
    if [ ! -x "$out" ] || [ "tests/bench/$name.c" -nt "$out" ] || [ "$dep" -nt "$out" ]; then
        ${CC:-cc} $CWARN -o "$out" "tests/bench/$name.c" "$@"
    fi
}
build_c stdio_client /dev/null
build_c direct_client /dev/null
build_c machine_probe /dev/null
build_c echo_server /dev/null $(pkg-config --cflags --libs libcjson 2>/dev/null || echo -lcjson)
# The engine's share of a call, in-process: links the library of this build.
SAN=""
[ "$B" = build-san ] && SAN="-fsanitize=address,undefined -fno-omit-frame-pointer"
build_c bench_engine_calls "$B/libmcpcodemode.a" -g -I. -I"$B/duk" -D_GNU_SOURCE $SAN \
    "$B/duk/duktape.o" "$B/libmcpcodemode.a" \
    $(pkg-config --libs libuv libcjson libseccomp 2>/dev/null || echo -luv -lcjson -lseccomp) -ldl -lm -lpthread
build_c bench_policy_check "$B/libmcpcodemode.a" -g -I. -D_GNU_SOURCE $SAN "$B/libmcpcodemode.a" \
    $(pkg-config --libs libuv libcjson 2>/dev/null || echo -luv -lcjson) -lm
build_c bench_result_shape "$B/libmcpcodemode.a" -g -I. -D_GNU_SOURCE $SAN "$B/libmcpcodemode.a" \
    $(pkg-config --libs libuv libcjson 2>/dev/null || echo -luv -lcjson) -ldl -lm -lpthread
# The inbound access token check (OAuth on the HTTP endpoint), in-process.
build_c bench_token_verify "$B/libmcpcodemode.a" -g -I. -D_GNU_SOURCE $SAN "$B/libmcpcodemode.a" \
    $(pkg-config --libs libuv libcjson 2>/dev/null || echo -luv -lcjson) -lcrypto -ldl -lm -lpthread
export BENCH_C_CLIENT="$PWD/$B/bench/stdio_client"
export BENCH_DIRECT_CLIENT="$PWD/$B/bench/direct_client"
export BENCH_MACHINE_PROBE="$PWD/$B/bench/machine_probe"
export BENCH_ECHO_SERVER="$PWD/$B/bench/echo_server"

# Runs one benchmark (name, then its command line) with its output file set.
run_one() {
    name=$1
    shift
    echo "== bench: $name"
    if [ -n "${BENCH_OUT_DIR:-}" ]; then
        mkdir -p "$BENCH_OUT_DIR"
        BENCH_OUT="$BENCH_OUT_DIR/$name.json" "$@" || fail=1
    else
        "$@" || fail=1
    fi
}

fail=0
for f in tests/bench/bench_*.mjs; do
    [ -f "$f" ] || continue
    run_one "$(basename "$f" .mjs)" node "$f"
done
for b in "$B"/bench/bench_*; do
    [ -f "$b" ] && [ -x "$b" ] || continue
    run_one "$(basename "$b")" "$b"
done
exit $fail
