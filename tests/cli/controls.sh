# Control characters never reach standard output (issue 34, item 5): a hostile corpus — labels,
# run names, tags, check names, groups, URLs and error messages holding C0 controls (ESC
# sequences: OSC window title, clear screen, reset; BEL, backspace, CR), C1 controls (U+009B
# 8-bit CSI, U+0085 NEL, a raw 0x9b byte) and a bidi override — for nine readers, then every
# command and every `summary --format` layout over it. Each line below is one command and
# "clean", or how many lines of its stdout hold a C0 (other than \n, \t), DEL or C1 byte, a
# bidi override or a byte that is not UTF-8, and the first of them (cat -v). Files are made
# here with printf, as in hostile.sh.
J='\u001b]0;PWNED\u0007\u001b[2J\u001bc\u0008\r\u009b31m\u0085\u202e' # JSON escapes
R=$(printf '\033]0;PWNED\007\033[2J\033c\010\302\23331m\302\205\342\200\256\233') # raw bytes
# the same but UTF-8, for a run name (a PostgreSQL store keeps only UTF-8: the names must agree)
U=$(printf '\033]0;PWNED\007\033[2J\033c\010\302\23331m\302\205\342\200\256')
# scan: what is wrong with stdin (see above)
scan() {
  LC_ALL=C perl -ne '
    $n++ if /[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]/
      || !utf8::decode(my $c = $_);
    $first = $_ if $n == 1 && !defined $first;
    END { if ($n) { $first =~ s/([^\x20-\x7e\n])/sprintf("\\%03o", ord $1)/ge; print "$n line(s), first: $first" }
          else { print "clean\n" } }'
}
# sweep ARGS…: runs perfreport ARGS, scans its stdout (stderr is shown when the exit is not 0)
# (its arguments shown with $R as "$R"), and stderr the same way
sweep() {
  "$PERFREPORT_BIN" "$@" > sweep.out 2> sweep.err
  rc=$?
  printf '%s: %s' "$(printf '%s' "$*" | R=$R U=$U perl -pe 's/\Q$ENV{R}\E/\$R/g; s/\Q$ENV{U}\E/\$U/g')" "$(scan < sweep.out)"
  [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] && printf ' [exit %d]' "$rc"
  [ "$(scan < sweep.err)" = clean ] || printf '; stderr: %s' "$(scan < sweep.err)"
  echo
}
# json ARGS…: the same, and stdout must still be valid JSON (the gate's escapes are JSON's)
json() {
  sweep "$@"
  "$PERFREPORT_BIN" "$@" 2>/dev/null | jq -e . > /dev/null || echo "  not valid JSON: $*"
}

