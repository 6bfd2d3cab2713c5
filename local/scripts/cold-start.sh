#!/usr/bin/env bash
# Local cold start, median of N runs (default 7), against an engine already running (as
# DynamoDB is for a Lambda). Three parts:
#   engine-running: `java -jar snowid-local.jar` (the local runner) to the first ID served over
#                   HTTP, lease acquisition included.
#   with-dynalite:  the same, the runner starting its own dynalite (what `run-local.sh` does).
#   floor:          N paired runs, side by side, order alternating: JVM start to the first ID
#                   from the handler (init, one GET /ids event, lease included), and JVM start to
#                   the answer of one conditional UpdateItem from a minimal program that builds an
#                   SDK v2 DynamoDB client: the floor any DynamoDB-backed Java Lambda pays. Both
#                   run from the function jar. Reports the medians and their ratio.
#   ric:            N paired runs, side by side, order alternating, as floor: JVM start to the answer of
#                   one GET /ids event that AWS's runtime interface client (as Lambda runs the jar) got
#                   from bench's RuntimeApiStandIn and posted back, against the floor; both JVMs with
#                   Lambda's flags (-XX:TieredStopAtLevel=1 -XX:+UseSerialGC). JAVA_HOME picks the JDK;
#                   RIC_JAVA_OPTS adds flags to the client's JVM only (say, -XX:AOTCache=<file> on JDK 25).
#   ric-floor:      as ric, against bench's FloorHandler (the floor as a handler) under the same client
#                   in place of the floor program: the ratio is then the function's own, the client's
#                   start-up being on both sides.
#   ric-client:     FloorHandler under the client against the floor program: the client's own start-up,
#                   which every Java function under it pays (the part of ric that ric-floor leaves out).
#   ric-churned:    as ric-floor, on a table where every slot of the function's pool was leased and has
#                   expired, none released (holders that were stopped): the first acquisition's probe for
#                   an unheld slot always collides, so it writes twice.
# The machine's load moves single runs by tens of ms: read the medians, and compare only
# numbers from one run of this script.
# Build first: mvn -q -pl local,bench -am package -DskipTests   (the runner's jar, the function jar
# and the floor program)
#   registry:       N paired runs of FirstId on a guarded stack (a claim registry on the same engine, the
#                   block claimed by the uncounted first run) against FirstId unguarded, both on the
#                   block 0-3: the ratio is the registry read's share of a cold start.
#   local/scripts/cold-start.sh [runs] [parts]      parts: any of engine-running with-dynalite floor ric ric-floor ric-client ric-churned registry
#                                                   (default: all but ric)
set -euo pipefail
runs="${1:-7}"
parts="${2:-engine-running with-dynalite floor}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
echo "JDK: $("$java" -version 2>&1 | head -1); load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
runner=(local/target/snowid-local.jar)
jar=(lambda/target/snowid-function.jar)
[ -f "${runner[0]}" ] || { echo "no runner jar: run mvn -q -pl local,bench -am package -DskipTests first (or -pl local without the floor part)" >&2; exit 1; }
if [[ " $parts " =~ " "ric(-floor|-client|-churned)?" " && ! -f bench/target/ric.classpath ]]; then
  echo "no runtime interface client: run mvn -q -pl local,bench -am package -DskipTests first" >&2; exit 1
fi
if [[ " $parts " =~ " "(floor|ric|ric-floor|ric-client|ric-churned|registry)" " && ! -f "${jar[0]}" ]]; then
  echo "no function jar: run mvn -q -pl local,bench -am package -DskipTests first" >&2; exit 1
fi
programs=bench/target/classes
if [[ " $parts " =~ " "(floor|ric|ric-floor|ric-client|ric-churned|registry)" " && ! -f "$programs/dev/snowid/bench/coldstart/FirstId.class" ]]; then
  echo "no cold-start programs: run mvn -q -pl bench -am package -DskipTests first" >&2; exit 1
fi

