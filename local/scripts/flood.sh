#!/usr/bin/env bash
# A flood of GET /ids against the local runner while lease holders renew: does the flood delay
# or fail the renewals? Loopback only, bounded in time.
#   local/scripts/flood.sh [jar] [seconds] [connections] [holders]
# defaults: local/target/snowid-local.jar, 30 s, 64 connections (wrk), 8 holders each renewing
# every 250 ms (a renewal that takes over 5 s counts as failed). Needs wrk and python3.
# Prints the renewals' latency p50/p99/max, their failures, and what the flood got.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jar="${1:-$root/local/target/snowid-local.jar}"
seconds="${2:-30}"
connections="${3:-64}"
holders="${4:-8}"
command -v wrk >/dev/null || { echo "flood.sh needs wrk (apt-get install wrk)" >&2; exit 2; }
out=$(mktemp)
secret="flood-$(date +%s%N)"
# The same pool and split for any runner, old or new: 32 slots, the last 16 for POST /leases.
SNOWID_PORT=0 SNOWID_LEASE_SECRET="$secret" SNOWID_DATACENTERS=0 SNOWID_MACHINES=0-31 SNOWID_AGENT_SLOTS=16 \
  SNOWID_LEASE_MILLIS=60000 java -jar "$jar" >"$out" 2>&1 &
runner=$!
trap 'kill -TERM "$runner" 2>/dev/null; wait "$runner" 2>/dev/null; rm -f "$out"' EXIT
for _ in $(seq 600); do
  grep -q "ready on" "$out" && break
  kill -0 "$runner" 2>/dev/null || { cat "$out" >&2; exit 1; }
  sleep 0.1
done
base=$(grep -o 'ready on http://localhost:[0-9]*' "$out" | head -1 | sed 's/ready on //')
[ -n "$base" ] || { cat "$out" >&2; exit 1; }
curl -sf "$base/ids" >/dev/null # the runner's own lease, before the flood

SNOWID_FLOOD_BASE="$base" SNOWID_FLOOD_SECRET="$secret" SNOWID_FLOOD_SECONDS="$seconds" SNOWID_FLOOD_HOLDERS="$holders" \
  python3 - <<'PY' &
import http.client, json, os, threading, time, urllib.parse
base = urllib.parse.urlparse(os.environ["SNOWID_FLOOD_BASE"])
secret, seconds, holders = os.environ["SNOWID_FLOOD_SECRET"], float(os.environ["SNOWID_FLOOD_SECONDS"]), int(os.environ["SNOWID_FLOOD_HOLDERS"])
auth = {"Authorization": "Bearer " + secret, "Content-Type": "application/json"}
def call(method, path, body):
    c = http.client.HTTPConnection(base.hostname, base.port, timeout=5)
    try:
        c.request(method, path, body=body, headers=auth)
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()
leases = []
for _ in range(holders):
    status, body = call("POST", "/leases", "{}")
    assert status == 201, (status, body)
    leases.append(json.loads(body))
latencies, failures, lock = [], [], threading.Lock()
deadline = time.monotonic() + seconds
def renew(lease):
    claim = json.dumps({"owner": lease["owner"], "fence": lease["fence"]})
    while time.monotonic() < deadline:
        start = time.monotonic()
        try:
            status, body = call("PUT", "/leases/%d" % lease["slot"], claim)
        except Exception as e:
            status, body = None, repr(e).encode()
        took = (time.monotonic() - start) * 1000
        with lock:
            (latencies.append(took) if status == 200 else failures.append((status, body[:80])))
        time.sleep(max(0, 0.25 - (time.monotonic() - start)))
threads = [threading.Thread(target=renew, args=(l,)) for l in leases]
time.sleep(1) # the flood is on before the first renewal
deadline = time.monotonic() + seconds - 2
[t.start() for t in threads]
[t.join() for t in threads]
latencies.sort()
pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")
print("renewals: %d answered 200, %d failed; latency p50 %.1f ms, p99 %.1f ms, max %.1f ms"
      % (len(latencies), len(failures), pick(0.5), pick(0.99), latencies[-1] if latencies else float("nan")))
if failures:
    print("  failures (first 3):", failures[:3])
PY
holders_pid=$!
wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s "$base/ids" | sed -n 's/^/flood: /p' | grep -E "Requests/sec|Non-2xx|Socket errors|requests in" || true
wait "$holders_pid"
