#!/bin/sh
# Benchmarks (make bench): per stage, samples/second and peak memory. Data comes from
# deterministic generators into bench/data/ (not committed). Env: BENCH_N (default 10000000),
# BENCH_ONLY=report|gen (only the report pages, or only the load generator: bench/gen.sh),
# BENCH_GEN=0 (leave the load generator out of the full run).
set -eu
BIN=${PERFREPORT_BIN:-./perfreport}
BUILD=${BUILD:-build}
N=${BENCH_N:-10000000}
mkdir -p bench/data
DATA=bench/data
# measure LABEL COUNT CMD…: runs CMD once, prints seconds, samples/s and peak RSS.
measure() {
  label=$1; count=$2; shift 2
  out=$( { /usr/bin/env time -f '%e %U %S %M' "$@" >/dev/null 2>"$DATA/.err"; } 2>&1 ) || true
  # GNU time writes its line last on stderr
  line=$(tail -1 "$DATA/.err")
  echo "$line" | awk -v l="$label" -v n="$count" '{
    s = $1; cpu = $2 + $3; kb = $4;
    rate = (s > 0) ? n / s : 0; crate = (cpu > 0) ? n / cpu : 0;
    printf "%-36s %10d samples %6.2f s wall %12.0f/s  cpu %6.2f s %12.0f/s  peak %7.1f MB\n", l, n, s, rate, cpu, crate, kb / 1024 }'
}
if ! command -v time >/dev/null 2>&1 && [ ! -x /usr/bin/time ]; then
  echo "bench: GNU time is needed (apt-get install time)"; exit 1
fi
echo "perfreport bench: N=$N ($(nproc) cores, $(uname -m))"
# report.html (the interactive page) at 1 M and N samples: render time, file size and, where
# Chromium and playwright-core are installed (make deps), the time the page takes to draw
bench_report() {
  for n in 1000000 "$N"; do
    [ -f "$DATA/native-$n.prf" ] || "$BUILD/bench/gen_native" "$n" "$DATA/native-$n.prf" 20
    rm -f "$DATA/report-$n.db"*
    "$BIN" ingest --quiet --store "$DATA/report-$n.db" "$DATA/native-$n.prf"
    measure "render report.html" "$n" "$BIN" render --store "$DATA/report-$n.db" \
      --template report.html -o "$DATA/report-$n.html" 1
    ls -l "$DATA/report-$n.html" | awk '{ printf "report.html: %d bytes (%.2f MB)\n", $5, $5 / 1e6 }'
    measure "render report.md (PNG charts)" "$n" "$BIN" render --store "$DATA/report-$n.db" \
      -o "$DATA/md-$n/report.md" 1
    pw=${NPM_DIR:-build/npm}/browser/node_modules
    if command -v chromium >/dev/null 2>&1 && [ -d "$pw/playwright-core" ]; then
      NODE_PATH=$pw node bench/open_report.js "$DATA/report-$n.html"
    fi
  done
}
if [ "${BENCH_ONLY:-}" = report ]; then
  bench_report
  exit 0
fi
# the load generator against wrk and the open model's lateness (bench/gen.sh, issue 18 item 6)
if [ "${BENCH_ONLY:-}" = gen ]; then
  PERFREPORT_BIN=$BIN bash bench/gen.sh
  exit 0
