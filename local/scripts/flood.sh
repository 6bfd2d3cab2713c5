#!/usr/bin/env bash
# Can traffic that holds no secret, or clients that send slowly, delay or fail the renewals of
# lease holders on the local runner? Loopback only, bounded in time. One runner; each scenario
# runs for the given seconds while holders renew every 0.5 s, each on a new connection (a renewal
# that takes over 5 s, or is not answered 200, counts as failed):
#   - no flood, for comparison;
#   - 128 connections sending POST /leases without the secret, as fast as they are answered (wrk);
#   - the same with GET /leases;
#   - 16 slowloris connections (a head sent one header line a second, never finished) and 6 slow
#     bodies (with the secret: the head of a POST /leases, then its body one byte a second);
#   - 64 connections sending GET /ids (wrk).
#   local/scripts/flood.sh [jar] [seconds] [holders]
# defaults: local/target/snowid-local.jar, 20 s, 4 holders. Needs wrk and python3. Prints a table:
# renewals attempted, failed, their latency p50/p99/max, what the flood got answered; and the load.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jar="${1:-$root/local/target/snowid-local.jar}"
seconds="${2:-20}"
holders="${3:-4}"
command -v wrk >/dev/null || { echo "flood.sh needs wrk (apt-get install wrk)" >&2; exit 2; }
out=$(mktemp)
lua=$(mktemp --suffix=.lua)
secret="flood-$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
printf 'wrk.method = "POST"\nwrk.body = "{}"\nwrk.headers["Content-Type"] = "application/json"\n' >"$lua"
# The same pool and split for any runner: 32 slots, the last 16 for POST /leases.
SNOWID_PORT=0 SNOWID_LEASE_SECRET="$secret" SNOWID_DATACENTERS=0 SNOWID_MACHINES=0-31 SNOWID_AGENT_SLOTS=16 \
  SNOWID_LEASE_MILLIS=60000 java -jar "$jar" >"$out" 2>&1 &
runner=$!
trap 'kill -TERM "$runner" 2>/dev/null; wait "$runner" 2>/dev/null; rm -f "$out" "$lua"' EXIT
for _ in $(seq 600); do
  grep -q "ready on" "$out" && break
  kill -0 "$runner" 2>/dev/null || { cat "$out" >&2; exit 1; }
  sleep 0.1
done
base=$(grep -o 'ready on http://localhost:[0-9]*' "$out" | head -1 | sed 's/ready on //')
[ -n "$base" ] || { cat "$out" >&2; exit 1; }
curl -sf "$base/ids" >/dev/null # the runner's own lease, before any flood

SNOWID_FLOOD_BASE="$base" SNOWID_FLOOD_SECRET="$secret" SNOWID_FLOOD_SECONDS="$seconds" SNOWID_FLOOD_HOLDERS="$holders" \
  SNOWID_FLOOD_LUA="$lua" python3 - <<'PY'
import http.client, json, os, re, socket, subprocess, threading, time, urllib.parse
base = urllib.parse.urlparse(os.environ["SNOWID_FLOOD_BASE"])
host, port = base.hostname, base.port
secret, seconds, holders = os.environ["SNOWID_FLOOD_SECRET"], float(os.environ["SNOWID_FLOOD_SECONDS"]), int(os.environ["SNOWID_FLOOD_HOLDERS"])
auth = {"Authorization": "Bearer " + secret, "Content-Type": "application/json"}

def call(method, path, body, headers):
    c = http.client.HTTPConnection(host, port, timeout=5)
    try:
        c.request(method, path, body=body, headers=headers)
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()

leases = []
for _ in range(holders):
    status, body = call("POST", "/leases", "{}", auth)
    assert status == 201, (status, body)
    leases.append(json.loads(body))

def renewals(until):
    """Each holder renews every 0.5 s until `until`; returns the latencies (ms) of those answered 200, and the failures."""
    latencies, failures, lock = [], [], threading.Lock()
    def renew(lease):
        claim = json.dumps({"owner": lease["owner"], "fence": lease["fence"]})
        while time.monotonic() < until:
            start = time.monotonic()
            try:
                status, body = call("PUT", "/leases/%d" % lease["slot"], claim, auth)
            except Exception as e:
                status, body = None, repr(e).encode()
            took = (time.monotonic() - start) * 1000
            with lock:
                (latencies.append(took) if status == 200 else failures.append((status, body[:80])))
            time.sleep(max(0, 0.5 - (time.monotonic() - start)))
    threads = [threading.Thread(target=renew, args=(l,)) for l in leases]
    [t.start() for t in threads]
    [t.join() for t in threads]
    return sorted(latencies), failures

