#!/usr/bin/env bash
# Two timings of the local runner, N runs each (default 5), with medians:
#   start:   local/scripts/run-local.sh from start to its ready line when nothing changed
#            (a first, uncounted run builds the jar if it is stale)
#   restart: the runner's own engine killed (kill -9 of dynalite) until the runner reports it
#            back and checked ("dynalite is back … after N ms")
#   local/scripts/local-timings.sh [runs]
set -euo pipefail
runs="${1:-5}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

now_ms() { date +%s%3N; }
median() { sort -n | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2) }'; }

start_runner() { # starts run-local.sh in the background, waits for the ready line; sets runner, elapsed (ms)
  local start
  : >"$out"
  start=$(now_ms)
  SNOWID_PORT=0 SNOWID_LEASE_SECRET="$(openssl rand -base64 32)" local/scripts/run-local.sh >"$out" 2>&1 &
  runner=$!
  until grep -q "ready on" "$out"; do
    kill -0 "$runner" 2>/dev/null || { cat "$out" >&2; exit 1; }
    sleep 0.01
  done
  elapsed=$(($(now_ms) - start))
}
stop_runner() { kill -TERM "$runner"; wait "$runner" 2>/dev/null || true; }

start_runner; stop_runner
starts=()
for _ in $(seq "$runs"); do start_runner; starts+=("$elapsed"); stop_runner; done
echo "start (nothing changed): runs (ms) ${starts[*]}; median $(printf '%s\n' "${starts[@]}" | median) ms"

start_runner
restarts=()
for i in $(seq "$runs"); do
  kill -9 "$(pgrep -P "$runner" node)"
  until [ "$(grep -cE "dynalite is back .* after [0-9]+ ms .*serving again" "$out")" -ge "$i" ]; do sleep 0.01; done
  restarts+=("$(grep -E "dynalite is back .* after [0-9]+ ms .*serving again" "$out" | tail -1 | sed -E 's/.* after ([0-9]+) ms.*/\1/')")
done
stop_runner
echo "engine restart (kill -9 to serving again): runs (ms) ${restarts[*]}; median $(printf '%s\n' "${restarts[@]}" | median) ms"
