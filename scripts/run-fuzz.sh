#!/bin/sh
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.c) into build-fuzz/ with
# clang and runs each over its committed corpus and regressions.
# Usage: run-fuzz.sh SECONDS [target...]   fuzz each target for SECONDS
#        run-fuzz.sh ci [target...]        the corpus plus FUZZ_CI_SECONDS (3) each
# New inputs go to build-fuzz/corpus/<target>/ (the committed corpus is only
# read); a crash leaves its input in build-fuzz/artifacts/. Without clang or
# its fuzzer runtime it prints why and skips (exit 0).
set -eu
cd "$(dirname "$0")/.."
mode=${1:-60}
[ $# -gt 0 ] && shift
FB=build-fuzz
FUZZ_CC=${FUZZ_CC:-clang}

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' > "$probe/p.c"
if ! command -v "$FUZZ_CC" >/dev/null 2>&1; then
    echo "== fuzz: skipped: $FUZZ_CC not found (scripts/setup.sh installs clang and libclang-rt-14-dev)"
    exit 0
fi
if ! "$FUZZ_CC" -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" >/dev/null 2>&1; then
    echo "== fuzz: skipped: $FUZZ_CC cannot link -fsanitize=fuzzer (install libclang-rt-14-dev; scripts/setup.sh does)"
    exit 0
fi

SAN='-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer'
echo "== fuzz: building $FB/ with $FUZZ_CC"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j2 fuzz-bins B=$FB CC="$FUZZ_CC" SANFLAGS="$SAN" OPT=-O1

targets=${*:-$(for f in tests/fuzz/fuzz_*.c; do basename "$f" .c; done)}
mkdir -p $FB/artifacts
fail=0
for t in $targets; do
    bin=$FB/fuzz/$t
    [ -x "$bin" ] || { echo "fuzz: no target $t" >&2; exit 2; }
    set -- -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$FB/artifacts/$t-
    case $t in
    fuzz_http) dict=http ;;
    fuzz_sse) dict=sse ;;
    fuzz_lower) dict=js ;;
    fuzz_schema) dict=schema ;;
    fuzz_date_parse) dict=date ;;
    *) dict=json ;;
    esac
    set -- "$@" -dict=tests/fuzz/dict/$dict.dict
    if [ "$mode" = ci ]; then
        work=$probe/$t
        set -- "$@" -max_total_time="${FUZZ_CI_SECONDS:-3}"
    else
        work=$FB/corpus/$t
        set -- "$@" -max_total_time="$mode"
    fi
    mkdir -p "$work"
    set -- "$@" "$work"
    for d in tests/fuzz/corpus/$t tests/fuzz/regressions/$t; do
        [ -d "$d" ] && set -- "$@" "$d"
    done
    log=$FB/$t.log
    if "$bin" "$@" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
        cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
        echo "== fuzz: $t: ${runs:-?} runs, $cov"
    else
        echo "== fuzz: $t: FAILED (log: $log)"
        grep -A40 '==ERROR\|runtime error\|ERROR: libFuzzer' "$log" | head -60 >&2 || tail -n 40 "$log" >&2
        fail=1
    fi
done
exit $fail
