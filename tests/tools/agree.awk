# Compares perfreport's figures with a tool's printed ones (tests/cli/scan.sh). Input lines:
#   o KEY PRINTED SCALE RULE   what the tool printed (tests/tools/oracle.awk, or jq for Vegeta)
#   u KEY VALUE                perfreport's figure, in its unit (ns, ratio, per second)
# Rules (docs/metrics.md, "The scan test"):
#   exact    VALUE == PRINTED × SCALE
#   printed  VALUE / SCALE, rounded to PRINTED's decimals, is PRINTED
#   sig9     equal to 9 significant digits (the JSON model prints 10; float noise)
#   trunc    VALUE − PRINTED × SCALE is 0 or 1 (our mean rounds to the ns, Vegeta's truncates)
#   ms1      |VALUE / 1e6 − PRINTED| <= 1 (ab's mean of µs against whole-ms -g rows)
#   abrank   our percentile at ab's own rank (u lat.at.pNN) is PRINTED × SCALE
#   rank2    PRINTED × SCALE lies between our percentiles 2 ranks either side (u lat.lo.pNN,
#            u lat.hi.pNN): Vegeta's t-digest estimate
# Prints "N agree: KEY…" and a line per number that does not agree or is missing.
function decimals(s) { return index(s, ".") ? length(s) - index(s, ".") : 0 }
function absv(x) { return x < 0 ? -x : x }
function agrees(k, v, p, scale, rule,    t, lo, hi) {
    t = p * scale
    if (rule == "exact") return v == t
    if (rule == "printed") return sprintf("%.*f", decimals(p), v / scale) == sprintf("%.*f", decimals(p), p)
    if (rule == "sig9") return absv(v - t) <= 1e-9 * absv(t) || (t == 0 && v == 0)
    if (rule == "trunc") return v - t == 0 || v - t == 1
    if (rule == "ms1") return absv(v / 1e6 - p) <= 1
    if (rule == "abrank") { k = "lat.at." substr(k, 5); return (k in u) && u[k] == t }
    if (rule == "rank2") {
        lo = "lat.lo." substr(k, 5); hi = "lat.hi." substr(k, 5)
        return (lo in u) && (hi in u) && u[lo] <= t && t <= u[hi]
    }
    return 0
}
$1 == "o" { n++; key[n] = $2; printed[n] = $3; scale[n] = $4; rule[n] = $5; next }
$1 == "u" && $3 != "null" && $3 != "" { u[$2] = $3 }
END {
    ok = 0; list = ""
    for (i = 1; i <= n; i++) {
        k = key[i]
        if (!((k in u) || rule[i] == "abrank" || rule[i] == "rank2")) {
            bad = bad sprintf("    MISSING %s: the tool printed %s\n", k, printed[i])
            continue
        }
        if (agrees(k, u[k], printed[i], scale[i], rule[i])) {
            ok++
            list = list (list == "" ? "" : " ") k
        } else {
            bad = bad sprintf("    DIFFERS %s: perfreport %s, the tool printed %s (x%s, %s)\n", k,
                              k in u ? u[k] : "-", printed[i], scale[i], rule[i])
        }
    }
    printf "%d agree: %s\n%s", ok, list, bad
}