fi
[ -f "$DATA/native-$N.prf" ] || "$BUILD/bench/gen_native" "$N" "$DATA/native-$N.prf" 100
ls -l "$DATA/native-$N.prf" | awk -v n="$N" '{ printf "native file: %d bytes, %.2f bytes/sample\n", $5, $5 / n }'
rm -f "$DATA/bench.db" "$DATA/bench.db-wal" "$DATA/bench.db-shm"
measure "ingest native -> store" "$N" "$BIN" ingest --quiet --store "$DATA/bench.db" "$DATA/native-$N.prf"
# the same on one thread (no block writer beside the parse): what the second core adds
rm -f "$DATA/bench1.db" "$DATA/bench1.db-wal" "$DATA/bench1.db-shm"
measure "ingest native -> store, 1 thread" "$N" env PERFREPORT_THREADS=1 "$BIN" ingest --quiet --store "$DATA/bench1.db" "$DATA/native-$N.prf"
rm -f "$DATA/bench1.db" "$DATA/bench1.db-wal" "$DATA/bench1.db-shm"
measure "summary, no findings" "$N" "$BIN" summary --no-findings --store "$DATA/bench.db" -p 50,75,90,95,99,99.9,99.99 1
measure "summary (7 percentiles, findings)" "$N" "$BIN" summary --store "$DATA/bench.db" -p 50,75,90,95,99,99.9,99.99 1
measure "summary, bounded mode" "$N" "$BIN" summary --exact-limit 1 --store "$DATA/bench.db" 1
measure "summary --by label (100 labels)" "$N" "$BIN" summary --store "$DATA/bench.db" --by label 1
measure "summary --json (time series, hist.)" "$N" "$BIN" summary --json --store "$DATA/bench.db" 1
measure "export native" "$N" "$BIN" export --store "$DATA/bench.db" -o "$DATA/export.prf" 1
# issue 18: the tool-format summaries against the plain one (target within 1.2x), compare of
# the run against itself, the charts and the interactive page, on the same store
for f in vegeta vegeta-json jmeter ab k6 gatling locust; do
  measure "summary --format $f" "$N" "$BIN" summary --store "$DATA/bench.db" --format "$f" 1
done
measure "summary --format vegeta, bounded" "$N" "$BIN" summary --store "$DATA/bench.db" --format vegeta --exact-limit 1 1
measure "compare (the run against itself)" "$((2 * N))" "$BIN" compare --store "$DATA/bench.db" 1 1
# the same on one analysis thread: what the second core brings (scan, passes, sides)
measure "summary, no findings, 1 thread" "$N" env PERFREPORT_THREADS=1 "$BIN" summary --no-findings --store "$DATA/bench.db" -p 50,75,90,95,99,99.9,99.99 1
measure "compare, 1 thread" "$((2 * N))" env PERFREPORT_THREADS=1 "$BIN" compare --store "$DATA/bench.db" 1 1
measure "render report.html, 1 thread" "$N" env PERFREPORT_THREADS=1 "$BIN" render --store "$DATA/bench.db" --template report.html -o "$DATA/bench1.html" 1
# every kind of `chart --list` that draws one run (capacity needs a series of runs with loads)
for k in latency percentiles throughput status spectrum histogram labels compare; do
  measure "chart $k" "$N" "$BIN" chart "$k" --store "$DATA/bench.db" -o "$DATA/chart-$k.png" 1
done
measure "render report.html" "$N" "$BIN" render --store "$DATA/bench.db" --template report.html -o "$DATA/bench.html" 1
# The same input into the PostgreSQL store: a scratch server (tests/tools/pg.sh, fsync on as a
# team's server would run), the client's CPU only (the server's is not in the cpu column).
if [ "${BENCH_PG:-1}" = 1 ]; then
  pgdir=$(mktemp -d)
  if pgenv=$(sh tests/tools/pg.sh start "$pgdir" durable 2>"$DATA/.pgerr"); then
    eval "$pgenv"
    sh tests/tools/pg.sh createdb perfreport_bench
    PG=postgresql:///perfreport_bench
    measure "ingest native -> PostgreSQL" "$N" "$BIN" ingest --quiet --store "$PG" "$DATA/native-$N.prf"
    measure "summary, no findings (PostgreSQL)" "$N" "$BIN" summary --no-findings --store "$PG" -p 50,75,90,95,99,99.9,99.99 1
    measure "summary (7 percentiles, findings) PG" "$N" "$BIN" summary --store "$PG" -p 50,75,90,95,99,99.9,99.99 1
    measure "export native (PostgreSQL)" "$N" "$BIN" export --store "$PG" -o "$DATA/export-pg.prf" 1
    cmp -s "$DATA/export.prf" "$DATA/export-pg.prf" && echo "export from both stores: the same bytes" ||
      echo "export from both stores: DIFFERENT"
    psql -X -At -d perfreport_bench -c "SELECT 'PostgreSQL store size: ' || pg_size_pretty(pg_database_size(current_database()))"
    sh tests/tools/pg.sh stop "$pgdir"
  else
    echo "PostgreSQL: $(tail -1 "$DATA/.pgerr")"
  fi
  rm -rf "$pgdir"
