#!/bin/sh
# Re-measures the load fixtures in tests/data/load/ (provenance: tests/data/load/README.md)
# against a private nginx of known capacity (tests/tools/capacity_nginx.sh) on 127.0.0.1.
# Needs nginx and golang-go (not needed by `make test`). About a minute; run it on a quiet
# machine. usage: sh tests/tools/make_load_fixtures.sh [OUTDIR]   (default tests/data/load)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/tests/data/load}
pr=${PERFREPORT_BIN:-$root/perfreport}
work=$(mktemp -d)
chmod 755 "$work" # nginx workers (nobody) read the pages below it
export PERFREPORT_STORE="$work/store.db" TZ=UTC
export GOCACHE=${GOCACHE:-$work/gocache} GOPATH=${GOPATH:-$work/gopath} GOFLAGS=-mod=mod
trap 'sh "$root/tests/tools/capacity_nginx.sh" stop "$work/nginx"; rm -rf "$work"' EXIT
port=$(sh "$root/tests/tools/capacity_nginx.sh" start "$work/nginx")
sleep 0.5
base="http://127.0.0.1:$port"
gob() { (cd "$root/tests/tools/vegeta_gob" && go run .); }
mkdir -p "$out"

# 1. 400 req/s offered for 5 s to a path nginx serves at 196 req/s (500 queued, 503 beyond).
"$pr" attack -q -r 400/s --duration 5s "$base/cap196/" -o "$work/cap196.prf"
"$pr" ingest --name cap196 "$work/cap196.prf" >/dev/null
"$pr" export --format ndjson cap196 | gob >"$out/vegeta_400rps_cap196.bin"

# 2. 500 req/s offered for 10 s to a path nginx serves at 117 req/s (everything queued), with
#    Vegeta's default 30 s timeout; kept as the text report Vegeta prints.
"$pr" attack -q -r 500/s --duration 10s -t 30s "$base/cap117/" -o "$work/cap117.prf"
"$pr" ingest --name cap117 "$work/cap117.prf" >/dev/null
"$pr" export --format ndjson cap117 | gob >"$work/cap117.bin"
"$pr" ingest --name cap117-vegeta "$work/cap117.bin" >/dev/null
"$pr" summary --format vegeta cap117-vegeta >"$out/vegeta_500rps_timeout.report.txt"

# 3. A ramp, 100, 200 and 300 req/s for 2 s each (one file per step), where every third
#    request asks for a missing page (404 at once): the server keeps up with every step.
printf 'GET %s/\nGET %s/\nGET %s/missing\n' "$base" "$base" "$base" >"$work/ramp.targets"
for rate in 100 200 300; do
  "$pr" attack -q -r "$rate/s" --duration 2s --targets "$work/ramp.targets" --name "ramp-$rate" \
    -o "$out/attack_ramp_404_$rate.prf"
done
echo "port $port"
