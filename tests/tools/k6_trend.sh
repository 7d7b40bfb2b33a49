#!/bin/sh
# An independent reference for k6's end-of-test trend figures: reads the http_req_duration
# points of a k6 --out json file (v0.41+ layout) and prints count, avg, min, med, max, p(90),
# p(95) as k6's TrendSink computes them (grafana/k6 metrics/sink.go: the mean of the values;
# percentiles by linear interpolation between the closest ranks, i = p * (n - 1)), in ms.
# Usage: tests/tools/k6_trend.sh FILE [expected_response]
set -eu
filter='"metric":"http_req_duration","type":"Point"'
sel=${2:-}
grep -F "$filter" "$1" | { if [ -n "$sel" ]; then grep -F "\"expected_response\":\"$sel\""; else cat; fi; } |
  sed 's/.*"value":\([^,]*\),.*/\1/' | sort -g |
  awk 'function p(q,  i, j, k) { i = q * (n - 1); j = int(i); k = (i > j) ? j + 1 : j;
                                  return v[j] + (v[k] - v[j]) * (i - j) }
       { v[NR - 1] = $1 + 0; s += $1 } END { n = NR;
         printf "count=%d avg=%.6f min=%.6f med=%.6f max=%.6f p(90)=%.6f p(95)=%.6f\n",
                n, s / n, v[0], p(0.5), v[n - 1], p(0.9), p(0.95) }'
