#!/bin/sh
# Installs the Debian packages perfreport needs to build, test and run. Idempotent: does
# nothing when they are all present. Needs root (or sudo) only when something is missing.
set -eu
PKGS="build-essential pkg-config libjansson-dev libxml2-dev libcsv-dev libcairo2-dev
libpango1.0-dev libsqlite3-dev sqlite3 libmd4c-dev libmd4c-html0-dev libssl-dev
libcmocka-dev zlib1g-dev libxxhash-dev libxml2-utils fonts-dejavu-core fonts-wqy-zenhei time ${PERFREPORT_EXTRA_PKGS:-}"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
if [ -z "$missing" ]; then
  exit 0
fi
echo "installing:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
