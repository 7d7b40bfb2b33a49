# HdrHistogram readers on crafted input (tests/data/hdr/crafted/, written by its craft.py):
# counts and bucket indexes that do not fit the histogram are refused with the line, the
# histogram's column and the byte of the inflated histogram, the exit is 1 and the store keeps
# only the run it had. Expansion bombs (a count of 200 million in a few hundred bytes) are
# refused before a sample is made, in the memory of any small ingest (docs/security.md; it
# was 1.2 GB and 10-16 s, then 1.2 GB again for every summary).
[ "${BUILD:-build}" = build-san ] && export PR_MAXRSS_SKIP=1
MAXRSS="$ROOT_BUILD/tests/maxrss"
# --max-samples: what one input may become (here exactly the 4490 samples of the log)
pr ingest --max-samples 4490 "$DATA/hdr/tagged-non-monotonic.hlog"
# a run of INT64_MIN empty buckets (read as none: a sample at 0 ns)
pr ingest "$DATA/hdr/crafted/crafted-min-run.hlog"
# two runs of INT64_MAX empty buckets (the index wrapped: a sample at 1.02 ms)
pr ingest "$DATA/hdr/crafted/crafted-index-wrap.hlog"
# an index in bucket 2^31 (a negative shift: a sample at 1.02 ms)
pr ingest "$DATA/hdr/crafted/crafted-bucket-2e31.hlog"
# the last bucket of the 63-bit range, beyond the header's highest trackable value (a sample
# at 2^63 - 1 ns)
pr ingest "$DATA/hdr/crafted/crafted-top-value.hlog"
# a count of INT64_MAX after a count of 1 (the total overflowed: INT64_MAX samples, no end)
pr ingest "$DATA/hdr/crafted/crafted-huge-count.hlog"
# 216 bytes of .hlog and 336 of .hgrm asking for 200,000,000 samples: 1,000,000 + 1,000 a byte
# read is what they may hold
sh_ "\$MAXRSS 40 \$PR ingest \$DATA/hdr/crafted/bomb.hlog"
sh_ "\$MAXRSS 40 \$PR ingest \$DATA/hdr/crafted/bomb.hgrm"
# the limit applies to every HdrHistogram input, real ones too
pr ingest --max-samples 4489 "$DATA/hdr/jHiccup-2.0.7S.logV2.hlog"
pr ingest --max-samples 39499 "$DATA/hdr/wrk2_readme_latency.txt"
pr ingest --max-samples 0 "$DATA/hdr/wrk2_readme_latency.txt"
pr runs
