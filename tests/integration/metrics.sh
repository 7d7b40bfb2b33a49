#!/bin/sh
# attack --metrics-listen: the live OpenMetrics / Prometheus text, scraped with curl while a
# short attack against a private nginx runs: both formats parse (Python's prometheus_client
# parsers, when installed), counters only grow, and they end at most at the run's totals.
. tests/integration/lib.sh
command -v curl >/dev/null 2>&1 || skip "curl is not installed"
start_nginx
URL="http://127.0.0.1:$NGINX_PORT"
for t in 1 2 3 4 5; do
  MP=$(random_port)
  "$BIN" attack -r 100/s --duration 3s -q --metrics-listen "127.0.0.1:$MP" --ingest --name live \
    "$URL/" "$URL/missing" 2>"$work/attack.err" &
  apid=$!
  up=""
  for i in $(seq 1 60); do # the listener is up once the attack has started (slower under ASan)
    curl -s -o /dev/null "http://127.0.0.1:$MP/metrics" && { up=1; break; }
    kill -0 "$apid" 2>/dev/null || break
    sleep 0.05
  done
  [ -n "$up" ] && break
  wait "$apid"
  grep -q "Address already in use" "$work/attack.err" || fail "no listener: $(cat "$work/attack.err")"
done
sleep 0.7
check curl -s -f -o "$work/a.txt" "http://127.0.0.1:$MP/metrics"
sleep 1
check curl -s -f -o "$work/b.om" -H 'Accept: application/openmetrics-text; version=1.0.0' \
  "http://127.0.0.1:$MP/metrics"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$MP/nothing")
[ "$code" = 404 ] || fail "GET /nothing answered $code"
wait "$apid" || fail "attack failed: $(cat "$work/attack.err")"

# the text: per label and status, histograms, the OpenMetrics end marker
grep -q '^perfreport_requests_total{label="GET '"$URL"'/",status="200"} [1-9]' "$work/a.txt" ||
  fail "no 200 counter for /: $(head -5 "$work/a.txt")"
grep -q '^perfreport_requests_total{label="GET '"$URL"'/missing",status="404"} [1-9]' "$work/a.txt" ||
  fail "no 404 counter for /missing"
grep -q '^# TYPE perfreport_requests_total counter' "$work/a.txt" || fail "0.0.4 counter family"
grep -q '^# TYPE perfreport_requests counter' "$work/b.om" || fail "OpenMetrics counter family"
[ "$(tail -1 "$work/b.om")" = "# EOF" ] || fail "OpenMetrics text does not end with # EOF"
grep -q '^perfreport_latency_seconds_bucket{le="+Inf"} ' "$work/b.om" || fail "no latency histogram"
grep -q '^perfreport_requests_in_flight ' "$work/b.om" || fail "no in-flight gauge"

count() { awk -v k="$2" 'index($0, k) == 1 { print $NF }' "$1"; }
a=$(count "$work/a.txt" 'perfreport_latency_seconds_count ')
b=$(count "$work/b.om" 'perfreport_latency_seconds_count ')
total=$("$BIN" runs | awk '$2 == "live" { print $(NF-2) }')
[ -n "$total" ] || total=$("$BIN" summary live | awk '$1 == "requests" { print $2 }')
[ "$a" -gt 0 ] && [ "$b" -ge "$a" ] && [ "$total" -ge "$b" ] ||
  fail "counts do not grow to the run's: first $a, second $b, run $total"
# scraped mid-run: the first scrape saw part of the 300 requests, not all
[ "$a" -lt 300 ] || fail "the first scrape already saw every request ($a)"

if "$PY" -c 'import prometheus_client' 2>/dev/null; then
  "$PY" - "$work/a.txt" "$work/b.om" <<'PY' || fail "a parser refused the text"
import sys
from prometheus_client.parser import text_string_to_metric_families as prom
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
kinds = {f.name: f.type for f in prom(open(sys.argv[1]).read())}
assert kinds["perfreport_latency_seconds"] == "histogram", kinds
assert kinds["perfreport_requests"] == "counter", kinds
kinds = {f.name: f.type for f in om(open(sys.argv[2]).read())}
assert kinds["perfreport_send_lateness_seconds"] == "histogram", kinds
assert kinds["perfreport_requests_in_flight"] == "gauge", kinds
PY
  echo "ok: scraped $a then $b of $total requests; both formats parse"
else
  echo "ok: scraped $a then $b of $total requests (python3-prometheus-client absent: formats not parsed)"
fi
