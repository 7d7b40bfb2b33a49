# hey, wrk, siege and httperf: per-request CSV (hey) and printed summaries (summary-only runs).
pr ingest "$DATA/other/hey_mixed_status.csv" "$DATA/other/hey_nginx_c50_summary.txt"
pr ingest "$DATA/other/wrk_nginx_t2c50_latency.txt" "$DATA/other/wrk_nolatency_big.txt"
pr ingest "$DATA/other/siege_nginx_c10_r100_text.txt" "$DATA/other/httperf_nginx_rate500.txt"
pr runs
pr summary
# one run from two files (e.g. one per load generator): its span and counts cover both
sh_ "head -n 289 \$DATA/other/hey_mixed_status.csv > part1.csv; (head -n 1 \$DATA/other/hey_mixed_status.csv; tail -n +290 \$DATA/other/hey_mixed_status.csv) > part2.csv"
pr ingest --name whole part1.csv part2.csv
sql "SELECT name, samples, start_ns, end_ns FROM runs WHERE name IN ('hey_mixed_status', 'whole') ORDER BY id"
# httperf's --rate counts connections (issue 33): with --num-calls=5 the offered request rate is
# 2500/s, the load line and capacity's efficiency use it and say where it came from.
sh_ "grep -E '^(httperf|Connection rate|Request rate)' \$DATA/other/httperf_nginx_rate500.txt"
pr capacity httperf_nginx_rate500
sh_ "\$PR summary --json httperf_nginx_rate500 | jq -c '.runs[0] | (.load | {offered_rate_per_s, offered_rate_source, offered_rate_basis}), (.meta | {offered_connection_rate_per_s, requests_per_connection})'"
