#!/bin/sh
# Compares `vegeta report -type=json` with `perfreport summary --format vegeta-json` number by
# number. Every field must be equal except where docs/metrics.md ("Vegeta compatibility") says
# the definitions differ: the 50th/90th/95th/99th latencies (Vegeta: t-digest estimates,
# perfreport: exact order statistics) and the mean, which may differ by 1 ns (truncated against
# rounded). Prints one line per field; exits 1 when a field that must agree does not.
# Usage: sh bench/peers/vegeta_compare.sh VEGETA.json PERFREPORT.json
set -eu
[ $# = 2 ] || { echo "usage: vegeta_compare.sh VEGETA.json PERFREPORT.json" >&2; exit 2; }
flat() { # one "path<TAB>value" line per leaf, arrays by index
  jq -r 'paths(scalars) as $p | [($p | map(tostring) | join(".")), (getpath($p) | tostring)] | @tsv' "$1"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flat "$1" | sort >"$tmp/a"
flat "$2" | sort >"$tmp/b"
join -t "$(printf '\t')" -a 1 -a 2 -e '(absent)' -o 0,1.2,2.2 "$tmp/a" "$tmp/b" | awk -F '\t' '
  function abs(x) { return x < 0 ? -x : x }
  {
    k = $1; v = $2; p = $3
    if (v == p) { same++; printf "%-24s %24s %24s  equal\n", k, v, p; next }
    if (k ~ /^latencies\.(50th|90th|95th|99th)$/) {
      rel = (v != 0) ? (p - v) / v * 100 : 0
      printf "%-24s %24s %24s  t-digest vs exact: %+.2f%%\n", k, v, p, rel; est++; next
    }
    if (k == "latencies.mean" && abs(p - v) <= 1) {
      printf "%-24s %24s %24s  truncated vs rounded (1 ns)\n", k, v, p; est++; next
    }
    printf "%-24s %24s %24s  DIFFERENT\n", k, v, p; bad++
  }
  END {
    printf "vegeta vs perfreport: %d fields equal, %d differ by definition, %d different\n", same, est, bad
    exit bad > 0
  }'
