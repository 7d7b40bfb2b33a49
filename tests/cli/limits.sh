# Resource limits (docs/security.md): a full disk (a file-size limit, ulimit -f, in 512-byte
# blocks here) during ingest, export and render; a failed first ingest; 1 GB on one line.
# Commands run under a limit write their messages to a small file first (the transcript
# itself is larger than the limit), shown after.
if [ "${PR_STORE_KIND:-sqlite}" != sqlite ]; then echo "skip: file-size limits apply to the SQLite store file"; exit 77; fi
limited() { # limited BLOCKS CMD…: runs CMD under ulimit -f BLOCKS, then shows what it said
  blocks=$1
  shift
  echo "\$ (ulimit -f $blocks; $*)"
  ( ulimit -f "$blocks"; eval "$*" ) >said 2>&1
  rc=$?
  cat said
  [ "$rc" -ne 0 ] && echo "[exit $rc]"
  return 0
}
pr ingest "$DATA/vegeta/basic.bin"
# export and render: nothing partial is left, an existing file is kept as it was (the limits
# leave room for the store's 32 KB shared-memory file, not for the outputs)
pr export -f csv -o samples.csv basic
sh_ "wc -c < samples.csv"
limited 120 "\$PR export -f csv -o samples.csv basic"
limited 120 "\$PR export -f ndjson -o samples.ndjson basic"
sh_ "wc -c < samples.csv; ls"
limited 200 "\$PR render -t report.html -o report.html basic"
sh_ "ls"
# ingest: 700,000 JMeter samples (21 MB, a file large enough for the rollback journal,
# store.h's pr_store_bulk_writes) do not fit in the ~200 KB the limit leaves the store; the
# store's content is compared, not its bytes: going through a rollback journal and back to
# WAL mode moves the file header's change counter
sqlite3 perfreport.db .dump > before.sql
awk 'BEGIN { print "timeStamp,elapsed,label,responseCode,success"
             for (i = 0; i < 700000; i++) printf "%d,%d,label%d,200,true\n", 1700000000000 + i, i % 97, i % 50 }' > big.jtl
limited 400 "\$PR ingest big.jtl"
sh_ "sqlite3 perfreport.db .dump | cmp - before.sql && ls perfreport.db* && echo store unchanged"
pr runs
# a failed ingest into a store that did not exist leaves no store behind
printf 'timeStamp,elapsed,label,responseCode,success\n1700000000000,-5,a,200,true\n' > negative.jtl
pr ingest --store new.db negative.jtl
sh_ "ls new.db* 2>/dev/null | wc -l"
# 1 GiB on one line, made on the fly (never stored): refused after the 1 MiB line cap, in
# bounded memory (the measured RSS goes to $BUILD/limits.log; under ASan its quarantine of
# freed memory is turned off, it would count as held)
rsslog=$root/${BUILD:-build}/limits.log
oneline() { # oneline NAME FORMAT PREFIX SUFFIX: the line piped into ingest, RSS checked
  { printf '%s' "$3"; head -c 1073741824 /dev/zero | tr '\0' a; printf '%s\n' "$4"; } |
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
    /usr/bin/time -f '%M' -o rss "$PR" ingest --store line.db $2 - >said 2>&1
  echo "\$ ingest of a 1 GiB line ($1)"
  cat said
  kb=$(tail -1 rss)
  echo "$1: max RSS $kb KB" >> "$rsslog"
  [ "$kb" -lt 102400 ] && echo "max RSS under 100 MB" || echo "max RSS $kb KB: NOT bounded"
}
oneline vegeta-json "--format vegeta-json" '{"attack":"' '","code":200}'
oneline jmeter-csv "" "$(printf 'timeStamp,elapsed,label,responseCode,success\n1700000000000,1,')" ',200,true'
oneline sniffed "" '{"attack":"' '","code":200}'
sh_ "ls line.db* 2>/dev/null | wc -l"
