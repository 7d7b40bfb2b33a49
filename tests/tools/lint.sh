#!/bin/sh
# make lint: checks the include direction between modules (the rule in docs/architecture.md),
# that no function is over 120 lines, and, where clang-format is installed, that the C sources keep the committed .clang-format
# style. Exits 1 on any violation, naming the file, the line and the rule.
set -u
cd "$(dirname "$0")/../.."
status=0

# The include rule: a file in the module on the left may include only the modules listed.
rules="model:model
parsers:model,parsers
gen:model,gen
store:model,store
analysis:model,store,analysis
render:model,analysis,render
cli:model,parsers,gen,store,analysis,render,cli"

files=$(ls model/*.[ch] parsers/*.[ch] gen/*.[ch] store/*.[ch] analysis/*.[ch] render/*.[ch] \
  cli/*.[ch] 2>/dev/null)
# shellcheck disable=SC2086
if ! printf '%s\n' "$rules" | awk -v files="$files" '
  BEGIN { FS = ":" }
  { allow[$1] = "," $2 "," }
  END {
    n = split(files, f, "\n"); bad = 0
    for (i = 1; i <= n; i++) {
      mod = f[i]; sub(/\/.*/, "", mod)
      ln = 0
      while ((getline line < f[i]) > 0) {
        ln++
        if (line !~ /^[ \t]*#[ \t]*include[ \t]*"[a-z_]+\//) continue
        t = line; sub(/^[^"]*"/, "", t); sub(/\/.*/, "", t)
        if (index(allow[mod], "," t ",") == 0) {
          printf "%s:%d: %s/ may not include %s/ (allowed: %s)\n", f[i], ln, mod, t, \
            substr(allow[mod], 2, length(allow[mod]) - 2)
          bad = 1
        }
      }
      close(f[i])
    }
    exit bad
  }'; then
  status=1
fi

# No function over 120 lines (tests/tools/fnlen.sh: sources, tests, bench and fuzz).
if ! sh tests/tools/fnlen.sh; then
  echo "lint: functions over 120 lines (split them: docs/architecture.md, contracts)"
  status=1
fi

if [ -f .clang-format ] && command -v clang-format >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  for f in $files; do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
      echo "$f: not in the committed style (clang-format -i $f)"
      status=1
    fi
  done
fi
[ "$status" -eq 0 ] && echo "lint: include direction and function length ok${files:+, $(printf '%s\n' "$files" | wc -l) files}"
exit "$status"
