# JMeter JTL files: CSV variants and XML, per-label statistics, JMeter's statistics.json layout.
pr ingest "$DATA/jmeter/csv-default.jtl" "$DATA/jmeter/connrefused.jtl"
pr ingest "$DATA/jmeter/csv-semicolon.jtl" "$DATA/jmeter/csv-quoted.jtl" "$DATA/jmeter/xml.jtl"
pr runs
pr summary --by label csv-default
pr summary connrefused
# the Apdex line names the threshold it was computed with (it said "T 500 ms" whatever --apdex-t was)
sh_ "\$PR summary --apdex-t 200ms csv-default | grep apdex"
pr summary --format jmeter csv-default
pr summary --format jmeter --percentiles jmeter --apdex-t 5 csv-default
pr summary --by label xml
head -c 20000 "$DATA/jmeter/csv-default.jtl" > cut.jtl
pr ingest cut.jtl
