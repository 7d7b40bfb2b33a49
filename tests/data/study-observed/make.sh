#!/bin/sh
# Records the fixtures of this folder (see README.md) with the real vegeta binary against the
# loopback test server, from the repository root after `make test-run` built build/tests/httpd:
#   VEGETA=/path/to/vegeta sh tests/data/study-observed/make.sh
# Measured, not synthetic: rerunning gives other figures with the same shape.
set -eu
VEGETA=${VEGETA:-vegeta}
dir=tests/data/study-observed
for jvm in hotspot openj9; do
  case $jvm in hotspot) delay=180 ;; openj9) delay=1800 ;; esac
  build/tests/httpd slow $delay > "$dir/.port" &
  pid=$!
  while [ ! -s "$dir/.port" ]; do sleep 0.1; done
  port=$(cat "$dir/.port")
  for run in 2:2s 20:10s 50:10s; do
    rate=${run%%:*} dur=${run#*:}
    echo "GET http://127.0.0.1:$port/orders" |
      "$VEGETA" attack -rate $rate -duration $dur -timeout 10s > "$dir/$jvm-$rate-$dur.bin"
    "$VEGETA" report "$dir/$jvm-$rate-$dur.bin" > "$dir/$jvm-$rate-$dur.report.txt"
  done
  kill $pid
  wait $pid || true
  rm -f "$dir/.port"
done
