# The English words left in a translated report: every word of a msgid of the catalog
# (po/LANG.po) that its translations do not keep (units, names and options they keep are
# allowed), found in the text of the report files.
# awk -f l10n_words.awk PO INPUTS FILE...
#   PO      the catalog (msgid/msgstr entries)
#   INPUTS  strings from the input files (run names, labels, tags, error messages, metadata),
#           one a line, longest first: left out of the reports before they are read
#   FILE    Markdown or HTML reports; for HTML, the text of the page (no tags, styles, scripts
#           or the embedded library's licence) plus the words of the interactive charts
#           (script#pr-words)
# Prints "FILE: ok" or "FILE: N English words: word «context», ...".

function unescape(s) {
    gsub(/\\n/, " ", s); gsub(/\\t/, " ", s); gsub(/\\"/, "\"", s); gsub(/\\\\/, "\\", s)
    return s
}
function quoted(line) {
    sub(/^[a-z_\[\]0-9]* *"/, "", line); sub(/"[ \t]*$/, "", line)
    return unescape(line)
}
# printf directives and option names are not words
function words_of(s, into,    t, w) {
    gsub(/%([0-9]+\$)?[-+ #0]*([0-9]+|\*)?(\.([0-9]+|\*))?(hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcsp%]/, " ", s)
    gsub(/--[a-z][-a-z]*/, " ", s)
    t = s
    while (match(t, /[A-Za-z]+/)) {
        w = tolower(substr(t, RSTART, RLENGTH))
        if (length(w) > 1)
            into[w] = 1
        t = substr(t, RSTART + RLENGTH)
    }
}
function end_entry() {
    if (id != "" && str != "") {
        words_of(id, en)
        words_of(str, kept)
    }
    id = ""; str = ""; in_id = 0; in_str = 0
}
# text without the occurrences of s that stand as words of their own ("on" stays in "only")
function literal_remove(text, s,    out, k, before, after, n) {
    out = ""
    n = length(s)
    while ((k = index(text, s)) > 0) {
        before = k > 1 ? substr(text, k - 1, 1) : ""
        after = substr(text, k + n, 1)
        if ((substr(s, 1, 1) ~ /[A-Za-z0-9]/ && before ~ /[A-Za-z0-9]/) ||
            (substr(s, n, 1) ~ /[A-Za-z0-9]/ && after ~ /[A-Za-z0-9]/)) {
            out = out substr(text, 1, k)
            text = substr(text, k + 1)
            continue
        }
        out = out substr(text, 1, k - 1) " "
        text = substr(text, k + n)
    }
    return out text
}
function report(name, text,    lower, t, w, n, seen, list, k, ctx, i) {
    for (i = 1; i <= ninputs; i++)
        if (index(text, inputs[i]))
            text = literal_remove(text, inputs[i])
    n = 0; list = ""
    t = text
    while (match(t, /[A-Za-z]+/)) {
        w = tolower(substr(t, RSTART, RLENGTH))
        if (length(w) > 1 && (w in en) && !(w in kept) && !(w in seen)) {
            seen[w] = 1
            n++
            k = RSTART
            ctx = substr(t, k > 30 ? k - 30 : 1, (k > 30 ? 30 : k - 1) + RLENGTH + 30)
            gsub(/[ \t\r\n]+/, " ", ctx)
            list = list (n > 1 ? ", " : "") w " \xc2\xab" ctx "\xc2\xbb"
        }
        t = substr(t, RSTART + RLENGTH)
    }
    if (n)
        print name ": " n " English words: " list
    else
        print name ": ok"
}
# The text a reader sees: HTML without styles, scripts and tags (the chart words kept),
# Markdown without link targets, code and URLs.
function readable(name, text,    words, rest, k, e) {
    if (name ~ /\.html?$/) {
        words = ""
        if ((k = index(text, "id=\"pr-words\">")) > 0) {
            rest = substr(text, k + 14)
            e = index(rest, "</script>")
            words = substr(rest, 1, e - 1)
            gsub(/"[a-z_0-9]+":/, " ", words)   # the keys are the script's, not words
        }
        out = ""
        while ((k = index(text, "<script")) > 0) {
            out = out substr(text, 1, k - 1)
            rest = substr(text, k)
            e = index(rest, "</script>")
            text = e ? substr(rest, e + 9) : ""
        }
        text = out text
        out = ""
        while ((k = index(text, "<style")) > 0) {
            out = out substr(text, 1, k - 1)
            rest = substr(text, k)
            e = index(rest, "</style>")
            text = e ? substr(rest, e + 8) : ""
        }
        text = out text
        # the licence of the embedded library is a legal text: it stays as its authors wrote it
        if ((k = index(text, "<div class=\"licences\"")) > 0) {
            rest = substr(text, k)
            e = index(rest, "</div>")
            text = substr(text, 1, k - 1) (e ? substr(rest, e + 6) : "")
        }
        gsub(/<[^>]*>/, " ", text)
        gsub(/&lt;/, "<", text); gsub(/&gt;/, ">", text); gsub(/&quot;/, "\"", text)
        gsub(/&#39;/, "'", text); gsub(/&amp;/, "\\&", text); gsub(/&#[0-9]+;/, " ", text)
        text = text " " words
    } else {
        gsub(/\]\([^)]*\)/, "] ", text)
        gsub(/`[^`]*`/, " ", text)
        gsub(/&lt;/, "<", text); gsub(/&gt;/, ">", text); gsub(/&amp;/, "\\&", text)
        gsub(/\\/, "", text)
    }
    gsub(/[a-z]+:\/\/[^ \t\n|)]*/, " ", text)
    return text
}
FNR == 1 {
    if (fileno >= 3)
        report(cur, readable(cur, body))
    fileno++
    cur = FILENAME
    body = ""
    if (fileno == 2)
        end_entry()
}
fileno == 1 {
    if ($0 ~ /^msgid /) { end_entry(); id = quoted($0); in_id = 1; next }
    if ($0 ~ /^msgstr/) { str = quoted($0); in_id = 0; in_str = 1; next }
    if ($0 ~ /^"/) { if (in_id) id = id quoted($0); else if (in_str) str = str quoted($0); next }
    if ($0 ~ /^msgid_plural /) { id = id " " quoted($0); in_id = 1; next }
    if ($0 ~ /^msgctxt /) { in_id = 0; in_str = 0; next }
    if ($0 ~ /^$/) end_entry()
    next
}
fileno == 2 { if (length($0) > 0) inputs[++ninputs] = $0; next }
{ body = body $0 "\n" }
END {
    if (fileno >= 3)
        report(cur, readable(cur, body))
}
