# Issue 13, regressions over history: 7 builds with samples (tests/tools/synth_vegeta.awk, 100 req/s
# for 10 s each) whose p99 goes 21 ms -> 122 ms (builds 4-5: 2% of requests 121-123 ms) -> 3.00 s
# (builds 6-7: 2% client timeouts at 3 s).
for b in 1 2 3 4 5 6 7; do
  tail=""
  case $b in
    4|5) tail="-v tail_frac=0.02 -v tail_ms=121" ;;
    6|7) tail="-v tail_frac=0.02 -v tail_ms=3000 -v tail_code=0" ;;
  esac
  awk -v rate=100 -v secs=10 -v cap=1000 -v base_ms=9.5 -v seed=$((b * 13)) $tail \
    -f "$root/tests/tools/synth_vegeta.awk" > b$b.json
  "$PR" ingest --name build$b --tag build=$b --tag app=shop b$b.json >/dev/null
done
pr trend p99 --by tag:build --fail-on-regression
pr trend p50 --by tag:build --fail-on-regression
pr trend error_ratio --by tag:build
pr trend max --by tag:build
sh_ "\$PR trend p99 --by tag:build --json | grep -E '\"(can_decide|runs_needed|test|verdict|step_regressions|regressions)\"' | sort | uniq -c"
# the same builds kept only as Vegeta's printed reports: no samples, so the steps are untested
for b in 1 4 6; do
  "$PR" summary --format vegeta build$b > b$b.report.txt
  "$PR" ingest --name printed$b --tag pbuild=$b b$b.report.txt >/dev/null
done
pr trend p99 --by tag:pbuild --fail-on-regression
