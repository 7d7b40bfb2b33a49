# Native stream end to end: ingest, list, summary (text, per label), export and re-ingest.
pr ingest --tag env=ci "$DATA/native/bench3k.prf"
pr runs
pr summary --by label 1
pr summary --percentiles 50,99,99.9,100 --from 100ms --to 400ms bench
sh_ "\$PR export --format csv 1 | head -4"
sh_ "\$PR export --format csv 1 | wc -l"
sh_ "\$PR export --format ndjson 1 | head -2"
sh_ "cat \$DATA/native/bench3k.prf \$DATA/native/bench3k.prf | \$PR ingest --name twice -"
pr summary twice
pr export -o again.prf 1
pr ingest --name copy again.prf
pr summary copy
pr tag copy build=7 env-
pr runs
pr rm copy
pr runs
sql "SELECT label, samples, errors FROM labels WHERE run_id=1 ORDER BY label"
sh_ "\$PR export --format hgrm 1 | head -8; \$PR export --format hgrm 1 | tail -4"
pr summary --exact-limit 100 --by label bench
sh_ "cat \$DATA/native/bench3k.prf \$DATA/native/bench3k.prf > two.prf"
pr ingest --force --split-runs --name steps two.prf
pr runs
