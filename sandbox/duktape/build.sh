#!/bin/sh
# Builds the sandbox's Duktape from the packaged 2.7.0 amalgamation into
# OUTDIR: duktape.h as packaged, duk_config.h with config_overrides.h inserted
# at its __OVERRIDE_DEFINES__ marker, and duktape.c with every patch of
# patches/series applied in order (patch -p1 --fuzz=0), then fastpaths.inc
# appended. The three files must sit together, or duktape.c silently uses the
# stock duk_config.h next to it. See README.md (refreshing, adding a patch).
# Usage: build.sh OUTDIR    (DUKTAPE_SRC: the amalgamation, /usr/share/duktape)
set -eu
me=duktape-build
fail() {
    echo "$me: $*" >&2
    exit 1
}
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
src=${DUKTAPE_SRC:-/usr/share/duktape}
out=$1
here=$(cd "$(dirname "$0")" && pwd)
series=$here/patches/series

for f in duktape.c duktape.h duk_config.h; do
    [ -r "$src/$f" ] || fail "$src/$f missing (apt-get install duktape-dev)"
done
if ! grep -q '^#define DUK_VERSION *20700L' "$src/duktape.h"; then
    found=$(sed -n 's/^#define DUK_VERSION *\([0-9][0-9]*\)L.*/\1/p' "$src/duktape.h" | head -n 1)
    fail "$src holds Duktape ${found:-of unknown version} (DUK_VERSION), not 2.7.0 (20700):" \
        "the patch series is for 2.7.0; refresh it as sandbox/duktape/README.md says"
fi
[ -r "$series" ] || fail "$series missing"
# A patch file that the series does not list would be silently left out.
for p in "$here"/patches/*.patch; do
    [ -e "$p" ] || continue
    grep -qx -- "$(basename "$p")" "$series" || fail "patches/$(basename "$p") is not listed in patches/series"
done

mkdir -p "$out"
stage=$out/.duktape-patching
rm -rf "$stage" "$out/duk_config.h.tmp"
trap 'rm -rf "$stage" "$out/duk_config.h.tmp"' EXIT
mkdir "$stage"

# duk_config.h is generated: the packaged one with our overrides inserted
# once (a missing or repeated marker changes the line count).
sed -e "/__OVERRIDE_DEFINES__/r $here/config_overrides.h" "$src/duk_config.h" > "$out/duk_config.h.tmp"
[ "$(wc -l < "$out/duk_config.h.tmp")" -eq $(($(wc -l < "$src/duk_config.h") + $(wc -l < "$here/config_overrides.h"))) ] ||
    fail "config_overrides.h was not inserted once into duk_config.h (its __OVERRIDE_DEFINES__ marker)"

# duktape.c: the series, in order, with no fuzz (a patch whose context has
# changed fails here, by name, instead of landing somewhere close).
cp "$src/duktape.c" "$stage/duktape.c"
while IFS= read -r p || [ -n "$p" ]; do
    case $p in '' | '#'*) continue ;; esac
    [ -r "$here/patches/$p" ] || fail "patches/series names $p, which is missing"
    if ! log=$(patch -d "$stage" -p1 --fuzz=0 --batch --forward --no-backup-if-mismatch --reject-file=- \
        -i "$here/patches/$p" < /dev/null 2>&1); then
        printf '%s\n' "$log" | sed 's/^/    /' >&2
        fail "patch $p does not apply to Duktape 2.7.0's duktape.c (after the patches before it in patches/series, no fuzz)"
    fi
done < "$series"
# Our own functions that need the entry part of Duktape's objects (the
# patches call into them), compiled inside the amalgamation.
cat "$here/fastpaths.inc" >> "$stage/duktape.c"

cp "$src/duktape.h" "$out/duktape.h"
mv "$out/duk_config.h.tmp" "$out/duk_config.h"
mv "$stage/duktape.c" "$out/duktape.c"
