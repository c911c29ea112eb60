#!/bin/sh
# Builds the test drivers of the lowering pass against the library:
# B/lower/lowerc (lower a file) and B/lower/runjs (lower and run in the engine).
# Usage: tests/lower/build.sh [BUILD_DIR]   (after `make`)
set -eu
cd "$(dirname "$0")/../.."
B=${1:-build}
mkdir -p "$B/lower"
SAN=""
[ "$B" = build-san ] && SAN="-fsanitize=address,undefined -fno-omit-frame-pointer"
CFLAGS="-std=c11 -O2 -g -Wall -Wextra -I. -I$B/duk -D_GNU_SOURCE $SAN"
LIBS="$B/libmcpcodemode.a $(pkg-config --libs libuv libcjson libseccomp libcurl 2>/dev/null || echo -luv -lcjson -lseccomp -lcurl) -lm -lpthread"
cc $CFLAGS -o "$B/lower/lowerc" tests/lower/lowerc.c $LIBS
cc $CFLAGS -o "$B/lower/runjs" tests/lower/runjs.c "$B/duk/duktape.o" $LIBS
cc $CFLAGS -Itests/bench -o "$B/lower/bench_lower" tests/bench/bench_lower.c tests/bench/lower/bench_host.c "$B/duk/duktape.o" $LIBS
