#!/bin/sh
# stores: postgresql
# The Grafana dashboard (contrib/grafana/dashboards/perfreport.json) against the store under
# test on the real PostgreSQL server: every panel's and variable's SQL, with Grafana's macros
# expanded as its PostgreSQL data source does, runs and returns rows; time-series queries
# return a "time" column; the figures are the ones `perfreport summary` prints.
. tests/integration/lib.sh
[ "${PR_STORE_KIND:-}" = postgresql ] || skip "the dashboard reads PostgreSQL"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"
DASH="$ROOT/contrib/grafana/dashboards/perfreport.json"
"$BIN" ingest -q --tag build=41 "$DATA/native/bench3k.prf" || fail "ingest"
"$BIN" ingest -q --tag build=42 --name bench "$DATA/native/bench3k.prf" --force || fail "ingest"
"$BIN" ingest -q "$DATA/other/hey_mixed_status.csv" "$DATA/jmeter/connrefused.jtl" || fail "ingest"
for i in 0 2; do
  # a closed port: every request fails, so attack exits 3, and the shard lands all the same
  "$BIN" attack -q -n 9 -c 3 --shard $i/3 --run-id sharded http://127.0.0.1:1/ 2>/dev/null
  rc=$?
  [ "$rc" = 3 ] || fail "shard $i: exit $rc"
done
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -A -F '|' -d "$PERFREPORT_STORE" -c "$1"; }
names=$(psql_q "SELECT string_agg(quote_literal(name), ',') FROM (SELECT DISTINCT name FROM run_summary) x" | sed -n 2p)
run=$(psql_q "SELECT max(run_id) FROM run_summary WHERE name = 'bench'" | sed -n 2p)
# Grafana's macros and variables, as the PostgreSQL data source expands them
expand() {
  sed -e "s/\$__timeFilter(\([a-z_]*\))/\1 BETWEEN '1970-01-01T00:00:00Z' AND '2100-01-01T00:00:00Z'/g" \
      -e "s/\$name/$names/g" -e "s/\$run/$run/g"
}
n=0
for q in $(jq -r '(.panels[] | .targets[] | [.format, .rawSql]), (.templating.list[] | ["variable", .query]) | @base64' "$DASH"); do
  fmt=$(echo "$q" | base64 -d | jq -r '.[0]')
  sql=$(echo "$q" | base64 -d | jq -r '.[1]' | expand)
  psql_q "$sql" > "$work/out.txt" 2>&1 || fail "query failed: $sql: $(cat "$work/out.txt")"
  rows=$(($(wc -l < "$work/out.txt") - 2))
  [ "$rows" -gt 0 ] || fail "no rows: $sql"
  if [ "$fmt" = time_series ]; then
    head -1 "$work/out.txt" | grep -q '^time|' || fail "no time column first: $(head -1 "$work/out.txt")"
  fi
  n=$((n + 1))
done
[ "$n" -ge 7 ] || fail "only $n queries in the dashboard"
# the figures the panels show are perfreport's own
p99=$(psql_q "SELECT p99_ns FROM run_summary WHERE run_id = $run" | sed -n 2p)
want=$("$BIN" summary --json "$run" | jq -r '.runs[0].stats.latency_ns.p99')
[ "$p99" = "$want" ] || fail "run_summary p99 $p99, summary $want"
pts=$(psql_q "SELECT count(*), sum(requests) FROM run_series WHERE run_id = $run" | sed -n 2p)
want=$("$BIN" summary --json "$run" | jq -r '"\(.runs[0].timeseries.points | length)|\(.runs[0].stats.requests)"')
[ "$pts" = "$want" ] || fail "run_series $pts, summary $want"
shards=$(psql_q "SELECT shards_landed || ' of ' || shard_count FROM run_summary WHERE name = 'sharded'" | sed -n 2p)
[ "$shards" = "2 of 3" ] || fail "shards column: $shards"
echo "ok: $n dashboard queries ran with rows; p99, series and shards match summary"
