#!/usr/bin/env bash
# Local cold start: from `java -jar` to the first ID served over HTTP, lease acquisition
# included, median of N runs (default 7). Two series:
#   engine-running: the lease table's engine (dynalite) is already up, as DynamoDB is for a
#                   Lambda: JVM start, init, the first lease and the first ID.
#   with-dynalite:  the local runner starts its own dynalite too (what `run-local.sh` does).
# Build first: mvn -q -pl lambda -am package -DskipTests
#   lambda/scripts/cold-start.sh [runs]
set -euo pipefail
runs="${1:-7}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
jar=(lambda/target/snowid-function.jar)
[ -f "${jar[0]}" ] || { echo "no function jar: run mvn -q -pl lambda -am package -DskipTests first" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
now_ms() { date +%s%3N; }

one_run() { # $1: extra env assignments (may be empty); prints ms to the first ID
  local port pid start end
  port=$(free_port)
  start=$(now_ms)
  env $1 SNOWID_PORT="$port" SNOWID_LEASE_SECRET=cold-start java -jar "${jar[0]}" >/dev/null 2>&1 &
  pid=$!
  until curl -sf -o /dev/null "http://127.0.0.1:$port/ids"; do
    kill -0 "$pid" 2>/dev/null || { echo "runner exited early" >&2; return 1; }
    sleep 0.005
  done
  end=$(now_ms)
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
  echo $((end - start))
}

median() { sort -n | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2) }'; }

engine_port=$(free_port)
node lambda/dynalite/node_modules/dynalite/cli.js --host 127.0.0.1 --port "$engine_port" --createTableMs 0 >/dev/null 2>&1 &
engine=$!
trap 'kill $engine 2>/dev/null || true' EXIT
until curl -s -o /dev/null "http://127.0.0.1:$engine_port"; do sleep 0.05; done
# A first run creates the table; it is not counted.
one_run "SNOWID_DYNAMODB_ENDPOINT=http://127.0.0.1:$engine_port" >/dev/null

for series in engine-running with-dynalite; do
  times=()
  for _ in $(seq "$runs"); do
    if [ "$series" = engine-running ]; then
      times+=("$(one_run "SNOWID_DYNAMODB_ENDPOINT=http://127.0.0.1:$engine_port")")
    else
      times+=("$(one_run "")")
    fi
  done
  echo "$series: runs (ms) ${times[*]}; median $(printf '%s\n' "${times[@]}" | median) ms"
done
