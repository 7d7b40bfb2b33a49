# Vegeta files end to end: gob, JSON, CSV, reports; agreement with vegeta report; damage.
pr ingest "$DATA/vegeta/basic.bin" "$DATA/vegeta/mixed.bin" "$DATA/vegeta/refused.bin"
pr ingest --format vegeta-json --name basic-json "$DATA/vegeta/basic.json"
pr ingest --name basic-csv "$DATA/vegeta/basic.csv"
pr ingest "$DATA/vegeta/concat.bin" "$DATA/vegeta/basic.report.txt" "$DATA/vegeta/mixed.report.json"
pr runs
pr summary --format vegeta basic
# everything but the percentile columns equals Vegeta's own report
sh_ "\$PR summary --format vegeta basic | sed 's/\\[min, mean.*//' > ours; sed 's/\\[min, mean.*//' \$DATA/vegeta/basic.report.txt > theirs; cmp ours theirs && echo basic: same as vegeta report"
sh_ "\$PR summary --format vegeta mixed | sed 's/\\[min, mean.*//' > ours; sed 's/\\[min, mean.*//' \$DATA/vegeta/mixed.report.txt > theirs; cmp ours theirs && echo mixed: same as vegeta report"
sh_ "\$PR summary --format vegeta refused | sed 's/\\[min, mean.*//' > ours; sed 's/\\[min, mean.*//' \$DATA/vegeta/refused.report.txt > theirs; cmp ours theirs && echo refused: same as vegeta report"
pr summary --by label mixed
pr summary refused
pr summary basic-json basic-csv
pr summary basic.report mixed.report
pr summary concat
head -c 100000 "$DATA/vegeta/basic.bin" > cut.bin
pr ingest cut.bin
pr ingest --format vegeta-gob "$DATA/vegeta/basic.report.txt"
# a Vegeta text report published with its attack (tests/data/vegeta/README.md): Vegeta rounds
# its total apart from attack and wait (19.993s where 9.993s + 10.001s = 19.994s). The run's
# duration is the attack, as Vegeta's rate divides by it; its test time (runs' TEST TIME, the
# summary's "test time") is Vegeta's total, as printed; Vegeta's layout reprints it
pr ingest "$DATA/vegeta/bud_rate150.report.txt"
pr runs bud_rate150.report
pr summary --no-findings bud_rate150.report
sh_ "\$PR summary --format vegeta bud_rate150.report | head -n 2"
