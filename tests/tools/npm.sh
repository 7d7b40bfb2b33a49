#!/bin/sh
# Installs the pinned npm packages of SRC (its package.json and package-lock.json) into the
# build-time folder DEST with `npm ci` (exact versions and integrity hashes from the lock; no
# install scripts). Does nothing when DEST already holds that lock's packages.
# usage: tests/tools/npm.sh SRC DEST
set -eu
src=$1
dest=$2
if [ -f "$dest/package-lock.json" ] && [ -d "$dest/node_modules" ] &&
  cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "npm.sh: npm is needed to fetch $src/package.json's packages (make deps installs it)" >&2
  exit 1
fi
mkdir -p "$dest"
cp "$src/package.json" "$src/package-lock.json" "$dest/"
rm -rf "$dest/node_modules"
npm ci --prefix "$dest" --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
