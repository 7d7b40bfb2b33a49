# HdrHistogram: .hgrm percentile distributions (wrk2 --latency, our export) and .hlog interval
# logs (V2 compressed histograms), as histogram-backed runs (tests/data/hdr/README.md).
pr ingest "$DATA/hdr/wrk2_readme_latency.txt"
# wrk2's own "Latency Distribution" next to ours from the spectrum rows: the rows' values
# are exact, percentiles between rows read the next row (11.207 ms for p99: wrk2's 11.18 is
# not one of its rows), the mean of the row values is an upper bound of wrk2's 6.602
pr summary -p 50,75,90,99,99.9,99.99 wrk2_readme_latency
sh_ "\$PR summary --json wrk2_readme_latency | grep -A12 '\"tool_summary\"' | grep -E '\"p(50|90|99)\"|\"mean\"'"
pr ingest "$DATA/hdr/tagged-non-monotonic.hlog" "$DATA/hdr/jHiccup-2.0.7S.logV2.hlog"
# per tag: each max equals the log's Interval_Max column (0.426, 2.769, 0.459 ms) to the
# histogram's 3 significant digits
pr summary --by label --no-findings tagged-non-monotonic
pr summary --no-findings jHiccup-2.0.7S.logV2
sh_ "\$PR summary --json jHiccup-2.0.7S.logV2 | grep -E '\"(value_unit_ns|intervals)\"'"
# round trip: export --format hgrm, ingest, export again: the same distribution rows (only
# the footer's mean/stdev move: the samples sit at the row values)
pr ingest --name orig "$DATA/vegeta/basic.bin"
sh_ "\$PR export --format hgrm orig > a.hgrm && \$PR ingest a.hgrm && \$PR export --format hgrm a > b.hgrm"
sh_ "diff a.hgrm b.hgrm"
# an older encoding (V1, HdrHistogram_py's test log) and a damaged log: clear errors
pr ingest "$DATA/hdr/raphael_v1.hlog"
sh_ "head -c 700 \$DATA/hdr/jHiccup-2.0.7S.logV2.hlog > cut.hlog"
pr ingest cut.hlog
sh_ "sed 's/HISTFAAAAEB42pNp/HISTFAAAAEB42pZZ/' \$DATA/hdr/jHiccup-2.0.7S.logV2.hlog > bad.hlog"
pr ingest bad.hlog
pr runs
