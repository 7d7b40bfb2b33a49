# Concurrent writers on the store under test: 16 ingests of different files at once all land
# (ids stay dense, as one writer would number them), the same file twice at once lands once,
# and 8 ingests appending to one run name at once make one run holding every sample.
sh_ "for i in \$(seq 0 15); do awk -v i=\$i 'NR == 1 || NR % 16 == i' \$DATA/other/hey_mixed_status.csv > part\$i.csv; done"
sh_ "for i in \$(seq 0 15); do \$PR ingest -q part\$i.csv & done; wait"
sql "SELECT count(*), min(id), max(id), sum(samples) FROM runs"
sql "SELECT count(DISTINCT digest), count(*) FROM sources"
sh_ "cp \$DATA/other/hey_mixed_status.csv twice.csv; (\$PR ingest twice.csv > a.log 2>&1 & \$PR ingest twice.csv > b.log 2>&1 & wait); sort a.log b.log"
sql "SELECT name, samples FROM runs WHERE name = 'twice'"
sh_ "for i in \$(seq 0 7); do \$PR ingest -q --name shared --force part\$i.csv & done; wait"
sql "SELECT name, samples FROM runs WHERE name = 'shared'"
sql "SELECT count(*), sum(samples) FROM labels WHERE run_id = (SELECT id FROM runs WHERE name = 'shared')"
pr summary --no-findings shared
