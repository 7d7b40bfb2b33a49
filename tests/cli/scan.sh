# The scan: every fixture in tests/data and every file in samples/ through summary --json,
# compare, capacity and findings; each headline number (requests, failures, error ratio,
# duration, rate, throughput, min/mean/max and the percentiles the tool printed) against the
# source tool's own printed report of the same run (tests/tools/oracle.awk reads those).
# Where definitions differ on purpose the rule allows exactly the documented difference
# (docs/metrics.md, "The scan test"); tests/tools/agree.awk applies the rules.
T="$root/tests/tools"
ORACLE="$T/oracle.awk"
AGREE="$T/agree.awk"
n_cases=0

# u_lines [NAMES]: perfreport's figures of `summary --json` on stdin as "u KEY VALUE"; with
# NAMES (space-separated), the percentiles list is named by them instead (lat.at.p50 …).
u_lines() {
  jq -r --arg names "${1:-}" '.runs[0] as $r | $r.stats as $s |
    if $names != "" then
      [$names | split(" ")[]] as $n | $s.latency_ns.percentiles | to_entries[] |
      "u \($n[.key]) \(.value.ns)"
    else
      ("u requests \($s.requests)", "u errors \($s.errors)", "u error_ratio \($s.error_ratio)",
       "u duration \($s.duration_ns)", "u wait \($s.wait_ns)", "u rate \($s.rate_per_s)",
       "u throughput \($s.throughput_per_s)", "u success \($s.success_ratio)",
       ($s.latency_ns // {} | to_entries[] | select(.key != "percentiles") |
        "u lat.\(.key) \(.value)"),
       "u codes.4xx \([$r.status_codes[]? | select(.code >= 400 and .code < 500) | .count] | add // 0)",
       "u codes.5xx \([$r.status_codes[]? | select(.code >= 500 and .code < 600) | .count] | add // 0)")
    end'
}

# vegeta_oracle REPORT.json LAT: the numbers of `vegeta report -type=json` (rules for samples
# or for the report itself read as a summary-only run)
vegeta_oracle() {
  jq -r --arg lat "$2" '
    def r(p; s): if $lat == "printed" then p else s end;
    "requests \(.requests) 1 exact", "duration \(.duration) 1 exact", "wait \(.wait) 1 exact",
    "rate \(.rate) 1 sig9", "throughput \(.throughput) 1 sig9", "success \(.success) 1 sig9",
    "lat.min \(.latencies.min) 1 exact", "lat.max \(.latencies.max) 1 exact",
    "lat.mean \(.latencies.mean) 1 \(r("exact"; "trunc"))",
    "lat.p50 \(.latencies["50th"]) 1 \(r("exact"; "rank2"))",
    "lat.p90 \(.latencies["90th"]) 1 \(r("exact"; "rank2"))",
    "lat.p95 \(.latencies["95th"]) 1 \(r("exact"; "rank2"))",
    "lat.p99 \(.latencies["99th"]) 1 \(r("exact"; "rank2"))",
    "errors \(.requests - ([.status_codes | to_entries[] | select((.key | tonumber) >= 200 and (.key | tonumber) < 400) | .value] | add // 0)) 1 exact",
    "codes.4xx \([.status_codes | to_entries[] | select((.key | tonumber) >= 400 and (.key | tonumber) < 500) | .value] | add // 0) 1 exact",
    "codes.5xx \([.status_codes | to_entries[] | select((.key | tonumber) >= 500 and (.key | tonumber) < 600) | .value] | add // 0) 1 exact"' "$1"
}

