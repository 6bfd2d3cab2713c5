#!/usr/bin/env bash
# The agent's start-up cost: the fixture app com.acme.legacy.LegacyApp (three redirected methods,
# each called three times) run without an agent, with an agent that does nothing (what any
# -javaagent costs the JVM), and with the snowid agent on a fixed node, in N alternating triplets
# (default 15). Prints medians of wall and CPU time over the app alone, and the snowid agent's own
# share (over the empty agent). Compare only numbers from one run of this script, with its load.
# Build first: mvn -q -pl agent -am package -DskipTests   (the agent's jar and its test fixtures)
#   agent/scripts/start-up.sh [triplets]
set -euo pipefail
runs="${1:-15}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root/agent"
[ -f target/snowid-agent.jar ] && [ -f target/test-classes/com/acme/legacy/LegacyApp.class ] \
  || { echo "no agent jar or fixtures: run mvn -q -pl agent -am package -DskipTests first" >&2; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
printf 'Premain-Class: com.acme.emptyagent.EmptyAgent\nCan-Retransform-Classes: true\n' > "$out/manifest"
jar cfm "$out/empty-agent.jar" "$out/manifest" -C target/test-classes com/acme/emptyagent
python3 - "$runs" "$out" <<'PY'
import os, resource, statistics, subprocess, sys, time
runs, out = int(sys.argv[1]), sys.argv[2]
targets = "com.acme.legacy.LegacyIds#nextLong,com.acme.legacy.LegacyIds#nextBoxed,com.acme.legacy.LegacyIds#nextString"
app = ["-cp", "target/test-classes", "com.acme.legacy.LegacyApp"]
commands = {
    "no agent": ["java"] + app + [out + "/plain", "1", "3"],
    "empty agent": ["java", "-javaagent:" + out + "/empty-agent.jar"] + app + [out + "/empty", "1", "3"],
    "snowid agent": ["java", "-javaagent:target/snowid-agent.jar", "-Dsnowid.node=7:13", "-Dsnowid.targets=" + targets]
                    + app + [out + "/agent", "1", "3"],
}
def run(command):
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall * 1000, (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
for command in commands.values():  # warm the page cache
    run(command)
taken = {name: [] for name in commands}
for _ in range(runs):
    for name, command in commands.items():
        taken[name].append(run(command))
median = lambda name, i: statistics.median(t[i] for t in taken[name])
plain_wall, plain_cpu = median("no agent", 0), median("no agent", 1)
print(f"medians of {runs} alternating triplets, load {os.getloadavg()[0]:.1f}; no agent: wall {plain_wall:.0f} ms, CPU {plain_cpu:.0f} ms")
for name in ("empty agent", "snowid agent"):
    print(f"{name}: wall +{median(name, 0) - plain_wall:.0f} ms, CPU +{median(name, 1) - plain_cpu:.0f} ms")
print(f"the snowid agent's own share (over the empty agent): wall +{median('snowid agent', 0) - median('empty agent', 0):.0f} ms,"
      f" CPU +{median('snowid agent', 1) - median('empty agent', 1):.0f} ms")
PY
