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
# the other commands that write to stdout
full summary --by label --skip-warmup 1s last
full findings --json last
full compare --json 1 2
full check --junit - --max p99=10s last
pr tag 1 rate=100
pr tag 2 rate=200
full capacity --load tag:rate 1 2
full capacity --json --load tag:rate 1 2
full trend p99
full trend --json p99
full export --format hgrm 1
full ingest "$DATA/vegeta/basic.bin" --force --name again
full copy --to copy.db 1
full rm again
pr runs
