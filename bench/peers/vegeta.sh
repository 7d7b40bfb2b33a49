#!/bin/sh
# Builds the peer tool Vegeta for `make bench` from a source tree given in $VEGETA_SRC, offline,
# and checks it against Vegeta's own reports kept in tests/data/vegeta/ before it is used.
#
# Usage: VEGETA_SRC=DIR sh bench/peers/vegeta.sh [OUT]        (OUT default: build/peers/vegeta)
#
# DIR is tsenart/vegeta at v12.11.1 (commit 6fbe391628eeeae1adf39522a55078797e6e7f2e, the version
# the fixtures and issue 18 used), unmodified, with its dependencies either in DIR/vendor/
# (`go mod vendor` on a machine with network) or in the module cache named by $GOMODCACHE. The
# build never goes to the network (GOPROXY=off). Nothing of Vegeta is kept in this repository.
# Without $VEGETA_SRC, or without a Go toolchain, the peer is skipped (exit 0): CI cannot fetch it.
# Env: VEGETA_VERSION (12.11.1), VEGETA_COMMIT (read from DIR's git when there is one).
set -eu
OUT=${1:-build/peers/vegeta}
FIX=${VEGETA_FIXTURES:-tests/data/vegeta}
VERSION=${VEGETA_VERSION:-12.11.1}
skip() { echo "vegeta peer: skipped ($*)"; exit 0; }

[ -n "${VEGETA_SRC:-}" ] || skip "VEGETA_SRC is not set; see the head of bench/peers/vegeta.sh"
[ -f "$VEGETA_SRC/go.mod" ] || { echo "vegeta peer: $VEGETA_SRC/go.mod: no such file" >&2; exit 1; }
command -v go >/dev/null 2>&1 || skip "no Go toolchain (apt-get install golang-go)"
module=$(awk '$1 == "module" { print $2; exit }' "$VEGETA_SRC/go.mod")
if [ "$module" != github.com/tsenart/vegeta/v12 ]; then
  echo "vegeta peer: $VEGETA_SRC/go.mod: module $module, expected github.com/tsenart/vegeta/v12" >&2
  exit 1
fi
commit=${VEGETA_COMMIT:-$(git -C "$VEGETA_SRC" rev-parse HEAD 2>/dev/null || echo unknown)}
if [ -d "$VEGETA_SRC/vendor" ]; then mod=vendor; else mod=mod; fi
mkdir -p "$(dirname "$OUT")"
out_abs=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
echo "vegeta peer: building $VEGETA_SRC (v$VERSION, commit $commit, -mod=$mod) with $(go version)"
(cd "$VEGETA_SRC" && GOPROXY=off GOFLAGS=-mod=$mod GOWORK=off CGO_ENABLED=0 \
  go build -trimpath -ldflags "-X main.Version=$VERSION -X main.Commit=$commit" -o "$out_abs" .)
"$out_abs" -version | sed 's/^/vegeta peer: /'

# The built binary must print exactly what Vegeta v12.11.1 printed for the fixtures.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok=0 bad=0
check() { # NAME EXPECTED ARGS...: runs `vegeta report ARGS` and compares with EXPECTED
  name=$1 want=$2; shift 2
  [ -f "$want" ] || return 0
  if (cd "$FIX" && "$out_abs" report "$@") >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$want"; then
    ok=$((ok + 1))
  else
    bad=$((bad + 1))
    echo "vegeta peer: $name differs from $want:"
    diff "$want" "$tmp/out" | head -20
    cat "$tmp/err"
  fi
}
for bin in "$FIX"/*.bin; do
  x=$(basename "$bin" .bin)
  [ "$x" = concat ] && continue
  check "$x text" "$FIX/$x.report.txt" "$x.bin"
  check "$x json" "$FIX/$x.report.json" -type=json "$x.bin"
  check "$x hist" "$FIX/$x.hist.txt" '-type=hist[0,2ms,5ms,10ms,50ms,100ms,1s]' "$x.bin"
done
check "multi text" "$FIX/multi.report.txt" refused.bin post.bin
check "multi json" "$FIX/multi.report.json" -type=json refused.bin post.bin
echo "vegeta peer: $ok reports identical to Vegeta's own, $bad different ($FIX)"
[ "$bad" = 0 ] || exit 1
echo "vegeta peer: $out_abs (use VEGETA=$out_abs make bench; bench/run.sh also finds it there)"
