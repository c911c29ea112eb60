#!/bin/sh
# A throwaway PostgreSQL cluster for the tests (cmocka: tests/unit/support/
# pg_cluster.h; e2e: tests/e2e/lib/pg.mjs), with Debian's postgresql
# binaries, in a directory of its own on a free loopback port.
#   pg_cluster.sh available        exit 0 when initdb and pg_ctl are installed
#   pg_cluster.sh start DIR        initdb DIR/data, start it; prints the port
#   pg_cluster.sh restart DIR      starts it again on the same port (after stop)
#   pg_cluster.sh stop DIR         stops the server by its PID and waits for it
#   pg_cluster.sh psql DIR SQL     runs SQL as the superuser; prints the rows
# Root cannot run postgres: then DIR belongs to the postgres user (or
# nobody) and the server runs as that user. Roles: "postgres" (superuser,
# trusted on loopback) and "codemode" with password "secret" (scram).
set -eu
bindir() {
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r) ; do
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
    done
    command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return 0; }
    return 1
}
BIN=$(bindir) || { echo "pg_cluster: initdb/pg_ctl not found (scripts/setup.sh --npm installs postgresql)" >&2; exit 1; }
as_user() {
    if [ "$(id -u)" = 0 ]; then
        u=postgres; id "$u" >/dev/null 2>&1 || u=nobody
        runuser -u "$u" -- "$@"
    else
        "$@"
    fi
}
owner() { [ "$(id -u)" = 0 ] && { id postgres >/dev/null 2>&1 && echo postgres || echo nobody; } || id -un; }

start_on() { # DIR PORT: 0 when the server runs
    as_user "$BIN/pg_ctl" -D "$1/data" -l "$1/log" -w -t 30 -o "-p $2 -k $1 -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60" start >/dev/null 2>&1
}

case "${1:-}" in
available) exit 0 ;;
start)
    dir=$2
    mkdir -p "$dir"
    chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown "$(owner)" "$dir"
    as_user "$BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    cat >"$dir/data/pg_hba.conf" <<HBA
local all all trust
host all codemode 127.0.0.1/32 scram-sha-256
host all all 127.0.0.1/32 trust
HBA
    tries=0
    while :; do
        port=$(( 20000 + ($(od -An -N2 -tu2 /dev/urandom) % 40000) ))
        start_on "$dir" "$port" && break
        tries=$((tries + 1))
        [ $tries -lt 10 ] || { cat "$dir/log" >&2; exit 1; }
    done
    echo "$port" >"$dir/port"
    as_user "$BIN/psql" -h "$dir" -p "$port" -U postgres -d postgres -qAt \
        -c "CREATE ROLE codemode LOGIN PASSWORD 'secret'" -c "CREATE DATABASE codemode OWNER codemode" >/dev/null
    echo "$port"
    ;;
restart)
    start_on "$2" "$(cat "$2/port")" || { cat "$2/log" >&2; exit 1; }
    ;;
stop)
    dir=$2
    [ -f "$dir/data/postmaster.pid" ] || exit 0
    pid=$(head -1 "$dir/data/postmaster.pid")
    kill -INT "$pid" 2>/dev/null || exit 0
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    ;;
psql)
    as_user "$BIN/psql" -h "$2" -p "$(cat "$2/port")" -U postgres -d "${4:-codemode}" -qAt -c "$3"
    ;;
*)
    echo "usage: pg_cluster.sh available|start DIR|restart DIR|stop DIR|psql DIR SQL [DB]" >&2
    exit 2
    ;;
esac
