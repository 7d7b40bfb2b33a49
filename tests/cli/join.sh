# The files of one run join the same whatever their order: every order of ab's three files
# (-g TSV, printed report, -e CSV) and of hey's two (CSV, printed summary) stores the same run.
# dump: the stored run without its id and time of ingestion (row, tags, strings, per-label,
# error and status tables, and a digest of the sample blocks).
dump() {
  sqlite3 "$1" "SELECT name, tool, format, tool_version, samples, successes, start_ns, end_ns,
    load_model, offered_rate, concurrency, summary_only, summary_json, meta_json FROM runs"
  for t in tags strings labels errors status_codes; do
    sqlite3 "$1" "SELECT * FROM $t ORDER BY 1, 2" | sed 's/^[0-9]*|/RUN|/'
  done
  sqlite3 "$1" "SELECT seq, samples, start_min, start_max, hex(data) FROM blocks ORDER BY seq" | cksum
}
# orders NAME DIR FILE… : ingests the files in every order into fresh stores, compares
orders() {
  name=$1 dir=$2
  shift 2
  first=""
  for order in "$@"; do
    rm -f o.db
    set -- $order
    files=""
    for f in "$@"; do files="$files $dir/$f"; done
    PERFREPORT_STORE=o.db "$PR" ingest -q --name "$name" $files
    dump o.db > "o.$name.dump"
    if [ -z "$first" ]; then
      first="$order"
      cp "o.$name.dump" "o.$name.first"
      echo "$name: $order: stored"
    elif cmp -s "o.$name.dump" "o.$name.first"; then
      echo "$name: $order: identical to $first"
    else
      echo "$name: $order: DIFFERS from $first:"
      diff "o.$name.first" "o.$name.dump" | cut -c1-160 | head -8
    fi
  done
}
a=ab_plain_c10
orders ab "$DATA/ab" "$a.txt $a.tsv $a.csv" "$a.txt $a.csv $a.tsv" "$a.tsv $a.txt $a.csv" \
  "$a.tsv $a.csv $a.txt" "$a.csv $a.txt $a.tsv" "$a.csv $a.tsv $a.txt"
orders hey "$DATA/other" "hey_mixed_status.csv hey_mixed_status_summary.txt" \
  "hey_mixed_status_summary.txt hey_mixed_status.csv"
# what the joined run is made of: the TSV gives the samples, the text its counters
export PERFREPORT_STORE=o.db
pr runs
sh_ "sqlite3 o.db \"SELECT json_extract(meta_json, '\$.inputs[0].format'), json_extract(meta_json, '\$.inputs[1].format'), json_extract(summary_json, '\$.requests'), json_extract(summary_json, '\$.failures') FROM runs\""
