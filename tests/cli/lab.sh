# The behaviour lab (docs/findings.md, "The lab"): real Vegeta and ab recordings against a server
# whose behaviour is known (tests/tools/labd.c), each held against its oracle
# (tests/lab/oracle.txt); the confusion matrix must show no miss and no false alarm.
sh_ "PERFREPORT_BIN=\$PERFREPORT_BIN sh $root/tests/lab/run.sh"
# a few of the lab's findings in full: a full queue, a closed-model series past its knee, a
# summary's timeouts at Vegeta's default, fast 500s counted by ab, a latency episode
pr ingest --quiet "$DATA/lab/sat_open.bin" "$DATA/lab/hang.report.txt" "$DATA/lab/ab_500.tsv" \
  "$DATA/lab/ab_500.txt" "$DATA/lab/episode.bin"
pr findings --min-severity warning sat_open hang.report ab_500 episode
pr ingest --quiet "$DATA"/lab/ab_pool_c*.tsv "$DATA"/lab/ab_pool_c*.txt
pr findings --only saturation ab_pool_c4 ab_pool_c8 ab_pool_c16 ab_pool_c32 ab_pool_c64
