# perfreport attack end to end without a server: usage errors, then requests to a closed
# port (every sample is a "connection refused" error), native output, --ingest, steps, shards.
pr attack --duration 1s http://127.0.0.1:1/ -r 0/s
pr attack http://127.0.0.1:1/
pr attack -r 10/s -c 5 --duration 1s http://127.0.0.1:1/
pr attack -r 100:300:100/s --duration 1s http://127.0.0.1:1/
pr attack --shard 2/2 -n 1 http://127.0.0.1:1/
pr attack -n 1 ftp://127.0.0.1:1/
sh_ "\$PR attack -n 1 < /dev/null"
sh_ "printf 'GET http://127.0.0.1:1/a\nX-A: 1\n\nPOST http://127.0.0.1:1/b\n' > targets.txt"
pr attack -c 2 -n 6 -q --name refused --tag env=ci --targets targets.txt -o out.bin
pr ingest out.bin
sql "SELECT name, tool, load_model, concurrency, samples, successes FROM runs ORDER BY id"
sql "SELECT message, count FROM errors ORDER BY run_id, message"
sql "SELECT label, samples, errors FROM labels ORDER BY run_id, label"
sql "SELECT json_extract(meta_json, '\$.interrupted'), json_extract(meta_json, '\$.targets_count'), json_extract(meta_json, '\$.shard.count') FROM runs ORDER BY id"
sql "SELECT key, value FROM tags ORDER BY run_id, key"
sh_ "\$PR attack -r 200/s -n 10 -q -w 1 http://127.0.0.1:1/ | \$PR ingest --name piped -"
sql "SELECT name, load_model, CAST(offered_rate AS INTEGER), samples FROM runs WHERE name='piped'"
pr attack -r 100:300:100/s --step 50ms -q --ingest --name steps http://127.0.0.1:1/
sql "SELECT r.name, r.samples, t.value FROM runs r JOIN tags t ON t.run_id = r.id AND t.key = 'rate' ORDER BY r.id"
pr attack -r 300/s -n 9 -q --shard 0/3 -o s0.bin http://127.0.0.1:1/
pr attack -r 300/s -n 9 -q --shard 1/3 -o s1.bin http://127.0.0.1:1/
pr attack -r 300/s -n 9 -q --shard 2/3 -o s2.bin http://127.0.0.1:1/
pr ingest --name merged s0.bin s1.bin s2.bin
sql "SELECT name, samples, CAST(offered_rate AS INTEGER) FROM runs WHERE name='merged'"
# The summary attack prints is the one `summary` prints for the same samples (issue 13): a
# scripted server answers 404 on half the targets; "N requests, success, errors" and the status
# codes agree with `summary`, and so do the timing lines (compared, their values vary).
httpd_start status
sh_ "printf 'GET http://127.0.0.1:%s/status/200\n\nGET http://127.0.0.1:%s/status/404\n' \$PORT \$PORT > half.txt"
sh_ "\$PR attack -c 2 -n 200 --targets half.txt --ingest --name half 2> attack.txt; echo \"exit \$?\""
sh_ "grep -E '^(-> run|[0-9]+ requests|  status codes|  errors)' attack.txt"
sh_ "\$PR summary --percentiles 50,90,99 half > summary.txt; grep -E '^  (success|status codes) ' summary.txt"
sh_ "grep -E '^  (duration|rate|throughput|latency) ' attack.txt > a.lines; grep -E '^  (duration|rate|throughput|latency) ' summary.txt > s.lines; wc -l < a.lines; cmp a.lines s.lines && echo same"
sh_ "\$PR attack -r 2000/s -n 100 --targets half.txt -o open.bin 2> attack.txt; \$PR ingest --name open open.bin; \$PR summary --percentiles 50,90,99 open > summary.txt"
sh_ "grep -E '^  (duration|rate|throughput|latency|send lateness) ' attack.txt > a.lines; grep -E '^  (duration|rate|throughput|latency|send lateness) ' summary.txt > s.lines; wc -l < a.lines; cmp a.lines s.lines && echo same"
httpd_stop
# Every request failed: exit 3 (as check), the samples written all the same.
pr attack -c 1 -n 5 -q http://127.0.0.1:1/ -o refused.bin
pr ingest refused.bin
sh_ "\$PR attack -c 1 -n 5 http://127.0.0.1:1/ -o /dev/null 2>&1 | grep -E '^([0-9]+ requests|  status codes|  errors|perfreport)'"
# a common start in the past (a manifest's fixed time) is refused before anything is sent
pr attack --start-at 2020-01-01T00:00:00Z -n 1 http://127.0.0.1:1/
