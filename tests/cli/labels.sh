# Labels by the million (issue 15): a JMeter file whose labels carry an id (GET /item/17), as
# real ones do. 1,000,000 distinct labels are grouped by URL pattern past 1000 and the run is
# summarised and rendered within 200 MB; 20,000 labels without grouping show the top 100 and
# one "other" row. The files are generated here (awk), the memory measured by tests/tools/
# maxrss.c (getrusage of the child; not checked under the sanitizers, whose shadow memory
# makes the figure meaningless).
[ "${BUILD:-build}" = build-san ] && export PR_MAXRSS_SKIP=1
MAXRSS="$ROOT_BUILD/tests/maxrss"
jtl() { # jtl N LABELS: N rows, 50 a millisecond, LABELS distinct ids cycling
  awk -v n="$1" -v k="$2" 'BEGIN {
    print "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,grpThreads,allThreads,Latency"
    for (i = 0; i < n; i++) {
      e = (i * 7919) % 500 + 5; ok = i % 97 ? "true" : "false"; code = i % 97 ? 200 : 500
      printf "%.0f,%d,GET /item/%d,%d,OK,T 1-%d,text,%s,,412,8,8,%d\n", 1796051766524 + int(i / 50), e, i % k, code, i % 8 + 1, ok, e - 1
    }
  }'
}
jtl 1000000 1000000 > million.jtl
sh_ "wc -l < million.jtl"
sh_ "\$MAXRSS 200 \$PR ingest --quiet million.jtl"
sh_ "\$MAXRSS 200 \$PR summary --by label million > summary.txt; grep -A5 '^  label' summary.txt"
sh_ "\$MAXRSS 200 \$PR summary --json million > summary.json; jq -c '.runs[0].labels_grouping' summary.json; jq '.runs[0].labels | length' summary.json"
sh_ "\$MAXRSS 200 \$PR render --template report.html -o million.html million"
sh_ "\$MAXRSS 200 \$PR summary --patterns never --by label million > never.txt; grep -A3 '^  label' never.txt; tail -1 never.txt"
jtl 20000 20000 > items.jtl
pr ingest --quiet items.jtl
sh_ "\$PR summary --by label --patterns never items | tail -3"
sh_ "\$PR summary --json --patterns never items | jq -c '.runs[0].labels_grouping, (.runs[0].labels | length), (.runs[0].labels[-1] | {\"label\": .label, other, labels, requests})'"
sh_ "\$PR summary --json --top 5 --by label-pattern items | jq -c '.runs[0].labels_grouping, [.runs[0].labels[] | {\"label\": .label, requests}]'"
pr summary --top x items
pr summary --patterns sometimes items
