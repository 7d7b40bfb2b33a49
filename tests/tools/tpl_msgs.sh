#!/bin/sh
# tpl_msgs.sh TEMPLATE...: the messages of the templates, as a PO template on stdout. A message
# is the text of a {{#_}}…{{/_}} section as written, tags and all (render/mustache.h), with
# msgctxt "template"; `make pot` adds them to po/perfreport.pot after the messages of the C
# sources (docs/l10n.md, "Translating").
set -u
printf 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n'
for f in "$@"; do
  awk -v file="$f" 'BEGIN { RS = "\001" }
  function po(s,   out, n, i, parts) {
    gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s)
    n = split(s, parts, "\n")
    if (n == 1) return "\"" s "\""
    out = "\"\""
    for (i = 1; i <= n; i++)
      if (i < n) out = out "\n\"" parts[i] "\\n\""; else if (parts[i] != "") out = out "\n\"" parts[i] "\""
    return out
  }
  {
    text = $0
    while ((a = index(text, "{{#_}}")) > 0) {
      text = substr(text, a + 6)
      b = index(text, "{{/_}}")
      if (b == 0) { printf "%s: {{#_}} without {{/_}}\n", file > "/dev/stderr"; exit 1 }
      msg = substr(text, 1, b - 1)
      text = substr(text, b + 6)
      if (index(msg, "{{#_}}")) { printf "%s: {{#_}} inside a message\n", file > "/dev/stderr"; exit 1 }
      printf "\n#. TRANSLATORS: a piece of a report template: keep its {{tags}} (they may move) and its Markdown or HTML\n#: %s\nmsgctxt \"template\"\nmsgid %s\nmsgstr \"\"\n", file, po(msg)
    }
  }' "$f" || exit 1
done
