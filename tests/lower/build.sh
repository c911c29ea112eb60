#!/bin/sh
# Builds the test drivers of the lowering pass against the library:
# build/lower/lowerc (lower a file) and build/lower/duk_run (run ES5 files in Duktape).
# Usage: tests/lower/build.sh [BUILD_DIR]   (run `make` first)
set -eu
cd "$(dirname "$0")/../.."
B=${1:-build}
mkdir -p "$B/lower"
CFLAGS="-std=c11 -O2 -g -Wall -Wextra -I. -I$B/duk -D_GNU_SOURCE"
cc $CFLAGS -o "$B/lower/lowerc" tests/lower/lowerc.c "$B/libmcpcodemode.a" -lcjson
cc $CFLAGS -o "$B/lower/duk_run" tests/lower/duk_run.c "$B/duk/duktape.o" "$B/libmcpcodemode.a" -lcjson -lm
