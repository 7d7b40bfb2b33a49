# CI gates: thresholds per run and per label, exit code 3, JUnit XML and Markdown verdicts.
pr ingest "$DATA/vegeta/basic.bin" "$DATA/vegeta/mixed.bin"
pr check --max p99=1ms --max error_ratio=0.5% --min throughput=150/s basic
pr check --max p99=250ms --max error_ratio=1% --min throughput=100/s --by label --junit junit.xml --markdown verdict.md mixed
sh_ "xmllint --noout junit.xml && cat junit.xml"
sh_ "cat verdict.md"
printf '# gates for the nightly run\nmax p99.9=30ms\nmin apdex=0.95\nmax mean=1\n' > gates.txt
pr check --thresholds gates.txt basic
printf 'max p99\n' > bad.txt
pr check --thresholds bad.txt basic
pr check --max latency=3ms basic
pr check basic
