# Issue 17, localisation: every built-in zh template rendered on real fixtures holds no English
# word that the catalog (po/zh_CN.po) translates (tests/tools/l10n_words.awk: names, units and
# options the translation keeps are allowed; so is text from the input files); --lang picks a
# template's variant and the catalog; dates in the reader's time zone (--tz), whole seconds.
PO="$ROOT/po/zh_CN.po"
# the catalogs are in step with the sources (every message extracted, every one translated)
sh_ "sh \$ROOT/tests/tools/po_check.sh \$ROOT"
pr ingest --quiet "$DATA/vegeta/mixed.bin" "$DATA/jmeter/csv-default.jtl" "$DATA/ab/ab_plain_c10.tsv" \
  "$DATA/ab/ab_plain_c10.txt" "$DATA/other/hey_nginx_c50_summary.txt"
for c in off on; do
  for r in 50 100 200; do "$PR" ingest --quiet "$DATA/study-cache/cache-$c-$r.bin"; done
done
for jvm in hotspot openj9; do
  for rate in 50 500; do
    "$PR" ingest --quiet --name $jvm-$rate --tag jvm=$jvm --tag rate=$rate --tag duration=10s \
      "$DATA/study/$jvm-$rate-10s.report.txt"
  done
done
cat > meta.zh.json <<'JSON'
{"title": "订单服务性能测试报告", "purpose": "发布前的容量评估", "author": "性能测试组",
 "versions": {"nginx": "1.22.1"}, "hardware": {"CPU": "8 核"}, "topology": "客户端 → nginx",
 "调优参数": {"worker_processes": "auto"}}
JSON
# strings of the inputs (names, labels, tags, messages, metadata) in a context or document on
# stdin, longest first: left out of the check
inputs() {
  jq -r '.. | objects | to_entries[]
    | select(.key | test("^(name|label|message|pattern|example|tool|format|tool_version|key|value|selection|key_text|configuration|configuration_values|level|run|a|b|a_name|b_name|runs_text|values_text|protocol|method|protocol_method)$"))
    | .value | strings'
}
# names the zh templates keep on purpose: JMeter's column "Latency", the abbreviation TTFB
kept() { printf '%s\n' 'JMeter 的 Latency' '首字节时间（TTFB）'; }
check() {
  { "$PR" render --json "$@" | inputs; echo "-"; kept; } > inputs.all
}
sorted() { awk '{ print length($0) "\t" $0 }' inputs.all | sort -k1,1nr -s | cut -f2- > inputs.txt; }
mkdir -p out
pr render --template report.zh.md --meta meta.zh.json --max p99=250ms -o out/report.zh.md 1 2 3 4
pr render --template report.zh.md --meta meta.zh.json --max p99=250ms -o out/report.zh.html 1 2 3 4
pr render --template report.zh.html --meta meta.zh.json --max p99=250ms -o out/report.zh.dashboard.html 1 2 3 4
check --template report.zh.md --meta meta.zh.json --max p99=250ms 1 2 3 4
sorted
sh_ "awk -f \$ROOT/tests/tools/l10n_words.awk \$PO inputs.txt out/report.zh.md out/report.zh.html out/report.zh.dashboard.html | sed 's#^out/##'"
pr render --template study.zh.md --by tag:cache --pair tag:rate --meta meta.zh.json -o out/study.zh.md tag:cache
pr render --template study.zh.html --by tag:cache --pair tag:rate --meta meta.zh.json -o out/study.zh.html tag:cache
pr render --template study.zh.md --by tag:jvm --pair tag:rate,duration --no-charts -o out/jvm.zh.md tag:jvm
check --template study.zh.md --by tag:cache --pair tag:rate --meta meta.zh.json tag:cache
"$PR" render --json --by tag:jvm --pair tag:rate,duration tag:jvm | inputs >> inputs.all
sorted
sh_ "awk -f \$ROOT/tests/tools/l10n_words.awk \$PO inputs.txt out/study.zh.md out/study.zh.html out/jvm.zh.md | sed 's#^out/##'"
pr --lang zh_CN compare tag:cache=off tag:cache=on --pair tag:rate -t compare.zh.md -o out/compare-pairs.zh.md
pr --lang zh_CN compare 1 3 -t compare.zh.md -o out/compare.zh.md
{ "$PR" compare --json tag:cache=off tag:cache=on --pair tag:rate; "$PR" compare --json 1 3; } | inputs > inputs.all
sorted
sh_ "awk -f \$ROOT/tests/tools/l10n_words.awk \$PO inputs.txt out/compare-pairs.zh.md out/compare.zh.md | sed 's#^out/##'"
# the CLI's summary text and its findings, in Chinese: the same check (the tool's name and
# the file's format are input words too)
"$PR" --lang zh_CN summary --by label 1 2 3 4 5 > out/summary.zh.txt
"$PR" --lang zh_CN findings 1 2 3 4 5 > out/findings.zh.txt
{ "$PR" summary --json 1 2 3 4 5 | inputs; kept; } > inputs.all
sorted
sh_ "awk -f \$ROOT/tests/tools/l10n_words.awk \$PO inputs.txt out/summary.zh.txt out/findings.zh.txt | sed 's#^out/##'"
sh_ "\$PR --lang zh_CN summary 2 | head -8"
sh_ "\$PR --lang zh_CN findings --only errors_5xx 2"

