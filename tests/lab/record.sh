#!/bin/sh
# Records the behaviour lab's fixtures (tests/data/lab): real load tools against the lab server
# (tests/tools/labd.c) on 127.0.0.1, each with the tool's own printed report beside its file.
# Not part of the suite: run by hand (it takes about 6 minutes) when a case is added, then
# write its oracle line in tests/lab/oracle.txt. Needs: VEGETA (the vegeta binary), ab and wrk
# on PATH, Java 17 and Debian's jmeter and jmeter-http (the JMeter series); make (perfreport and
# build/tests/labd).
# Usage: sh tests/lab/record.sh [CASE...]   (default: every case)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/tests/data/lab
labd=$root/build/tests/labd
V=${VEGETA:-vegeta}
mkdir -p "$out"
"$labd" -t 3600 > "$out/.port" &
lab=$!
trap 'kill $lab 2>/dev/null; rm -f "$out/.port"' EXIT
sleep 0.5
P=$(cat "$out/.port")
U=http://127.0.0.1:$P
# vegeta NAME RATE DURATION PATH [ATTACK OPTIONS]: NAME.bin and NAME.report.txt
vegeta() {
  n=$1 r=$2 d=$3 p=$4; shift 4
  echo "GET $U$p" | "$V" attack -rate "$r" -duration "$d" "$@" > "$out/$n.bin"
  "$V" report "$out/$n.bin" | sed "s#$U#http://127.0.0.1:PORT#g" > "$out/$n.report.txt"
}
# ab NAME PATH [AB OPTIONS]: NAME.tsv (-g) and NAME.txt (its report, stderr included)
ab_() {
  n=$1 p=$2; shift 2
  ab "$@" -g "$out/$n.tsv" "$U$p" > "$out/$n.txt" 2>&1 || true
  sed -i "s#$P#PORT#g" "$out/$n.txt"
}
CASES="$*"
c_sat_open() { vegeta sat_open 200 10s /cap/98 -timeout 3s; }
c_sat_queuecap() { vegeta sat_queuecap 400 6s /cap/196/200 -timeout 3s; }
c_hang() { vegeta hang 50 8s /hang/5/2; }
c_ok() { vegeta ok 100 10s /ok; }
c_episode() { vegeta episode 25 40s /episode/14/26/2.4/10.2; }
c_warmup() { vegeta warmup 25 40s /warmup/10/40/2; }
c_leak() { vegeta leak 25 40s /leak/2/1; }
c_stall() { vegeta stall 50 30s /stall/5/400/2; }
c_ab_500() { ab_ ab_500 /status/500 -n 2000 -c 10; }
c_ab_refused() { ab "-r" -n 300 -c 10 -g "$out/ab_refused.tsv" http://127.0.0.1:1/ > "$out/ab_refused.txt" 2>&1 || true; }
c_ab_reset() { ab_ ab_reset /reset/10/1 -r -n 300 -c 10; }
c_ab_varlen() { ab_ ab_varlen /varlen/1 -n 300 -c 10; }
# a closed-model series: 8 workers of 40 ms (200/s) under ab -c 4 … 64
c_ab_series() { for n in 4 8 16 32 64; do ab_ "ab_pool_c$n" /pool/8/40 -n 600 -c "$n"; done; }
# perfreport's own generator: open model against the queue, closed model against the pool
c_attack_sat() { "$root/perfreport" attack -r 400/s --duration 6s -t 3s --name attack_sat -o "$out/attack_sat.prf" "$U/cap/196"; }
c_attack_series() {
  for n in 4 8 16 32 64; do
    "$root/perfreport" attack -c "$n" --duration 3s --name "attack_pool_c$n" -o "$out/attack_pool_c$n.prf" "$U/pool/8/40"
  done
}
# wrk's printed summaries of the same series
c_wrk_series() {
  for n in 4 8 16 32 64; do
    wrk -t 2 -c "$n" -d 3s --latency "$U/pool/8/40" | sed "s#$P#PORT#g" > "$out/wrk_pool_c$n.txt"
  done
}
# JMeter 2.13 (Debian) threads 4 … 64 on the plan closed.jmx, with the XStream shim
# (tests/lab/jmeter/NoTypePermission.java) ahead of xstream.jar
c_jmeter_series() {
  shim=$(mktemp -d)
  javac --release 8 -cp /usr/share/java/xstream.jar -d "$shim" "$root/tests/lab/jmeter/NoTypePermission.java"
  for n in 4 8 16 32 64; do jmeter_ "jmeter_pool_c$n" -Jthreads="$n" -Jduration=5; done
  rm -rf "$shim"
}
# jmeter_ NAME PROPS…: one run of closed.jmx against /pool/8/40 into NAME.jtl
jmeter_() {
  n=$1; shift
  java -cp "$shim:/usr/share/jmeter/bin/ApacheJMeter.jar" -Djmeter.home=/usr/share/jmeter \
    org.apache.jmeter.NewDriver -n -t "$root/tests/lab/closed.jmx" "$@" -Jport="$P" \
    -Jpath=/pool/8/40 -Jjmeter.save.saveservice.output_format=csv -l "$out/$n.jtl" \
    -j "$shim/jmeter.log" > /dev/null
}
# one JMeter run whose threads ramp from 0 to 64 over 12 s: flat throughput past 8 threads
c_jmeter_ramp() {
  shim=$(mktemp -d)
  javac --release 8 -cp /usr/share/java/xstream.jar -d "$shim" "$root/tests/lab/jmeter/NoTypePermission.java"
  jmeter_ jmeter_ramp -Jthreads=64 -Jramp=12 -Jduration=16
  rm -rf "$shim"
}
c_bimodal() { vegeta bimodal 50 20s /bimodal/2/40/10; }
c_errburst() { vegeta errburst 50 30s /errors/12/20/503/2; }
c_slowbody() { vegeta slowbody 20 10s /slowbody/2/300; }
c_limit() { vegeta limit 100 10s /limit/50/2; }
c_cpu() { vegeta cpu 40 40s /cpu/15/25/15/2; }
# hey (Debian's): fast 500s with its CSV (and a printed summary of the same command), and its
# 1 s timeout against requests never answered (its summary: -o csv leaves failures out)
c_hey() {
  hey -n 1000 -c 10 -o csv "$U/status/500" > "$out/hey_500.csv"
  hey -n 1000 -c 10 "$U/status/500" | sed "s#$P#PORT#g" > "$out/hey_500.txt"
  hey -n 300 -c 10 -t 1 "$U/hang/10/2" | sed "s#$P#PORT#g" > "$out/hey_hang.txt"
}
for c in bimodal errburst slowbody limit cpu hey jmeter_series jmeter_ramp attack_sat attack_series wrk_series ab_series sat_open sat_queuecap hang ok episode warmup leak stall ab_500 ab_refused ab_reset ab_varlen; do
  if [ -z "$CASES" ] || case " $CASES " in *" $c "*) true;; *) false;; esac; then
    echo "recording $c"; "c_$c"
  fi
done