## the corpus
# k6 --out json: a check name, a group, a URL (name tag) and an error tag
k6p() { printf '{"type":"Point","data":{"time":"2022-01-05T12:46:%s+01:00","value":%s,"tags":{%s}},"metric":"%s"}\n' "$@"; }
T="\"expected_response\":\"false\",\"group\":\"::g$J\",\"method\":\"GET\",\"name\":\"https://h/x$J\",\"proto\":\"HTTP/1.1\",\"scenario\":\"default\",\"status\":\"500\",\"error\":\"boom$J\",\"error_code\":\"1500\",\"url\":\"https://h/x$J\""
{
  k6p 23.60 1 "$T" http_reqs; k6p 23.60 118.96 "$T" http_req_duration; k6p 23.60 1 "$T" http_req_failed
  k6p 24.60 1 "\"check\":\"status is 200$J\",\"group\":\"::g$J\",\"scenario\":\"default\"" checks
  k6p 24.70 0 "\"check\":\"body ok$J\",\"group\":\"\",\"scenario\":\"default\"" checks
} > k6.ndjson
# k6 --out csv
{
  echo 'metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags'
  for m in http_reqs http_req_duration http_req_failed; do
    echo "$m,1641298536,1.000000,,err$R,1500,false,::g$R,GET,https://h/y$R,HTTP/1.1,default,,500,,tls1.2,https://h/y$R,"
  done
  echo "checks,1641298537,1.000000,chk$R,,,,::g$R,,,,default,,,,,,"
} > k6.csv
# k6 --summary-export: checks and groups by name
printf '{"root_group":{"name":"","path":"","id":"x","groups":{"g%s":{"name":"g%s","path":"::g%s","id":"y","groups":{},"checks":{"c%s":{"name":"c%s","path":"::g::c","id":"z","passes":3,"fails":1}}}},"checks":{"top%s":{"name":"top%s","path":"::top","id":"w","passes":1,"fails":0}}},"metrics":{"http_reqs":{"count":4,"rate":2.5},"http_req_duration":{"avg":10,"min":1,"med":9,"max":30,"p(90)":20,"p(95)":25},"http_req_failed":{"passes":1,"fails":3,"value":0.25},"checks":{"passes":4,"fails":1,"value":0.8}}}\n' "$J" "$J" "$J" "$J" "$J" "$J" "$J" > k6export.json
# JMeter CSV: label, response message, failure message, URL, thread name
{
  echo 'timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,failureMessage,bytes,URL'
  echo "1796051469000,12,lbl$R,500,msg$R,thr$R 1-1,false,fail$R,10,http://h/j$R"
  echo "1796051469100,15,lbl$R,200,OK,thr$R 1-1,true,,10,http://h/j$R"
} > jm.jtl
# Vegeta JSON: attack name, method, URL, error
printf '{"attack":"atk%s","seq":0,"code":500,"timestamp":"2026-11-30T15:11:09.461933948Z","latency":1009568,"bytes_out":0,"bytes_in":0,"error":"err%s","body":"","method":"GET","url":"http://h/v%s","headers":{}}\n' "$J" "$J" "$J" > veg.json
printf '{"attack":"atk%s","seq":1,"code":200,"timestamp":"2026-11-30T15:11:10.461933948Z","latency":2009568,"bytes_out":0,"bytes_in":5,"error":"","body":"","method":"GET","url":"http://h/v%s","headers":{}}\n' "$J" "$J" >> veg.json
# Gatling simulation.log: simulation, request name, error message
printf 'RUN\tsim.Evil%s\tevil\t1662461289902\t \t3.7.4\nREQUEST\t\treq%s\t1662461290100\t1662461290200\tKO\tboom%s\nREQUEST\t\treq%s\t1662461290300\t1662461290350\tOK\t \n' "$R" "$R" "$R" "$R" > simulation.log
# Locust --csv: a stats file and its failures file
mkdir -p loc
{
  echo 'Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%'
  echo "GET,/l$R,3,1,130,135,115,419,1088,4.7,0.1,130,130,130,130,140,150,300,320,420,420,420"
  echo ',Aggregated,3,1,130,135,115,419,1088,4.7,0.1,130,130,130,130,140,150,300,320,420,420,420'
} > loc/evil_stats.csv
printf 'Method,Name,Error,Occurrences\nGET,/l%s,Err%s,1\n' "$R" "$R" > loc/evil_failures.csv
# Artillery -o report.json: an endpoint and an error code
printf '{"aggregate":{"counters":{"http.requests":3,"http.codes.200":2,"http.responses":2,"errors.E%s":1,"plugins.metrics-by-endpoint./a%s.codes.200":2,"vusers.created":3,"vusers.failed":1,"vusers.completed":2},"rates":{"http.request_rate":3},"firstCounterAt":1700000000000,"lastCounterAt":1700000001000,"firstMetricAt":1700000000000,"lastMetricAt":1700000001000,"period":1700000000000,"summaries":{"http.response_time":{"min":1,"max":9,"count":2,"mean":5,"p50":5,"median":5,"p75":9,"p90":9,"p95":9,"p99":9,"p999":9},"plugins.metrics-by-endpoint.response_time./a%s":{"min":1,"max":9,"count":2,"mean":5,"p50":5,"median":5,"p75":9,"p90":9,"p95":9,"p99":9,"p999":9}},"histograms":{}},"intermediate":[]}\n' "$J" "$J" "$J" > art.json
# autocannon -j: the URL and title
printf '{"title":"t%s","url":"http://h/a%s","connections":5,"sampleInt":1000,"pipelining":1,"workers":0,"duration":3.01,"samples":3,"start":"2026-12-01T19:31:58.325Z","finish":"2026-12-01T19:32:01.338Z","errors":1,"timeouts":0,"mismatches":0,"non2xx":0,"resets":0,"1xx":0,"2xx":10,"3xx":0,"4xx":0,"5xx":0,"statusCodeStats":{"200":{"count":10}},"latency":{"average":2,"mean":2,"stddev":0.2,"min":1,"max":16,"p50":2,"p90":3,"p99":9,"p99_9":16,"totalCount":10},"requests":{"average":3,"mean":3,"stddev":1,"min":3,"max":4,"total":10,"sent":11},"throughput":{"average":100,"mean":100,"stddev":1,"min":99,"max":101,"total":300}}\n' "$J" "$J" > ac.json
sh_ "ls"
i=0
for f in k6.ndjson k6.csv k6export.json jm.jtl veg.json simulation.log loc/evil_stats.csv art.json ac.json; do
  i=$((i + 1))
  sweep ingest --tag "rate=$((i * 10))" --tag "k$R=v$R" "$f"
done
sweep ingest --force --name "named$U" --tag "rate=100" --tag "k$R=v$R" veg.json
sweep runs
N=$("$PERFREPORT_BIN" runs 2>/dev/null | grep -c '^ *[0-9]')
echo "$N runs"
sh_ "\$PR runs | cut -c1-80"

## every command over every run
for id in $(seq 1 "$N"); do
  sweep summary "$id"
  sweep summary --by label "$id"
  sweep summary --by url,status "$id"
  json summary --json "$id"
  for f in text vegeta ab gatling locust k6; do
    sweep summary --format "$f" "$id"
  done
  for f in json vegeta-json jmeter k6-json; do
    json summary --format "$f" "$id"
  done
  sweep findings "$id"
  json findings --json "$id"
  sweep check --max p99=1ms --by label "$id"
  sweep render --no-charts "$id"
  sweep render --no-charts -t report.html "$id"
  sweep render --no-charts -t summary.md "$id"
  sweep render --no-charts -t report.zh.md "$id"
  json render --json "$id"
  for f in csv ndjson hgrm influx prometheus; do
    sweep export --format "$f" "$id"
  done
done
sweep summary
sweep summary --merge --by label
sweep compare 1 4
json compare --json 1 4
sweep compare -t compare.md 4 5
sweep compare tag:rate=50 tag:rate=100
sweep capacity --load tag:rate --load-is-rate tag:rate
json capacity --json --load tag:rate tag:rate
sweep trend p99
json trend --json p99
sweep render --no-charts -t study.md --pair tag:rate
sweep render --no-charts -t study.html --pair tag:rate
sweep check --max p99=1ms
sweep check --markdown - --max p99=1ms 1 2 3 4 5
sweep findings
sweep tag 2 "note$R=x"
sweep runs 2
sweep templates
sweep formats
sweep chart --list
