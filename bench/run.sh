#!/bin/sh
# Runs every benchmark binary in $BUILD/bench/ (built by `make bench`) and prints its lines.
set -u
BUILD=${BUILD:-build}
rc=0
for b in "$BUILD"/bench/bench_*; do
  [ -x "$b" ] || continue
  case "$b" in *.d|*.o) continue;; esac
  echo "== $(basename "$b")"
  "$b" || rc=1
done
exit $rc
