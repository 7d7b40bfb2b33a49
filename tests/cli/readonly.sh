# A store in a read-only folder says so (docs/security.md). Needs a folder this user cannot
# write: a read-only tmpfs in a private mount namespace when root may mount (unshare -m), or a
# folder without write permission for any other user; skipped (exit 77) when neither works.
mkdir ro
export PR
printf 'timeStamp,elapsed,label,responseCode,success\n1700000000000,5,a,200,true\n' > a.jtl
"$PR" ingest --store seed.db a.jtl >/dev/null 2>&1
if [ "$(id -u)" -ne 0 ]; then
  cp seed.db ro/s.db && chmod 555 ro && chmod 444 ro/s.db
  in_ro() { eval "$*"; }
elif unshare -m sh -c 'mount -t tmpfs -o size=1m,ro tmpfs ro' 2>/dev/null; then
  in_ro() { PR=$PR unshare -m sh -c "mount -t tmpfs -o size=1m tmpfs ro && cp seed.db ro/s.db && mount -o remount,ro ro && $*"; }
else
  echo "cannot make a read-only folder here (root without mount in a private namespace)"
  exit 77
fi
# the reason differs by how the folder was made read-only: it is shown as REASON
ro() { echo "\$ $*"; in_ro "$* 2>&1" | sed -e 's/(Read-only file system)/(REASON)/' -e 's/(Permission denied)/(REASON)/'; }
ro '$PR ingest --store ro/new.db a.jtl'
ro '$PR ingest --store ro/s.db a.jtl'
ro '$PR runs --store ro/s.db'
