# Capacity of a rate series generated deterministically (tests/tools/synth_vegeta.awk): a server
# that completes 400 req/s; two configurations (the second completes 600 req/s).
for r in 100 200 300 400 500 600; do
  awk -v rate=$r -v secs=4 -v cap=400 -v base_ms=5 -v seed=$r -f "$root/tests/tools/synth_vegeta.awk" > a$r.json
  awk -v rate=$r -v secs=4 -v cap=600 -v base_ms=5 -v seed=$((r + 1)) -f "$root/tests/tools/synth_vegeta.awk" > b$r.json
  "$PR" ingest --name a$r --tag rate=$r --tag cfg=small a$r.json >/dev/null
  "$PR" ingest --name b$r --tag rate=$r --tag cfg=large b$r.json >/dev/null
done
pr capacity tag:cfg=small --load tag:rate --load-is-rate --slo p99=250ms
pr capacity --load tag:rate --load-is-rate --by tag:cfg -o cap.svg
sh_ "ls cap-*.svg"
sh_ "\$PR capacity --json --load tag:rate --load-is-rate tag:cfg=small | grep -E '\"(load_kind|reason|sigma|kappa|peak_load)\"'"
pr capacity tag:cfg=small
pr capacity tag:cfg=small --load tag:nope
pr capacity tag:cfg=small --load tag:rate -o cap.txt
