# Deterministic synthetic Vegeta JSON results for tests (capacity, trend, findings):
#   awk -v rate=R -v secs=S -v cap=C -v base_ms=B -v seed=N [-v start_min=M] -f synth_vegeta.awk
# R requests/s for S seconds against a server that completes at most C requests/s: latency
# B ms × (1 + uniform) / (1 − utilisation) (utilisation capped at 0.95); above capacity the
# excess requests get 503 quickly. A Park-Miller generator keeps the output identical on every awk.
# Optional slow tail: -v tail_frac=F -v tail_ms=T [-v tail_spread_ms=W] [-v tail_code=C] gives a
# fraction F of the requests a latency of T to T+W ms (W default 2); tail_code=0 makes them client
# timeouts (code 0, Vegeta's "context deadline exceeded" error, no body) instead of slow 200s.
function rnd() { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
BEGIN {
  if (seed == "") seed = 1
  if (start_min == "") start_min = 0
  n = int(rate * secs)
  rho = rate / cap; if (rho > 0.95) rho = 0.95
  fail = rate > cap ? (rate - cap) / rate : 0
  if (tail_frac == "") tail_frac = 0
  if (tail_spread_ms == "") tail_spread_ms = 2
  if (tail_code == "") tail_code = 200
  for (i = 0; i < n; i++) {
    t = i / rate
    ns = int((t - int(t)) * 1e9 + 0.5)
    s = int(t) % 60; m = (start_min + int(t / 60)) % 60
    if (rnd() < fail) { code = 503; lat = int(base_ms * 0.2 * 1e6 * (1 + rnd())); err = "503 Service Unavailable"; bytes = 0 }
    else if (tail_frac > 0 && rnd() < tail_frac) {
      code = tail_code; lat = tail_ms * 1e6 + int(tail_spread_ms * 1e6 * rnd())  # past 2^31: printed with %.0f
      err = code ? "" : "Get \\\"http://127.0.0.1:18080/\\\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
      bytes = code ? 153 : 0
    }
    else { code = 200; lat = int(base_ms * 1e6 * (1 + rnd()) / (1 - rho)); err = ""; bytes = 153 }
    printf "{\"attack\":\"\",\"seq\":%d,\"code\":%d,\"timestamp\":\"2026-11-30T15:%02d:%02d.%09dZ\",\"latency\":%.0f,\"bytes_out\":0,\"bytes_in\":%d,\"error\":\"%s\",\"body\":null,\"method\":\"GET\",\"url\":\"http://127.0.0.1:18080/\",\"headers\":null}\n", i, code, m, s, ns, lat, bytes, err
  }
}
