#!/bin/sh
# Issue 18, target 1: Vegeta's own report against the workflow a perfreport user runs instead,
# on the same gob file, in one run: `vegeta report FILE` against `perfreport ingest FILE` +
# `perfreport summary --format vegeta`, and `vegeta report -type=json` against `summary --format
# vegeta-json` (the store of the same round), ROUNDS interleaved rounds (the order alternates),
# medians of wall time and each side's peak RSS (the larger of its two processes). The JSON
# reports are then compared field by field (bench/peers/vegeta_compare.sh).
#
# Usage: sh bench/peers/vegeta_bench.sh GOB [RESULTS]        (called by bench/run.sh)
# Env: VEGETA (default: build/peers/vegeta from bench/peers/vegeta.sh, else vegeta on PATH),
#      PERFREPORT_BIN (./perfreport), ROUNDS (3), BENCH_DATA (bench/data).
set -eu
GOB=$1
N=${2:-?}
BIN=${PERFREPORT_BIN:-./perfreport}
ROUNDS=${ROUNDS:-3}
DATA=${BENCH_DATA:-bench/data}
HERE=$(dirname "$0")
if [ -z "${VEGETA:-}" ]; then
  if [ -x build/peers/vegeta ]; then VEGETA=build/peers/vegeta; else VEGETA=vegeta; fi
fi
if ! command -v "$VEGETA" >/dev/null 2>&1; then
  echo "vegeta report (peer): skipped: $VEGETA not found (build it: VEGETA_SRC=DIR sh bench/peers/vegeta.sh)"
  exit 0
fi
[ -f "$GOB" ] || { echo "vegeta_bench: $GOB: no such file" >&2; exit 1; }
W=$DATA/vegeta-peer
mkdir -p "$W"
# tm OUT CMD...: runs CMD (stdout to OUT), prints "wall_s peak_kb"
tm() {
  o=$1; shift
  /usr/bin/env time -f '%e %M' "$@" >"$o" 2>"$W/time.err" || { cat "$W/time.err" >&2; return 1; }
  tail -1 "$W/time.err"
}
vegeta_side() { # round: text and JSON reports of Vegeta
  tm "$W/v.txt" "$VEGETA" report "$GOB" >>"$W/vt"
  tm "$W/v.json" "$VEGETA" report -type=json "$GOB" >>"$W/vj"
}
perfreport_side() { # round: ingest into a fresh store, then both summaries of that run
  rm -f "$W/s.db" "$W/s.db-wal" "$W/s.db-shm"
  i=$(tm /dev/null "$BIN" ingest --quiet --store "$W/s.db" "$GOB")
  t=$(tm "$W/p.txt" "$BIN" summary --store "$W/s.db" --format vegeta 1)
  j=$(tm "$W/p.json" "$BIN" summary --store "$W/s.db" --format vegeta-json 1)
  echo "$i $t" >>"$W/pt"
  echo "$i $j" >>"$W/pj"
}
rm -f "$W/vt" "$W/vj" "$W/pt" "$W/pj"
echo "vegeta peer: $("$VEGETA" -version | tr '\n' ' ')"
echo "vegeta peer: $GOB ($N results, $(wc -c <"$GOB") bytes), $ROUNDS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  if [ $((r % 2)) = 1 ]; then vegeta_side; perfreport_side; else perfreport_side; vegeta_side; fi
  r=$((r + 1))
done
# one side's rounds (lines "wall kb" or "wall1 kb1 wall2 kb2") -> "median_wall median_peak_kb"
med() {
  awk '{ w = $1 + (NF > 2 ? $3 : 0); k = (NF > 2 && $4 > $2) ? $4 : $2; print w, k }' "$1" >"$W/m"
  echo "$(cut -d' ' -f1 "$W/m" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')" \
    "$(cut -d' ' -f2 "$W/m" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
}
rounds() { awk '{ printf "%s%.2f", (NR > 1 ? " " : ""), $1 + (NF > 2 ? $3 : 0) }' "$1"; }
report() { # VEGETA_LABEL VEGETA_ROUNDS PERFREPORT_LABEL PERFREPORT_ROUNDS
  awk -v vl="$1" -v vm="$(med "$2")" -v vr="$(rounds "$2")" \
      -v pl="$3" -v pm="$(med "$4")" -v pr="$(rounds "$4")" 'BEGIN {
    split(vm, v, " "); split(pm, p, " ")
    printf "%-38s median %6.2f s wall, peak %7.1f MB  (rounds: %s s)\n", vl, v[1], v[2] / 1024, vr
    printf "%-38s median %6.2f s wall, peak %7.1f MB  (rounds: %s s)\n", pl, p[1], p[2] / 1024, pr
    printf "%-38s %.1fx the time, %.1fx the memory\n", "ratio vegeta / perfreport",
      (p[1] > 0) ? v[1] / p[1] : 0, (p[2] > 0) ? v[2] / p[2] : 0
  }'
}
report "vegeta report" "$W/vt" "ingest + summary --format vegeta" "$W/pt"
report "vegeta report -type=json" "$W/vj" "ingest + summary --format vegeta-json" "$W/pj"
echo "vegeta peer: load average after $(cut -d' ' -f1-3 /proc/loadavg)"
echo "text reports (only the percentiles may differ, docs/metrics.md):"
diff "$W/v.txt" "$W/p.txt" && echo "  identical" || true
sh "$HERE/vegeta_compare.sh" "$W/v.json" "$W/p.json"
