# Helpers sourced by tests/integration/*.sh: a work directory, random ports, a private nginx,
# failing and skipping. Each test exits 0 (pass), 77 (skipped: the last line says why) or
# anything else (fail). The store under test is $PERFREPORT_STORE (tests/run.sh sets it).
set -u
BIN=${PERFREPORT_BIN:-./perfreport}
DATA=${PR_TESTDATA:-tests/data}
ROOT=$(pwd)
work=$(mktemp -d)
chmod 755 "$work" # nginx workers (another user) read files below it
export TMPDIR="$work" SOURCE_DATE_EPOCH=1796083200 TZ=UTC
cleanups=""
at_exit() { eval "$cleanups"; rm -rf "$work"; }
trap at_exit EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
check() { "$@" || fail "$*"; }

# random_port: a port number in 20000-49999 (collisions with a busy port fail the bind, and
# the helpers below retry).
random_port() { echo $(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 30000 + 20000 )); }

# start_nginx: a private nginx on 127.0.0.1:$NGINX_PORT (bench/nginx.sh), stopped at exit;
# skips the test when nginx is not installed.
start_nginx() {
  command -v nginx >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
  command -v nginx >/dev/null 2>&1 || skip "nginx is not installed"
  for _t in 1 2 3 4 5; do
    NGINX_PORT=$(random_port)
    _pid=$(bash "$ROOT/bench/nginx.sh" "$work/nginx$_t" "$NGINX_PORT")
    if curl -s -o /dev/null "http://127.0.0.1:$NGINX_PORT/"; then
      cleanups="$cleanups kill $_pid 2>/dev/null;"
      return 0
    fi
    kill "$_pid" 2>/dev/null
  done
  skip "nginx did not start"
}

# py: the system python3 (Debian's modules, e.g. python3-prometheus-client).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
