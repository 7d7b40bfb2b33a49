#!/bin/sh
# The behaviour lab's confusion matrix (docs/findings.md, "The lab"): ingests each case of
# tests/lab/oracle.txt (real tools' files recorded against tests/tools/labd.c by
# tests/lab/record.sh), runs the findings and holds them against the case's oracle: the rules
# that MUST fire and those that MUST NOT. Prints one line per case, then per rule the true and
# false positives and negatives; exits 1 on any miss or false alarm.
# Env: PERFREPORT_BIN (default ./perfreport). Usage: sh tests/lab/run.sh [ORACLE]
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${PERFREPORT_BIN:-$root/perfreport}
oracle=${1:-$root/tests/lab/oracle.txt}
data=$root/tests/data/lab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/tally"
bad=0
grep -v '^#' "$oracle" | grep -v '^ *$' | while IFS='|' read -r name files must mustnot; do
  name=$(echo $name) files=$(echo $files) # trim
  store=$tmp/$name.db
  set -f
  paths=""
  for f in $files; do paths="$paths $data/$f"; done
  set +f
  # shellcheck disable=SC2086
  if ! "$bin" ingest --quiet --store "$store" $paths > "$tmp/ingest" 2>&1; then
    echo "$name: ingest failed: $(cat "$tmp/ingest")"
    echo "x ingest $name" >> "$tmp/tally"
    continue
  fi
  # the findings of the case's run (the first, or RUN in "NAME@RUN"), computed with
  # every run of the case in the document: series rules read the others
  run=${name#*@}
  [ "$run" = "$name" ] && run="" # the case's first (and only) run
  got=$("$bin" findings --json --store "$store" |
    awk -v run="$run" '/^    "name": "/ {n++; cur = $0; sub(/^    "name": "/, "", cur); sub(/",?$/, "", cur)}
                       /^        "id": "/ && (run == "" ? n == 1 : cur == run) {print}' |
    sed -n 's/^ *"id": "\([a-z_0-9]*\)",*$/\1/p' | sort -u | tr '\n' ' ')
  line="$name:"
  for r in $must; do
    case " $got " in
      *" $r "*) echo "TP $r" >> "$tmp/tally"; line="$line +$r";;
      *) echo "FN $r" >> "$tmp/tally"; line="$line MISSED:$r";;
    esac
  done
  for r in $mustnot; do
    case " $got " in
      *" $r "*) echo "FP $r" >> "$tmp/tally"; line="$line FALSE-ALARM:$r";;
      *) echo "TN $r" >> "$tmp/tally"; line="$line -$r";;
    esac
  done
  echo "$line"
done
echo
printf '%-24s %4s %4s %4s %4s\n' rule TP FN FP TN
awk '{n[$2]++; c[$2" "$1]++} END {for (r in n) printf "%-24s %4d %4d %4d %4d\n", r, c[r" TP"], c[r" FN"], c[r" FP"], c[r" TN"]}' "$tmp/tally" | sort
tp=$(grep -c '^TP' "$tmp/tally"); tn=$(grep -c '^TN' "$tmp/tally")
fn=$(grep -c '^FN' "$tmp/tally"); fp=$(grep -c '^FP' "$tmp/tally"); xi=$(grep -c '^x' "$tmp/tally")
echo "lab: $((tp + tn)) correct, $fn missed, $fp false alarms, $xi cases not read"
[ "$fn" -eq 0 ] && [ "$fp" -eq 0 ] && [ "$xi" -eq 0 ]
