#!/bin/bash
# Load generator benchmark (issue 18 item 6; `make bench` runs it, `BENCH_ONLY=gen make bench`
# only it) against a private nginx (one worker) on 127.0.0.1, nginx and the load tool sharing
# the machine's cores:
#  1. closed model, 50 keep-alive connections, wrk -t T against perfreport attack -w T for each T
#     in THREADS (wrk given perfreport's User-Agent, so both send the same request bytes), interleaved in one run (the order alternates by round). Per round: requests/s,
#     CPU per request (user + sys of the tool: perf stat's task-clock where perf can count,
#     else GNU time's %U + %S), and where perf can count, system calls and context switches
#     per request (raw_syscalls:sys_enter, context-switches of every thread of the tool). Then
#     the ratios perfreport / wrk of the medians (targets: requests/s >= 1, CPU/request <= 1).
#  2. open model at each rate of RATES for OPEN_DUR, ROUNDS rounds, for each worker count of
#     OPEN_WORKERS: achieved send rate, send lateness p50 / p99 / max as perfreport's summary
#     prints them, CPU per request, and whether the p99 is under 1 ms (the target, on a quiet
#     machine); then per rate and worker count, the rounds that met it.
# Every line carries the 1-minute load average read just before the round: the machine may be
# shared; a round that starts above LOAD_QUIET (default 1.0) is marked "disturbed".
# Env: SECS (closed round length, default 10), ROUNDS (3), THREADS ("1 2"), RATES
# ("20000 50000"), OPEN_DUR (20s), OPEN_WORKERS ("1 2"), PORT (random), PERF (1: use perf stat
# when it can count; 0: GNU time only), NGINX_WORKERS (1; with 2 on two cores nginx is no
# longer held to one core, and the clients' CPU per request decides what nginx gets). Needs
# nginx and wrk (make deps).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
BIN=${PERFREPORT_BIN:-$here/../perfreport}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-1 2}
RATES=${RATES:-20000 50000}
OPEN_DUR=${OPEN_DUR:-20s}
OPEN_WORKERS=${OPEN_WORKERS:-1 2}
LOAD_QUIET=${LOAD_QUIET:-1.0}
NGINX_WORKERS=${NGINX_WORKERS:-1}
PORT=${PORT:-$((20000 + RANDOM % 20000))}
for t in nginx wrk; do
  command -v $t >/dev/null || { echo "bench/gen.sh: $t not installed (skipped)"; exit 0; }
done
[ -x /usr/bin/time ] || { echo "bench/gen.sh: GNU time not installed (skipped)"; exit 0; }
dir=$(mktemp -d)
pid=$(bash "$here/nginx.sh" "$dir" "$PORT" "$NGINX_WORKERS")
# nginx is not this shell's child (bench/nginx.sh started it): waited for by polling, and the
# trap never fails (under set -e a failed `wait` ended it before the rm, with status 127)
trap 'kill $pid 2>/dev/null || true; i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do
  sleep 0.05; i=$((i + 1)); done; rm -rf "$dir"' EXIT
url=http://127.0.0.1:$PORT/

EVENTS=task-clock,raw_syscalls:sys_enter,context-switches
use_perf=0
if [ "${PERF:-1}" = 1 ] && command -v perf >/dev/null &&
  perf stat -x, -e "$EVENTS" -o "$dir/probe" true 2>/dev/null &&
  ! grep -q 'not supported\|not counted' "$dir/probe"; then
  use_perf=1
fi

load1() { cut -d' ' -f1 /proc/loadavg; }
mark() { awk -v l="$1" -v q="$LOAD_QUIET" 'BEGIN { print (l + 0 >= q + 0) ? "disturbed" : "quiet" }'; }
# measure OUT CMD...: runs CMD (stdout and stderr to OUT) under perf stat or GNU time; leaves
# "cpu_s syscalls switches" in $dir/cost ("-" where not counted).
measure() {
  out=$1; shift
  if [ $use_perf = 1 ]; then
    perf stat -x, -e "$EVENTS" -o "$dir/stat" "$@" >"$out" 2>&1 || true
    awk -F, '$3 == "task-clock" { c = $1 / 1000 } $3 ~ /sys_enter/ { y = $1 }
      $3 == "context-switches" { x = $1 } END { print c, y, x }' "$dir/stat" >"$dir/cost"
  else
    /usr/bin/time -o "$dir/t" -f '%U %S' "$@" >"$out" 2>&1 || true
    awk '{ print $1 + $2, "-", "-" }' "$dir/t" >"$dir/cost"
  fi
}
# per_req N: "CPU_µs syscalls switches" per request from $dir/cost.
per_req() {
  awk -v n="$1" '{ if (n <= 0) { print "- - -"; exit }
    printf "%.2f %s %s\n", $1 * 1e6 / n, $2 == "-" ? "-" : sprintf("%.2f", $2 / n),
      $3 == "-" ? "-" : sprintf("%.3f", $3 / n) }' "$dir/cost"
}

