#!/bin/sh
# Runs one end-to-end CLI case: tests/cli/NAME.sh is sourced with the helpers below in a
# fresh temporary directory, its transcript (commands, output, exit codes) is compared
# byte for byte with tests/cli/NAME.out. UPDATE=1 rewrites the expected file instead. A case
# that cannot run on this machine (no way to make a read-only folder, say) prints why and
# exits 77: skipped, not failed.
set -u
case_file=$1
root=$(pwd)
name=$(basename "$case_file" .sh)
expected="$root/tests/cli/$name.out"
work=$(mktemp -d)
export TMPDIR="$work" # what a case leaves (a killed shard's spool) goes with it
# The store under test: a SQLite file, or (PR_STORE_KIND=postgresql, with the PG* variables
# of tests/tools/pg.sh) a fresh PostgreSQL database. Transcripts are the same for both.
if [ "${PR_STORE_KIND:-sqlite}" = postgresql ]; then
  pgdb="pr_${name}_$$"
  sh "$root/tests/tools/pg.sh" createdb "$pgdb" "${PR_PG_TEMPLATE:-template0}" || exit 1
  trap 'rm -rf "$work"; psql -X -q -d postgres -c "DROP DATABASE IF EXISTS \"$pgdb\"" >/dev/null 2>&1' EXIT
  export PERFREPORT_STORE="postgresql:///$pgdb"
else
  trap 'rm -rf "$work"' EXIT
  export PERFREPORT_STORE="$work/perfreport.db"
fi
export SOURCE_DATE_EPOCH=1796083200
export NO_COLOR=1
export TZ=UTC
export LC_ALL=C.UTF-8
# the language is the one a case asks for (--lang, a zh template), never the caller's
unset LANGUAGE LC_MESSAGES
DATA="$root/tests/data"
SAMPLES="$root/samples"
HTTPD=${PR_TEST_HTTPD:-$root/build/tests/httpd}
PTY=${PR_TEST_PTY:-$root/${BUILD:-build}/tests/pty}
# httpd_start MODE: starts the scripted server (tests/tools/httpd.c) in the background; sets
# PORT and HTTPD_PID (stop it with httpd_stop). The port is random: keep it out of transcripts.
httpd_start() {
  : > httpd.port # emptied here: the background redirection truncates it only later
  "$HTTPD" "$1" > httpd.port &
  HTTPD_PID=$!
  i=0
  while [ ! -s httpd.port ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
  PORT=$(cat httpd.port)
}
httpd_stop() { kill "$HTTPD_PID"; wait "$HTTPD_PID" 2>/dev/null; }
# pr ARGS…: runs perfreport, prints "$ perfreport ARGS", its stdout+stderr, and "[exit N]" if N≠0.
# A run that a signal ended (exit 128+N) is also written to $work/.signals: the case fails
# whatever its transcript says. With PR_TTY=1 (the terminal pass of tests/run.sh) perfreport
# runs with stdout and stderr on a pseudo-terminal (tests/tools/pty.c) and what it wrote is
# shown as a terminal would leave it: escape sequences dropped, a line overwritten after a
# carriage return keeps its last text.
pr() {
  echo "\$ perfreport $*"
  if [ "${PR_TTY:-}" = 1 ]; then
    "$PTY" "$PERFREPORT_BIN" "$@" > "$work/.tty" 2>&1
    rc=$?
    tty_text < "$work/.tty"
  else
    "$PERFREPORT_BIN" "$@" 2>&1
    rc=$?
  fi
  [ "$rc" -gt 128 ] && echo "perfreport $* -> exit $rc" >> "$work/.signals"
  [ "$rc" -ne 0 ] && echo "[exit $rc]"
  return 0
}
# tty_text: a terminal's text of its input (CSI sequences out, the text after a line's last
# carriage return kept).
tty_text() {
  LC_ALL=C sed -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/.*\r\(.\)/\1/' -e 's/\r$//'
}
# sh_ CMD: runs a shell command line the same way (for pipes and sqlite3 queries).
sh_() {
  echo "\$ $*"
  (eval "$*") 2>&1
  rc=$?
  [ "$rc" -ne 0 ] && echo "[exit $rc]"
  return 0
}
# sql QUERY: runs one SQL query on the store under test (sqlite3, or psql for PostgreSQL),
# printed as "$ sql QUERY" and answered the same way by both: rows of "|"-separated values.
sql() {
  echo "\$ sql $1"
  if [ "${PR_STORE_KIND:-sqlite}" = postgresql ]; then
    psql -X -q -A -t -F '|' -v ON_ERROR_STOP=1 -d "$PERFREPORT_STORE" -c "$1" 2>&1
  else
    sqlite3 "$PERFREPORT_STORE" "$1" 2>&1
  fi
  rc=$?
  [ "$rc" -ne 0 ] && echo "[exit $rc]"
  return 0
}
# no_run_left: after failed ingests into a store that did not exist, says "no run stored"
# when nothing is left (SQLite: no store file at all; PostgreSQL: the database holds no run).
no_run_left() {
  echo "\$ no_run_left"
  if [ "${PR_STORE_KIND:-sqlite}" = postgresql ]; then
    n=$(psql -X -q -A -t -d "$PERFREPORT_STORE" -c 'SELECT count(*) FROM runs' 2>&1)
  elif [ -e "$PERFREPORT_STORE" ]; then
    n="a store file with $(sqlite3 "$PERFREPORT_STORE" 'SELECT count(*) FROM runs' 2>&1) run(s)"
  else
    n=0
  fi
  if [ "$n" = 0 ]; then echo "no run stored"; else echo "left behind: $n"; fi
}
PR=$PERFREPORT_BIN
ROOT=$root
ROOT_BUILD=$root/${BUILD:-build}
out="$work/actual.out"
( cd "$work" && . "$root/$case_file" ) >"$out" 2>&1
rc=$?
if [ "$rc" -eq 77 ]; then # the case cannot run here: it said why on its last line
  tail -1 "$out"
  exit 77
fi
if [ -s "$work/.signals" ]; then
  echo "killed by a signal:"; cat "$work/.signals"; exit 1
fi
# Transcripts must not depend on where the tree or the temp dir lives.
sed -i -e "s#$work#WORK#g" -e "s#$root#ROOT#g" "$out"
if [ "${UPDATE:-}" = 1 ]; then
  cp "$out" "$expected"
  exit 0
fi
if [ ! -f "$expected" ]; then
  echo "missing $expected; actual output:"; cat "$out"; exit 1
fi
if ! cmp -s "$out" "$expected"; then
  diff -u "$expected" "$out" | head -80
  exit 1
fi
