# Small things a new user trips over (issue 13, case 6), each on a real fixture.
# Global options work before the command as well as after it.
pr --store other.db ingest "$DATA/ab/ab_plain_c10.txt"
pr --store=other.db runs
pr runs --store other.db
pr --quiet --store other.db ingest --force "$DATA/ab/ab_plain_c10.txt"
pr -q ingest --store other.db --force "$DATA/ab/ab_plain_c10.txt"
pr ingest "$DATA/ab/ab_plain_c10.txt" --quiet --store other.db --force
sh_ "\$PR --store other.db runs | wc -l"
pr --store other.db summary --version
pr --store other.db runs --store missing.db
pr --bogus runs
pr --store
sh_ "ls *.db"
# An ab text with no report (ab stopped: connection refused, a reset, an -s timeout) is an
# error at the end of ab's output, and the store is left as it was.
pr ingest "$DATA/ab/ab_refused.txt"
pr ingest "$DATA/ab/ab_timeout_s1.txt"
sh_ "cat \$DATA/ab/ab_refused.txt \$DATA/ab/ab_refused.stderr.txt | \$PR ingest -"
sh_ "sqlite3 \$PERFREPORT_STORE 'SELECT count(*) FROM runs'"
# Inputs read from stdin have no file name: each gets a name of its own.
sh_ "cat \$DATA/ab/ab_plain_c10.txt | \$PR ingest -"
sh_ "cat \$DATA/ab/ab_small_n20.txt | \$PR ingest -"
sh_ "cat \$DATA/ab/ab_big_64k.txt | \$PR ingest -"
sh_ "\$PR ingest - - < \$DATA/ab/ab_post_json.txt"
pr runs
pr summary stdin-2
# ab -e percentiles in numeric order (the store keeps JSON keys sorted as text: p1, p10, p100…).
pr ingest "$DATA/ab/ab_timelimit_t2.csv"
pr summary ab_timelimit_t2
sh_ "\$PR summary --json ab_timelimit_t2 | grep -o '\"p\": \"[0-9.]*\"' | head -12 | tr '\n' ' '; echo"
