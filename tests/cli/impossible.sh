# Impossible figures in printed summaries (issue 34, item 6): a negative latency or a count of
# 1e308 is neither shown as data nor dropped without a word: the figure is kept unknown ("-",
# or left out), ingest warns with how many and where the first was, and `summary` notes it.
jq -c '.aggregate.summaries."http.response_time".max = -7' "$DATA/artillery/report.json" > art_neg.json
jq -c '.aggregate.counters."http.requests" = 1e308' "$DATA/artillery/report.json" > art_big.json
jq -c '.latency.p99 = -5' "$DATA/autocannon/index.json" > ac_neg.json
jq -c '.requests.total = 1e308' "$DATA/autocannon/index.json" > ac_big.json
jq '.metrics.http_req_duration.max = -5' "$DATA/k6/qrcode_export.json" > k6_neg.json
jq '.metrics.http_reqs.count = 1e308' "$DATA/k6/qrcode_export.json" > k6_big.json
for f in art_neg art_big ac_neg ac_big k6_neg k6_big; do
  pr ingest "$f.json"
done
for f in art_neg art_big ac_neg ac_big k6_neg k6_big; do
  sh_ "\$PR summary --no-findings $f | grep -E '^  (requests|latency|note)' | cut -c1-150"
done
sh_ "\$PR summary --format k6 k6_neg | grep -E 'http_req_duration\\.|http_reqs'"
sh_ "\$PR summary --format k6 k6_big | grep -E 'http_req_duration\\.|http_reqs'"
sh_ "\$PR summary --format vegeta art_neg ac_neg | grep Latencies"
