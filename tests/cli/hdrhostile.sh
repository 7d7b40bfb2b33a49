# HdrHistogram readers on crafted input (tests/data/hdr/crafted/, written by its craft.py):
# counts and bucket indexes that do not fit the histogram are refused with the line, the
# histogram's column and the byte of the inflated histogram, the exit is 1 and the store keeps
# only the run it had.
pr ingest "$DATA/hdr/tagged-non-monotonic.hlog"
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
pr runs
