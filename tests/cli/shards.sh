# A distributed attack into one shared run of the store under test: 4 shard processes at
# once (requests to a closed port fail at once, so the counts are exact), shard 2 killed
# half way: the run says 3 of 4 shards; nothing lands twice; the whole run's summary is the
# summary of the shards' samples; the index and run id from a Kubernetes Indexed Job's
# environment; usage errors. (Timings vary: only the exact lines are shown.)
sh_ "for i in 0 1 3; do \$PR attack -r 40/s --duration 3s -q --shard \$i/4 --run-id job-7 -o s\$i.prf http://127.0.0.1:1/ 2>&1 & done; \$PR attack -r 40/s --duration 3s -q --shard 2/4 --run-id job-7 http://127.0.0.1:1/ & k=\$!; sleep 1; kill -9 \$k; wait"
sh_ "\$PR summary --no-findings job-7 | grep -E '^run|shards|requests|success|status|errors|connection'"
sql "SELECT shard_index, shard_count, samples FROM shards ORDER BY shard_index"
sql "SELECT name, format, samples, json_extract(meta_json, '\$.shards.landed'), json_extract(meta_json, '\$.shards.complete') FROM runs"
pr ingest --run-id job-7 s1.prf
pr attack -r 40/s --duration 3s -q --shard 1/4 --run-id job-7 -o again.prf http://127.0.0.1:1/
pr ingest --run-id job-7 again.prf
sql "SELECT sum(samples) FROM runs"
sh_ "\$PR attack -r 40/s --duration 3s --shard 2/4 --run-id job-7 -o s2.prf http://127.0.0.1:1/ 2>&1 | grep -e '->'"
pr ingest --name whole --force s0.prf s1.prf s2.prf s3.prf
sh_ "\$PR summary job-7 | tail -n +3 > shared.txt; \$PR summary whole | tail -n +2 > whole.txt; diff shared.txt whole.txt && echo the same summary"
sh_ "\$PR summary --no-findings job-7 | grep -E '^run|shards|requests'"
sql "SELECT name, samples, json_extract(meta_json, '\$.shards.complete') FROM runs ORDER BY id"
# a Kubernetes Indexed Job: the index from JOB_COMPLETION_INDEX, the run id from the pod's host name
sh_ "for i in 0 1; do JOB_COMPLETION_INDEX=\$i HOSTNAME=load-b42-\$i \$PR attack -n 6 -c 2 --shards 2 http://127.0.0.1:1/ 2>&1 | grep -e '->'; done"
sh_ "JOB_NAME=named-job IDX=0 \$PR attack -n 4 -c 2 -q --shards 2 --shard-index-env IDX http://127.0.0.1:1/"
sh_ "\$PR summary --no-findings load-b42 | grep -E '^run|shards|requests'"
sql "SELECT name, samples FROM runs WHERE name LIKE '%job%' OR name LIKE 'load%' ORDER BY id"
pr attack -n 4 --shards 4 http://127.0.0.1:1/
sh_ "JOB_COMPLETION_INDEX=4 \$PR attack -n 4 --shards 4 http://127.0.0.1:1/"
sh_ "JOB_COMPLETION_INDEX=1 HOSTNAME=laptop \$PR attack -n 4 --shards 4 http://127.0.0.1:1/"
pr attack -n 4 --shards 3 --shard 1/4 http://127.0.0.1:1/
pr attack -r 10:20:10/s --step 1s --run-id x http://127.0.0.1:1/
pr ingest --shard 1/4 s1.prf
