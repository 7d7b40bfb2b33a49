#!/bin/sh
# Two builds side by side on the issue-18 commands, interleaved (old, new, old, new…) so both
# see the same machine: bench/versus.sh OLD_BIN NEW_BIN [ROUNDS]. Env: STORE (a store holding
# run 1, default bench/data/bench.db), NATIVE (a native file to ingest, default
# bench/data/native-10000000.prf). Prints per command and build the wall seconds of each round,
# their CPU (user + sys) and the peak resident memory (GNU time).
set -eu
OLD=$1 NEW=$2 R=${3:-3}
S=${STORE:-bench/data/bench.db}
F=${NATIVE:-bench/data/native-10000000.prf}
log=$(mktemp)
tmp=$(mktemp -d)
for i in $(seq "$R"); do
  for b in "$OLD" "$NEW"; do
    tag=old; [ "$b" = "$NEW" ] && tag=new
    t() { name=$1; shift; /usr/bin/time -f "$name $tag %e %U %S %M" "$@" >/dev/null 2>>"$log"; }
    rm -f "$tmp"/i.db*
    t ingest-native "$b" ingest --quiet --store "$tmp/i.db" "$F"
    t summary "$b" summary --store "$S" 1
    t compare "$b" compare --store "$S" 1 1
    t render-html "$b" render --store "$S" --template templates/report.html --out "$tmp/r.html" 1
    for k in latency percentiles labels; do t "chart-$k" "$b" chart "$k" --store "$S" --out "$tmp/c.png" 1; done
    for f in vegeta jmeter ab locust k6 gatling; do t "format-$f" "$b" summary --store "$S" --format "$f" 1; done
  done
done
awk '{k = $1 " " $2; w[k] = w[k] sprintf("%.2f/", $3); c[k] = c[k] sprintf("%.2f/", $4 + $5); m[k] = $6 / 1024}
     END {for (k in w) printf "%-22s wall %s  cpu %s  %.0f MiB\n", k, w[k], c[k], m[k]}' "$log" | sort
rm -rf "$log" "$tmp"
