# The numbers a load tool printed in its own report, for the scan test (tests/cli/scan.sh):
# one line per number, "KEY PRINTED SCALE RULE", where PRINTED is the text the tool printed,
# SCALE turns it into perfreport's unit (1e9 for seconds into ns) and RULE says how
# perfreport's figure must relate to it (tests/tools/agree.awk). Written apart from
# perfreport's own readers, from each tool's documented output.
#   awk -v tool=ab|hey|wrk|siege|httperf|vegeta-text -v lat=printed|samples|none -f oracle.awk REPORT
# lat: printed (the run is summary-only: its latencies are these numbers), samples (the run's
# latencies come from a per-request file of the same run: the rules of docs/metrics.md for
# that tool), none (the per-request file is of another run: latencies not compared).
function out(k, v, scale, rule) {
    print k, v, scale, rule
    if (k == "rate") o_rate = v
    if (k == "requests") o_requests = v
    if (k == "errors") o_errors = v
    if (k == "throughput") o_throughput = v
}
function lat_rule(printed_rule, samples_rule) {
    return lat == "printed" ? printed_rule : samples_rule
}
# "4.18ms", "900.00us", "1.20s" → printed value and the scale to ns
function unit_scale(s) {
    if (s ~ /us$/) return 1e3
    if (s ~ /ms$/) return 1e6
    if (s ~ /m$/) return 60e9
    return 1e9
}
function strip(s) { sub(/(us|ms|s|m)$/, "", s); return s }

