# The memory budget (issue 15 item 1, issue 18): with the address space limited to 288 MB
# (ulimit -v), `summary` of a 10,000,000-sample run is exact (6 bytes a sample; 335 MB before
# issue 18, ~100 MB at its fourth round, more than half of what the process could use then);
# limited to 192 MB it switches to bounded mode and says why instead of dying (before issue
# 15: "out of memory"). Needs build/bench/gen_native; skipped under ASan, which needs more
# address space than that.
gen=$root/${BUILD:-build}/bench/gen_native
if [ ! -x "$gen" ] || [ "${BUILD:-build}" = build-san ]; then
  echo "skip: needs build/bench/gen_native and no sanitizer"
  exit 77
fi
"$gen" 10000000 n10m.prf 20
pr ingest --quiet n10m.prf
sh_ "(ulimit -v 294912; \$PR summary --no-findings bench 2>/dev/null) | grep -E 'requests|bounded|exact mode'"
sh_ "(ulimit -v 196608; \$PR summary --no-findings bench 2>/dev/null) | grep -E 'requests|bounded|exact mode' | sed 's/half of the [0-9.]* MB/half of the N MB/'"
