# The store interface end to end on the store under test (SQLite, or PostgreSQL in the
# suite's second pass): copy to and from another store (exact: export gives the same bytes),
# the tables behind the Grafana views, re-ingest detection, a schema-1 file migrated.
pr ingest --tag build=41 "$DATA/native/bench3k.prf"
pr ingest --tag build=42 "$DATA/other/hey_mixed_status.csv"
pr copy --to local.db
pr copy --to local.db
pr runs --store local.db
sh_ "\$PR export 1 > a.prf && \$PR export --store local.db 1 > b.prf && cmp a.prf b.prf && echo same bytes"
sh_ "\$PR export --format csv 2 > a.csv && \$PR export --format csv --store local.db 2 | cmp - a.csv && echo same rows"
sh_ "\$PR summary 2 > a.txt && \$PR summary --store local.db 2 | cmp - a.txt && echo same summary"
pr rm 1
sh_ "\$PR copy --from local.db --to \"\$PERFREPORT_STORE\" bench"
sh_ "\$PR export 3 | cmp - a.prf && echo same bytes"
pr runs
pr ingest "$DATA/native/bench3k.prf"
sh_ "\$PR copy --from local.db --to \"\$PERFREPORT_STORE\" 1"
pr copy --to local.db nosuchrun
pr copy --from nosuch.db --to local.db
pr copy
sql "SELECT run_id, name, tags, requests, successes, errors, duration_ns, p50_ns, p99_ns, max_ns, interval_ns FROM run_summary ORDER BY run_id"
sql "SELECT run_id, count(*), sum(requests), sum(errors), min(t_ns) - min(start_ns) FROM run_series JOIN runs ON runs.id = run_series.run_id GROUP BY run_id ORDER BY run_id"
sql "SELECT requests, p50_ns, p90_ns, p99_ns, max_ns FROM run_series WHERE run_id = 3 ORDER BY t_ns LIMIT 3"
sql "SELECT path, forced FROM sources ORDER BY run_id, id"
# a store of schema version 1, migrated when opened
sh_ "sqlite3 v1.db < \$DATA/store/schema1.sql"
pr runs --store v1.db
sh_ "\$PR export --store v1.db --format csv 1 | head -3"
sh_ "sqlite3 v1.db 'PRAGMA user_version; SELECT run_id, forced FROM sources ORDER BY id'"
pr ingest --store v1.db "$DATA/ab/ab_small_n20.tsv"
pr ingest --store v1.db --force "$DATA/ab/ab_small_n20.tsv"
# a PostgreSQL store that cannot be reached: the message names it without its password
pr runs --store "postgresql://ci:s3cret@127.0.0.1:1/perf?connect_timeout=5"
pr runs --store "host=127.0.0.1 port=1 user=ci password=s3cret dbname=perf"
# SOURCE_DATE_EPOCH is read once, validated: a value that is not whole seconds is the clock
# (the store took "12abc" as 12 s after 1970): 1 is a time of the clock
sh_ "SOURCE_DATE_EPOCH=12abc \$PR ingest --quiet --name clock \"$DATA/vegeta/basic.bin\" --force"
sql "SELECT CASE WHEN created_at > 1700000000 AND created_at < 253402300800 THEN 1 ELSE created_at END FROM runs WHERE name = 'clock'"
sql "SELECT CASE WHEN ingested_at > 1700000000 THEN 1 ELSE ingested_at END FROM sources JOIN runs ON runs.id = sources.run_id WHERE runs.name = 'clock'"
