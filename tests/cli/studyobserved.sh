# Issue 32 item 8, conclusions say what was seen: a study recorded with the real vegeta
# (tests/data/study-observed, see its README): hotspot (~180 ms) and openj9 (~1.8 s, p99 about
# 10× higher) at 2, 20 and 50 req/s, each run kept as Vegeta's text report (summary only: the
# differences are observed, not tested) and as Vegeta's results (samples: tested), the 4-request
# runs too small for any latency test to reach significance.
for jvm in hotspot openj9; do
  for run in 2-2s 20-10s 50-10s; do
    rate=${run%-*} dur=${run#*-}
    "$PR" ingest --name $jvm-$run --tag kept=report --tag jvm=$jvm --tag rate=$rate --tag duration=$dur \
      "$DATA/study-observed/$jvm-$run.report.txt" >/dev/null
    "$PR" ingest --name s-$jvm-$run --tag kept=samples --tag jvm=$jvm --tag rate=$rate --tag duration=$dur \
      "$DATA/study-observed/$jvm-$run.bin" >/dev/null
  done
done

# --- summary only: what was seen, never "no significant difference" for what was not tested
sh_ "\$PR render --template study.md --by tag:jvm --pair tag:rate,duration --no-charts tag:kept=report | sed -n '/^## Conclusions/,/^## Capacity/p'"
pr compare tag:kept=report,jvm=hotspot tag:kept=report,jvm=openj9 --pair tag:rate,duration
sh_ "\$PR compare tag:kept=report,jvm=hotspot tag:kept=report,jvm=openj9 --pair tag:rate,duration -t compare.md | sed -n '/^Baseline/,\$p'"
sh_ "\$PR compare tag:kept=report,jvm=hotspot tag:kept=report,jvm=openj9 --pair tag:rate,duration -t compare.zh.md | grep '符号检验\\|未检验'"
sh_ "\$PR render --template study.zh.md --by tag:jvm --pair tag:rate,duration --no-charts tag:kept=report | sed -n '/^## 测试结论/,/^## 容量/p'"
sh_ "\$PR render --template study.html --by tag:jvm --pair tag:rate,duration --no-charts -o observed.html tag:kept=report && sed -n '/<div class=\"conclusion\">/,/<\\/div>/p' observed.html; grep -o '[^>]*marks a run kept[^<]*' observed.html; grep -c 'Percentiles are exact' observed.html || echo 'no exactness note'"
sh_ "\$PR render --template study.zh.html --by tag:jvm --pair tag:rate,duration --no-charts -o observed.zh.html tag:kept=report && sed -n '/<div class=\"conclusion\">/,/<\\/div>/p' observed.zh.html; grep -c '百分位数为精确值' observed.zh.html || echo 'no exactness note'"

# --- the same runs with their samples: the tests have power, the differences are significant;
# the 4-request runs are too few for a latency test
sh_ "\$PR render --template study.md --by tag:jvm --pair tag:rate,duration --no-charts tag:kept=samples | sed -n '/^## Conclusions/,/^## Capacity/p'"
pr compare tag:kept=samples,jvm=hotspot tag:kept=samples,jvm=openj9 --pair tag:rate,duration
pr compare s-hotspot-2-2s s-openj9-2-2s
pr compare hotspot-50-10s openj9-50-10s
