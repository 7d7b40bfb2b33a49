# Comparing runs and tag selections: verdicts, JSON model, Markdown template, exit codes.
pr ingest --tag env=a "$DATA/vegeta/basic.bin"
pr ingest --tag env=b "$DATA/vegeta/mixed.bin"
pr ingest --tag env=c "$DATA/vegeta/post.bin" "$DATA/vegeta/concat.bin"
pr compare basic mixed
pr compare basic basic --fail-on-regression
pr compare basic mixed --fail-on-regression --min-effect 10%
sh_ "\$PR compare --json basic mixed | grep -E '\"(schema|verdict|regressions|improvements)\"' | sort | uniq -c"
pr compare tag:env=a tag:env=c -t compare.md
pr compare basic
pr compare basic tag:env=zzz
pr compare basic mixed --min-effect lots
pr compare basic mixed -t compare.zh.md
# summary-only runs (vegeta's printed reports): compared on what they have, untested
pr ingest --name printed-basic "$DATA/vegeta/basic.report.txt"
pr ingest --name printed-mixed "$DATA/vegeta/mixed.report.txt"
pr compare printed-basic printed-mixed --fail-on-regression
# labels and run names in CJK: the label column is cut at a character (it was cut at the 40th
# byte, inside a character) and the columns count display width
long=$(printf '登录%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
for r in 1 2; do
  { echo "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,grpThreads,allThreads,Latency"
    for i in 1 2 3 4 5 6; do
      echo "179605174700$i,$((10 * r + i)),$long,200,OK,t 1-1,text,true,,412,1,1,5"
      echo "179605174710$i,$((20 * r + i)),首页,200,OK,t 1-1,text,true,,412,1,1,5"
    done; } > cjk$r.jtl
done
pr ingest --name 基线 cjk1.jtl
pr ingest --name 候选 cjk2.jtl
sh_ "\$PR compare 基线 候选 | sed -n '/per label/,\$p'"
