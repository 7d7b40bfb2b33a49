#!/bin/sh
# make fuzz-long: runs every libFuzzer target of build-fuzz/ (make fuzz) one after the other.
# Each target gets FUZZ_SECONDS (default 120) of one core, its dictionary (fuzz/NAME.dict)
# and the merged corpus (build-fuzz/corpus/NAME/, kept between runs, plus the seeds in
# tests/fuzz/NAME/ and its past crashes in tests/fuzz/crashes/NAME/). Afterwards:
#   - inputs that reach edges the seeds do not are minimised (libFuzzer -merge=1 on edges, at
#     most FUZZ_MAX_LEN (1024) bytes each) and the FUZZ_MAX_NEW (16) smallest are copied into
#     tests/fuzz/NAME/, for review and commit (FUZZ_MERGE=0: none);
#   - every crash, leak or sanitizer report leaves its input in tests/fuzz/crashes/NAME/,
#     which `make test` replays from then on; timeouts and slow units go to
#     build-fuzz/slow/NAME/ (on a shared machine they are often the machine, not the input);
#   - one line per target (CPU seconds, executions, coverage, corpus, new seeds, slow inputs,
#     crashes) goes to build-fuzz/fuzz-long.txt and stdout.
# Env: FUZZ_SECONDS, FUZZ_TARGETS ("jtl_xml gob ..."; default: all), FUZZ_MERGE, FUZZ_MAX_LEN,
# FUZZ_MAX_NEW.
set -u
B=build-fuzz
T=${FUZZ_SECONDS:-120}
MAXLEN=${FUZZ_MAX_LEN:-1024}
MAXNEW=${FUZZ_MAX_NEW:-16}
out=$B/fuzz-long.txt
mkdir -p "$B/logs"
printf '%-16s %6s %7s %10s %6s %6s %7s %5s %5s %7s\n' target wall_s cpu_s execs cov ft corpus new slow crashes | tee "$out"
found=0
for bin in "$B"/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=${bin##*/fuzz_}
  case "$name" in *.d|*.o) continue;; esac
  if [ -n "${FUZZ_TARGETS:-}" ]; then
    case " $FUZZ_TARGETS " in *" $name "*) ;; *) continue;; esac
  fi
  seeds=tests/fuzz/$name
  crashes=tests/fuzz/crashes/$name
  work=$B/corpus/$name
  art=$B/artifacts/$name
  log=$B/logs/$name.log
  mkdir -p "$work" "$art"
  # the target's own dictionary, else its family's
  case "$name" in
    vegeta_text|loadjson|findings|meta) family=json;;
    jtl_xml) family=xml;;
    jtl_csv|ab_csv|ab_tsv|hey|locust|gatling) family=csv;;
    markdown) family=markdown;;
    targets|http_response) family=http;;
    *) family=$name;;
  esac
  dict=
  if [ -f "fuzz/$name.dict" ]; then dict="-dict=fuzz/$name.dict"
  elif [ -f "fuzz/$family.dict" ]; then dict="-dict=fuzz/$family.dict"; fi
  extra=
  [ -d "$crashes" ] && extra=$crashes
  t0=$(date +%s)
  rc=0
  if [ "$T" -gt 0 ]; then # FUZZ_SECONDS=0: no fuzzing, only the merge of what was found
    # new inputs go to the first corpus folder ($work); the others are read only
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S' -o "$B/logs/$name.time" \
      "$bin" -max_total_time="$T" -timeout=10 -rss_limit_mb=2048 -max_len=65536 $dict \
      -artifact_prefix="$art/" -print_final_stats=1 "$work" "$seeds" $extra \
      </dev/null >"$log" 2>&1
    rc=$?
  fi
  t1=$(date +%s)
  cpu=$(tail -1 "$B/logs/$name.time" 2>/dev/null | awk '{printf "%.0f", $1 + $2}')
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  # crashes, leaks, sanitizer reports: kept where `make test` replays them; timeouts and slow
  # units (often a loaded machine) go to $B/slow/NAME/ to be looked at, counted apart
  ncrash=0
  nslow=0
  for a in "$art"/*; do
    [ -f "$a" ] || continue
    case "${a##*/}" in
      timeout-*|slow-unit-*) mkdir -p "$B/slow/$name" && mv "$a" "$B/slow/$name/"
                             nslow=$((nslow + 1)); continue;;
    esac
    mkdir -p "$crashes"
    cp "$a" "$crashes/"
    rm -f "$a"
    ncrash=$((ncrash + 1))
  done
  [ "$rc" -ne 0 ] && [ "$ncrash" -eq 0 ] && [ "$nslow" -eq 0 ] && ncrash="rc$rc"
  new=0
  if [ "${FUZZ_MERGE:-1}" = 1 ] && [ "$rc" -eq 0 ]; then
    # inputs that reach new edges (not just new hit counts), the smallest MAXNEW of them
    m=$B/merge/$name
    rm -rf "$m" && mkdir -p "$m" && cp "$seeds"/* "$m"/
    "$bin" -merge=1 -use_counters=0 -max_len="$MAXLEN" -timeout=10 "$m" "$work" </dev/null \
      >"$B/logs/$name.merge.log" 2>&1
    for f in $(ls -rS "$m"); do
      [ "$new" -ge "$MAXNEW" ] && break
      [ -e "$seeds/$f" ] && continue
      cp "$m/$f" "$seeds/$f"
      new=$((new + 1))
    done
    rm -rf "$m"
  fi
  printf '%-16s %6s %7s %10s %6s %6s %7s %5s %5s %7s\n' "$name" $((t1 - t0)) "${cpu:-?}" \
    "${execs:-?}" "${cov:-?}" "${ft:-?}" "$(ls "$work" | wc -l)" "$new" "$nslow" "$ncrash" \
    | tee -a "$out"
  found=1
done
[ "$found" = 1 ] || { echo "no fuzz targets in $B/fuzz (run make fuzz)"; exit 1; }
! grep -qE ' (rc[0-9]+|[1-9][0-9]*)$' "$out"
