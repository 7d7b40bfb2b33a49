# hey, wrk, siege and httperf: per-request CSV (hey) and printed summaries (summary-only runs).
pr ingest "$DATA/other/hey_mixed_status.csv" "$DATA/other/hey_nginx_c50_summary.txt"
pr ingest "$DATA/other/wrk_nginx_t2c50_latency.txt" "$DATA/other/wrk_nolatency_big.txt"
pr ingest "$DATA/other/siege_nginx_c10_r100_text.txt" "$DATA/other/httperf_nginx_rate500.txt"
pr runs
pr summary
