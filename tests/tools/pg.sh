#!/bin/sh
# A scratch PostgreSQL server for the tests and benchmarks: initdb in DIR as an unprivileged
# user (the current one, or `postgres`/`nobody` when run as root), listening on a random port
# of 127.0.0.1 only, trust authentication for the role `perfreport`, C collation.
#   pg.sh start DIR [durable]   prints "export PGHOST=… PGPORT=… PGUSER=…" for eval; exits 77
#                               with "skipped: no postgres (why)" on stderr if it cannot start.
#                               `durable` keeps fsync on (benchmarks); tests run without it.
#   pg.sh createdb NAME [TEMPLATE]  (with the PG* variables from start)
#   pg.sh stop DIR
set -eu
cmd=${1:?usage: pg.sh start|stop|createdb ...}

bindir() {
  if [ -n "${PG_BINDIR:-}" ]; then echo "$PG_BINDIR"; return; fi
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
    [ -x "$d/initdb" ] && { echo "$d"; return; }
  done
  d=$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")
  echo "$d"
}
BIN=$(bindir)

skip() {
  echo "skipped: no postgres ($*)" >&2
  exit 77
}

# as_user CMD…: runs CMD as the cluster's owner (root may not run a PostgreSQL server).
as_user() {
  if [ "$(id -u)" -ne 0 ]; then
    "$@"
  else
    setpriv --reuid="$OWNER" --regid="$(id -g "$OWNER")" --clear-groups -- "$@"
  fi
}

owner() {
  if [ "$(id -u)" -ne 0 ]; then id -un; return; fi
  if id postgres >/dev/null 2>&1; then echo postgres; else echo nobody; fi
}

case "$cmd" in
start)
  dir=${2:?pg.sh start DIR}
  [ -x "$BIN/initdb" ] || skip "initdb not found; install the Debian package postgresql"
  OWNER=$(owner)
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown "$OWNER" "$dir"
  as_user "$BIN/initdb" -D "$dir/data" -U perfreport --auth=trust -E UTF8 --locale=C \
    --no-sync >"$dir/initdb.log" 2>&1 || skip "initdb failed: $(tail -1 "$dir/initdb.log")"
  opts="-c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c max_connections=80"
  if [ "${3:-}" != durable ]; then
    opts="$opts -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  fi
  tries=0
  while :; do
    port=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 30000 + 20000 ))
    if as_user "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
         -o "$opts -c port=$port" start >/dev/null 2>&1; then
      break
    fi
    tries=$((tries + 1))
    [ "$tries" -ge 5 ] && skip "the server did not start: $(tail -1 "$dir/server.log" 2>/dev/null)"
  done
  echo "export PGHOST=127.0.0.1 PGPORT=$port PGUSER=perfreport PGDATABASE=postgres"
  ;;
createdb)
  name=${2:?pg.sh createdb NAME}
  tpl=${3:-template0}
  "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres \
    -c "CREATE DATABASE \"$name\" TEMPLATE \"$tpl\" ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
  ;;
stop)
  dir=${2:?pg.sh stop DIR}
  OWNER=$(owner)
  [ -d "$dir/data" ] && as_user "$BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  ;;
*)
  echo "pg.sh: unknown command $cmd" >&2
  exit 2
  ;;
esac
