# Hostile input files (issue 15, docs/security.md): made here with printf, never committed as
# fixtures. Every output below is compared byte for byte: a raw escape byte would show in the diff.
ESC=$(printf '\033')
# no raw control character other than newline and tab in a command's output
nocontrols() { LC_ALL=C tr -d '\n\t' | LC_ALL=C grep -c '[[:cntrl:]]' || :; }
# count PATTERN FILE: how many times PATTERN occurs (0 is not a failure)
count() { grep -o -- "$1" "$2" | wc -l; }

## Terminal injection: names, labels and errors from the files reach the terminal, Markdown
## and CSV with their control characters visible (\x1b), spreadsheet formulas quoted with '
printf '{"attack":"atk\\u001b]0;PWNED\\u0007\\u001b[2J\\u001b[31mred","seq":0,"code":500,"timestamp":"2026-11-30T15:11:09.461933948Z","latency":1009568,"bytes_out":0,"bytes_in":0,"error":"=HYPERLINK(\\"http://evil.example/\\",\\"x\\")\\u001b[0m","body":"","method":"GET","url":"http://127.0.0.1/a\\u001b[2Jb\\u202egpj.exe","headers":{}}\n' > evil.json
pr ingest evil.json
pr runs
pr summary --no-findings --by label
pr summary --format vegeta
pr findings
pr export -f csv 1
pr render -t report.md -o r.md 1
sh_ "grep -E 'atk|HYPERLINK|gpj' r.md"
pr render -t report.html -o r.html 1
sh_ "grep -o 'atk[^<\"]*' r.html | sort -u; count 'u001b' r.html; count 'u001B' r.html"
pr compare 1 1
for c in runs "summary --by label" "summary --format vegeta" findings "export -f csv 1" \
         "compare 1 1" "check --max-p99 1s 1"; do
  sh_ "\$PR $c 2>&1 | nocontrols"
done
sh_ "cat r.md r.html | nocontrols"
# an error message that quotes the file
printf 'timeStamp,elapsed,label,responseCode,success\n1700000000000,12,a,200,true\n1700000000001,1%s[2J,b,200,true\n' "$ESC" > bad.jtl
pr ingest bad.jtl
# the new readers: a Gatling simulation and a Locust stats file with hostile names
printf 'RUN\tsim.Evil\tevil\t1662461289902\t \t3.7.4\nREQUEST\t\t%s[5mreq\t1662461290100\t1662461290200\tKO\tboom%s[41m\n' "$ESC" "$ESC" > simulation.log
pr ingest simulation.log
pr summary --no-findings --by label simulation
pr summary --format gatling simulation
printf 'Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%%,66%%,75%%,80%%,90%%,95%%,98%%,99%%,99.9%%,99.99%%,100%%\nGET,/x%s]0;T%s\\,3,0,130,135,115,419,1088,4.7,0.0,130,130,130,130,140,150,300,320,420,420,420\n,Aggregated,3,0,130,135,115,419,1088,4.7,0.0,130,130,130,130,140,150,300,320,420,420,420\n' "$ESC" "$(printf '\a')" > evil_stats.csv
pr ingest evil_stats.csv
pr summary --format locust evil_stats
sh_ "\$PR summary --format locust evil_stats | nocontrols"

