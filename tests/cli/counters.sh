# The tool's own counters beat numbers derived from a lossy per-request file: a run made of a
# tool's printed report and its per-request file takes requests, failures, duration and rate
# from the report, the distributions from the samples, and says which came from where.
# ab: -g stamps whole seconds and records no outcome; its stdout says 0.399 s, 12523.51/s, 0 failed
pr ingest "$DATA/ab/ab_plain_c10.txt" "$DATA/ab/ab_plain_c10.tsv"
pr summary --no-findings ab_plain_c10
sh_ "grep -E '^(Time taken|Complete|Failed|Requests per)' \$DATA/ab/ab_plain_c10.txt"
# ab -k: every -g row starts in the same second (the samples alone give a duration of 0)
pr ingest "$DATA/ab/ab_keepalive_c50.tsv" "$DATA/ab/ab_keepalive_c50.txt"
pr summary --no-findings ab_keepalive_c50
sh_ "grep -E '^(Time taken|Requests per)' \$DATA/ab/ab_keepalive_c50.txt"
# ab against a missing page: ab counts no failed request but 1000 non-2xx responses
pr ingest "$DATA/ab/ab_missing_404.txt" "$DATA/ab/ab_missing_404.tsv"
pr summary --no-findings ab_missing_404
# hey: its CSV holds only the 576 answered requests; its summary counts 600 with 24 timeouts
pr ingest --name hey "$DATA/other/hey_mixed_status.csv" "$DATA/other/hey_mixed_status_summary.txt"
pr summary hey
pr runs
# where each number came from, in the model
sh_ "\$PR summary --json ab_plain_c10 | jq -c '.runs[0].stats | {provenance, tool_report, from_samples}'"
sh_ "\$PR summary --json hey | jq -c '.runs[0] | (.stats | {requests, errors, notes}), [.errors[] | {count, from}]'"
# the per-label rows agree with the run: ab's one row has ab's outcomes and its rates over
# ab's 0.399 s (its -g stamps span 1 s: 4985/s from them); hey's row keeps its 576 samples'
# outcomes (600 requests in hey's report), its rates over hey's test time
sh_ "\$PR summary --no-findings --by label ab_plain_c10 | sed -n '/ label /,\$p'"
sh_ "\$PR summary --no-findings --by label ab_missing_404 | sed -n '/ label /,\$p'"
sh_ "\$PR summary --no-findings --by label hey | sed -n '/ label /,\$p'"
sh_ "\$PR summary --json --by label ab_plain_c10 | jq -c '.runs[0].labels[] | {name: .label, errors, rate, throughput, duration, wait, from_samples}'"
# ab's -g rows record no status: "not recorded" in the reports, not "no response"
sh_ "\$PR summary --json ab_plain_c10 | jq -c '.runs[0].status_codes'"
sh_ "\$PR render --template report.md --no-charts -o ab.md ab_plain_c10 && grep -A2 '^| Status' ab.md"
# and no chart of responses by status code for it (every bar would read "no response")
sh_ "\$PR render --template report.md -o abc.md ab_plain_c10 && ls abc_files"
# nor in the interactive page's data (its codes chart draws from "codes"; the Vegeta run below has them)
sh_ "\$PR render --template report.html -o ab.html ab_plain_c10 && grep -o '\"codes\":{' ab.html | wc -l"
# a Vegeta result file is not lossy: its own samples give every number
pr ingest --name mixed "$DATA/vegeta/mixed.bin" "$DATA/vegeta/mixed.report.txt"
sh_ "\$PR summary --json mixed | jq -c '.runs[0].stats | {requests, duration_ns, provenance}'"
sh_ "\$PR render --template report.html -o mixed.html mixed && grep -o '\"codes\":{' mixed.html | wc -l"
# JMeter: Transaction Controller samples sum their children and are not requests
pr ingest "$DATA/jmeter/csv-default.jtl"
pr summary --no-findings --by label csv-default
pr runs
