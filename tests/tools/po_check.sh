#!/bin/sh
# po_check.sh ROOT: the message catalogs are in step with the sources. po/perfreport.pot holds
# exactly what xgettext extracts from them now (`make pot` was run after the last change to a
# message), and every po/LANG.po translates every message of it: nothing missing, untranslated
# or fuzzy (`make po`, then translate). Prints "LANG: every message translated" per catalog
# or what is wrong; exit 1 when something is.
set -u
cd "$1" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
make -s --no-print-directory pot POT="$tmp/now.pot" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
ids() { msgcat --no-wrap --no-location --sort-output "$1" | grep -v '^"POT-Creation-Date:'; }
ids po/perfreport.pot > "$tmp/committed"
ids "$tmp/now.pot" > "$tmp/extracted"
if ! cmp -s "$tmp/committed" "$tmp/extracted"; then
  echo "po/perfreport.pot is not what the sources hold (run make pot):"
  diff "$tmp/committed" "$tmp/extracted" | grep '^[<>] msg' | head -20
  rc=1
fi
for po in po/*.po; do
  lang=$(basename "$po" .po)
  n=$(msgcat --no-wrap "$tmp/now.pot" | grep -c '^msgid ')
  n=$((n - 1))
  missing=$(msgcmp --use-untranslated "$po" "$tmp/now.pot" 2>&1 | grep -c 'this message is used but not defined')
  untr=$(msgattrib --untranslated --no-obsolete "$po" | grep -c '^msgid ')
  fuzzy=$(msgattrib --only-fuzzy --no-obsolete "$po" | grep -c '^msgid ')
  [ "$untr" -gt 0 ] && untr=$((untr - 1)) # the header
  [ "$fuzzy" -gt 0 ] && fuzzy=$((fuzzy - 1))
  if [ "$missing" -eq 0 ] && [ "$untr" -eq 0 ] && [ "$fuzzy" -eq 0 ]; then
    echo "$lang: every message translated"
  else
    echo "$lang: $missing missing, $untr untranslated, $fuzzy fuzzy of $n messages (make po, then translate)"
    msgattrib --untranslated --no-obsolete "$po" | grep '^msgid "[^"]' | head -10
    rc=1
  fi
  msgfmt --check -o /dev/null "$po" || rc=1
done
exit $rc
