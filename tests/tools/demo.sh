#!/bin/sh
# The main job on the bundled samples: ingest samples/ into out/perfreport.db and write the
# report into out/ (summary text, report model JSON, and reports/charts where available).
set -eu
BIN=${PERFREPORT_BIN:-./perfreport}
mkdir -p out
rm -f out/perfreport.db out/perfreport.db-wal out/perfreport.db-shm
export PERFREPORT_STORE=out/perfreport.db
"$BIN" ingest --quiet $(ls samples/* | grep -v README)
"$BIN" runs
"$BIN" summary --by label > out/summary.txt
"$BIN" summary --json > out/report.json
if "$BIN" render --help >/dev/null 2>&1; then
  "$BIN" render --template report.md -o out/report.md
  "$BIN" render --template report.html -o out/report.html
fi
echo "wrote:"; ls -1 out | sed 's/^/  out\//'
