# Gatling, Locust, Artillery and autocannon: detection by content, runs, the tools' own layouts.
sh_ "\$PR formats | grep -E '^ *(gatling|gatling-binary|locust|artillery|autocannon) '"
# Gatling 3.9.5 simulation.log: OK/KO per request name as the file counts them (awk)
sh_ "awk -F'\t' '\$1==\"REQUEST\"{c[\$3\" \"\$6]++} END{for(k in c) print k, c[k]}' \$DATA/gatling/gatling395_computerdb.log | sort"
cp "$DATA/gatling/gatling395_computerdb.log" simulation.log
pr ingest simulation.log
pr summary --by label simulation
pr summary --format gatling simulation
pr summary --format locust simulation
# an interrupted run: the cut last record is dropped with a warning, the rest is kept
head -c 2000 "$DATA/gatling/gatling395_computerdb.log" > cut.log
pr ingest cut.log
# a damaged record: error at line and column, store unchanged
sed 's/1767825935672/17678x5935672/' "$DATA/gatling/gatling395_computerdb.log" > bad.log
pr ingest bad.log
pr runs
# Locust: the files of one prefix form one run (stats, history, failures, exceptions)
cp "$DATA"/locust/own212/run_*.csv .
pr ingest run_exceptions.csv run_failures.csv run_stats.csv run_stats_history.csv
pr summary --no-findings run
pr summary --format locust run
# the endpoints as Locust printed them (run_stats.csv rows), one label row each
pr summary --no-findings --by label run
# Locust printed its final counters after the last CSV write (1664 requests vs 1613)
sh_ "grep -m1 Aggregated \$DATA/locust/own212/console_summary.txt"
# the layout is Locust's own (stats.py: columns, widths, %d truncating, names padded by code
# points): Locust's header and separator lines byte for byte, its 0.55 ms minimum as 0
sh_ "\$PR summary --format locust run | head -n 2 > mine.txt; grep -m2 -A1 '^Type ' \$DATA/locust/own212/console_summary.txt | head -n 2 | cmp - mine.txt && echo identical"
# Windows \r\r\n and GBK names (Locust 1.1)
pr ingest --name gbk "$DATA/locust/gbk11/locust_stats.csv" "$DATA/locust/gbk11/locust_stats_history.csv"
pr summary --format locust gbk
# Artillery and autocannon reports
pr ingest "$DATA/artillery/report.json" "$DATA/autocannon/index.json" "$DATA/autocannon/refused.json"
pr summary --no-findings report index refused
# Artillery's summaries per URL as the report's labels
pr summary --no-findings --by label report
# the findings read the printed time series (Locust's history, Artillery's periods)
pr findings run report
# the report of summary-only runs: their printed labels, time series charts, a derived duration
pr render --template report.md -o peers.md run report
sh_ "sed -n '/^## Scenarios/,/^## Per-label/p' peers.md"
sh_ "ls peers_files"
# the interactive report: the printed series drawn for the summary-only runs
pr render --template report.html -o peers.html run report
sh_ "grep -o 'data-run=\"[0-9]*\" data-kind=\"[a-z]*\"' peers.html"
# chart: a summary-only run's printed series and labels can be drawn; what needs samples is refused
pr chart throughput -o locust-throughput.svg run
pr chart labels -o artillery-labels.svg report
pr chart latency -o locust-latency.png run
sh_ "ls locust-throughput.svg artillery-labels.svg"
# a Locust of the 0.9 era (its requests CSV has no failures/s, alexellis/locust-openfaas):
# that Locust's table, without the failures/s column it never had, a Total line of its own
pr ingest "$DATA/locust/openfaas/results.csv"
pr summary --format locust results
# a Gatling 2.3 log whose empty trailing message field was stripped (8 fields per REQUEST, not
# 9: nuxeo/gatling-report's own test file) is read, with a warning; its counts are the file's
# (awk -F'\t' '$1=="REQUEST"{c[$5" "$8]++}' counts 1000 "Create File" OK)
pr ingest "$DATA/gatling/nuxeo_v23_stripped.log"
pr summary --no-findings --by label nuxeo_v23_stripped
