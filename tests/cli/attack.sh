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
