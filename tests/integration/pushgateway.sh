#!/bin/sh
# export --format prometheus pushed to a real Prometheus Pushgateway (Debian's
# prometheus-pushgateway on a random port): the push is accepted and the gateway serves the
# run's figures back under the grouping key; the text parses as OpenMetrics (python3).
. tests/integration/lib.sh
PGW=$(command -v prometheus-pushgateway || echo /usr/bin/prometheus-pushgateway)
[ -x "$PGW" ] || skip "prometheus-pushgateway is not installed"
command -v curl >/dev/null 2>&1 || skip "curl is not installed"
"$BIN" ingest -q --tag build=41 --tag job=nightly "$DATA/native/bench3k.prf" || fail "ingest"
"$BIN" export --format prometheus bench > "$work/bench.om" || fail "export"
[ "$(tail -1 "$work/bench.om")" = "# EOF" ] || fail "no # EOF"
started=""
for t in 1 2 3 4 5; do
  GP=$(random_port)
  "$PGW" --web.listen-address="127.0.0.1:$GP" >"$work/pgw.log" 2>&1 &
  gpid=$!
  for i in $(seq 1 50); do
    curl -s -o /dev/null "http://127.0.0.1:$GP/-/ready" && { started=1; break; }
    kill -0 "$gpid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$started" ] && break
  kill "$gpid" 2>/dev/null
done
[ -n "$started" ] || skip "the pushgateway did not start: $(tail -1 "$work/pgw.log")"
cleanups="$cleanups kill $gpid 2>/dev/null;"
code=$(curl -s -o "$work/push.err" -w '%{http_code}' --data-binary "@$work/bench.om" \
  "http://127.0.0.1:$GP/metrics/job/perfreport/run/bench")
[ "$code" = 200 ] || fail "push: HTTP $code $(cat "$work/push.err")"
curl -s "http://127.0.0.1:$GP/metrics" > "$work/served.txt" || fail "GET /metrics"
grep -q '^perfreport_run_requests{.*build="41".*job="perfreport".*} 3000$' "$work/served.txt" ||
  fail "requests not served back: $(grep perfreport_run_requests "$work/served.txt")"
grep -q 'tag_job="nightly"' "$work/served.txt" || fail "the run's job tag is not kept apart"
grep -q '^perfreport_run_latency_seconds{.*quantile="0.99".*} 0.018169828$' "$work/served.txt" ||
  fail "p99 not served back: $(grep 'quantile="0.99"' "$work/served.txt")"
if "$PY" -c 'import prometheus_client' 2>/dev/null; then
  "$PY" - "$work/bench.om" <<'PY' || fail "the OpenMetrics parser refused the export"
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
kinds = {f.name: f.type for f in om(open(sys.argv[1]).read())}
assert kinds["perfreport_run_latency_seconds"] == "summary", kinds
assert kinds["perfreport_run_requests"] == "gauge", kinds
PY
fi
echo "ok: pushed to the Pushgateway and served back (requests 3000, p99 18.17 ms)"
