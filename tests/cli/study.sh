# Issue 13, studies: a two-JVM comparison kept as 12 Vegeta text reports (tests/data/study, see its
# README): hotspot and openj9 at 50, 200 and 500 req/s, each for 10 s and 60 s.
for jvm in hotspot openj9; do
  for rate in 50 200 500; do
    for dur in 10s 60s; do
      "$PR" ingest --name $jvm-$rate-$dur --tag jvm=$jvm --tag rate=$rate --tag duration=$dur \
        "$DATA/study/$jvm-$rate-$dur.report.txt" >/dev/null
    done
  done
done
# A small study with samples (tests/tools/synth_vegeta.awk): the same two JVMs at 100 and 300 req/s.
for rate in 100 300; do
  awk -v rate=$rate -v secs=3 -v cap=400 -v base_ms=4 -v seed=$rate -f "$root/tests/tools/synth_vegeta.awk" > hs$rate.json
  awk -v rate=$rate -v secs=3 -v cap=320 -v base_ms=3.5 -v seed=$((rate + 1)) -f "$root/tests/tools/synth_vegeta.awk" > j9$rate.json
  "$PR" ingest --name s-hotspot-$rate --tag study=samples --tag jvm=hotspot --tag rate=$rate hs$rate.json >/dev/null
  "$PR" ingest --name s-openj9-$rate --tag study=samples --tag jvm=openj9 --tag rate=$rate j9$rate.json >/dev/null
done

# --- tag selections work in every command; terms joined by commas must all hold
pr runs tag:jvm=hotspot,rate=500
pr runs tag:study
pr summary tag:jvm=openj9,rate=500,duration=10s
pr check --max p99=150ms tag:rate=500,duration=60s
pr findings --min-severity critical tag:study=samples,jvm=openj9,rate=300
sh_ "\$PR render --template report.md -o r.md tag:study=samples,rate=100 && grep -c 's-\(hotspot\|openj9\)-100' r.md"
sh_ "\$PR chart spectrum -o spectrum.svg tag:study=samples,rate=300 && grep -o 'legend: s-[a-z0-9-]*' spectrum.svg"
sh_ "\$PR export --format csv tag:study=samples,jvm=hotspot,rate=100 | wc -l"
pr export tag:study=samples,jvm=hotspot
pr tag tag:jvm=openj9 vendor=eclipse
pr runs tag:vendor=eclipse,duration=60s
pr summary tag:jvm=hotspot,rate=999
pr summary 'tag:jvm=hotspot,,rate=50'
pr summary tag:=hotspot

# --- comparing two configurations across the series: one row per pair and metric
pr compare tag:jvm=hotspot tag:jvm=openj9
pr compare tag:jvm=hotspot tag:jvm=openj9 --pair tag:rate,duration --fail-on-regression
pr compare tag:jvm=hotspot,duration=10s tag:jvm=openj9 --pair tag:rate,duration
pr compare tag:jvm=hotspot tag:jvm=openj9 --pair tag:rate
pr compare tag:study=samples,jvm=hotspot tag:study=samples,jvm=openj9 --pair tag:rate
sh_ "\$PR compare --json tag:jvm=hotspot tag:jvm=openj9 --pair tag:rate,duration | grep -E '\"(kind|key_text|n_pairs|n_unpaired|verdict|pairs_needed|can_decide)\"' | sort | uniq -c"
pr compare tag:jvm=hotspot tag:jvm=openj9 --pair tag:rate,duration -t compare.md
pr compare tag:jvm=hotspot,rate=500 tag:jvm=openj9 --pair tag:rate,duration -t compare.zh.md
pr compare tag:jvm=hotspot tag:jvm=openj9 tag:jvm --pair tag:rate
pr compare tag:jvm=hotspot tag:jvm=openj9 --pair rate,duration

# --- capacity never mixes the 10 s and the 60 s runs of one load
pr capacity tag:jvm=hotspot --load tag:rate --load-is-rate --slo p99=100ms
pr capacity --load tag:rate --load-is-rate --by tag:jvm tag:duration
pr capacity --load tag:rate --load-is-rate --by tag:jvm,duration --slo p99=100ms -o cap.svg tag:duration
sh_ "grep -o 'threshold: [^;<]*\|marked: [^;<]*\|x axis: [^;<]*' cap-hotspot_10s.svg"
# a tag that is not a rate is a concurrency-type load: 3 loads are too few for the USL's 3 parameters
pr capacity tag:jvm=hotspot,duration=60s --load tag:rate
# a closed-model series (users 1 … 14) against a server that completes 500 req/s: the USL is fitted
for u in 1 2 4 8 12 14; do
  awk -v rate=$((u * 50)) -v secs=3 -v cap=500 -v base_ms=4 -v seed=$((u + 40)) -f "$root/tests/tools/synth_vegeta.awk" > u$u.json
  "$PR" ingest --name users-$u --tag study=users --tag users=$u u$u.json >/dev/null
done
pr capacity tag:study=users --load tag:users --slo p99=150ms -o users.svg
sh_ "grep -o 'threshold: [^;<]*\|marked: [^;<]*\|x axis: [^;<]*' users.svg"
sh_ "\$PR capacity --json tag:study=users --load tag:users | grep -E '\"(load_kind|efficiency|usl_note|points|degrees_of_freedom|crossed)\"'"

pr rm tag:study=samples,rate=300
pr runs tag:study=samples
