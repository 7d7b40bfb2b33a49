#!/bin/sh
# md_links.sh FILE.md: every in-page link of a Markdown file ("](#id)") must land: on an
# explicit anchor (id="id") or on a heading whose GitHub-style slug is id (lower case, spaces to
# hyphens, punctuation dropped). Prints each dangling link and exits 1 if there is one.
f=$1
targets=$(grep -o '](#[^)]*)' "$f" | sed 's/^](#//; s/)$//' | sort -u)
anchors=$( { grep -o 'id="[^"]*"' "$f" | sed 's/^id="//; s/"$//'
  grep '^#' "$f" | sed 's/^#* *//' | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'; } | sort -u)
bad=0
for t in $targets; do
  echo "$anchors" | grep -qx -- "$t" || { echo "dangling link: #$t"; bad=1; }
done
[ "$bad" -eq 0 ] && echo "$(echo "$targets" | grep -c .) in-page links, all land"
exit "$bad"
