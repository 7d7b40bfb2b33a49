# Small things a new user trips over (issue 13, case 6), each on a real fixture.
# Global options work before the command as well as after it.
pr --store other.db ingest "$DATA/ab/ab_plain_c10.txt"
pr --store=other.db runs
pr runs --store other.db
pr --quiet --store other.db ingest --force "$DATA/ab/ab_plain_c10.txt"
pr -q ingest --store other.db --force "$DATA/ab/ab_plain_c10.txt"
pr ingest "$DATA/ab/ab_plain_c10.txt" --quiet --store other.db --force
sh_ "\$PR --store other.db runs | wc -l"
pr --store other.db summary --version
pr --store other.db runs --store missing.db
pr --bogus runs
pr --store
sh_ "ls *.db"
# An ab text with no report (ab stopped: connection refused, a reset, an -s timeout) is an
# error at the end of ab's output, and the store is left as it was.
pr ingest "$DATA/ab/ab_refused.txt"
pr ingest "$DATA/ab/ab_timeout_s1.txt"
sh_ "cat \$DATA/ab/ab_refused.txt \$DATA/ab/ab_refused.stderr.txt | \$PR ingest -"
no_run_left
# Inputs read from stdin have no file name: each gets a name of its own.
sh_ "cat \$DATA/ab/ab_plain_c10.txt | \$PR ingest -"
sh_ "cat \$DATA/ab/ab_small_n20.txt | \$PR ingest -"
sh_ "cat \$DATA/ab/ab_big_64k.txt | \$PR ingest -"
sh_ "\$PR ingest - - < \$DATA/ab/ab_post_json.txt"
pr runs
pr summary stdin-2
# ab -e percentiles in numeric order (the store keeps JSON keys sorted as text: p1, p10, p100…).
pr ingest "$DATA/ab/ab_timelimit_t2.csv"
pr summary ab_timelimit_t2
sh_ "\$PR summary --json ab_timelimit_t2 | grep -o '\"p\": \"[0-9.]*\"' | head -12 | tr '\n' ' '; echo"
# Whole milliseconds are never "0 ns": ab and JMeter write whole ms, so a 0 is "< 1 ms" (ab -g
# start stamps are whole seconds: a duration of 0 is "< 1 s"); the JSON keeps the number and
# the resolution.
pr ingest "$DATA/ab/ab_small_n20.tsv"
pr summary ab_small_n20
sh_ "\$PR summary --json ab_small_n20 | grep -E '\"(latency_resolution_ns|time_resolution_ns|duration_ns|duration)\"' | head -4"
pr ingest --name jtl "$DATA/jmeter/csv-default.jtl"
pr summary --no-findings jtl
pr check --max p50=1ms --max min=1ms jtl
sh_ "\$PR compare ab_small_n20 jtl | grep -E '^  (mean|p50|max) '"
sh_ "\$PR render --template report.md -o report.md jtl && grep -c ' 0 ns' report.md; grep -m2 -F '&lt; 1 ms' report.md"
sh_ "\$PR ingest \$DATA/other/hey_nginx_c50_summary.txt \$DATA/other/siege_nginx_c10_r100_text.txt >/dev/null; \$PR summary hey_nginx_c50_summary siege_nginx_c10_r100_text | grep latency"
# `runs` columns stay aligned with long names, wide (CJK) names and long tool names.
pr ingest -q --name "a-rather-long-run-name-from-a-ci-job-1234" "$DATA/ab/ab_plain_c10.tsv"
pr ingest -q --name "首页压力测试（第二轮）" --tag build=2 "$DATA/ab/ab_error_500.tsv"
pr runs
# --skip-warmup longer than the run warns that nothing is left.
pr summary --skip-warmup 1h --no-findings jtl
pr check --skip-warmup 10s --max p99=250ms jtl
pr findings --skip-warmup 1h jtl
pr summary --from 1s --to 1s --no-findings jtl
# Charts drawn from samples refuse a summary-only run instead of writing a blank image;
# compare draws from the printed numbers.
pr chart latency -o latency.png hey_nginx_c50_summary
pr chart percentiles -o p.png hey_nginx_c50_summary
pr chart spectrum -o spectrum.png hey_nginx_c50_summary
pr chart labels -o labels.png hey_nginx_c50_summary
pr chart spectrum -o spectrum.png hey_nginx_c50_summary jtl
pr chart latency --from 1h -o latency.png jtl
pr chart compare -o compare.png hey_nginx_c50_summary jtl
sh_ "ls *.png"