def slow_client(until, head, trickle, answered):
    """Sends `head` at once, then one piece of `trickle` a second; starts over when the server cuts it off."""
    while time.monotonic() < until:
        try:
            s = socket.create_connection((host, port), timeout=2)
            s.sendall(head.encode())
            for piece in trickle:
                if time.monotonic() >= until:
                    break
                time.sleep(1)
                s.sendall(piece.encode())
            s.settimeout(0.2)
            try:
                if s.recv(100):
                    answered.append(1)
            except OSError:
                pass
            s.close()
        except OSError:
            answered.append(1)  # cut off by the server: the client comes back
            time.sleep(0.1)

def slowloris(until, answered):
    head = "POST /leases HTTP/1.1\r\nHost: localhost:%d\r\n" % port
    threads = [threading.Thread(target=slow_client, args=(until, head, ["X-Slow-%d: x\r\n" % i for i in range(1000)], answered))
               for _ in range(16)]
    body = "x" * 1000
    slow_head = ("POST /leases HTTP/1.1\r\nHost: localhost:%d\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"
                 "Content-Length: %d\r\n\r\n" % (port, secret, len(body)))
    threads += [threading.Thread(target=slow_client, args=(until, slow_head, list(body), answered)) for _ in range(6)]
    return threads

def wrk(connections, path, lua):
    command = ["wrk", "-t2", "-c%d" % connections, "-d%ds" % int(seconds), "--timeout", "10s"]
    if lua:
        command += ["-s", os.environ["SNOWID_FLOOD_LUA"]]
    return subprocess.Popen(command + ["http://%s:%d%s" % (host, port, path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

def scenario(name, flood):
    until = time.monotonic() + seconds
    started, answered = flood(until)
    time.sleep(1)  # the flood is on before the first renewal
    latencies, failures = renewals(until - 0.5)
    flood_rate = started()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")
    print("%-44s %8d %7d %8.1f %8.1f %8.1f  %s" % (name, len(latencies) + len(failures), len(failures), pick(0.5), pick(0.99),
          latencies[-1] if latencies else float("nan"), flood_rate), flush=True)
    for failure in failures[:3]:
        print("    failed: %s" % (failure,), flush=True)

def none(until):
    return (lambda: "-"), None

def wrk_flood(connections, path, lua):
    def flood(until):
        process = wrk(connections, path, lua)
        def done():
            text = process.communicate()[0]
            rate = re.search(r"Requests/sec:\s+([\d.]+)", text)
            non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
            total = re.search(r"(\d+) requests in", text)
            errors = re.search(r"Socket errors: (.*)", text)
            return "%s/s answered (%s of %s not 2xx)%s" % (rate.group(1) if rate else "?", non2xx.group(1) if non2xx else "0",
                                                          total.group(1) if total else "?", "; socket errors: " + errors.group(1) if errors else "")
        return done, None
    return flood

def slow_flood(until):
    answered = []
    threads = slowloris(until, answered)
    [t.start() for t in threads]
    def done():
        [t.join() for t in threads]
        return "%d slow requests cut off or answered" % len(answered)
    return done, answered

print("load before: %s" % open("/proc/loadavg").read().strip() if os.path.exists("/proc/loadavg") else "", flush=True)
print("%-44s %8s %7s %8s %8s %8s  %s" % ("scenario (%d s, %d holders renewing every 0.5 s)" % (seconds, holders),
      "renewals", "failed", "p50 ms", "p99 ms", "max ms", "flood"), flush=True)
scenario("no flood", none)
scenario("128 conns POST /leases without the secret", wrk_flood(128, "/leases", True))
scenario("128 conns GET /leases without the secret", wrk_flood(128, "/leases", False))
scenario("16 slowloris + 6 slow bodies (with secret)", slow_flood)
scenario("64 conns GET /ids", wrk_flood(64, "/ids", False))
print("load after: %s" % open("/proc/loadavg").read().strip() if os.path.exists("/proc/loadavg") else "", flush=True)
PY