fi
bench_report
# per-format benches (bench/bench_*.c), at the sizes the targets name unless BENCH_SMALL=1
if [ "${BENCH_SMALL:-}" = 1 ]; then
  "$BUILD/bench/bench_vegeta" 20000 20000
  "$BUILD/bench/bench_ab" 100000
  "$BUILD/bench/bench_jmeter" 200000 both
  "$BUILD/bench/bench_gatling" 100000
  "$BUILD/bench/bench_chart" -n 1000000
else
  "$BUILD/bench/bench_vegeta" 2000000 1000000   # the 2M-result gob file (~0.9 GB) and 1M JSON/CSV lines
  "$BUILD/bench/bench_ab" 10000000              # 10M-row ab -g file
  "$BUILD/bench/bench_jmeter" 10000000 csv      # 10M-row JTL CSV
  "$BUILD/bench/bench_jmeter" 1000000 xml       # 1M-sample JTL XML
  "$BUILD/bench/bench_gatling" 5000000          # Gatling text log: 5M requests, 8M records
  "$BUILD/bench/bench_chart" -n 10000000        # latency-over-time of 10M points, other kinds
fi
# peers' files: k6 --out json / --out csv (bench/gen_k6: 14 lines, 9 joined points per request)
# and an HdrHistogram distribution (export --format hgrm of the native run, ingested back)
K6N=${BENCH_K6_N:-200000}
[ "${BENCH_SMALL:-}" = 1 ] && K6N=20000
for kind in ndjson csv; do
  f="$DATA/k6-$K6N.$kind"
  [ -f "$f" ] || "$BUILD/bench/gen_k6" "$K6N" "$f" 50 $([ $kind = csv ] && echo csv)
  lines=$(wc -l < "$f")
  rm -f "$DATA/k6.db" "$DATA/k6.db-wal" "$DATA/k6.db-shm"
  measure "ingest k6 $kind ($K6N req, lines)" "$lines" "$BIN" ingest --quiet --store "$DATA/k6.db" "$f"
done
"$BIN" export --format hgrm --store "$DATA/bench.db" 1 > "$DATA/native.hgrm"
rm -f "$DATA/k6.db" "$DATA/k6.db-wal" "$DATA/k6.db-shm"
measure "ingest hgrm (distribution of run 1)" "$N" "$BIN" ingest --quiet --max-samples "$N" --store "$DATA/k6.db" "$DATA/native.hgrm"
# issue 18 target 1 (>= 10x): `vegeta report` (the peer: $VEGETA, build/peers/vegeta made by
# bench/peers/vegeta.sh, or vegeta on PATH; skipped when there is none) against ingest + summary
# --format vegeta on the gob bench_vegeta wrote above, interleaved rounds, medians
VN=2000000
[ "${BENCH_SMALL:-}" = 1 ] && VN=20000
if [ -n "${VEGETA_SRC:-}" ] && [ -z "${VEGETA:-}" ] && [ ! -x build/peers/vegeta ]; then
  sh bench/peers/vegeta.sh build/peers/vegeta
fi
BENCH_DATA=$DATA PERFREPORT_BIN=$BIN sh bench/peers/vegeta_bench.sh "$DATA/vegeta-$VN.bin" "$VN"
# the load generator (nginx and wrk on this machine; BENCH_GEN=0 leaves it out)
if [ "${BENCH_GEN:-1}" = 1 ]; then
  PERFREPORT_BIN=$BIN bash bench/gen.sh
fi
# the findings' confusion matrix over the behaviour lab (docs/findings.md, "The lab")
echo
echo "findings lab (tests/lab/oracle.txt):"
PERFREPORT_BIN=$BIN sh tests/lab/run.sh | sed -n '/^rule /,$p'