# ab -w prints the same report as an HTML table: read it without the tags
tool == "ab" && /<t[hdr]/ { gsub(/<[^>]*>/, " "); gsub(/&nbsp;/, " "); sub(/^ +/, "") }
tool == "ab" && /^Complete requests:/ { out("requests", $3, 1, "exact"); complete = $3 }
tool == "ab" && /^Failed requests:/ { failed = $3; other = 0; cats = 0 }
# the next line, "   (Connect: 0, Receive: 0, Length: 286, Exceptions: 0)": ab counts events,
# not requests (docs/ab.md)
tool == "ab" && /^ *\(Connect: [0-9]+/ {
    other = 0
    if (match($0, /Connect: [0-9]+/)) other += substr($0, RSTART + 9, RLENGTH - 9)
    if (match($0, /Receive: [0-9]+/)) other += substr($0, RSTART + 9, RLENGTH - 9)
    if (match($0, /Exceptions: [0-9]+/)) other += substr($0, RSTART + 12, RLENGTH - 12)
    lenf = match($0, /Length: [0-9]+/) ? substr($0, RSTART + 8, RLENGTH - 8) + 0 : 0
    cats = 1
    # one category besides Length: a count of requests
    n = 0
    if ($0 ~ /Connect: [1-9]/) n++
    if ($0 ~ /Receive: [1-9]/) n++
    if ($0 ~ /Exceptions: [1-9]/) n++
    one = n == 1
}
tool == "ab" && /^Non-2xx responses:/ { non2xx = $3 }
tool == "ab" && /^Time taken for tests:/ { out("duration", $5, 1e9, "printed") }
tool == "ab" && /^Requests per second:/ { out("rate", $4, 1, "printed") }
tool == "ab" && /^Total: / {
    out("lat.min", $2, 1e6, lat_rule("exact", "exact"))
    out("lat.mean", $3, 1e6, lat_rule("exact", "ms1"))
    out("lat.max", NF == 4 ? $4 : $6, 1e6, lat_rule("exact", "exact")) # -S, -w: min avg max
}
tool == "ab" && /^ +[0-9]+% +[0-9]+/ && $1 != "100%" {
    p = $1; sub(/%/, "", p)
    out("lat.p" p, $2, 1e6, lat_rule("exact", "abrank"))
}
function end_ab() {
    if (failed == "" || complete == "") return
    if (non2xx == "") non2xx = 0
    # Length failures (a length unlike the first response's) are answers, not failed requests
    # (docs/ab.md): with no other category the failed requests are the non-2xx ones
    if (failed == 0 || (cats && other == 0)) bad = non2xx
    else if (cats && one && other == failed - lenf && other <= complete && non2xx == 0) bad = other
    else return
    out("errors", bad, 1, "exact")
    if (complete > 0) out("error_ratio", sprintf("%.12g", bad / complete), 1, "sig9")
}

# hey: "  Total:	8.9304 secs", "  Requests/sec:	67.1859", "  [200]	576 responses",
# "  [24]	Get …" (errors), "  50% in 0.0683 secs"
tool == "hey" && /^  Total:/ { out("duration", $2, 1e9, "printed") }
tool == "hey" && /^  Requests\/sec:/ { out("rate", $2, 1, "printed") }
tool == "hey" && /^  Slowest:/ { slowest = $2 }
tool == "hey" && /^  Fastest:/ { fastest = $2 }
tool == "hey" && /^  Average:/ { average = $2 }
tool == "hey" && /^  [0-9]+% in / { p = $1; sub(/%/, "", p); pct[p] = $3 }
tool == "hey" && /^Status code distribution:/ { section = "codes"; next }
tool == "hey" && /^Error distribution:/ { section = "errors"; next }
tool == "hey" && section == "codes" && /^  \[[0-9]+\]/ {
    code = $1; gsub(/[\[\]]/, "", code)
    responses += $2
    if (code < 200 || code > 399) bad += $2
    if (code >= 400 && code <= 499) c4 += $2
    if (code >= 500 && code <= 599) c5 += $2
}
tool == "hey" && section == "errors" && /^  \[[0-9]+\]/ {
    n = $1; gsub(/[\[\]]/, "", n)
    errs += n
    if (tolower($0) ~ /timeout|timed out|deadline exceeded/) timeouts += n
    if (tolower($0) ~ /refused/) refused += n
}
function end_hey(p) {
    out("requests", responses + errs, 1, "exact")
    out("errors", errs + bad, 1, "exact")
    out("codes.4xx", c4 + 0, 1, "exact")
    out("codes.5xx", c5 + 0, 1, "exact")
    out("find.timeout", timeouts + 0, 1, "exact") # for the findings, not the summary
    out("find.refused", refused + 0, 1, "exact")
    if (lat == "none" || responses == 0) return
    out("lat.min", fastest, 1e9, "printed")
    out("lat.mean", average, 1e9, "printed")
    out("lat.max", slowest, 1e9, "printed")
    split("10 25 50 75 90 95 99", order, " ") # hey's distribution rows
    for (i = 1; i <= 7; i++)
        if (order[i] in pct) out("lat.p" order[i], pct[order[i]], 1e9, "printed")
}

# wrk: "    Latency     4.18ms   15.41ms 175.56ms   95.29%", "     50%    0.90ms",
# "  229123 requests in 5.04s, 81.29MB read", "Requests/sec:  45455.41"
tool == "wrk" && /^    Latency / {
    out("lat.mean", strip($2), unit_scale($2), "printed")
    out("lat.max", strip($4), unit_scale($4), "printed")
}
tool == "wrk" && /^ +[0-9]+% +[0-9.]+(us|ms|s)$/ {
    p = $1; sub(/%/, "", p)
    out("lat.p" p, strip($2), unit_scale($2), "printed")
}
tool == "wrk" && / requests in / { out("requests", $1, 1, "exact"); requests = $1
    t = $4; sub(/,$/, "", t); out("duration", strip(t), unit_scale(t), "printed") }
tool == "wrk" && /^Requests\/sec:/ { out("rate", $2, 1, "printed") }
tool == "wrk" && /Non-2xx or 3xx responses:/ { non2xx = $NF }
tool == "wrk" && /Socket errors:/ { socket = 1 }
function end_wrk() {
    if (!socket && requests != "") out("errors", non2xx + 0, 1, "exact")
}

# siege: "Transactions:		        1000 hits", "Elapsed time:	0.19 secs" …
tool == "siege" && /^Transactions:/ { ok = $2 }
tool == "siege" && /^Failed transactions:/ { failed = $3 }
tool == "siege" && /^Elapsed time:/ { out("duration", $3, 1e9, "printed") }
tool == "siege" && /^Transaction rate:/ { out("rate", $3, 1, "printed") }
tool == "siege" && /^Response time:/ { out("lat.mean", $3, 1e9, "printed") }
tool == "siege" && /^Longest transaction:/ { out("lat.max", $3, 1e9, "printed") }
tool == "siege" && /^Shortest transaction:/ { out("lat.min", $3, 1e9, "printed") }
function end_siege() {
    out("requests", ok + failed, 1, "exact")
    out("errors", failed + 0, 1, "exact")
}

# httperf: "Total: connections 2000 requests 10000 replies 10000 test-duration 3.999 s",
# "Request rate: 2500.8 req/s", "Reply status: 1xx=0 2xx=10000 3xx=0 4xx=0 5xx=0"
tool == "httperf" && /^Total: / {
    out("requests", $5, 1, "exact"); requests = $5; replies = $7
    out("duration", $9, 1e9, "printed")
}
tool == "httperf" && /^Request rate:/ { out("rate", $3, 1, "printed") }
tool == "httperf" && /^Reply status:/ {
    bad = requests - replies
    for (i = 3; i <= NF; i++) {
        split($i, kv, "=")
        if (kv[1] == "1xx" || kv[1] == "4xx" || kv[1] == "5xx") bad += kv[2]
        if (kv[1] == "4xx") c4 = kv[2]
        if (kv[1] == "5xx") c5 = kv[2]
    }
    out("errors", bad, 1, "exact")
}
tool == "httperf" && /^Reply time \[ms\]:/ {
    out("lat.mean", sprintf("%.1f", $5 + $7), 1e6, "printed")
}

# vegeta report (text): "Requests      [total, rate, throughput]         1000, 100.10, 62.25"
function vdur(s) {
    if (s ~ /µs$/) { sub(/µs$/, "", s); return s " 1e3" }
    if (s ~ /ms$/) { sub(/ms$/, "", s); return s " 1e6" }
    if (s ~ /ns$/) { sub(/ns$/, "", s); return s " 1" }
    if (s ~ /m[0-9.]+s$/) { split(s, a, "m"); sub(/s$/, "", a[2]); return (a[1] * 60 + a[2]) " 1e9" }
    sub(/s$/, "", s); return s " 1e9"
}
tool == "vegeta-text" {
    line = $0; sub(/^[^\]]*\] +/, "", line); gsub(/,/, "", line); n = split(line, v, / +/)
}
tool == "vegeta-text" && /^Requests / {
    out("requests", v[1], 1, "exact"); requests = v[1]
    out("rate", v[2], 1, "printed"); out("throughput", v[3], 1, "printed")
}
tool == "vegeta-text" && /^Duration / { split(vdur(v[2]), dv, " "); out("duration", dv[1], dv[2], "printed")
    split(vdur(v[3]), dv, " "); out("wait", dv[1], dv[2], "printed") }