# ranks KIND N: the percentiles (for --percentiles) at which perfreport's nearest rank lands on
# the ranks a rule needs, and their names: ab's own rank floor(n·p/100)+1 for each printed row
# (abrank), or ceil(q·n) ± 2 for Vegeta's four (rank2). Prints "LIST<TAB>NAMES".
ranks() {
  awk -v kind="$1" -v n="$2" 'function at(r) { if (r < 1) r = 1; if (r > n) r = n
      return sprintf("%.10g", 100 * (r - 0.5) / n) }
    function ceil(x) { return x == int(x) ? x : int(x) + 1 }
    BEGIN { if (kind == "abrank") { split("50 66 75 80 90 95 98 99", p, " ")
              for (i = 1; i <= 8; i++) { l = l (i > 1 ? "," : "") at(int(n * p[i] / 100) + 1)
                nm = nm (i > 1 ? " " : "") "lat.at.p" p[i] } }
            else { split("50 90 95 99", p, " ")
              for (i = 1; i <= 4; i++) { r = ceil(n * p[i] / 100)
                l = l (i > 1 ? "," : "") at(r - 2) "," at(r + 2)
                nm = nm (i > 1 ? " " : "") "lat.lo.p" p[i] " lat.hi.p" p[i] } }
            printf "%s\t%s\n", l, nm }'
}

# check TITLE RUN ORACLE-FILE: one line saying how many numbers agree, and each that does not
check() {
  n_cases=$((n_cases + 1))
  "$PR" summary --json --no-findings "$2" > "s.json" 2>&1 || { echo "$1: summary failed: $(head -1 s.json)"; return; }
  u_lines < s.json > u.txt
  for kind in abrank rank2; do
    if grep -q " $kind\$" "$3"; then
      n=$(jq '.runs[0].stats.from_samples.requests // .runs[0].stats.requests' s.json)
      ranks "$kind" "$n" > r.txt
      "$PR" summary --json --no-findings --percentiles "$(cut -f1 r.txt)" "$2" |
        u_lines "$(cut -f2 r.txt)" >> u.txt
    fi
  done
  printf '%s: ' "$1"
  { grep -v '^find\.' "$3" | sed 's/^/o /'; cat u.txt; } | awk -f "$AGREE"
}

# ingest NAME FILE…: one run of the files (quietly; --force: a file may be in several runs)
ingest() {
  name=$1
  shift
  "$PR" ingest -q --force --name "$name" "$@" || echo "$name: ingest failed"
}