## Reports cannot be turned against their reader: a URL or www. in a label or an error is
## text, never a link; compare into an .html file writes an HTML page, not raw Markdown
printf '{"attack":"links","seq":0,"code":502,"timestamp":"2026-11-30T15:11:09.461933948Z","latency":1000000,"bytes_out":0,"bytes_in":0,"error":"see https://evil.example/login or www.evil.example","body":"","method":"GET","url":"http://www.evil.example/x","headers":{}}\n' > links.json
pr ingest links.json
pr render -t report.md -o links.html links
sh_ "count 'evil.example' links.html; count '<a href=\"[^#]' links.html"
pr compare links links -t compare.md -o cmp.html
sh_ "head -c 15 cmp.html; echo; count '<table>' cmp.html; count '^|' cmp.html; count '<a href=\"[^#]' cmp.html"
# JMeter XML: a 12 MB response body (past libxml2's 10 MB text limit) streams through with
# the samples kept, with and without --recover; 50,000 attributes on one element are refused
# at once (libxml2's duplicate check is quadratic: 10 s before), 1,024 are read
body() {
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<testResults version="1.2">\n<httpSample t="5" ts="1700000000000" s="true" lb="big" rc="200" rm="OK" by="12582912">\n  <responseData class="java.lang.String">'
  head -c 12582912 /dev/zero | tr '\0' 'a'
  printf '</responseData>\n</httpSample>\n<httpSample t="7" ts="1700000000100" s="true" lb="small" rc="200" rm="OK"/>\n</testResults>\n'
}
body > body.jtl
pr ingest body.jtl
pr ingest --recover --force --name body2 body.jtl
pr summary --no-findings --by label body2
attrs() {
  printf '<?xml version="1.0"?>\n<testResults version="1.2">\n<httpSample t="1" ts="1700000000000" s="true" lb="x" rc="200"'
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf " a%d=\"%d\"", i, i }'
  printf '/>\n</testResults>\n'
}
attrs 50000 > attrs50k.jtl
attrs 1019 > attrs1024.jtl
pr ingest attrs50k.jtl
pr ingest attrs1024.jtl

## Times at the edges: Go's zero time (Vegeta's "no time", in reports of empty attacks) is
## unknown; years outside 1678..2261 are refused, never overflowed
printf '{"latencies":{"total":0,"mean":0,"50th":0,"90th":0,"95th":0,"99th":0,"max":0,"min":0},"bytes_in":{"total":0,"mean":0},"bytes_out":{"total":0,"mean":0},"earliest":"0001-01-01T00:00:00Z","latest":"0001-01-01T00:00:00Z","end":"0001-01-01T00:00:00Z","duration":0,"wait":0,"requests":0,"rate":0,"throughput":0,"success":0,"status_codes":{},"errors":[]}\n' > empty.report.json
pr ingest empty.report.json
sh_ "\$PR summary --json empty.report | grep -E '\"(start|end)\"'"
line() { printf '{"attack":"edge","seq":%d,"code":200,"timestamp":"%s","latency":1000000,"bytes_out":0,"bytes_in":10,"error":"","body":null,"method":"GET","url":"http://127.0.0.1/","headers":null}\n' "$1" "$2"; }
{ line 0 0001-01-01T00:00:00Z; line 1 2026-11-30T15:11:09Z; } > zero.json
pr ingest zero.json
sh_ "\$PR summary --json edge | grep -E '\"(start|end|requests)\"' | head -3"
line 0 2262-06-01T00:00:00Z > y2262.json
pr ingest y2262.json
line 0 1677-06-01T00:00:00Z > y1677.json
pr ingest y1677.json
printf 'timeStamp,elapsed,label,responseCode,success\n1700000000000,1,a,200,true\n9300000000000,1,a,200,true\n' > y2264.jtl
pr ingest y2264.jtl

## Doubtful data: a warning naming the file, the line and what was done; a negative latency
## is an error (no percentile may be computed from it)
H='timeStamp,elapsed,label,responseCode,success'
printf '%s\n1700000000000,12,a,200,true,extra,more\n1700000000001,13,b,200,true\n' "$H" > extra.jtl
pr ingest extra.jtl
printf '%s\n1700000000000,12,a,200,true\n1700000000001,-5,b,200,true\n' "$H" > negative.jtl
pr ingest negative.jtl
printf '{"attack":"neg","seq":0,"code":200,"timestamp":"2026-11-30T15:11:09Z","latency":-5,"bytes_out":0,"bytes_in":0,"error":"","body":null,"method":"GET","url":"http://127.0.0.1/","headers":null}\n' > negative.json
pr ingest negative.json
printf '%s\n1700000000000,5,a\0b,200,true\n1700000000001,5,caf\351,200,true\n1700000000002,5,ok,200,true\n' "$H" > bytes.jtl
pr ingest bytes.jtl
pr summary --no-findings --by label bytes
sh_ "\$PR summary --json bytes | grep -c '\"label\": null' || :"
printf '%s\n' "$H" > header.jtl
pr ingest header.jtl
pr runs