tool == "vegeta-text" && /^Latencies / {
    split("min mean p50 p90 p95 p99 max", names, " ")
    for (i = 1; i <= 7; i++) {
        split(vdur(v[i]), dv, " ")
        out("lat." names[i], dv[1], dv[2], "printed")
    }
}
tool == "vegeta-text" && /^Success / { s = v[1]; sub(/%/, "", s); out("success", s, 0.01, "printed") }
tool == "vegeta-text" && /^Status Codes / {
    for (i = 1; i <= n; i++) {
        split(v[i], cc, ":")
        if (cc[1] == "") continue
        if (cc[1] >= 200 && cc[1] < 400) ok += cc[2]
        if (cc[1] >= 400 && cc[1] <= 499) c4 += cc[2]
        if (cc[1] >= 500 && cc[1] <= 599) c5 += cc[2]
    }
    out("errors", requests - ok, 1, "exact")
    out("codes.4xx", c4 + 0, 1, "exact")
    out("codes.5xx", c5 + 0, 1, "exact")
}

END {
    if (tool == "ab") end_ab()
    else if (tool == "hey") end_hey()
    else if (tool == "wrk") end_wrk()
    else if (tool == "siege") end_siege()
    # a tool that prints no throughput: successes per second over its test time, which its
    # rate (requests per second over that time) gives (docs/metrics.md, "Provenance")
    if (o_throughput == "" && o_rate != "" && o_errors != "" && o_requests > 0)
        out("throughput", sprintf("%.12g", o_rate * (o_requests - o_errors) / o_requests), 1,
            "sig9")
}
