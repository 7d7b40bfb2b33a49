# Checked output: every command that writes to stdout fails (exit 1, a message) when stdout
# cannot be written (/dev/full), instead of exiting 0 with the output lost.
pr ingest --quiet "$DATA/vegeta/basic.bin" "$DATA/ab/ab_plain_c10.tsv"
full() { sh_ "\$PR $* > /dev/full"; }
full --help
full --version
full ingest --help
full runs
full formats
full templates
full templates show report.md
full summary last
full summary --json last
full summary --format vegeta basic
full findings last
full compare 1 2
full chart --list
full export --format csv 1
full export 1
full render --template summary.md
full check --max p99=10s last
