# k6: --out json (both key layouts), --out csv, --summary-export and handleSummary JSON; k6's
# own end-of-test summary layout; files of several k6 versions (tests/data/k6/README.md).
sh_ "\$PR formats | grep -E '^(k6|hdr)'"
pr ingest "$DATA/k6/keycloak_v041plus.ndjson" "$DATA/k6/docs_v035.ndjson" "$DATA/k6/workloads_v039.ndjson" "$DATA/k6/k6_output_json_test.ndjson"
pr ingest "$DATA/k6/docs_v035.csv" "$DATA/k6/v055_single.csv"
pr ingest "$DATA/k6/maribel_handlesummary.json" "$DATA/k6/ticket_reserve_export.json" "$DATA/k6/qrcode_export.json"
pr runs
pr summary 1 2
pr summary --format k6 --percentiles k6 keycloak_v041plus
pr summary --no-findings workloads_v039
pr summary --format k6 --percentiles k6 workloads_v039
sh_ "\$PR summary --json k6_output_json_test | grep -A3 '\"my_metric2\"'"
# a summary-only run prints k6's own numbers in k6's layout: byte for byte the summary.txt
# k6 printed for the same run (the fixture has no final newline)
sh_ "\$PR summary --format k6 maribel_handlesummary > mine.txt; { cat \$DATA/k6/maribel_summary.txt; echo; } | cmp - mine.txt && echo identical"
pr summary maribel_handlesummary ticket_reserve_export
pr summary --format k6 qrcode_export
sh_ "\$PR summary --json ticket_reserve_export | grep -E '\"(requests|failures|successes)\"'"
# a generated NDJSON stream (bench/gen_k6: 3000 requests, 4% 404, 1% 500): our k6 figures
# against an independent awk rendering of k6's TrendSink
sh_ "\$ROOT_BUILD/bench/gen_k6 3000 gen.ndjson 20 && wc -l < gen.ndjson"
pr ingest gen.ndjson
sh_ "\$PR summary --format k6-json --percentiles k6 gen | grep -A9 '\"http_req_duration\"' | grep -E 'avg|min|med|max|p\\(9'"
sh_ "sh \$ROOT/tests/tools/k6_trend.sh gen.ndjson"
sh_ "\$PR summary --format k6-json --percentiles k6 gen | grep -A9 'expected_response:true' | grep -E 'avg|med|p\\(95'"
sh_ "sh \$ROOT/tests/tools/k6_trend.sh gen.ndjson true"
pr summary --format k6 gen
sh_ "\$PR summary --by label --no-findings gen | head -n 16"
# bad and damaged input: file:line:col, non-zero exit, the store keeps the complete records
sh_ "head -c 2000 \$DATA/k6/keycloak_v041plus.ndjson > cut.ndjson"
pr ingest cut.ndjson
sh_ "printf '{\"metric\":\"http_reqs\",\"type\":\"Point\",\"data\":{\"time\":\"2025\",\"value\":1,\"tags\":{}}}\n' > badtime.ndjson"
pr ingest badtime.ndjson
sh_ "printf 'metric_name,timestamp,metric_value,check\nhttp_reqs,1641298536,1.0\n' > short.csv"
pr ingest short.csv
pr ingest --format k6-summary "$DATA/k6/docs_v035.ndjson"
pr runs
# one k6 run (itzaddddd/ticket-reserve, tests/data/k6/README.md): 100 VUs sent their 100
# requests within 58 ms and k6's test lasted 4.21 s. k6's request rate (http_reqs) is the
# count over the test's duration: alone, the NDJSON's whole span (first start to last end)
pr ingest "$DATA/k6/ticket_reserve_output.ndjson"
pr summary --no-findings ticket_reserve_output
sh_ "\$PR summary --by label --no-findings ticket_reserve_output | grep -A2 '^  label'"
# the NDJSON and the --summary-export of the same `k6 run`, under names of their own, given
# in one ingest (either order) are one run: k6's test duration and rate, and in k6's layout
# every figure k6 printed (http_reqs 23.738351/s, as k6's export has it)
pr --store pair.db ingest "$DATA/k6/ticket_reserve_export.json" "$DATA/k6/ticket_reserve_output.ndjson"
pr --store pair.db runs
pr --store pair.db summary --no-findings ticket_reserve_output
pr --store pair.db summary --format k6 ticket_reserve_output
sh_ "\$PR summary --format k6 ticket_reserve_export > export.txt; \$PR --store pair.db summary --format k6 ticket_reserve_output | head -n -1 | cmp - export.txt && echo identical"
