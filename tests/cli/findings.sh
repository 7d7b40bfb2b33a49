# Findings on real fixtures: quiet on a healthy run, errors classified, timeouts recognised.
pr ingest "$DATA/vegeta/basic.bin" "$DATA/vegeta/refused.bin" "$DATA/vegeta/mixed.bin" \
  "$DATA/findings/timeouts-synthetic.json" "$DATA/ab/ab_plain_c10.tsv" "$DATA/jmeter/csv-default.jtl"
pr findings basic
pr findings refused
pr findings mixed
pr findings timeouts-synthetic
pr findings --min-severity critical ab_plain_c10 csv-default
sh_ "\$PR findings --json --only errors_refused refused | grep -E '\"(id|severity|count|ratio)\"'"
pr findings --min-severity fatal
pr findings --help
