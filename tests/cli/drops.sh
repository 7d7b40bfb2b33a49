# Silent drops (issue 34, item 7): a reader never leaves part of a file out without a word.
# An .hgrm row with a negative value was read as the end of the distribution (as wrk2's
# "----" line is): 1 of 1000 samples kept, no warning. It is refused, with its place.
printf '       Value     Percentile TotalCount 1/(1-Percentile)\n\n       1.000 0.000000000000          1           1.00\n      -5.000 0.500000000000        500           2.00\n      10.000 1.000000000000       1000            inf\n#[Mean    =        5.000, StdDeviation   =        2.000]\n#[Max     =       10.000, Total count    =         1000]\n#[Buckets =           27, SubBuckets     =         2048]\n' > neg.hgrm
pr ingest neg.hgrm
no_run_left
# wrk2's own report after the distribution still ends it
pr ingest "$DATA/hdr/wrk2_readme_latency.txt"
# A Locust stats file cut mid-row became a run with no figures and no word: the short last row
# and the missing 'Aggregated' row (Locust writes it last) are now said, with their place.
head -c 600 "$DATA/locust/own212/run_stats.csv" > run_stats.csv
pr ingest run_stats.csv
pr summary run_stats
# a short row that is not the last is not a cut: refused with its line
{ head -3 "$DATA/locust/own212/run_stats.csv"; echo 'GET,/short,1,0'; tail -1 "$DATA/locust/own212/run_stats.csv"; } > mid_stats.csv
pr ingest mid_stats.csv
