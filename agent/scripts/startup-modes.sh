#!/usr/bin/env bash
# The agent's start-up in each mode, against no agent: node (a fixed node), bearer (a lease from a
# local runner with the bearer secret) and aws_iam (snowid-agent-iam.jar, the lease signed with
# SigV4 and checked by the botocore-verifying proxy before the same runner). The fixture app
# LegacyApp redirects three methods and calls them three times; in the lease modes the agent also
# leases at start and releases at exit, so those runs include two calls to the lease API.
#
#   mvn -q -pl agent,local -am package -DskipTests                       # agent jars, fixture classes, runner jar
#   agent/scripts/startup-modes.sh [runs]                                 # needs hyperfine, python3 + botocore
#   SNOWID_BASE_AGENT_JAR=<an older snowid-agent.jar> agent/scripts/startup-modes.sh   # adds node and bearer with it
#
# Prints hyperfine's table (-N: no shell; 3 warm-ups, then the runs of each command in turn).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-20}"
runner_jar="${SNOWID_LOCAL_JAR:-$root/local/target/snowid-local.jar}"
[ -f "$runner_jar" ] || { echo "no $runner_jar: mvn -q -pl agent,local -am package -DskipTests" >&2; exit 1; }
classes="$root/agent/target/test-classes"
stand_ins="$root/testing/engines/src/main/resources/dev/snowid/testing/sigv4/aws_stand_ins.py"
work="$(mktemp -d)"
secret="startup-modes-2d2595b6b96d8e4a60887b6d7ddf8d5f4332b0af9ff6c600c9f95f62bb0ca0a8"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT

SNOWID_PORT=0 SNOWID_LEASE_SECRET="$secret" SNOWID_LEASE_MILLIS=60000 java -jar "$runner_jar" > "$work/runner.log" 2>&1 &
for _ in $(seq 1 600); do grep -q "ready on" "$work/runner.log" && break; sleep 0.1; done
runner="$(grep -o 'ready on http://localhost:[0-9]*' "$work/runner.log" | head -1 | cut -d' ' -f3)"
[ -n "$runner" ] || { cat "$work/runner.log" >&2; exit 1; }

mkfifo "$work/stdin"
python3 "$stand_ins" --upstream "$runner" --upstream-secret "$secret" --region eu-west-1 \
    --key "AKIASTARTUPMODES0001:startup-secret:arn:aws:iam::123456789012:user/startup" < "$work/stdin" > "$work/proxy.log" 2>&1 &
exec 9> "$work/stdin"  # the stand-ins serve until this closes
for _ in $(seq 1 300); do grep -q READY "$work/proxy.log" && break; sleep 0.1; done
proxy="http://127.0.0.1:$(sed -n 's/.*"proxy": \([0-9]*\).*/\1/p' "$work/proxy.log")"

targets="com.acme.legacy.LegacyIds#nextLong,com.acme.legacy.LegacyIds#nextBoxed,com.acme.legacy.LegacyIds#nextString"
app="-cp $classes com.acme.legacy.LegacyApp $work/ids 1 3"
# The secret as a property (aws_iam mode refuses one in its environment); ps shows it, which is fine here.
export AWS_ACCESS_KEY_ID=AKIASTARTUPMODES0001 AWS_SECRET_ACCESS_KEY=startup-secret AWS_EC2_METADATA_DISABLED=true
base=()
if [ -n "${SNOWID_BASE_AGENT_JAR:-}" ]; then
  base=(-n "node, base jar" "java -javaagent:$SNOWID_BASE_AGENT_JAR -Dsnowid.node=7:13 -Dsnowid.targets=$targets $app"
        -n "bearer, base jar" "java -javaagent:$SNOWID_BASE_AGENT_JAR -Dsnowid.lease.url=$runner -Dsnowid.lease.secret=$secret -Dsnowid.targets=$targets $app")
fi
hyperfine -N --warmup 3 --runs "$runs" \
  -n "no agent" "java $app" \
  "${base[@]}" \
  -n "node" "java -javaagent:$root/agent/target/snowid-agent.jar -Dsnowid.node=7:13 -Dsnowid.targets=$targets $app" \
  -n "bearer" "java -javaagent:$root/agent/target/snowid-agent.jar -Dsnowid.lease.url=$runner -Dsnowid.lease.secret=$secret -Dsnowid.targets=$targets $app" \
  -n "aws_iam" "java -javaagent:$root/agent/target/snowid-agent-iam.jar -Dsnowid.lease.url=$proxy -Dsnowid.lease.auth=aws_iam -Dsnowid.lease.region=eu-west-1 -Dsnowid.targets=$targets $app"
