# Memory budget (issues 15 and 18): exact mode keeps 10 bytes a sample; a selection that half
# the memory this process may use cannot hold is analysed in bounded mode, and the output says
# why (PERFREPORT_MEMORY stands for the memory available, so the case does not depend on the
# machine). An explicit --exact-limit is obeyed as given.
pr ingest --quiet "$DATA/native/bench3k.prf"
sh_ "PERFREPORT_MEMORY=1M \$PR summary 1 | grep -E '^  latency|bounded mode|need about'"
sh_ "PERFREPORT_MEMORY=40k \$PR summary 1 | grep -E '^  latency|bounded mode|need about'"
sh_ "PERFREPORT_MEMORY=40k \$PR summary --json 1 | jq -r '.runs[0].stats | .mode, .bounded_reason'"
sh_ "PERFREPORT_MEMORY=40k \$PR summary --exact-limit 0 1 | grep -E '^  latency|bounded mode|need about'"
sh_ "PERFREPORT_MEMORY=40k \$PR render --template report.html -o r.html 1"
