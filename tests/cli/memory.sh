# The memory budget (issue 15 item 1): with the address space limited to 256 MB (ulimit -v),
# `summary` of a 10,000,000-sample run switches to bounded mode and says why instead of dying
# (before: "out of memory"; exact statistics of 10 M samples took ~335 MB, now ~100 MB, still
# more than half of what the process may use). Needs build/bench/gen_native; skipped under
# ASan, which needs more address space than that.
gen=$root/${BUILD:-build}/bench/gen_native
if [ ! -x "$gen" ] || [ "${BUILD:-build}" = build-san ]; then
  echo "skip: needs build/bench/gen_native and no sanitizer"
  exit 77
fi
"$gen" 10000000 n10m.prf 20
pr ingest --quiet n10m.prf
sh_ "(ulimit -v 262144; \$PR summary --no-findings bench 2>/dev/null) | grep -E 'requests|bounded|exact mode' | sed 's/half of the [0-9]* MB/half of the N MB/'"
