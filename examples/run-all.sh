#!/usr/bin/env bash
# Builds and runs every example the way its README says, against a local runner of its own, and
# checks that every ID an example prints or answers comes from the node it should: the slot the
# runner granted to that example while it ran (the runner's audit line; for the Spring Boot app
# also its slot map and its health), or the fixed node it was given. Needs the libraries in the
# local Maven repository (the README's install command) and the local runner's jar.
#
#   examples/run-all.sh                                   # from anywhere
#   examples/run-all.sh -Dmaven.repo.local=/tmp/m2        # Maven arguments go to every example build
set -euo pipefail
examples="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$examples")"
mvn_args=(-B -q "$@")
work="$(mktemp -d)"
secret="$(head -c 32 /dev/urandom | base64 | tr -d '\n')"
export SNOWID_LEASE_SECRET="$secret"
pids=()

cleanup() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "examples: FAILED: $*" >&2
  exit 1
}

# Waits up to $3 seconds, while process $1 lives, for the extended regex $4 to appear in file $2;
# prints its first match.
wait_for() {
  local pid=$1 file=$2 seconds=$3 pattern=$4 found
  for ((i = 0; i < seconds * 5; i++)); do
    found="$(grep -oE "$pattern" "$file" 2>/dev/null | head -1 || true)"
    if [[ -n $found ]]; then
      echo "$found"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

# The node of a Snowflake ID: datacenter (bits 17-21) and machine (bits 12-16).
node_of() {
  echo "$(( ($1 >> 17) & 31 )):$(( ($1 >> 12) & 31 ))"
}

runner_log="$work/runner.log"
# A free port of its own: the README's runner may be on 8080.
SNOWID_PORT=0 "$root/local/scripts/run-local.sh" >"$runner_log" 2>&1 &
pids+=($!)
base="$(wait_for "${pids[-1]}" "$runner_log" 120 'ready on http://localhost:[0-9]+' | sed 's/^ready on //')" \
  || fail "the local runner did not start (within 120 s): $(tail -5 "$runner_log")"
export SNOWID_LEASE_URL="$base"
echo "examples: local runner on $base"

# Checks that the ID $2, printed by $1, was issued on a slot the runner granted after its log had $3 lines.
leased_by_runner() {
  local what=$1 id=$2 lines=$3 node
  [[ $id =~ ^[0-9]+$ ]] || fail "$what printed no ID (got '$id')"
  node="$(node_of "$id")"
  tail -n +"$((lines + 1))" "$runner_log" | grep '"event":"granted"' \
    | grep -q "\"datacenter\":${node%%:*},\"machine\":${node##*:}," \
    || fail "$what printed $id (node $node), but the runner granted that slot to no one while it ran"
  echo "examples: $what: $id, node $node, leased from the runner"
}

log_lines() {
  wc -l <"$runner_log"
}

# Runs the command in folder $1 (the rest); its output goes to $work/out, its stderr to $work/err.
run_in() {
  local dir=$1
  shift
  (cd "$examples/$dir" && "$@") >"$work/out" 2>"$work/err" \
    || fail "in examples/$dir, '$*' failed: $(tail -20 "$work/err")"
}

# The first number at the start of a line of the example's output (Maven's colour codes left out).
first_number() {
  sed 's/\x1b\[[0-9;]*m//g' "$work/out" | grep -oE '^[0-9]+' | head -1 || true
}

started=$SECONDS

# hello-client: the README's class, the client guide's, the core library's.
lines=$(log_lines)
run_in hello-client mvn "${mvn_args[@]}" compile exec:java
leased_by_runner "hello-client HelloSnowid" "$(first_number)" "$lines"
# Quiet by default: besides its ID, at most one log record (java.util.logging's "LEVEL: " line), the lease granted.
records=$(grep -cE '^(SEVERE|WARNING|INFO|CONFIG|FINE|FINER|FINEST): ' "$work/err" || true)
((records <= 1)) || fail "hello-client HelloSnowid logged $records records on stderr, at most 1 by default: $(cat "$work/err")"
lines=$(log_lines)
run_in hello-client mvn "${mvn_args[@]}" compile exec:java -Dexec.mainClass=OrdersIds
leased_by_runner "hello-client OrdersIds" "$(first_number)" "$lines"
run_in hello-client mvn "${mvn_args[@]}" compile exec:java -Dexec.mainClass=CoreExample
[[ "$(node_of "$(first_number)")" == 7:13 ]] || fail "CoreExample printed '$(first_number)', not an ID of node 7:13"
echo "examples: hello-client CoreExample: node 7:13, as given"
run_in hello-client mvn "${mvn_args[@]}" -Paws-iam compile # the IAM profile's SDK resolves

# mybatis-plus and hibernate: an insert each, keyed from the leased slot.
for example in mybatis-plus hibernate; do
  lines=$(log_lines)
  run_in "$example" mvn "${mvn_args[@]}" compile exec:java
  leased_by_runner "$example" "$(first_number)" "$lines"
done

# legacy-agent: Hutool's generator and the app's own method, redirected; fixed node, then leased.
run_in legacy-agent mvn "${mvn_args[@]}" package
run_in legacy-agent env -u SNOWID_LEASE_URL ./run.sh fixed
for id in $(cat "$work/out"); do
  [[ "$(node_of "$id")" == 7:13 ]] || fail "legacy-agent fixed printed $id, not an ID of node 7:13"
done
grep -q 'redirected long cn.hutool.core.lang.Snowflake#nextId()' "$work/err" || fail "the agent did not redirect Hutool: $(cat "$work/err")"
echo "examples: legacy-agent fixed: $(cat "$work/out"), node 7:13, as given"
lines=$(log_lines)
run_in legacy-agent ./run.sh leased
read -r hutool own <"$work/out"
leased_by_runner "legacy-agent leased (Hutool)" "$hutool" "$lines"
leased_by_runner "legacy-agent leased (com.acme.Ids)" "$own" "$lines"

# spring-boot: the app on a free port, one insert over HTTP, its health and the runner's slot map.
run_in spring-boot mvn "${mvn_args[@]}" package
app_log="$work/spring-boot.log"
lines=$(log_lines)
(cd "$examples/spring-boot" && exec env SERVER_PORT=0 java -jar target/invoices.jar) >"$app_log" 2>&1 &
pids+=($!)
port="$(wait_for "${pids[-1]}" "$app_log" 180 'Tomcat started on port [0-9]+' | grep -oE '[0-9]+$')" \
  || fail "the Spring Boot example did not start (within 180 s): $(tail -20 "$app_log")"
app="http://localhost:$port"
answer="$(curl -sS -X POST "$app/invoices?item=book")"
id="$(echo "$answer" | grep -oE '"id":"[0-9]+"' | grep -oE '[0-9]+')" || fail "POST /invoices answered '$answer'"
leased_by_runner "spring-boot POST /invoices" "$id" "$lines"
health="$(curl -sS "$app/actuator/health/snowid")"
[[ $health == *'"status":"UP"'* && $health == *"\"slot\":\"$(node_of "$id")\""* ]] \
  || fail "/actuator/health/snowid answered '$health', not UP on node $(node_of "$id")"
map="$(curl -sS -H "Authorization: Bearer $secret" "$base/leases")"
[[ $map == *"\"node\":\"$(node_of "$id")\",\"part\":\"agents\",\"holder\":\"invoices@"* ]] \
  || fail "the runner's slot map shows node $(node_of "$id") held by no 'invoices@…': $map"
echo "examples: spring-boot: health UP on $(node_of "$id"), which the slot map shows held by invoices@…"

# cdk-app: the CDK app synthesizes without the CDK CLI or an AWS account (an account given for the
# lease principal); snowid's template in its stack, the orders role granted the lease routes.
rm -rf "$examples/cdk-app/cdk.out"
run_in cdk-app env CDK_DEFAULT_ACCOUNT=123456789012 CDK_DEFAULT_REGION=eu-west-1 mvn "${mvn_args[@]}" package exec:java
python3 - "$examples/cdk-app/cdk.out/Orders.template.json" <<'PY' || fail "examples/cdk-app synthesized a stack without snowid wired in"
import json, sys
stack = json.load(open(sys.argv[1]))
resources = stack["Resources"]
role = next(r for r in resources.values() if r["Type"] == "AWS::IAM::Role" and r["Properties"].get("RoleName") == "orders-function")
function = next(r for r in resources.values() if r["Properties"].get("Handler") == "OrdersFunction::handleRequest")
assert stack["Transform"] == "AWS::Serverless-2016-10-31", stack.get("Transform")
assert stack["Parameters"]["LeaseAuth"]["Default"] == "AWS_IAM", stack["Parameters"]["LeaseAuth"]
assert stack["Parameters"]["LeasePrincipals"]["Default"] == "arn:aws:iam::123456789012:role/orders-function"
assert "LeaseClientPolicy" in json.dumps(role["Properties"]["ManagedPolicyArns"]), role
assert "${Api}" in json.dumps(function["Properties"]["Environment"]["Variables"]["SNOWID_LEASE_URL"]), function
PY
echo "examples: cdk-app: synthesized snowid (AWS_IAM) next to the orders function, its role granted the lease routes"

echo "examples: all passed in $((SECONDS - started)) s"
