# ab: -g TSV, printed report and -e CSV of one run form one run; ab's own tables (as printed
# when its report was ingested, else from the samples).
pr ingest "$DATA/ab/ab_plain_c10.tsv" "$DATA/ab/ab_plain_c10.txt" "$DATA/ab/ab_plain_c10.csv"
pr ingest "$DATA/ab/ab_refused.txt" "$DATA/ab/ab_timelimit_t2.tsv"
pr runs
pr summary ab_plain_c10
# ab's report was ingested with the run: its tables as ab printed them (from its µs timings,
# which the -g file's whole ms cannot give back), byte for byte
pr summary --format ab ab_plain_c10
sh_ "\$PR summary --format ab ab_plain_c10 > mine.txt; sed -n '/^Connection Times/,\$p' \$DATA/ab/ab_plain_c10.txt | cmp - mine.txt && echo identical"
pr summary ab_refused
pr summary --percentiles ab ab_timelimit_t2
# ab -g alone (issue 33): whole-second stamps know the span to a second either way, so the
# duration is approximate, the rate only bounded (ab printed 12523.51/s for this run) and no
# finding or capacity figure is built on it.
sh_ "grep -E '^(Time taken|Requests per)' \$DATA/ab/ab_plain_c10.txt"
pr ingest --quiet --force --name plain_g --tag rate=6000 --tag concurrency=10 "$DATA/ab/ab_plain_c10.tsv"
pr summary plain_g
pr findings plain_g
pr ingest --quiet --tag concurrency=50 "$DATA/ab/ab_keepalive_c50.tsv"
pr ingest --quiet --tag concurrency=10 "$DATA/ab/ab_big_64k.tsv"
pr capacity ab_big_64k ab_keepalive_c50
pr runs
sh_ "\$PR summary --json plain_g | jq -c '.runs[0].stats | {duration_ns, duration, wait_ns, rate_per_s, rate, throughput_per_s, timing_approx}'"
# ab's text with its -e CSV (issue 33): one percentile spectrum from one source, the CSV's µs
# rows (ab's text table rounds them to whole ms), never decreasing; --percentiles is obeyed;
# --format ab still prints ab's table as ab printed it.
pr ingest --quiet --force --name plain_e "$DATA/ab/ab_plain_c10.txt" "$DATA/ab/ab_plain_c10.csv"
pr summary --no-findings plain_e
pr summary --no-findings --percentiles 49,50,51,89,90,99.9 plain_e
sh_ "grep -E '^(0|49|50|51|89|90|100),' \$DATA/ab/ab_plain_c10.csv"
sh_ "\$PR summary --json plain_e | jq -c '.runs[0].stats.latency_ns | [.min, .p49, .p50, .p51, .p89, .p90, .max]'"
sh_ "\$PR summary --format ab plain_e | sed -n '/^Percentage/,\$p'"
# JSON means JSON (issue 33): ab's tables as JSON, and every option combination of summary does
# what it says or is refused.
sh_ "\$PR summary --json --percentiles ab plain_e ab_timelimit_t2 | jq -c '.schema, (.runs[] | [.name, .summary_only, .connection_times_ms.total, .reliability, [.percentage_served_ms[] | .ms]])'"
sh_ "\$PR summary --json --percentiles ab plain_e > ab.json; echo \$?; jq -r '.runs[0].reliability[0].text' ab.json"
sh_ "\$PR summary --json --format vegeta ab_timelimit_t2 | jq -c '{requests, status_codes}'"
pr summary --json --format text ab_timelimit_t2
pr summary --json --format gatling ab_timelimit_t2
pr summary --percentiles ab --format vegeta ab_timelimit_t2
pr summary --percentiles ab --percentiles 50,99 ab_timelimit_t2
pr summary --format ab --percentiles 50,99 ab_timelimit_t2
pr summary --format ab --from 1s ab_timelimit_t2
pr summary --format vegeta --by label ab_timelimit_t2
pr summary --format jmeter --merge ab_timelimit_t2
pr summary --format k6 --apdex-t 1s ab_timelimit_t2
pr summary --top 5 ab_timelimit_t2
sh_ "\$PR summary --help | grep -F '0.1%'"
