#!/bin/sh
# stores: sqlite postgresql
# A distributed attack against a private nginx: 4 shard processes with a common start land in
# one shared run of the store under test; shard 2 is killed half way. The run then says
# "3 of 4", its summary is exactly the summary of the 3 landed shards' samples ingested as one
# run, nothing is counted twice when a shard comes again, and shard 2 landing completes it.
. tests/integration/lib.sh
start_nginx
URL="http://127.0.0.1:$NGINX_PORT"
start=$(( $(date +%s) + 1 ))
for i in 0 1 3; do
  "$BIN" attack -r 200/s --duration 4s -q --start-at "$start" --shard $i/4 --run-id it-shards \
    -o "$work/s$i.prf" "$URL/" "$URL/missing" "$URL/index.html" 2>"$work/s$i.err" &
done
"$BIN" attack -r 200/s --duration 4s -q --start-at "$start" --shard 2/4 --run-id it-shards \
  "$URL/" 2>/dev/null &
victim=$!
sleep 3
kill -9 "$victim"
wait
for i in 0 1 3; do [ -s "$work/s$i.err" ] && fail "shard $i: $(cat "$work/s$i.err")"; done

"$BIN" summary --no-findings it-shards > "$work/shared.txt" || fail "summary"
grep -q '^  shards        3 of 4 (missing: 2)$' "$work/shared.txt" || fail "$(head -3 "$work/shared.txt")"
req=$(awk '$1 == "requests" { print $2 }' "$work/shared.txt")
[ "$req" = 600 ] || fail "expected the 3 x 200 requests of shards 0, 1 and 3, got $req"

"$BIN" ingest -q --force --name whole "$work/s0.prf" "$work/s1.prf" "$work/s3.prf" || fail "ingest"
"$BIN" summary it-shards | tail -n +3 > "$work/a.txt"
"$BIN" summary whole | tail -n +2 > "$work/b.txt"
cmp -s "$work/a.txt" "$work/b.txt" || fail "the shared run's summary differs: $(diff "$work/a.txt" "$work/b.txt" | head -20)"

# shard 1 again: as the same file, and as a new attack; neither adds anything
"$BIN" ingest --run-id it-shards "$work/s1.prf" 2>"$work/again.err" || fail "re-ingest"
grep -q "already ingested" "$work/again.err" || fail "re-ingest: $(cat "$work/again.err")"
if "$BIN" attack -n 20 -c 4 -q --shard 1/4 --run-id it-shards -o "$work/again.prf" "$URL/" 2>"$work/again.err"; then
  fail "a second shard 1 landed"
fi
grep -q "shard 1 of 4 already landed" "$work/again.err" || fail "$(cat "$work/again.err")"
req=$("$BIN" summary --no-findings it-shards | awk '$1 == "requests" { print $2 }')
[ "$req" = 600 ] || fail "after shard 1 came again: $req requests"

# shard 2 lands later (here from a file): the run is complete
"$BIN" attack -r 200/s --duration 1s -q --shard 2/4 -o "$work/s2.prf" "$URL/" || fail "shard 2"
"$BIN" ingest -q --run-id it-shards "$work/s2.prf" || fail "landing shard 2"
"$BIN" summary --no-findings it-shards > "$work/shared.txt"
grep -q '^  shards        4 of 4$' "$work/shared.txt" || fail "$(head -3 "$work/shared.txt")"
req=$(awk '$1 == "requests" { print $2 }' "$work/shared.txt")
[ "$req" = 650 ] || fail "expected 600 + 50 requests, got $req"
echo "ok: 3 of 4 shards (600 requests), summary equal to the merged samples', no double count, 4 of 4 after"
