#!/bin/sh
# Tests of sandbox/duktape/build.sh and refresh.sh: the series applies; a patch
# that needs fuzz, a missing or unlisted patch, another Duktape version or no
# override marker stops the build with a message naming it and no output; and
# refresh.sh rewrites the series for a changed duktape.c.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
pkg=${DUKTAPE_SRC:-/usr/share/duktape}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
n=0

ok() {
    n=$((n + 1))
    echo "ok $n - $1"
}
not_ok() {
    n=$((n + 1))
    failures=$((failures + 1))
    echo "not ok $n - $1"
    [ -f "$tmp/err" ] && sed 's/^/#   /' "$tmp/err"
}

# A private copy of sandbox/duktape (build.sh finds its patches next to it).
fresh_copy() {
    rm -rf "$tmp/dk" "$tmp/out"
    cp -R "$root/sandbox/duktape" "$tmp/dk"
}

# Runs the copy's build.sh into $tmp/out; its status, stderr in $tmp/err.
build() {
    sh "$tmp/dk/build.sh" "$tmp/out" 2> "$tmp/err"
}

# expect_failure NAME TEXT: the last build failed, said TEXT, left no output.
expect_failure() {
    status=$1
    name=$2
    text=$3
    if [ "$status" -ne 0 ] && grep -qF -- "$text" "$tmp/err" && [ ! -e "$tmp/out/duktape.c" ] &&
        [ ! -e "$tmp/out/duk_config.h" ] && [ ! -e "$tmp/out/.duktape-patching" ]; then
        ok "$name"
    else
        echo "# status $status, expected a failure saying: $text"
        not_ok "$name"
    fi
}

# 1. The series applies to the packaged 2.7.0; fastpaths.inc comes last.
fresh_copy
if build && [ -s "$tmp/out/duktape.h" ] && [ -s "$tmp/out/duk_config.h" ] &&
    ! cmp -s "$tmp/out/duktape.c" "$pkg/duktape.c" &&
    tail -c "$(wc -c < "$tmp/dk/fastpaths.inc")" "$tmp/out/duktape.c" | cmp -s - "$tmp/dk/fastpaths.inc" &&
    grep -q '^#define DUK_USE_EXEC_TIMEOUT_CHECK' "$tmp/out/duk_config.h" && [ ! -e "$tmp/out/.duktape-patching" ]; then
    ok "the series applies"
else
    not_ok "the series applies"
fi

# 2. A patch whose context line no longer matches: patch's default fuzz would
# apply it (checked, so the test shows what --fuzz=0 refuses); the build stops
# and names it.
fresh_copy
victim=0006-pinned-refcounts.patch
awk 'h == 1 && /^ / { $0 = " /* changed */" substr($0, 2); h = 2 } /^@@/ && !h { h = 1 } { print }' \
    "$tmp/dk/patches/$victim" > "$tmp/p" && mv "$tmp/p" "$tmp/dk/patches/$victim"
mkdir -p "$tmp/fuzz"
cp "$pkg/duktape.c" "$tmp/fuzz/duktape.c"
fuzzy=ok
while read -r p; do
    patch -d "$tmp/fuzz" -p1 --batch -s -i "$tmp/dk/patches/$p" < /dev/null > /dev/null 2>&1 || fuzzy=failed
    [ "$p" = "$victim" ] && break
done < "$tmp/dk/patches/series"
if [ "$fuzzy" = ok ] && ! cmp -s "$tmp/dk/patches/$victim" "$root/sandbox/duktape/patches/$victim"; then
    ok "the broken patch still applies with fuzz"
else
    not_ok "the broken patch still applies with fuzz"
fi
build
expect_failure $? "a patch that needs fuzz stops the build" "patch $victim does not apply"

# 3. A patch the series names but that is missing.
fresh_copy
rm "$tmp/dk/patches/0011-token-replay.patch"
build
expect_failure $? "a missing patch stops the build" "patches/series names 0011-token-replay.patch, which is missing"

