# A history of 12 builds (tests/tools/synth_vegeta.awk): latency steps up at build 8; the
# throughput stays the same. Builds 10-12 check the numeric-aware ordering.
for b in 1 2 3 4 5 6 7 8 9 10 11 12; do
  base=5; [ $b -ge 8 ] && base=7
  awk -v rate=100 -v secs=2 -v cap=1000 -v base_ms=$base -v seed=$((b * 7)) -f "$root/tests/tools/synth_vegeta.awk" > b$b.json
  "$PR" ingest --name build$b --tag build=$b b$b.json >/dev/null
done
pr trend p99 --by tag:build --fail-on-regression
pr trend throughput --by tag:build --fail-on-regression
sh_ "\$PR trend p50 --by tag:build --json | grep -E '\"(index|key|verdict|regressions)\"'"
pr trend p99 tag:build=3 tag:build=4
pr trend p77
pr trend
pr trend p99 --by tag:build --min-effect 50% --fail-on-regression
