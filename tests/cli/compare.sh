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
