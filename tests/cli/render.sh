# Reports: built-in templates over real runs, metadata, charts beside the file, self-contained
# HTML that parses and carries no script from the data, custom templates and their errors.
pr ingest "$DATA/vegeta/mixed.bin" "$DATA/jmeter/csv-quoted.jtl"
printf 'timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes\n1796051469000,12,"<script>alert(1)</script>|x",200,OK,t1,true,10\n1796051469100,15,"second &amp; <b>bold</b>",500,"<img src=x onerror=alert(2)>",t1,false,10\n' > hostile.jtl
pr ingest hostile.jtl
cat > meta.json <<'JSON'
{"title": "Checkout service, release 1.4", "purpose": "Capacity before the sale", "author": "QA",
 "system": "checkout-api behind nginx", "versions": {"nginx": "1.22.1", "checkout-api": "1.4.0"},
 "hardware": {"CPU": "2 cores", "RAM": "24 GiB"}, "topology": "client → nginx → checkout-api → PostgreSQL",
 "tuning": {"worker_connections": "1024"}}
JSON
pr render --template report.md --meta meta.json -o out/report.md
sh_ "sh \$root/tests/tools/md_links.sh out/report.md"
sh_ "cat out/report.md"
sh_ "ls out/report_files"
sh_ "for f in out/report_files/run1-*.png; do printf '%s ' \$f; od -An -tu1 -j16 -N8 \$f | awk '{print \$3*256+\$4 \"x\" \$7*256+\$8}'; done"
pr render --template report.html --meta meta.json -o out/report.html
sh_ "xmllint --html --noout out/report.html && echo parses"
sh_ "grep -c '<script>alert' out/report.html; grep -c '<img src=x' out/report.html; grep -c 'class=\"pr-chart\"' out/report.html; grep -c '<script type=\"application/json\" id=\"pr-data\">{\"runs\":\[{\"id\":1,' out/report.html"
pr render --template report.md -o out/via.html 3
sh_ "xmllint --html --noout out/via.html && grep -c '&lt;script&gt;alert(1)&lt;/script&gt;' out/via.html"
pr render --template summary.md
pr render --template report.zh.md --no-charts 1
mkdir -p tpl
printf '{{<report.md}}{{$findings}}## Our conclusion\n\n{{#runs}}- {{name}}: p99 {{stats.latency.p99}}\n{{/runs}}{{/findings}}{{$per_run}}{{/per_run}}{{/report.md}}\n' > tpl/mine.md
pr render --template tpl/mine.md --no-charts 1
printf 'Hello {{name}}, {{#items}}[{{> item}}]{{/items}}\n' > tpl/hello.md
printf '{{.}}' > tpl/item.md
printf '{"name": "a|b", "items": [1, 2.5, "x"]}' > data.json
pr render --template tpl/hello.md --data data.json
printf '{{> ../secret}}' > tpl/escape.md
pr render --template tpl/escape.md --data data.json
printf 'line one\n{{#items}}\n{{/other}}\n' > tpl/broken.md
pr render --template tpl/broken.md --data data.json
pr render --template nosuch.md
pr templates
sh_ "\$PR templates show summary.md | head -3"
pr ingest --meta meta.json --name with-meta "$DATA/vegeta/basic.bin"
sh_ "\$PR render --template summary.md with-meta | head -1"
sh_ "\$PR render --no-charts with-meta | sed -n '1,12p'"
pr render --template report.html --no-charts 3
# a failed threshold in the verdict reads as written inside its code span (no &lt; entity)
pr render --template report.md --no-charts --max p99=1ms -o out/verdict.md 1
sh_ "grep -F '✗' out/verdict.md"
# a run that reached no limit under an offered rate: the rate in its human form (md and html)
pr ingest --name post "$DATA/vegeta/post.bin"
sh_ "\$PR render --template report.md --no-charts -o out/post.md post && grep 'what was the limit' out/post.md"
sh_ "\$PR render --template report.html --no-charts -o out/post.html post && grep -o 'none reached: [^<]*' out/post.html"
# every in-page link of a Markdown report lands, the findings' "show on the charts" too (a
# finding with a time: the lab's latency episode)
pr ingest --quiet "$DATA/lab/episode.bin"
pr render --no-charts -o out/episode.md episode
sh_ "sh \$root/tests/tools/md_links.sh out/episode.md"
