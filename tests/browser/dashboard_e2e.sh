#!/bin/sh
# End-to-end: the interactive report in headless Chromium with no network (tests/browser/
# dashboard.js drives it through playwright-core, which tests/tools/deps.sh installs from the
# pinned tests/browser/package-lock.json): zoom, follow, hover, toggle, finding links, dark
# theme, print to PDF, no console error. Screenshots go to $PR_SHOTS when set.
# Exit 0 pass, 1 fail, 77 skipped (no chromium, node or playwright-core).
set -u
BIN=${PERFREPORT_BIN:-./perfreport}
CHROME=$(command -v chromium || command -v chromium-browser || true)
NPM_DIR=${NPM_DIR:-build/npm}
PW="$NPM_DIR/browser/node_modules/playwright-core"
if [ -z "$CHROME" ] || ! command -v node >/dev/null 2>&1 || [ ! -d "$PW" ]; then
  echo "skip: needs chromium, node and playwright-core (make deps)"
  exit 77
fi
DATA=${PR_TESTDATA:-tests/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFREPORT_STORE="$work/s.db" SOURCE_DATE_EPOCH=1796083200
"$BIN" ingest -q "$DATA/vegeta/mixed.bin" "$DATA/jmeter/csv-default.jtl" || exit 1
"$BIN" render --template report.html --max p99=250ms --min throughput=100/s -o "$work/report.html" || exit 1
"$BIN" render --template report.md -o "$work/md/report.html" || exit 1
if grep -q -E '(src|href)="(https?:)?//' "$work/report.html"; then
  echo "FAIL: the report refers to the network"; exit 1
fi
out=${PR_SHOTS:-$work/shots}
mkdir -p "$out"
NODE_PATH="$NPM_DIR/browser/node_modules" CHROMIUM="$CHROME" \
  node "$(dirname "$0")/dashboard.js" "$work/report.html" "$out" "$work/md/report.html"
