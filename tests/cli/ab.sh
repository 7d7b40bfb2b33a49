# ab: -g TSV, printed report and -e CSV of one run form one run; ab's own tables from samples.
pr ingest "$DATA/ab/ab_plain_c10.tsv" "$DATA/ab/ab_plain_c10.txt" "$DATA/ab/ab_plain_c10.csv"
pr ingest "$DATA/ab/ab_refused.txt" "$DATA/ab/ab_timelimit_t2.tsv"
pr runs
pr summary ab_plain_c10
pr summary --format ab ab_plain_c10
sh_ "sed -n '/^Connection Times/,\$p' \$DATA/ab/ab_plain_c10.txt"
pr summary ab_refused
pr summary --percentiles ab ab_timelimit_t2