echo "== ab: the printed report alone, then with its -g TSV (and -e CSV)"
for txt in "$DATA"/ab/*.txt; do
  case "$txt" in *.stderr.txt) continue;; esac
  x=$(basename "$txt" .txt)
  awk -v tool=ab -v lat=printed -f "$ORACLE" "$txt" > "o.$x"
  if [ ! -s "o.$x" ]; then
    echo "$x.txt: no report printed (ab stopped): nothing to compare"
    continue
  fi
  ingest "$x.txt" "$txt" && check "$x.txt (summary only)" "$x.txt" "o.$x"
  if [ -f "$DATA/ab/$x.tsv" ]; then
    awk -v tool=ab -v lat=samples -f "$ORACLE" "$txt" > "o.$x.s"
    ingest "$x.join" "$txt" "$DATA/ab/$x.tsv" "$DATA/ab/$x.csv"
    check "$x.txt + .tsv + .csv" "$x.join" "o.$x.s"
  fi
done

echo "== hey: printed summaries; CSV + summary (the fixtures' CSV and summary come from two runs"
echo "   of the same command: counts and times are compared, latencies are not)"
for s in "$DATA"/other/hey_*_summary.txt; do
  x=$(basename "$s" .txt)
  awk -v tool=hey -v lat=printed -f "$ORACLE" "$s" > "o.$x"
  ingest "$x" "$s" && check "$x.txt (summary only)" "$x" "o.$x"
  csv="$DATA/other/${x%_summary}.csv"
  if [ -f "$csv" ]; then
    awk -v tool=hey -v lat=none -f "$ORACLE" "$s" > "o.$x.s"
    ingest "$x.join" "$csv" "$s" && check "$(basename "$csv") + $x.txt" "$x.join" "o.$x.s"
  fi
done

echo "== wrk, siege, httperf: printed summaries"
for f in "$DATA"/other/wrk_*.txt "$DATA"/other/siege_*.txt "$DATA"/other/httperf_*.txt; do
  case "$f" in *.stderr.txt) continue;; esac
  x=$(basename "$f" .txt)
  awk -v tool="${x%%_*}" -v lat=printed -f "$ORACLE" "$f" > "o.$x"
  ingest "$x" "$f" && check "$x.txt (summary only)" "$x" "o.$x"
done

echo "== vegeta: results files against vegeta report -type=json; the reports as summary-only runs"
for r in "$DATA"/vegeta/*.report.json; do
  x=$(basename "$r" .report.json)
  vegeta_oracle "$r" samples > "o.$x.s"
  for f in "$DATA/vegeta/$x.bin" "$DATA/vegeta/$x.csv" "$DATA/vegeta/$x.json"; do
    [ -f "$f" ] || continue
    ingest "$(basename "$f")" "$f" && check "$(basename "$f")" "$(basename "$f")" "o.$x.s"
  done
  vegeta_oracle "$r" printed > "o.$x.j"
  ingest "$x.report.json" "$r" && check "$x.report.json (summary only)" "$x.report.json" "o.$x.j"
  awk -v tool=vegeta-text -v lat=printed -f "$ORACLE" "$DATA/vegeta/$x.report.txt" > "o.$x.t"
  ingest "$x.report.txt" "$DATA/vegeta/$x.report.txt" &&
    check "$x.report.txt (summary only)" "$x.report.txt" "o.$x.t"
done

echo "== samples/: each is a copy of a fixture above, checked against that fixture's report"
for f in "$SAMPLES"/*; do
  b=$(basename "$f")
  [ "$b" = README.md ] && continue
  twin=""
  for g in "$DATA"/*/*; do
    [ -f "$g" ] && cmp -s "$f" "$g" && { twin=$g; break; }
  done
  case "$twin" in
    */vegeta/*.bin) o="o.$(basename "$twin" .bin).s";;
    */ab/*.tsv) o="";;  # with its .txt below
    */ab/*.txt) ingest "samples/$b+tsv" "$f" "$SAMPLES/${b%.txt}.tsv"
       check "samples/$b + ${b%.txt}.tsv" "samples/$b+tsv" "o.$(basename "$twin" .txt).s"; continue;;
    */other/wrk_*) o="o.$(basename "$twin" .txt)";;
    *) echo "samples/$b: no printed report of this run in the fixtures"; continue;;
  esac
  [ -n "$o" ] || continue
  ingest "samples/$b" "$f" && check "samples/$b" "samples/$b" "$o"
done

