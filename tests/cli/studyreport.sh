# Issue 17, study-shaped reports (render --template study.md|study.zh.md|study.html|study.zh.html):
# the two-JVM study kept as 12 Vegeta text reports (tests/data/study, summary-only: nothing can
# be tested but the error ratio), the cache study recorded with perfreport attack against nginx
# without and with proxy_cache (tests/data/study-cache, real samples: "N× faster"), and an A/A
# study of two identical configurations (no conclusion).
for jvm in hotspot openj9; do
  for rate in 50 200 500; do
    for dur in 10s 60s; do
      "$PR" ingest --name $jvm-$rate-$dur --tag jvm=$jvm --tag rate=$rate --tag duration=$dur \
        "$DATA/study/$jvm-$rate-$dur.report.txt" >/dev/null
    done
  done
done
cat > meta.json <<'JSON'
{"title": "HotSpot or OpenJ9 for the order service", "purpose": "Pick the JVM for release 2.3",
 "author": "QA", "system": "order-api 2.3 behind nginx",
 "versions": {"order-api": "2.3.0", "HotSpot": "17.0.9", "OpenJ9": "0.41.0"},
 "hardware": [{"role": "load generator", "CPU": "2 cores", "RAM": "4 GiB"},
              {"role": "server", "CPU": "8 cores", "RAM": "16 GiB"}],
 "topology": "vegeta → nginx → order-api → PostgreSQL",
 "tuning": {"hotspot": {"GC": "G1", "-Xmx": "2g"}, "openj9": {"GC": "gencon", "-Xmx": "2g"}}}
JSON
pr render --template study.md --by tag:jvm --pair tag:rate,duration --meta meta.json -o out/study.md tag:duration
sh_ "cat out/study.md"
sh_ "for f in out/study_files/*.png; do printf '%s ' \$f; od -An -tu1 -j16 -N8 \$f | awk '{print \$3*256+\$4 \"x\" \$7*256+\$8}'; done"
pr render --template study.html --by tag:jvm --pair tag:rate,duration --meta meta.json -o out/study.html tag:duration
sh_ "xmllint --html --noout out/study.html && echo parses"
sh_ "grep -o '<h2 id=\"[a-z]*\">[A-Za-z ]*' out/study.html; grep -c 'src=\"data:image/svg+xml;base64,' out/study.html; grep -c '<script src\|<link \|@import\|url(' out/study.html || echo 'no fetch'"
# the context, as a template sees it
sh_ "\$PR render --json --by tag:jvm --pair tag:rate,duration tag:duration | grep -E '^  \"(schema|schema_version|by|n_configurations|several_configurations|n_levels|n_runs|interfaces_omitted|has_samples|has_tool_printed|has_comparison|has_capacity|has_recommendations)\"'"

# --- the Chinese study report, with the usual tables of --meta
cat > meta.zh.json <<'JSON'
{"title": "订单服务 JVM 选型性能测试报告", "purpose": "为 2.3 版本选择 JVM", "author": "性能测试组",
 "版本信息": [{"组件": "order-api", "版本": "2.3.0"}, {"组件": "HotSpot", "版本": "17.0.9"}, {"组件": "OpenJ9", "版本": "0.41.0"}],
 "硬件信息": {"CPU": "8 核", "内存": "16 GB", "磁盘": null},
 "服务调用链路": ["vegeta", "nginx", "order-api", "PostgreSQL"],
 "调优参数": [["参数", "HotSpot", "OpenJ9"], ["GC", "G1", "gencon"], ["-Xmx", "2g", "2g"]],
 "服务内存分配": {"order-api": {"堆": "2 GB", "元空间": "256 MB"}, "PostgreSQL": {"shared_buffers": "4 GB"}}}
JSON
pr render --template study.zh.md --by tag:jvm --pair tag:rate,duration --meta meta.zh.json --no-charts -o out/study.zh.md tag:duration
sh_ "cat out/study.zh.md"
pr render --template study.zh.html --by tag:jvm --pair tag:rate,duration --meta meta.zh.json -o out/study.zh.html tag:duration
sh_ "xmllint --html --noout out/study.zh.html && echo parses; grep -o '<h2 id=\"[a-z]*\">[^<]*' out/study.zh.html"

# --- the cache study: real samples, one configuration clearly faster
pr ingest "$DATA"/study-cache/cache-off-50.bin "$DATA"/study-cache/cache-off-100.bin "$DATA"/study-cache/cache-off-200.bin "$DATA"/study-cache/cache-on-50.bin "$DATA"/study-cache/cache-on-100.bin "$DATA"/study-cache/cache-on-200.bin
pr render --template study.md --by tag:cache --pair tag:rate --no-charts tag:cache
sh_ "\$PR render --template study.zh.md --by tag:cache --pair tag:rate --no-charts tag:cache | sed -n '/^## 测试结论/,/^## 各接口/p'"
# the same figures as compare --pair (the conclusions quote them)
pr compare tag:cache=off tag:cache=on --pair tag:rate
sh_ "\$PR render --template study.html --by tag:cache --pair tag:rate -o out/cache.html tag:cache && xmllint --html --noout out/cache.html && grep -c 'src=\"data:image/svg+xml;base64,' out/cache.html"

# --- A/A: two identical configurations (same server model, other seeds): no conclusion
for ab in a b; do
  for rate in 100 200; do
    seed=$rate; [ $ab = b ] && seed=$((rate + 7))
    awk -v rate=$rate -v secs=3 -v cap=400 -v base_ms=4 -v seed=$seed -f "$root/tests/tools/synth_vegeta.awk" > aa-$ab-$rate.json
    "$PR" ingest --name aa-$ab-$rate --tag ab=$ab --tag rate=$rate aa-$ab-$rate.json >/dev/null
  done
done
sh_ "\$PR render --template study.md --by tag:ab --pair tag:rate --no-charts tag:ab | sed -n '/^## Conclusions/,/^## Results/p'"
sh_ "\$PR render --template study.md --by tag:ab --pair tag:rate --no-charts tag:ab | grep -c '× \(faster\|slower\)'"

# --- one configuration, an SLO, a user template that inherits from study.md
sh_ "\$PR render --template study.md --pair tag:rate,duration --slo p99=100ms --no-charts tag:jvm=openj9 | sed -n '/^## Capacity/,/^## Recommendations/p'"
mkdir -p tpl
printf '{{<study.md}}{{$interfaces}}{{/interfaces}}{{$capacity}}{{/capacity}}{{$recommendations}}{{/recommendations}}{{$footer}}Questions: #perf{{/footer}}{{/study.md}}\n' > tpl/study-short.md
pr render --template tpl/study-short.md --by tag:cache --pair tag:rate --no-charts tag:cache

# --- what a study needs
pr render --template study.md tag:duration
pr render --template study.md --pair tag:rate,flavour tag:duration
pr render --template study.md --pair rate tag:duration
pr render --template study.md --pair tag:rate --load fast tag:duration
pr render --template study.md --pair tag:rate --slo p99=soon tag:duration
pr render --template study.md --pair tag:rate --no-charts tag:duration
sh_ "\$PR templates | grep study"
