# The load a run was under, inferred where the file does not state it, and what follows from it:
# time series by completion, saturation found wherever it happened, findings that quote their
# evidence. Fixtures measured against nginx of known capacity: tests/data/load/README.md.
L="$DATA/load"
pr ingest "$DATA/vegeta/basic.bin" "$DATA/vegeta/basic.report.txt" "$DATA/vegeta/concat.bin" \
  "$DATA/ab/ab_plain_c10.txt" "$DATA/jmeter/csv-default.jtl" "$DATA/other/hey_nginx_c50.csv"
pr ingest --name tagged --tag rate=250/s --tag concurrency=40 "$DATA/vegeta/mixed.bin"
# 1. the load: a Vegeta run is open-model at its sent rate when its sends kept a steady pace;
#    a tag wins; closed-model tools give their concurrency where their files state it
sh_ "\$PR summary basic basic.report concat ab_plain_c10 csv-default hey_nginx_c50 tagged | grep -E '^(run|  load)'"
sh_ "\$PR summary --json basic | grep -E '\"(offered_rate_per_s|offered_rate_source|offered_rate_basis|offered_rate_inferred|steady)\"'"
pr render -t report.md -o report.md basic tagged concat
sh_ "grep -A6 '^## Scenarios' report.md"
# 2-4. the three fixtures of known capacity
pr ingest "$L/vegeta_400rps_cap196.bin" "$L/vegeta_500rps_timeout.report.txt" \
  "$L/attack_ramp_404_100.prf" "$L/attack_ramp_404_200.prf" "$L/attack_ramp_404_300.prf"
# 400/s offered, 196/s served: responses counted where they complete (nginx never answered
# more than ~20 per 100 ms); requests where they were sent
sh_ "\$PR summary --json vegeta_400rps_cap196 | awk '/\"points\"/ {p = 1} p && /\"(t_ns|requests|responses|successes|errors)\"/ {gsub(/[ \",]/, \"\"); printf \"%s \", \$0} p && /\"sent_errors\"/ {print \"\"; if (++n == 30) exit}'"
pr chart throughput vegeta_400rps_cap196 -o thr.svg
sh_ "grep -o 'y axis: [^<]*' thr.svg; grep -o 'legend: [^<]*' thr.svg"
pr chart percentiles vegeta_400rps_cap196 -o lat.svg
sh_ "grep -o 'y axis: [^<]*' lat.svg"
# the interactive page's per-label series count responses where they complete, as the run's:
# the label's successes/s are the ~196/s nginx served, not the 400/s sent; the chart says so
pr render -t report.html -o report.html vegeta_400rps_cap196
sh_ "grep -o '\"labels\":\[{\"name\":\"[^\"]*\",\"req\":\[[^]]*\],\"ok\":\[[^]]*\]' report.html | awk -F'[][]' '{n = split(\$3, a, \",\"); split(\$5, b, \",\"); printf \"req/s\"; for (i = 1; i <= 8; i++) printf \" %s\", a[i]; printf \"\\nok/s \"; for (i = 1; i <= 8; i++) printf \" %s\", b[i]; print \"\"}'"
sh_ "grep -o 'Throughput per label over time[^\"]*' report.html | head -n 1"
pr findings vegeta_400rps_cap196
# Vegeta's text report of 500/s against 117/s with a 30 s timeout: saturated, 417 timeouts
pr findings vegeta_500rps_timeout.report
# a ramp where a third of the requests get a fast 404: the server kept up, no saturation
pr findings --only saturation,errors_4xx ramp-100 ramp-200 ramp-300
# a printed error set without counts: the count is the responses without a status
pr ingest "$DATA/vegeta/refused.report.txt"
pr findings --only errors_refused refused.report
