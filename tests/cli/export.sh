# export into monitoring systems: InfluxDB line protocol in JMeter's backend listener schema
# (a JMeter run with threads, errors and awkward labels; a native run with tags) and a run's
# summary as OpenMetrics text for a Pushgateway; bad options.
pr ingest -q "$DATA/jmeter/connrefused.jtl"
pr ingest -q --tag build=41 --tag "team name=perf, core" "$DATA/native/bench3k.prf"
pr export --format influx --interval 1s connrefused
sh_ "\$PR export --format influx bench | head -6"
sh_ "\$PR export --format influx --measurement perf --application shop --percentiles 50,99.9 bench | sed -n '2p;\$p'"
pr export --format prometheus connrefused
pr export --format influx --interval 0s bench
pr export --format influx --percentiles 0,101 bench
pr export --format pdf bench
