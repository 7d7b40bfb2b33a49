#!/bin/sh
# Lists the C functions longer than a limit (default 120 lines, the project's hard maximum):
# "file:line: name N lines". A function is a definition whose body opens with "{" in column 0
# and closes with "}" in column 0 (the project's style); its length runs from the first line
# of its signature to the closing brace. Generated code (build/) is not read.
# usage: tests/tools/fnlen.sh [-n LIMIT] [FILE…]   (default: every .c of the source folders,
# tests/unit, bench and fuzz). Exits 1 when a function is over the limit.
set -u
cd "$(dirname "$0")/../.."
limit=120
if [ "${1:-}" = "-n" ]; then
  limit=$2
  shift 2
fi
if [ $# -eq 0 ]; then
  set -- $(ls model/*.c parsers/*.c gen/*.c store/*.c analysis/*.c render/*.c cli/*.c \
    tests/unit/*.c tests/unit/lib/*.c bench/*.c fuzz/*.c 2>/dev/null)
fi
awk -v limit="$limit" '
  FNR == 1 { sig = 0; body = 0 }
  # a signature begins at a line in column 0 that is not a comment, preprocessor line, brace,
  # label or a declaration ending in ";"
  !body && /^[A-Za-z_]/ && !/;[ \t]*$/ && !/^(typedef|struct [a-z_]+ *=|enum|union)/ {
    if (!sig || prev ~ /^[ \t]*$/ || prev ~ /[;}]/) { sig = FNR; text = "" }
  }
  !body && sig { text = text " " $0 }
  !body && /^\{/ && sig {
    body = 1
    name = text; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
    prev = $0
    next
  }
  body && /^\}/ {
    n = FNR - sig + 1
    if (n > limit) { printf "%s:%d: %s %d lines\n", FILENAME, sig, name, n; over = 1 }
    body = 0; sig = 0
  }
  !body && /^[ \t]*$/ { sig = 0 }
  { prev = $0 }
  END { exit over ? 1 : 0 }
' "$@"
