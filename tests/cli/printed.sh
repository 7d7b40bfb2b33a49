# Summary-only runs keep everything their tool printed and every command uses it: error ratio
# and success, the tool's own layouts, compare, capacity and findings.
pr ingest "$DATA/vegeta/mixed.report.txt" "$DATA/vegeta/basic.report.txt"
pr ingest "$DATA/ab/ab_plain_c10.txt" "$DATA/ab/ab_missing_404.txt"
pr ingest "$DATA/other/wrk_nginx_t2c50_latency.txt" "$DATA/other/wrk_missing_404_latency.txt"
pr ingest "$DATA/other/siege_nginx_c10_r100_text.txt"
pr summary mixed.report ab_missing_404 wrk_nginx_t2c50_latency siege_nginx_c10_r100_text
# Vegeta printed Success 100.00% and 80.00%; ab and siege printed their failed requests; wrk
# prints its error lines only when there are errors
pr check --max error_ratio=1% --min throughput=100/s basic.report mixed.report ab_plain_c10 ab_missing_404 wrk_nginx_t2c50_latency siege_nginx_c10_r100_text
# the tool's layout, filled with what it printed: Vegeta's report comes back byte for byte
sh_ "\$PR summary --format vegeta mixed.report | diff - \$DATA/vegeta/mixed.report.txt && echo same as vegeta report"
sh_ "sed -n '/^Connection Times/,\$p' \$DATA/ab/ab_plain_c10.txt > ab_tables.txt; \$PR summary --format ab ab_plain_c10 | diff - ab_tables.txt && echo same as the tables ab printed"
pr summary --format vegeta wrk_nginx_t2c50_latency
pr summary --format ab wrk_nginx_t2c50_latency
pr summary --format jmeter siege_nginx_c10_r100_text
# compare and capacity on the printed numbers (differences untested: no samples)
pr compare ab_plain_c10 ab_missing_404
pr compare wrk_nginx_t2c50_latency wrk_missing_404_latency
pr capacity wrk_missing_404_latency wrk_nginx_t2c50_latency
pr findings ab_missing_404 wrk_missing_404_latency mixed.report
