#!/bin/sh
# Installs what building and testing mcp-codemode needs on Debian/Ubuntu:
# the system packages (apt-get, when missing) and, with --npm, the pinned npm
# modules of the end-to-end tests (tests/package-lock.json). Not root and
# packages missing: prints the exact command to run and exits 1.
set -eu
cd "$(dirname "$0")/.."
PKGS="gcc make pkg-config duktape-dev libcjson-dev libuv1-dev libcurl4-openssl-dev libseccomp-dev libcmocka-dev node-llhttp libsqlite3-dev libpq-dev libssl-dev"
# Only the tests need these (--npm): nginx for the two-instances-behind-a-proxy test,
# PostgreSQL for the shared-store suites, clang and its fuzzer runtime for the fuzz targets.
TEST_PKGS="nginx postgresql clang libclang-rt-14-dev"
want_npm=0
[ "${1:-}" = "--npm" ] && want_npm=1
if [ $want_npm = 1 ]; then
    PKGS="$PKGS $TEST_PKGS"
fi

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ $want_npm = 1 ] && ! command -v node >/dev/null 2>&1; then
    missing="$missing nodejs npm"
fi
if [ -n "$missing" ]; then
    cmd="apt-get update && apt-get install -y --no-install-recommends$missing"
    if [ "$(id -u)" = 0 ]; then
        echo "setup: installing$missing" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        echo "setup: installing$missing (sudo)" >&2
        sudo -n sh -c "DEBIAN_FRONTEND=noninteractive $cmd" >&2
    else
        echo "setup: missing packages:$missing" >&2
        echo "setup: run this as root, then try again:" >&2
        echo "    sudo sh -c '$cmd'" >&2
        exit 1
    fi
fi

if [ $want_npm = 1 ]; then
    stamp=tests/node_modules/.codemode-lock
    if [ ! -f "$stamp" ] || ! cmp -s tests/package-lock.json "$stamp"; then
        echo "setup: installing pinned npm test dependencies (tests/package-lock.json)" >&2
        # once more after a failure: the registry or the npm cache can fail
        # for a moment (a cache lock left by an interrupted run)
        (cd tests && npm ci --no-audit --no-fund --loglevel=error) >&2 || {
            echo "setup: npm ci failed; trying once more in 5 s" >&2
            sleep 5
            (cd tests && npm ci --no-audit --no-fund --loglevel=error) >&2
        }
        cp tests/package-lock.json "$stamp"
    fi
fi
