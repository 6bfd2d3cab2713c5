#!/usr/bin/env bash
# The agent's start-up cost: the fixture app com.acme.legacy.LegacyApp (three redirected methods,
# each called three times) run without an agent and with the agent on a fixed node, N runs each
# (default 20) with hyperfine. Prints both means and their ratio, wall and CPU time. The machine's load
# moves single runs by tens of ms: compare only numbers from one run of this script.
# Build first: mvn -q -pl agent -am package -DskipTests   (the agent's jar and its test fixtures)
#   agent/scripts/start-up.sh [runs]
set -euo pipefail
runs="${1:-20}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root/agent"
command -v hyperfine >/dev/null || { echo "needs hyperfine on PATH (https://github.com/sharkdp/hyperfine)" >&2; exit 1; }
[ -f target/snowid-agent.jar ] && [ -f target/test-classes/com/acme/legacy/LegacyApp.class ] \
  || { echo "no agent jar or fixtures: run mvn -q -pl agent -am package -DskipTests first" >&2; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
targets=com.acme.legacy.LegacyIds#nextLong,com.acme.legacy.LegacyIds#nextBoxed,com.acme.legacy.LegacyIds#nextString
hyperfine -N --style basic --warmup 3 --runs "$runs" --export-json "$out/runs.json" \
  -n "no agent" "java -cp target/test-classes com.acme.legacy.LegacyApp $out/plain 1 3" \
  -n "agent" "java -javaagent:target/snowid-agent.jar -Dsnowid.node=7:13 -Dsnowid.targets=$targets -cp target/test-classes com.acme.legacy.LegacyApp $out/agent 1 3" >&2
python3 - "$out/runs.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
plain, agent = r["no agent"]["mean"] * 1000, r["agent"]["mean"] * 1000
cpu = {k: (v["user"] + v["system"]) * 1000 for k, v in r.items()}
print(f"wall: no agent {plain:.1f} ms, agent {agent:.1f} ms (+{agent - plain:.1f} ms, {agent / plain:.2f}x), means of {len(r['agent']['times'])} runs")
print(f"CPU (user + system): no agent {cpu['no agent']:.1f} ms, agent {cpu['agent']:.1f} ms ({cpu['agent'] / cpu['no agent']:.2f}x)")
PY
