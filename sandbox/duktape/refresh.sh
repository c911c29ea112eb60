#!/bin/sh
# Refreshes patches/ for another duktape.c (a new Duktape version), in two
# steps over a work folder that keeps duktape.c as it is after each patch:
#   refresh.sh apply WORK [SRC]  applies the series to SRC/duktape.c (default
#       $DUKTAPE_SRC or /usr/share/duktape) with patch's usual fuzz: WORK/base.c,
#       then WORK/NNNN-name.c after each patch. It stops at a patch that does
#       not apply (its rejects in WORK/NNNN-name.c.rej): finish that change by
#       hand in WORK/NNNN-name.c and run apply again; states that exist are kept.
#   refresh.sh diff WORK  rewrites each patch as the diff between consecutive
#       states, keeping its header (the lines before its "--- a/duktape.c").
# See README.md.
set -eu
me=duktape-refresh
here=$(cd "$(dirname "$0")" && pwd)
series=$here/patches/series
usage() {
    echo "usage: $0 apply WORK [SRC] | diff WORK" >&2
    exit 2
}
[ $# -ge 2 ] || usage
mode=$1
work=$2

patches() {
    sed -e '/^#/d' -e '/^$/d' "$series"
}

case $mode in
apply)
    src=${3:-${DUKTAPE_SRC:-/usr/share/duktape}}
    mkdir -p "$work"
    [ -e "$work/base.c" ] || cp "$src/duktape.c" "$work/base.c"
    prev=base
    for p in $(patches); do
        n=${p%.patch}
        if [ ! -e "$work/$n.c" ]; then
            cp "$work/$prev.c" "$work/$n.c"
            if ! patch --batch --forward --no-backup-if-mismatch -r "$work/$n.c.rej" "$work/$n.c" \
                < "$here/patches/$p"; then
                echo "$me: $p did not apply: finish it by hand in $work/$n.c (rejects: $work/$n.c.rej), then run apply again" >&2
                exit 1
            fi
        fi
        prev=$n
    done
    echo "$me: every patch has a state in $work; check the fuzzed ones, then run: $0 diff $work"
    ;;
diff)
    [ $# -eq 2 ] || usage
    prev=base
    for p in $(patches); do
        n=${p%.patch}
        [ -e "$work/$n.c" ] || { echo "$me: $work/$n.c missing: run apply first" >&2; exit 1; }
        sed '/^--- a\/duktape\.c$/,$d' "$here/patches/$p" > "$work/$p.new"
        # diff's status 1 means "they differ": the patch is not empty.
        diff -u --label a/duktape.c --label b/duktape.c "$work/$prev.c" "$work/$n.c" >> "$work/$p.new" && {
            echo "$me: $p changes nothing now: remove it from the series" >&2
            exit 1
        }
        [ $? -eq 1 ] || exit 1
        mv "$work/$p.new" "$here/patches/$p"
        prev=$n
    done
    echo "$me: patches rewritten; now run build.sh (no fuzz) and make test"
    ;;
*) usage ;;
esac
