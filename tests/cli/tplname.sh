# Template lookup (issue 34, item 4): a template NAME (no slash) is the built-in one, a file is
# read only when given as a path. A report written to ./report.md must not become the template
# of the next render (run 1's report came out as run 2's), nor ./compare.md the next compare's.
pr -q ingest --name first --tag rate=100 "$DATA/vegeta/basic.bin"
pr -q ingest --name second --tag rate=200 "$DATA/vegeta/mixed.bin"
pr render --no-charts -o report.md first
pr render --no-charts -o second.md second
sh_ "grep -m1 '^| Runs\|requests from' second.md"
sh_ "cmp -s report.md second.md && echo 'second.md is report.md' || echo 'second.md differs from report.md'"
# the same name as a path is the file (Markdown without tags renders as itself)
printf 'mine: {{runs.0.name}}\n' > report.md
pr render --no-charts -t ./report.md second
sh_ "\$PR render --no-charts -t report.md second | head -1"
sh_ "cp report.md \$(pwd)/abs.md; \$PR render --no-charts -t \$(pwd)/abs.md second | sed 's#^#> #'"
mkdir -p tpl
printf 'tpl: {{runs.0.name}} {{> part}}\n' > tpl/x.md
printf '[part from tpl/]' > tpl/part.md
pr render --no-charts -t tpl/x.md first
# a file name that is no built-in: an error that says how to name the file
printf 'own: {{runs.0.name}}\n' > own.md
pr render --no-charts -t own.md first
pr render --no-charts -t nosuch.md first
pr render --no-charts -t tpl/nosuch.md first
pr render --no-charts -t ./tpl first
# a partial the built-in template uses is the built-in one, whatever lies in the folder
printf '<h1>HIJACKED STYLE</h1>' > report-style.mustache
printf '{{> report-style}}' > report.html
pr render --no-charts -o page.html first
sh_ "grep -c 'HIJACKED' page.html"
pr render --no-charts -t report.html -o page2.html first
sh_ "grep -c 'HIJACKED' page2.html"
# a study template name is the built-in study, not ./study.md
printf 'not a study {{runs.0.name}}\n' > study.md
sh_ "\$PR render --no-charts -t study.md --pair tag:rate first second | head -1"
# compare -t compare.md -o compare.md twice: the second is the built-in again, not the first's output
pr compare first second -t compare.md -o compare.md
pr compare second first -t compare.md -o compare.md
sh_ "head -1 compare.md"
printf 'cmp: {{runs.0.name}}\n' > mycmp.md
pr compare first second -t ./mycmp.md
pr compare first second -t mycmp.md
