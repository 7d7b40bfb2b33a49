#!/bin/bash
# Load generator benchmark (issue 18 item 6) against a private nginx (one worker) on 127.0.0.1,
# nginx and the load tool sharing the machine's cores:
#  1. closed model, 50 keep-alive connections, wrk -t T against perfreport attack -w T for each T
#     in THREADS, interleaved in one run (the order alternates by round): requests/s and CPU per
#     request (user + sys of the tool, GNU time), and the ratios of the medians.
#  2. open model at each rate of RATES for OPEN_DUR, ROUNDS rounds: achieved send rate and the
#     send lateness p50 / p99 / max as perfreport's summary prints them.
# Every line carries the 1-minute load average read just before the round: the machine may be
# shared; a round that starts above LOAD_QUIET (default 1.0) is marked "disturbed".
# Env: SECS (closed round length, default 10), ROUNDS (3), THREADS ("1 2"), RATES
# ("20000 50000"), OPEN_DUR (20s), PORT (random). Needs nginx and wrk (make deps).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
BIN=${PERFREPORT_BIN:-$here/../perfreport}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-1 2}
RATES=${RATES:-20000 50000}
OPEN_DUR=${OPEN_DUR:-20s}
LOAD_QUIET=${LOAD_QUIET:-1.0}
PORT=${PORT:-$((20000 + RANDOM % 20000))}
for t in nginx wrk; do
  command -v $t >/dev/null || { echo "bench/gen.sh: $t not installed (skipped)"; exit 0; }
done
[ -x /usr/bin/time ] || { echo "bench/gen.sh: GNU time not installed (skipped)"; exit 0; }
dir=$(mktemp -d)
pid=$(bash "$here/nginx.sh" "$dir" "$PORT")
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
url=http://127.0.0.1:$PORT/

load1() { cut -d' ' -f1 /proc/loadavg; }
mark() { awk -v l="$1" -v q="$LOAD_QUIET" 'BEGIN { print (l + 0 >= q + 0) ? "disturbed" : "quiet" }'; }
# cpu_per_req TIMEFILE REQUESTS: user + sys µs per request from GNU time's "%e %U %S".
cpu_per_req() { awk -v n="$2" '{ printf "%.2f", ($2 + $3) * 1e6 / n }' "$1"; }

wrk -t2 -c50 -d2s "$url" >/dev/null 2>&1 # warm-up
echo "== closed model: 50 connections, ${SECS}s per round, $ROUNDS rounds, nginx 1 worker, $(nproc) cores"
printf '%-5s %-3s %-10s %10s %12s %6s\n' round T tool "req/s" "CPU µs/req" load
run_wrk() { # T
  /usr/bin/time -o "$dir/t" -f '%e %U %S' wrk -t"$1" -c50 -d"${SECS}s" "$url" >"$dir/out" 2>&1
  n=$(awk '/requests in/ {print $1}' "$dir/out")
  rps=$(awk '/^Requests\/sec/ {print $2}' "$dir/out")
  echo "$rps $(cpu_per_req "$dir/t" "$n")"
}
run_pr() { # T
  /usr/bin/time -o "$dir/t" -f '%e %U %S' "$BIN" attack -c 50 -w "$1" --duration "${SECS}s" \
    -o /dev/null "$url" 2>"$dir/out"
  n=$(awk '/ requests, / {print $1; exit}' "$dir/out")
  echo "$(awk -v n="$n" -v s="$SECS" 'BEGIN { printf "%.0f", n / s }') $(cpu_per_req "$dir/t" "$n")"
}
: > "$dir/closed"
for r in $(seq "$ROUNDS"); do
  for T in $THREADS; do
    tools="wrk perfreport"
    [ $((r % 2)) -eq 0 ] && tools="perfreport wrk"
    for tool in $tools; do
      l=$(load1)
      if [ "$tool" = wrk ]; then set -- $(run_wrk "$T"); else set -- $(run_pr "$T"); fi
      printf '%-5s %-3s %-10s %10.0f %12s %6s %s\n' "$r" "$T" "$tool" "$1" "$2" "$l" "$(mark "$l")"
      echo "$T $tool $1 $2" >> "$dir/closed"
    done
  done
done
for T in $THREADS; do
  awk -v T="$T" '
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
      if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    $1 == T && $2 == "wrk" { wr[++nw] = $3; wc[nw] = $4 }
    $1 == T && $2 == "perfreport" { pr[++np] = $3; pc[np] = $4 }
    END { printf "T=%s medians: perfreport/wrk requests/s %.3f, CPU per request %.3f\n", T,
          median(pr, np) / median(wr, nw), median(pc, np) / median(wc, nw) }' "$dir/closed"
done

echo "== open model: ${OPEN_DUR} per round, $ROUNDS rounds, perfreport attack -w 2"
for rate in $RATES; do
  for r in $(seq "$ROUNDS"); do
    l=$(load1)
    "$BIN" attack -r "$rate/s" --duration "$OPEN_DUR" -w 2 -o /dev/null "$url" 2>"$dir/open" || true
    sent=$(sed -n 's/^  send rate *\([^(]*\)(target.*/\1/p' "$dir/open")
    late=$(sed -n 's/^  send lateness *//p' "$dir/open" | sed -E 's/min [^,]*, mean [^,]*, //; s/, p90 [^,]*//')
    printf '%6s/s round %s: sent %s lateness %s  load %s %s\n' "$rate" "$r" "$sent" "$late" "$l" \
      "$(mark "$l")"
  done
done