# 4. A patch file the series does not list.
fresh_copy
cp "$tmp/dk/patches/0022-plain-property-writes.patch" "$tmp/dk/patches/0023-extra.patch"
build
expect_failure $? "an unlisted patch stops the build" "patches/0023-extra.patch is not listed in patches/series"

# 5. Another Duktape version.
fresh_copy
mkdir -p "$tmp/src"
cp "$pkg/duktape.c" "$pkg/duk_config.h" "$tmp/src/"
sed 's/^#define DUK_VERSION *20700L/#define DUK_VERSION                       20800L/' "$pkg/duktape.h" > "$tmp/src/duktape.h"
DUKTAPE_SRC=$tmp/src sh "$tmp/dk/build.sh" "$tmp/out" 2> "$tmp/err"
expect_failure $? "another Duktape version stops the build" "holds Duktape 20800 (DUK_VERSION), not 2.7.0"

# 6. A duk_config.h without the override marker.
cp "$pkg/duktape.h" "$tmp/src/duktape.h"
grep -v '__OVERRIDE_DEFINES__' "$pkg/duk_config.h" > "$tmp/src/duk_config.h"
DUKTAPE_SRC=$tmp/src sh "$tmp/dk/build.sh" "$tmp/out" 2> "$tmp/err"
expect_failure $? "a duk_config.h without the marker stops the build" "config_overrides.h was not inserted once"

# 7. A changed upstream line in the context of 0001 and 0004: the build
# refuses it; refresh.sh (apply with fuzz, then diff) rewrites the series so
# that it applies without fuzz and gives the same result on the changed line.
fresh_copy
rm -rf "$tmp/src" "$tmp/work" && mkdir -p "$tmp/src"
cp "$pkg/duktape.h" "$pkg/duk_config.h" "$tmp/src/"
changed='s|^\(\t\t\tDUK_ERROR_RANGE(re_ctx->thr, DUK_STR_REGEXP_EXECUTOR_STEP_LIMIT);\)$|\1 /* upstream */|'
sed "$changed" "$pkg/duktape.c" > "$tmp/src/duktape.c"
DUKTAPE_SRC=$tmp/src sh "$tmp/dk/build.sh" "$tmp/out" 2> "$tmp/err"
expect_failure $? "a changed upstream context stops the build" "patch 0001-regexp-deadline.patch does not apply"
sh "$root/sandbox/duktape/build.sh" "$tmp/want" 2> "$tmp/err" && sed -i "$changed" "$tmp/want/duktape.c"
if sh "$tmp/dk/refresh.sh" apply "$tmp/work" "$tmp/src" > "$tmp/err" 2>&1 &&
    sh "$tmp/dk/refresh.sh" diff "$tmp/work" >> "$tmp/err" 2>&1 &&
    DUKTAPE_SRC=$tmp/src sh "$tmp/dk/build.sh" "$tmp/out" 2>> "$tmp/err" &&
    ! cmp -s "$tmp/dk/patches/0001-regexp-deadline.patch" "$root/sandbox/duktape/patches/0001-regexp-deadline.patch" &&
    grep -q '/\* upstream \*/' "$tmp/out/duktape.c" && cmp -s "$tmp/out/duktape.c" "$tmp/want/duktape.c"; then
    ok "refresh.sh rewrites the series for a changed duktape.c"
else
    not_ok "refresh.sh rewrites the series for a changed duktape.c"
fi

# 8. refresh.sh on the packaged duktape.c gives back the series unchanged.
fresh_copy
rm -rf "$tmp/work"
if sh "$tmp/dk/refresh.sh" apply "$tmp/work" "$pkg" > "$tmp/err" 2>&1 &&
    sh "$tmp/dk/refresh.sh" diff "$tmp/work" >> "$tmp/err" 2>&1 &&
    diff -r "$root/sandbox/duktape/patches" "$tmp/dk/patches" >> "$tmp/err" 2>&1; then
    ok "refresh.sh reproduces the series on the packaged duktape.c"
else
    not_ok "refresh.sh reproduces the series on the packaged duktape.c"
fi

echo "1..$n"
[ "$failures" -eq 0 ]