# --lang picks report.md's variant (report.zh.md) and the catalog; the words and units
sh_ "\$PR --lang zh_CN render --template report.md 1 | sed -n '/^## 测试场景/,/^## 测试结果/p'"
sh_ "\$PR render --lang zh_CN --template report.md 1 | grep -c '^## 测试结论'"
# LANGUAGE/LANG as gettext reads them: LANGUAGE only when the locale is not C
sh_ "LANG=zh_CN.UTF-8 LC_ALL= \$PR runs | head -1; LANGUAGE=zh_CN LC_ALL=C \$PR summary 1 | head -1"
sh_ "LANGUAGE=zh_CN LC_ALL=C.UTF-8 \$PR render --template summary.md 1 | grep -c '秒'"
# unknown languages: the environment's fall back to English, --lang's is an error
sh_ "LANG=fr_FR.UTF-8 LC_ALL= \$PR render --template summary.md 1 | grep -c '/s'"
pr --lang fr render --template summary.md 1
pr render --lang zz_ZZ 1
# the catalogs are found beside the binary (the build tree), from any directory
sh_ "cd / && env -u PERFREPORT_LOCALEDIR \$PR --store \$PERFREPORT_STORE --lang zh_CN render --template report.md 1 | grep -m1 '负载模型'"
sh_ "cp \$PR ./alone && env -u PERFREPORT_LOCALEDIR ./alone --lang zh_CN runs 2>&1 | sed 's/(languages: .*)/(languages: …)/'"
# a template naming a language with no catalog: a warning, the report in English words
printf '# {{runs.0.name}}: {{runs.0.stats.duration}}\n' > report.de.md
pr render --template ./report.de.md 1

# dates: the reader's time zone, ISO 8601 with its offset, whole seconds
sh_ "\$PR render --template report.md 1 | grep -E '^\\| Date|requests from'"
sh_ "\$PR --tz Asia/Shanghai render --template report.md 1 | grep -E '^\\| Date|requests from'"
sh_ "\$PR render --tz -05:30 --template report.md 1 | grep -E '^\\| Date|requests from'"
sh_ "TZ=America/New_York \$PR summary --json 1 | grep -E '\"(start|end|generated)\"'"
pr --tz Mars/Olympus render --template report.md 1
pr --tz +25:00 summary 1

# past 1000 distinct labels the rows are grouped by URL pattern; the sentence's heading is the
# column's word too (it said "label:" in English)
awk 'BEGIN { print "timeStamp,elapsed,label,responseCode,success,URL"
  for (i = 0; i < 1200; i++) printf "%d,%d,GET /item/%d,200,true,http://x/item/%d\n", 1700000000000 + i, 10 + i % 7, i, i }' > many.jtl
pr ingest --quiet --name many many.jtl
sh_ "\$PR --lang zh_CN summary --by label --no-findings last | sed -n '/分组/,\$p'"
# a binary that travels: copied away from its build (no catalog folder beside it), it still
# speaks zh_CN from the catalog built into it, and leaves no temporary folder behind
sh_ "mkdir -p travel && cp \$PERFREPORT_BIN travel/perfreport && env -u PERFREPORT_LOCALEDIR travel/perfreport --lang zh_CN findings --min-severity critical 1 | head -2"
sh_ "env -u PERFREPORT_LOCALEDIR travel/perfreport --lang fr runs"
