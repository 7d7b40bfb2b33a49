#!/bin/sh
# export --format influx into a real InfluxDB 1.x (Debian's influxdb, a private server on
# random ports): the write is accepted whole, and queries of the kind JMeter's Grafana
# dashboards run read back the run's own totals; every field is a float, as JMeter writes.
. tests/integration/lib.sh
INFLUXD=$(command -v influxd || echo /usr/bin/influxd)
[ -x "$INFLUXD" ] || skip "influxd is not installed (Debian package influxdb)"
command -v curl >/dev/null 2>&1 || skip "curl is not installed"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"
"$BIN" ingest -q "$DATA/jmeter/connrefused.jtl" "$DATA/jmeter/csv-quoted.jtl" "$DATA/native/bench3k.prf" ||
  fail "ingest"
started=""
for t in 1 2 3 4 5; do
  HP=$(random_port)
  RP=$(random_port)
  mkdir -p "$work/influx$t"
  cat > "$work/influx$t/influxdb.conf" <<CONF
reporting-disabled = true
bind-address = "127.0.0.1:$RP"
[meta]
  dir = "$work/influx$t/meta"
[data]
  dir = "$work/influx$t/data"
  wal-dir = "$work/influx$t/wal"
  query-log-enabled = false
[http]
  enabled = true
  bind-address = "127.0.0.1:$HP"
  log-enabled = false
[monitor]
  store-enabled = false
[continuous_queries]
  enabled = false
CONF
  "$INFLUXD" -config "$work/influx$t/influxdb.conf" >"$work/influx$t/log" 2>&1 &
  ipid=$!
  for i in $(seq 1 50); do
    curl -s -o /dev/null "http://127.0.0.1:$HP/ping" && { started=1; break; }
    kill -0 "$ipid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$started" ] && break
  kill "$ipid" 2>/dev/null
done
[ -n "$started" ] || skip "influxd did not start: $(tail -1 "$work/influx$t/log")"
cleanups="$cleanups kill $ipid 2>/dev/null;"
I="http://127.0.0.1:$HP"
q() { curl -s -G "$I/query" --data-urlencode "db=jmeter" --data-urlencode "q=$1"; }
curl -s -XPOST "$I/query" --data-urlencode "q=CREATE DATABASE jmeter" >/dev/null
for run in 1 2 3; do
  "$BIN" export --format influx --interval 1s "$run" > "$work/run$run.lp" || fail "export $run"
  code=$(curl -s -o "$work/write.err" -w '%{http_code}' -XPOST "$I/write?db=jmeter" \
    --data-binary "@$work/run$run.lp")
  [ "$code" = 204 ] || fail "write of run $run: HTTP $code $(cat "$work/write.err")"
done
# the run's totals, as a dashboard's "total requests / errors" panels sum them
for run in 1 2 3; do
  app=$("$BIN" runs | awk -v id="$run" '$1 == id { print $2 }')
  want=$("$BIN" summary --no-findings "$run" | awk '$1 == "requests" { print $2 }')
  errs=$("$BIN" summary --no-findings "$run" | sed -n 's/.*(\([0-9]*\) errors).*/\1/p')
  got=$(q "SELECT sum(\"count\"), sum(\"countError\") FROM \"jmeter\" WHERE \"application\" = '$app' AND \"transaction\" = 'all' AND \"statut\" = 'all'" |
        jq -r '.results[0].series[0].values[0] | "\(.[1]) \(.[2])"')
  [ "$got" = "$want $errs" ] || fail "run $run ($app): influx says '$got', summary '$want $errs'"
  lines=$(wc -l < "$work/run$run.lp")
  points=$(q "SELECT count(\"count\") FROM \"jmeter\" WHERE \"application\" = '$app'" |
           jq -r '.results[0].series[0].values[0][1]')
  grep -q "^jmeter,application=[^ ]*,transaction=internal .*maxAT=" "$work/run$run.lp" &&
    [ "$run" = 1 ] && saw_threads=1
  ann=$(q "SELECT count(\"text\") FROM \"events\" WHERE \"application\" = '$app'" |
        jq -r '.results[0].series[0].values[0][1]')
  internal=$(q "SELECT count(\"maxAT\") FROM \"jmeter\" WHERE \"application\" = '$app'" |
            jq -r '.results[0].series[0].values[0][1] // 0')
  [ $((points + internal + ann)) -eq "$lines" ] ||
    fail "run $run: $lines lines written, $points + $internal + $ann points read"
done
# per transaction and status, as the dashboards' tables read them
ok=$(q "SELECT sum(\"count\") FROM \"jmeter\" WHERE \"application\" = 'bench' AND \"transaction\" = 'GET /api/v1/endpoint-0' AND \"statut\" = 'ok'" |
     jq -r '.results[0].series[0].values[0][1]')
want=$("$BIN" summary --json bench | jq -r '.runs[0].labels[] | select(.label == "GET /api/v1/endpoint-0") | .successes')
[ "$ok" = "$want" ] || fail "endpoint-0: influx says $ok successes, summary $want"
types=$(q 'SHOW FIELD KEYS FROM "jmeter"' | jq -r '[.results[0].series[0].values[][1]] | unique | join(",")')
[ "$types" = float ] || fail "field types: $types (JMeter writes floats only)"
pcts=$(q 'SHOW FIELD KEYS FROM "jmeter"' | jq -r '[.results[0].series[0].values[][0] | select(startswith("pct"))] | sort | join(",")')
[ "$pcts" = "pct90.0,pct95.0,pct99.0" ] || fail "percentile fields: $pcts"
[ -n "${saw_threads:-}" ] || fail "no internal (threads) points for the JMeter run"
echo "ok: 3 runs written to influxd and read back (totals, points, float fields $pcts)"
