# perfreport attack against hostile servers (issue 15 item 5; docs/security.md): each
# misbehaviour ends as samples with one error class each, nothing dropped, memory flat; a closed
# output pipe stops the attack; Ctrl-C records the requests in flight; the run ends at duration +
# timeout and says so.
# Timing-dependent figures are masked (T) or compared, never printed.
mask() { sed -E -e 's/[0-9][0-9.]* (ns|µs|ms|s|min)\b/T/g' -e 's/after [0-9]+ requests/after N requests/' \
  -e 's/[0-9]+ at the end/N at the end/'; }
for mode in reset garbage malformed headers silent endless; do
  httpd_start $mode
  sh_ "/usr/bin/time -f %M -o rss.txt \$PR attack -r 50/s --duration 1s -t 1s --max-body 1M http://127.0.0.1:\$PORT/ -o $mode.bin 2> attack.txt; echo \"exit \$?\"; grep -E '^([0-9]+ requests|  status codes|  errors)|never sent|recorded as' attack.txt"
  sh_ "[ \$(tail -1 rss.txt) -lt 150000 ] && echo 'max RSS under 150 MB'"
  httpd_stop
done
pr ingest --name endless endless.bin
sql "SELECT samples, successes, json_extract(meta_json, '\$.max_body_bytes') FROM runs WHERE name = 'endless'"
# the default body limit, as recorded
httpd_start ok
sh_ "\$PR attack -n 1 -q --ingest --name default-limit http://127.0.0.1:\$PORT/"
sql "SELECT json_extract(meta_json, '\$.max_body_bytes') FROM runs WHERE name = 'default-limit'"
# `attack | head`: the attack stops when the pipe closes, not at the end of its minute
sh_ "( timeout 10 \$PR attack -r 10/s --duration 60s http://127.0.0.1:\$PORT/; echo \"attack exit \$?\" >&2 ) 2>err.txt | head -c 1 >/dev/null; mask < err.txt"
httpd_stop
# Ctrl-C: the requests in flight (a silent server) become samples "interrupted", sent times kept
httpd_start silent
sh_ "\$PR attack -r 100/s --duration 30s -t 0 http://127.0.0.1:\$PORT/ -o int.bin 2> attack.txt & pid=\$!; sleep 1; kill -INT \$pid; wait \$pid; echo \"exit \$?\"; grep -E '^[0-9]+ requests|recorded as' attack.txt | sed -E 's/[0-9]+/N/g; s/  +/  /g'"
sh_ "\$PR ingest --name interrupted int.bin | sed -E 's/[0-9]+ samples/N samples/'"
sql "SELECT CASE WHEN samples > 50 THEN 'more than 50' END, CASE WHEN samples = (SELECT count FROM errors e WHERE e.run_id = r.id AND e.message = 'interrupted') THEN 'all interrupted' END, json_extract(meta_json, '\$.interrupted'), CASE WHEN CAST(json_extract(meta_json, '\$.cut_requests') AS TEXT) = CAST(samples AS TEXT) THEN 'all cut' END FROM runs r WHERE name = 'interrupted'"
sh_ "\$PR summary --percentiles 50 interrupted | grep -E '^  (success|status codes) |^ +[0-9]+  interrupted' | sed -E 's/[0-9]+/N/g; s/  +/  /g'"
# the end of the schedule: what was in flight is awaited up to the timeout, and said
sh_ "\$PR attack -r 20/s --duration 1s -t 500ms http://127.0.0.1:\$PORT/ -o end.bin 2>&1 | grep -E '^([0-9]+ requests|  errors|  in flight)' | mask"
httpd_stop
