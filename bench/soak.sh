#!/bin/bash
# make soak (issue 15 item 9; not in CI): the generator holds its load over time against a
# private nginx on 127.0.0.1. Each soak is one open-model `perfreport attack` writing native
# samples to a file; every 10 s the attack's RSS is read from /proc; at the end: the RSS series
# (flat = no growth), the send lateness percentiles as the attack printed them, and the
# samples in the file against the requests the generator sent (nothing lost: equal).
# Env: SOAKS (default "20000:10m 5000:60m", RATE:DURATION pairs), WORKERS (2), PORT (random).
# Needs nginx and sqlite3.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
BIN=${PERFREPORT_BIN:-$here/../perfreport}
SOAKS=${SOAKS:-20000:10m 5000:60m}
WORKERS=${WORKERS:-2}
PORT=${PORT:-$((20000 + RANDOM % 20000))}
for t in nginx sqlite3; do
  command -v $t >/dev/null || { echo "bench/soak.sh: $t not installed (skipped)"; exit 0; }
done
dir=$(mktemp -d)
pid=$(bash "$here/nginx.sh" "$dir" "$PORT")
apid=
# nginx is not this shell's child: wait says 127, and under set -e a failing command in the
# trap ends it there (the script exited 127 and left $dir behind)
trap 'kill $apid $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
url=http://127.0.0.1:$PORT/

for soak in $SOAKS; do
  rate=${soak%%:*}
  dur=${soak#*:}
  echo "== soak: $rate req/s for $dur (-w $WORKERS), load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$BIN" attack -r "$rate/s" --duration "$dur" -w "$WORKERS" -o "$dir/soak.prf" "$url" \
    2>"$dir/soak.out" &
  apid=$!
  rss=""
  loads=""
  while kill -0 "$apid" 2>/dev/null; do
    v=$(awk '/^VmRSS/ {print $2}' "/proc/$apid/status" 2>/dev/null || true)
    [ -n "$v" ] && rss="$rss $v" && loads="$loads $(cut -d' ' -f1 /proc/loadavg)"
    sleep 10
  done
  wait "$apid" || true
  apid=
  grep -E '^[0-9]+ requests|^  (duration|latency|send lateness|send rate|errors|connections|in flight)' "$dir/soak.out"
  echo "RSS KiB every 10 s:$rss"
  # the summary keeps its first 1,000,000 durations exactly, then histograms: flat from there
  echo "$rss" | awk '{ n = NF; if (!n) exit; max = $1; for (i = 1; i <= n; i++) if ($i > max) max = $i
    k = (n > 6) ? 7 : n; late = $k; for (i = k; i <= n; i++) if ($i > late) late = $i
    printf "RSS: max %d KiB; at 60 s %d KiB, highest after %d KiB, last %d KiB (growth after the first minute: %d KiB)\n",
      max, $k, late, $n, late - $k }'
  echo "load average every 10 s:$loads"
  rm -f "$dir/soak.db"*
  "$BIN" ingest --quiet --store "$dir/soak.db" "$dir/soak.prf"
  sqlite3 "$dir/soak.db" "SELECT 'samples ' || samples || ', sent ' || json_extract(meta_json, '\$.sent_requests') || CASE WHEN samples = json_extract(meta_json, '\$.sent_requests') THEN ': equal, nothing lost' ELSE ': DIFFERENT' END FROM runs"
  echo "native file: $(stat -c %s "$dir/soak.prf") bytes"
  "$BIN" summary --store "$dir/soak.db" --no-findings -p 50,90,99,99.9,99.99 1 | grep -E '^  (send lateness|latency) '
  rm -f "$dir/soak.prf"
done