wrk -t2 -c50 -d2s "$url" >/dev/null 2>&1 # warm-up
echo "== closed model: 50 connections, ${SECS}s per round, $ROUNDS rounds, nginx $NGINX_WORKERS worker(s), $(nproc) cores" \
  "(CPU from $([ $use_perf = 1 ] && echo 'perf stat task-clock' || echo 'GNU time'))"
printf '%-5s %-3s %-10s %10s %12s %10s %10s %6s\n' round T tool "req/s" "CPU µs/req" "sysc/req" \
  "csw/req" load
# The same workload through both tools: wrk sends perfreport's request byte for byte (its own
# request has no User-Agent, which spares nginx its browser sniffing: 1-3% more requests/s).
UA="User-Agent: $("$BIN" --version | tr ' ' /)"
run_wrk() { # T -> "req/s cpu sysc csw"
  measure "$dir/out" wrk -t"$1" -c50 -d"${SECS}s" -H "$UA" "$url"
  n=$(awk '/requests in/ {print $1}' "$dir/out")
  rps=$(awk '/^Requests\/sec/ {print $2}' "$dir/out")
  echo "${rps:-0} $(per_req "${n:-0}")"
}
run_pr() { # T -> "req/s cpu sysc csw"
  measure "$dir/out" "$BIN" attack -c 50 -w "$1" --duration "${SECS}s" -o /dev/null "$url"
  n=$(awk '/ requests, / {print $1; exit}' "$dir/out")
  echo "$(awk -v n="${n:-0}" -v s="$SECS" 'BEGIN { printf "%.0f", n / s }') $(per_req "${n:-0}")"
}
: > "$dir/closed"
for r in $(seq "$ROUNDS"); do
  for T in $THREADS; do
    tools="wrk perfreport"
    [ $((r % 2)) -eq 0 ] && tools="perfreport wrk"
    for tool in $tools; do
      l=$(load1)
      if [ "$tool" = wrk ]; then set -- $(run_wrk "$T"); else set -- $(run_pr "$T"); fi
      printf '%-5s %-3s %-10s %10.0f %12s %10s %10s %6s %s\n' "$r" "$T" "$tool" "$1" "$2" "$3" \
        "$4" "$l" "$(mark "$l")"
      echo "$T $tool $1 $2 $3 $4" >> "$dir/closed"
    done
  done
done
for T in $THREADS; do
  awk -v T="$T" '
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
      if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    function ratio(p, w) { return w > 0 ? sprintf("%.3f", p / w) : "-" }
    $1 == T && $2 == "wrk" { nw++; wr[nw] = $3; wc[nw] = $4; ws[nw] = $5 }
    $1 == T && $2 == "perfreport" { np++; pr[np] = $3; pc[np] = $4; ps[np] = $5 }
    END { line = sprintf("T=%s medians: perfreport/wrk requests/s %s, CPU per request %s", T,
            ratio(median(pr, np), median(wr, nw)), ratio(median(pc, np), median(wc, nw)))
          if (ws[1] != "-") line = line sprintf(", system calls per request %s",
            ratio(median(ps, np), median(ws, nw)))
          print line }' "$dir/closed"
done

echo "== open model: ${OPEN_DUR} per round, $ROUNDS rounds, perfreport attack -w W" \
  "(target: send lateness p99 < 1 ms in every round)"
: > "$dir/open"
for rate in $RATES; do
  for W in $OPEN_WORKERS; do
    for r in $(seq "$ROUNDS"); do
      l=$(load1)
      measure "$dir/o" "$BIN" attack -r "$rate/s" --duration "$OPEN_DUR" -w "$W" -o /dev/null "$url"
      n=$(awk '/ requests, / {print $1; exit}' "$dir/o")
      sent=$(sed -n 's/^  send rate *\([^(]*\)(target.*/\1/p' "$dir/o")
      late=$(sed -n 's/^  send lateness *//p' "$dir/o" | sed -E 's/min [^,]*, mean [^,]*, //; s/, p90 [^,]*//')
      p99=$(sed -n 's/^  send lateness .* p99 \([^,]*\),.*/\1/p' "$dir/o")
      ok=$(echo "$p99" | awk '{ m["ns"] = 1; m["µs"] = 1e3; m["ms"] = 1e6; m["s"] = 1e9
        print ($2 in m && $1 * m[$2] < 1e6) ? "yes" : "no" }')
      set -- $(per_req "${n:-0}")
      printf '%6s/s -w %s round %s: sent %s lateness %s  p99 < 1 ms: %s  CPU %s µs/req  load %s %s\n' \
        "$rate" "$W" "$r" "${sent:-?}" "${late:-?}" "$ok" "$1" "$l" "$(mark "$l")"
      echo "$rate $W $ok" >> "$dir/open"
    done
  done
done
awk '{ k = $1 "/s -w " $2; n[k]++; if ($3 == "yes") y[k]++; if (!(k in seen)) { seen[k] = 1; o[++m] = k } }
  END { for (i = 1; i <= m; i++) printf "%s: lateness p99 < 1 ms in %d of %d rounds\n", o[i], y[o[i]], n[o[i]] }' \
  "$dir/open"
