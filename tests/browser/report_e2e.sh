#!/bin/sh
# End-to-end: render report.html (with --static-charts, the chart images) from real fixtures and open it in headless Chromium (no
# network): the page must load with no console or script errors, every chart image must be
# decoded and visible, and clicking a table header must sort the table (then reverse it).
# Exit 0 pass, 1 fail, 77 skipped (no chromium).
set -u
BIN=${PERFREPORT_BIN:-./perfreport}
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
  echo "skip: chromium is not installed"
  exit 77
fi
DATA=${PR_TESTDATA:-tests/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFREPORT_STORE="$work/s.db" SOURCE_DATE_EPOCH=1796083200
"$BIN" ingest -q "$DATA/vegeta/mixed.bin" "$DATA/jmeter/csv-default.jtl" || exit 1
"$BIN" render --template report.html --static-charts -o "$work/report.html" || exit 1
if grep -q -E '(src|href)="(https?:)?//' "$work/report.html"; then
  echo "FAIL: the report refers to the network"; exit 1
fi
# the probe: collects errors from the start, then checks images and sorting after load
sed 's#<head>#<head><script>window.__errors=[];window.addEventListener("error",function(e){window.__errors.push(String(e.message))});</script>#' \
  "$work/report.html" > "$work/probe.html"
cat >> "$work/probe.html" <<'JS'
<script>
window.addEventListener('load', function () {
  var out = [];
  var imgs = document.querySelectorAll('img'), visible = 0;
  imgs.forEach(function (i) {
    var r = i.getBoundingClientRect();
    if (i.complete && i.naturalWidth > 0 && r.width > 100 && r.height > 50) visible++;
  });
  out.push('images ' + imgs.length + ' visible ' + visible);
  var t = document.querySelector('table.labels');
  var th = t.querySelectorAll('thead th')[1];
  function col() {
    return Array.prototype.map.call(t.tBodies[0].rows, function (r) {
      return r.cells[1].textContent.trim(); }).join(',');
  }
  out.push('before ' + col());
  th.click(); out.push('click1 ' + col() + ' ' + th.getAttribute('aria-sort'));
  th.click(); out.push('click2 ' + col() + ' ' + th.getAttribute('aria-sort'));
  out.push('errors ' + window.__errors.length + ' ' + window.__errors.join(' | '));
  var pre = document.createElement('pre'); pre.id = 'probe-result';
  pre.textContent = '\n' + out.join('\n') + '\n'; document.body.appendChild(pre);
});
</script>
JS
"$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$work/profile" \
  --enable-logging=stderr --v=0 --virtual-time-budget=5000 \
  --dump-dom "file://$work/probe.html" > "$work/dom.html" 2> "$work/console.log"
result=$(sed -n '/<pre id="probe-result">/,/<\/pre>/p' "$work/dom.html")
echo "$result" | sed '/^$/d; s/<[^>]*>//g'
fail=0
echo "$result" | grep -q 'images 8 visible 8' || { echo "FAIL: charts not all visible"; fail=1; }
before=$(echo "$result" | sed -n 's/^before //p')
c1=$(echo "$result" | sed -n 's/^click1 \([^ ]*\) ascending$/\1/p')
c2=$(echo "$result" | sed -n 's/^click2 \([^ ]*\) descending$/\1/p')
sorted_asc=$(echo "$before" | tr ',' '\n' | sort -n | paste -sd, -)
sorted_desc=$(echo "$before" | tr ',' '\n' | sort -rn | paste -sd, -)
[ -n "$c1" ] && [ "$c1" = "$sorted_asc" ] || { echo "FAIL: first click did not sort ascending"; fail=1; }
[ -n "$c2" ] && [ "$c2" = "$sorted_desc" ] || { echo "FAIL: second click did not sort descending"; fail=1; }
echo "$result" | grep -q '^errors 0 ' || { echo "FAIL: script errors on the page"; fail=1; }
if grep -E 'CONSOLE.*(Error|error|Uncaught)' "$work/console.log" | grep -v 'favicon' ; then
  echo "FAIL: console errors"; fail=1
fi
[ "$fail" -eq 0 ] && echo "report.html renders in chromium: charts visible, tables sort, no errors"
exit $fail
