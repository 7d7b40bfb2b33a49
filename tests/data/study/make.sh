#!/bin/sh
# Rebuilds the study fixtures in this folder (see README.md): run from the repository root
# with a built ./perfreport:  sh tests/data/study/make.sh
set -eu
root=$(pwd)
dir="$root/tests/data/study"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PERFREPORT_STORE="$tmp/study.db"
seed=11
for jvm in hotspot openj9; do
  case $jvm in hotspot) cap=400 base=4 ;; openj9) cap=320 base=3.5 ;; esac
  for rate in 50 200 500; do
    for secs in 10 60; do
      awk -v rate=$rate -v secs=$secs -v cap=$cap -v base_ms=$base -v seed=$seed \
        -f "$root/tests/tools/synth_vegeta.awk" > "$tmp/r.json"
      ./perfreport ingest --name "$jvm-$rate-${secs}s" "$tmp/r.json" >/dev/null
      ./perfreport summary --format vegeta last > "$dir/$jvm-$rate-${secs}s.report.txt"
      seed=$((seed + 1))
    done
  done
done
