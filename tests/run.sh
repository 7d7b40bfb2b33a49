#!/bin/sh
# Runs the whole suite: unit tests (cmocka), fuzz targets over their seed corpora and the
# inputs that once crashed them (tests/fuzz/crashes/), and the
# end-to-end CLI cases. Ends with the line "N passed, N failed".
# Env: PERFREPORT_BIN (binary under test), BUILD (build dir), ONLY (substring filter).
set -u
BUILD=${BUILD:-build}
export BUILD
export PERFREPORT_BIN=${PERFREPORT_BIN:-$(pwd)/perfreport}
export PR_TESTDATA=$(pwd)/tests/data
# the message catalogs of this build (make compiles po/*.po there), for the unit tests; the
# binary finds them beside itself without it (model/l10n.c)
case "$BUILD" in /*) export PERFREPORT_LOCALEDIR="$BUILD/locale";; *) export PERFREPORT_LOCALEDIR="$(pwd)/$BUILD/locale";; esac
# the scripted loopback HTTP server of the CLI cases (tests/tools/httpd.c)
case "$BUILD" in /*) export PR_TEST_HTTPD="$BUILD/tests/httpd";; *) export PR_TEST_HTTPD="$(pwd)/$BUILD/tests/httpd";; esac
# the pseudo-terminal runner of the terminal pass (tests/tools/pty.c)
case "$BUILD" in /*) export PR_TEST_PTY="$BUILD/tests/pty";; *) export PR_TEST_PTY="$(pwd)/$BUILD/tests/pty";; esac
# Under LeakSanitizer: fontconfig and pango keep process-wide caches they never free.
export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
pass=0
fail=0
skip=0
failed=""
log=$(mktemp)
pgdir=""
# stop_pg: stops the scratch PostgreSQL server of the second pass, if one runs.
stop_pg() {
  if [ -n "$pgdir" ]; then
    sh tests/tools/pg.sh stop "$pgdir"
    rm -rf "$pgdir"
    pgdir=""
  fi
}
trap 'rm -f "$log"; stop_pg' EXIT
trap 'exit 130' INT TERM

note_fail() { fail=$((fail + ${2:-1})); failed="$failed $1"; }

for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  case "$name" in *.d|*.o) continue;; esac
  [ -n "${ONLY:-}" ] && case "$name" in *"$ONLY"*) ;; *) continue;; esac
  "$t" >"$log" 2>&1
  rc=$?
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
  pass=$((pass + p))
  if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
    [ "$f" -eq 0 ] && f=1
    note_fail "$name" "$f"
    echo "FAIL $name"; sed 's/^/    /' "$log" | tail -40
  else
    echo "ok   $name ($p)"
  fi
done

for t in "$BUILD"/fuzz/fuzz_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  case "$name" in *.d|*.o) continue;; esac
  [ -n "${ONLY:-}" ] && case "$name" in *"$ONLY"*) ;; *) continue;; esac
  corpus=tests/fuzz/${name#fuzz_}
  if [ ! -d "$corpus" ]; then note_fail "$name(no corpus)"; echo "FAIL $name: no corpus $corpus"; continue; fi
  # every input that ever crashed a target is replayed with its seeds (docs/fuzzing.md)
  crashes=tests/fuzz/crashes/${name#fuzz_}
  [ -d "$crashes" ] || crashes=
  if "$t" "$corpus" $crashes >"$log" 2>&1; then
    pass=$((pass + 1)); echo "ok   $name ($(tail -1 "$log"))"
  else
    note_fail "$name"; echo "FAIL $name"; tail -30 "$log" | sed 's/^/    /'
  fi
done

# cli_case FILE PASS [VAR=VALUE…]: one CLI transcript case in the environment given; PASS
# ("" for the first pass) is printed beside the case's name.
cli_case() {
  c=$1 label=$2
  shift 2
  name=$(basename "$c" .sh)
  env "$@" sh tests/cli/lib.sh "$c" >"$log" 2>&1
  crc=$?
  if [ "$crc" -eq 0 ]; then
    pass=$((pass + 1)); echo "ok   cli/$name${label:+ ($label)}"
  elif [ "$crc" -eq 77 ]; then
    skip=$((skip + 1)); echo "skip cli/$name (${label:+$label: }$(tail -1 "$log"))"
  else
    note_fail "cli/$name${label:+($label)}"; echo "FAIL cli/$name${label:+ ($label)}"
    head -60 "$log" | sed 's/^/    /'
  fi
}
# The CLI cases, ONLY applied.
cases=""
for c in tests/cli/*.sh; do
  name=$(basename "$c" .sh)
  [ "$name" = lib ] && continue
  [ -n "${ONLY:-}" ] && case "$name" in *"$ONLY"*) ;; *) continue;; esac
  cases="$cases $c"
done
for c in $cases; do cli_case "$c" ""; done
# The same transcripts with perfreport on a terminal (tests/tools/pty.c): what a user at a
# shell sees must match what a pipe gets, and no case may end by a signal there.
for c in $cases; do cli_case "$c" terminal PR_TTY=1; done

# integration NAME KIND: runs tests/integration/NAME.sh against a fresh store of KIND (sqlite
# or postgresql); 0 pass, 77 skip (its last line says why), else fail.
integration() {
  t=tests/integration/$1.sh
  if [ "$2" = postgresql ]; then
    db="pr_it_$1_$$"
    sh tests/tools/pg.sh createdb "$db" >"$log" 2>&1
    store="postgresql:///$db"
  else
    store=$(mktemp -u).db
  fi
  PR_STORE_KIND=$2 PERFREPORT_STORE=$store sh "$t" >"$log" 2>&1
  rc=$?
  if [ "$2" = postgresql ]; then
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS \"$db\"" >/dev/null 2>&1
  else
    rm -f "$store" "$store-wal" "$store-shm"
  fi
  if [ "$rc" -eq 0 ]; then
    pass=$((pass + 1)); echo "ok   integration/$1 ($2: $(tail -1 "$log"))"
  elif [ "$rc" -eq 77 ]; then
    skip=$((skip + 1)); echo "skip integration/$1 ($2: $(tail -1 "$log"))"
  else
    note_fail "integration/$1($2)"; echo "FAIL integration/$1 ($2)"; tail -30 "$log" | sed 's/^/    /'
  fi
}
# integration_pass KIND: every integration test whose "# stores:" line names KIND (default:
# sqlite only).
integration_pass() {
  for t in tests/integration/*.sh; do
    [ -f "$t" ] || continue
    name=$(basename "$t" .sh)
    [ "$name" = lib ] && continue
    [ -n "${ONLY:-}" ] && case "$name" in *"$ONLY"*) ;; *) continue;; esac
    kinds=$(sed -n 's/^# stores: //p' "$t")
    case " ${kinds:-sqlite} " in *" $1 "*) integration "$name" "$1";; esac
  done
}
integration_pass sqlite

# The same transcripts against the PostgreSQL store: one scratch server for the whole pass
# (tests/tools/pg.sh), a fresh database per case; skipped, visibly, where none can start.
pg_its=$(grep -l '^# stores:.*postgresql' tests/integration/*.sh 2>/dev/null)
if [ -n "${ONLY:-}" ]; then
  pg_its=$(for t in $pg_its; do case "$(basename "$t" .sh)" in *"$ONLY"*) echo "$t";; esac; done)
fi
if [ -n "$cases$pg_its" ]; then
  pgdir=$(mktemp -d)
  if pgenv=$(sh tests/tools/pg.sh start "$pgdir" 2>"$log"); then
    eval "$pgenv"
    for c in $cases; do cli_case "$c" postgresql PR_STORE_KIND=postgresql; done
    integration_pass postgresql
    stop_pg
  else
    skip=$((skip + 1)); echo "skip cli/* and integration/* (postgresql): $(tail -1 "$log")"
    rm -rf "$pgdir"
    pgdir=""
  fi
fi

for b in tests/browser/*.sh; do
  [ -f "$b" ] || continue
  name=$(basename "$b" .sh)
  [ -n "${ONLY:-}" ] && case "$name" in *"$ONLY"*) ;; *) continue;; esac
  sh "$b" >"$log" 2>&1
  rc=$?
  if [ "$rc" -eq 0 ]; then
    pass=$((pass + 1)); echo "ok   browser/$name"
  elif [ "$rc" -eq 77 ]; then
    skip=$((skip + 1)); echo "skip browser/$name ($(tail -1 "$log"))"
  else
    note_fail "browser/$name"; echo "FAIL browser/$name"; sed 's/^/    /' "$log" | tail -30
  fi
done

[ -n "$failed" ] && echo "failed:$failed"
if [ "$skip" -gt 0 ]; then
  echo "$pass passed, $fail failed, $skip skipped"
else
  echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