# A secret the runner accepts (it refuses one under 128 bits); /ids needs none, the runner only checks it.
lease_secret=$(openssl rand -base64 32)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
now_ms() { date +%s%3N; }

one_run() { # $1: extra env assignments (may be empty); prints ms to the first ID
  local port pid start end
  port=$(free_port)
  start=$(now_ms)
  env $1 SNOWID_PORT="$port" SNOWID_LEASE_SECRET="$lease_secret" "$java" -jar "${runner[0]}" >/dev/null 2>&1 &
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
store=$(mktemp -d)
# dynalite exits when a client drops a half-sent request (a request cut off by the SDK's attempt
# timeout on a loaded machine does): kept on disk and restarted, so the tables survive.
( while :; do
    node dynalite/node_modules/dynalite/cli.js --host 127.0.0.1 --port "$engine_port" --path "$store" --createTableMs 0 >/dev/null 2>&1 &
    echo $! > "$store.pid"
    wait $!
    sleep 0.2
  done ) &
engine=$!
# The loop first, so it restarts nothing, then the engine it runs.
trap 'kill $engine 2>/dev/null; kill "$(cat "$store.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$store" "$store.pid"' EXIT
engine_up() { until curl -s -o /dev/null "http://127.0.0.1:$engine_port"; do sleep 0.05; done; }
engine_up
# A first run creates the table; it is not counted.
one_run "SNOWID_DYNAMODB_ENDPOINT=http://127.0.0.1:$engine_port" >/dev/null

for series in engine-running with-dynalite; do
  [[ " $parts " == *" $series "* ]] || continue
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

# --- floor: paired runs ------------------------------------------------------------------------
[[ " $parts " =~ " "(floor|ric|ric-floor|ric-client|ric-churned|registry)" " ]] || exit 0
endpoint="http://127.0.0.1:$engine_port"
"$java" -cp "${jar[0]}:$programs" dev.snowid.bench.coldstart.DynamoDbFloor "$endpoint" snowid-floor --prepare >/dev/null 2>&1
# Region and credentials from the environment, as in Lambda; the engine accepts any.
export AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=cold-start AWS_SECRET_ACCESS_KEY=cold-start

jvm_flags=()
timed() { # $@: the java main and its arguments; prints "<ms from JVM start to the printed done-at> <CPU ms until then>"
  local start out rest attempt
  for attempt in 1 2; do
    engine_up
    start=$(now_ms)
    out=$("$java" "${jvm_flags[@]}" -cp "${jar[0]}:$programs" "$@" 2>/dev/null | grep '^done-at ' || true)
    [ -n "$out" ] && break
    echo "$1 printed no result (attempt $attempt; the engine restarted?)" >&2
  done
  [ -n "$out" ] || return 1
  rest=${out#done-at }
  echo "$(( ${rest%% *} - start )) ${rest##* }"
}
first_id() { SNOWID_DYNAMODB_ENDPOINT="$endpoint" timed dev.snowid.bench.coldstart.FirstId; }
floor() { timed dev.snowid.bench.coldstart.DynamoDbFloor "$endpoint" snowid-floor; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
median_of() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }

# Paired runs of "$1" (a function printing "<wall ms> <cpu ms>") against the floor, order alternating.
pairs() {
  local subject=$1 label=$2 floor_label=${3:-"floor (SDK client + one conditional UpdateItem):    "} a b i
  for i in $(seq "${warm_ups:-1}"); do "$subject" >/dev/null; floor >/dev/null; done # warm the file cache and the engine; not counted
  ids=(); floors=(); ratios=(); ids_cpu=(); floors_cpu=(); ratios_cpu=()
  for i in $(seq "$runs"); do
    if (( i % 2 )); then a=$("$subject"); b=$(floor); else b=$(floor); a=$("$subject"); fi
    ids+=("${a% *}"); floors+=("${b% *}"); ratios+=("$(ratio "${a% *}" "${b% *}")")
    ids_cpu+=("${a#* }"); floors_cpu+=("${b#* }"); ratios_cpu+=("$(ratio "${a#* }" "${b#* }")")
  done
  echo "$label: wall (ms) ${ids[*]}; median $(median_of "${ids[@]}") ms"
  echo "$floor_label wall (ms) ${floors[*]}; median $(median_of "${floors[@]}") ms"
  echo "  ratio / floor, wall: of the medians $(ratio "$(median_of "${ids[@]}")" "$(median_of "${floors[@]}")"); median of the $runs pairs' ratios $(median_of "${ratios[@]}")"
  echo "$label CPU (ms, all threads) ${ids_cpu[*]}; median $(median_of "${ids_cpu[@]}")"
  echo "${floor_label%%(*} CPU (ms, all threads) ${floors_cpu[*]}; median $(median_of "${floors_cpu[@]}")"
  echo "  ratio / floor, CPU: of the medians $(ratio "$(median_of "${ids_cpu[@]}")" "$(median_of "${floors_cpu[@]}")"); median of the $runs pairs' ratios $(median_of "${ratios_cpu[@]}")"
}
if [[ " $parts " == *" floor "* ]]; then
  pairs first_id "first-id (handler init + GET /ids, lease included)"
fi
if [[ " $parts " == *" registry "* ]]; then
  "$java" -cp "${jar[0]}:$programs" dev.snowid.bench.coldstart.DynamoDbFloor "$endpoint" snowid-registry --prepare-registry >/dev/null 2>&1
  # Both on the block 0-3, as a guarded stack's pool is a whole block.
  first_id_on_block() {
    SNOWID_DATACENTERS=0-3 SNOWID_MACHINES=0-31 SNOWID_REGION=us-east-1 SNOWID_STACK=cold-start \
      SNOWID_DYNAMODB_ENDPOINT="$endpoint" timed dev.snowid.bench.coldstart.FirstId
  }
  guarded() {
    SNOWID_DATACENTERS=0-3 SNOWID_MACHINES=0-31 SNOWID_REGION=us-east-1 SNOWID_STACK=cold-start \
      SNOWID_REGISTRY_TABLE=snowid-registry SNOWID_REGISTRY_ENDPOINT="$endpoint" SNOWID_DYNAMODB_ENDPOINT="$endpoint" \
      timed dev.snowid.bench.coldstart.FirstId
  }
  saved_floor=$(declare -f floor)
  floor() { first_id_on_block; }
  pairs guarded "first-id, guarded (the registry read before the first grant)" "first-id, unguarded (no registry):"
  eval "$saved_floor"
fi
[[ " $parts " =~ " "ric(-floor|-client|-churned)?" " ]] || exit 0

# --- ric: the function jar under AWS's runtime interface client ---------------------------------
# Lambda's own JVM flags for Java (tiered compilation stopped at C1, the serial collector), on both sides.
jvm_flags=(-XX:+TieredCompilation -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
warm_ups=3 # the engine (a node process) and the file cache settle over the first few runs
task_root=$(mktemp -d)
mkdir -p "$task_root/lib" && cp "${jar[0]}" "$task_root/lib/"
# Both sides read the same copy of the jar: with two copies, one side's reads can find the other's
# pages reclaimed (this machine's page cache is), and the ratio measures the disk.
jar=("$task_root/lib/snowid-function.jar")
# FloorHandler's class, for ric-floor: the task root is also a class folder, as /var/task is.
mkdir -p "$task_root/dev/snowid/bench/coldstart" && cp "$programs/dev/snowid/bench/coldstart/FloorHandler.class" "$task_root/dev/snowid/bench/coldstart/"
port_file="$task_root/runtime-api.port"
"$java" -cp "${jar[0]}:$programs" dev.snowid.bench.coldstart.RuntimeApiStandIn "$port_file" >/dev/null 2>&1 &
stand_in=$!
trap 'kill $stand_in 2>/dev/null; rm -rf "$task_root"; kill $engine 2>/dev/null; kill "$(cat "$store.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$store" "$store.pid"' EXIT
for _ in $(seq 200); do [ -s "$port_file" ] && break; sleep 0.05; done
runtime_api="127.0.0.1:$(cat "$port_file")"
ric_classpath=$(cat bench/target/ric.classpath)
clock_ticks=$(getconf CLK_TCK)

ric_first_id() { ric_run dev.snowid.lambda.SnowidHandler::handleRequest; }
ric_floor() { ric_run dev.snowid.bench.coldstart.FloorHandler::handleRequest; }
ric_run() { # $1: the handler; prints "<ms from JVM start to the answer at the stand-in> <CPU ms of the JVM then>"
  local before start pid done_line count cpu
  engine_up
  before=$(curl -sf "http://$runtime_api/done" | cut -d' ' -f1)
  curl -sf -X POST "http://$runtime_api/arm" >/dev/null
  start=$(now_ms)
  # The client loads the handler from its working directory's jars (lib/), as from /var/task on Lambda.
  (cd "$task_root" && exec env AWS_LAMBDA_RUNTIME_API="$runtime_api" LAMBDA_TASK_ROOT="$task_root" _HANDLER="$1" \
      AWS_LAMBDA_FUNCTION_NAME=snowid-cold-start AWS_LAMBDA_FUNCTION_VERSION='$LATEST' AWS_LAMBDA_FUNCTION_MEMORY_SIZE=1024 \
      AWS_LAMBDA_LOG_GROUP_NAME=/aws/lambda/snowid-cold-start AWS_LAMBDA_LOG_STREAM_NAME=cold-start \
      SNOWID_DYNAMODB_ENDPOINT="$endpoint" SNOWID_FLOOR_TABLE=snowid-floor \
      "$java" "${jvm_flags[@]}" ${RIC_JAVA_OPTS:-} -cp "$ric_classpath" com.amazonaws.services.lambda.runtime.api.client.AWSLambda \
      "$1" >/dev/null 2>&1) &
  pid=$!
  # One call that waits for the answer (the stand-in holds it up to a minute): no polling processes beside the JVM.
  done_line=$(curl -sf --max-time 70 "http://$runtime_api/done?after=$before")
  count=${done_line%% *}
  if (( count <= before )) || ! kill -0 "$pid" 2>/dev/null; then
    echo "the runtime interface client gave no answer (its JVM exited, or a minute passed)" >&2; kill -9 "$pid" 2>/dev/null; return 1
  fi
  cpu=$(awk -v t="$clock_ticks" '{ printf "%d", ($14 + $15) * 1000 / t }' "/proc/$pid/stat")
  # TERM: an orderly exit, as Lambda's shutdown, so that a training run (-XX:AOTCacheOutput) can write its cache.
  kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
  case "$done_line" in
    *'"statusCode":200'*) ;;
    *) echo "the function did not answer 200: ${done_line:0:300}" >&2; return 1 ;;
  esac
  local rest=${done_line#* }
  echo "$(( ${rest%% *} - start )) $cpu"
}
if [[ " $parts " == *" ric "* ]]; then
  pairs ric_first_id "ric first-id (runtime interface client, init + GET /ids, lease included)"
fi
if [[ " $parts " == *" ric-floor "* ]]; then
  floor() { ric_floor; } # the floor, as a handler under the same client
  pairs ric_first_id "ric first-id (runtime interface client, init + GET /ids, lease included)" "ric-floor (FloorHandler under the same client):"
fi
if [[ " $parts " == *" ric-client "* ]]; then
  pairs ric_floor "ric-client (FloorHandler under the runtime interface client)"
fi
if [[ " $parts " == *" ric-churned "* ]]; then
  # Last, as it leaves the function's pool (the default 128 slots, 0-3 x 0-31) churned for any part after it.
  "$java" -cp "${jar[0]}:$programs" dev.snowid.bench.coldstart.DynamoDbFloor "$endpoint" snowid-leases --prepare-expired 128 >/dev/null
  floor() { ric_floor; }
  pairs ric_first_id "ric first-id, churned pool (every slot expired, none released)" "ric-floor (FloorHandler under the same client):"
fi