echo "== files without a printed report: every command runs"
for f in "$DATA"/jmeter/*.jtl "$DATA"/native/*.prf "$DATA"/findings/*.json "$DATA"/vegeta/concat.bin \
         "$DATA"/vegeta/*.hist.txt; do
  x=$(basename "$f")
  ingest "$x" "$f" || continue
  "$PR" findings "$x" > /dev/null 2>&1 || echo "$x: findings failed"
  "$PR" summary --json --no-findings "$x" |
    jq -r --arg x "$x" '.runs[0].stats | "\($x): \(.requests) requests, \(.errors) errors (no report to compare)"'
done

echo "== compare, pairs of runs of the same tool: every value is the one summary checked above"
# cmp_check A B: compare's values for A and B equal their summaries' (already checked)
cmp_check() {
  "$PR" compare --json "$1" "$2" > c.json || { echo "compare $1 $2 failed"; return; }
  for r in "$1" "$2"; do "$PR" summary --json --no-findings "$r"; done | jq -s -r --slurpfile c c.json '
    [.[] | .runs[0].stats] as $s |
    [$c[0].metrics[] | . as $m | range(0; 2) as $i |
      ({requests: $s[$i].requests, throughput: $s[$i].throughput_per_s, rate: $s[$i].rate_per_s,
        error_ratio: $s[$i].error_ratio, mean: $s[$i].latency_ns.mean, p50: $s[$i].latency_ns.p50,
        p90: $s[$i].latency_ns.p90, p99: $s[$i].latency_ns.p99, max: $s[$i].latency_ns.max}[$m.metric]) as $want |
      select(($m.values[$i].value // null) != $want and
             ((($m.values[$i].value // 0) - ($want // 0)) | fabs) > 1e-9 * (($want // 0) | fabs)) |
      "    DIFFERS \($m.metric) of run \($i + 1): compare \($m.values[$i].value), summary \($want)"] |
    "compare \($c[0].runs[0].name) \($c[0].runs[1].name): \($c[0].metrics | length) metrics" +
    (if length == 0 then ", all equal the summaries" else "\n" + join("\n") end)'
}
cmp_check ab_plain_c10.join ab_missing_404.join
cmp_check ab_plain_c10.txt ab_keepalive_c50.txt
cmp_check hey_mixed_status_summary hey_nginx_c50_summary
cmp_check hey_mixed_status_summary.join hey_nginx_c50_summary.join
cmp_check wrk_nginx_t2c50_latency wrk_missing_404_latency
cmp_check basic.bin mixed.bin
cmp_check basic.report.txt mixed.report.txt
cmp_check refused.report.json post.report.json

echo "== capacity over runs of one tool at different loads: each point is the run's summary"
cap_check() {
  "$PR" capacity --json "$@" > k.json || { echo "capacity $* failed"; return; }
  for r in "$@"; do "$PR" summary --json --no-findings "$r"; done | jq -s -r --slurpfile k k.json '
    [.[] | .runs[0]] as $runs |
    [$k[0].series[].points[] | . as $p | ($runs[] | select(.id == $p.run_id)) as $r |
      [["throughput", $p.throughput_per_s, $r.stats.throughput_per_s],
       ["p99", $p.p99_ns, $r.stats.latency_ns.p99], ["errors", $p.error_ratio, $r.stats.error_ratio]][] |
      select(.[1] != .[2]) | "    DIFFERS \(.[0]) of \($p.name): capacity \(.[1]), summary \(.[2])"] |
    "capacity \([$runs[].name] | join(" ")): \([$k[0].series[].points[]] | length) points" +
    (if length == 0 then ", all equal the summaries" else "\n" + join("\n") end)'
}
cap_check ab_small_n20.join ab_plain_c10.join ab_keepalive_c50.join
cap_check wrk_missing_404_latency wrk_nginx_t2c50_latency
cap_check ab_small_n20.txt ab_varlen_length.txt ab_plain_c10.txt ab_keepalive_c50.txt

echo "== findings: the error classes count what the tool printed"
# find_check RUN ORACLE: errors_4xx, errors_5xx, client_timeouts and errors_refused against the
# printed status codes and error distribution (a class the tool counted must be found)
find_check() {
  "$PR" findings --json "$1" | jq -r '.[0].findings[] |
    {errors_4xx: "codes.4xx", errors_5xx: "codes.5xx", client_timeouts: "find.timeout",
     errors_refused: "find.refused"}[.id] as $k |
    select($k) | "u \($k) \(.evidence.count // .evidence.timeout_errors)"' > u.txt
  printf 'findings %s: ' "$1"
  awk '$2 > 0 && ($1 ~ /^codes\./ || $1 ~ /^find\./)' "$2" | sed 's/^/o /' | cat - u.txt | awk -f "$AGREE"
}
find_check mixed.bin o.mixed.s
find_check mixed.report.txt o.mixed.t
find_check hey_mixed_status_summary o.hey_mixed_status_summary
find_check hey_mixed_status_summary.join o.hey_mixed_status_summary.s
find_check hey_refused_summary o.hey_refused_summary
echo "$n_cases runs checked"
