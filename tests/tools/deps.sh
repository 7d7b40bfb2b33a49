#!/bin/sh
# Installs the Debian packages perfreport needs to build, test and run. Idempotent: does
# nothing when they are all present; then the pinned npm packages (tests/tools/npm.sh). Needs root (or sudo) only when something is missing.
set -eu
PKGS="build-essential pkg-config libjansson-dev libxml2-dev libcsv-dev libcairo2-dev
libpango1.0-dev libsqlite3-dev sqlite3 libpq-dev libmd4c-dev libmd4c-html0-dev libssl-dev
libcmocka-dev zlib1g-dev libxxhash-dev libxml2-utils clang-format jq fonts-dejavu-core fonts-wqy-zenhei time gettext
${PERFREPORT_EXTRA_PKGS:-}"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
# npm (Debian's npm, which brings nodejs) fetches the pinned JavaScript at build time; a
# node.js from elsewhere that has npm will do (its nodejs package conflicts with Debian's npm)
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
  echo "installing:$missing"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
# the pinned npm packages, into build/npm (never committed): uPlot, which the build embeds in
# report.html, and playwright-core, which drives Chromium in tests/browser
here=$(dirname "$0")
sh "$here/npm.sh" "$here/../../render/js" "${NPM_DIR:-build/npm}/render"
sh "$here/npm.sh" "$here/../browser" "${NPM_DIR:-build/npm}/browser"
