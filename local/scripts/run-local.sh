#!/usr/bin/env bash
# Runs snowid on this machine: builds the local runner's jar when something it is built from
# changed (the build installs dynalite with npm), then starts the local runner — its own dynalite with the
# tables in a temporary folder, the lease table, and the function behind
# http://localhost:${SNOWID_PORT:-8080}. Needs a JDK 17+, Maven and Node.js 18+ (with npm).
#
#   local/scripts/run-local.sh            # from the repository root (or anywhere)
#   SNOWID_PORT=9090 SNOWID_LEASE_SECRET="$(openssl rand -base64 32)" local/scripts/run-local.sh
#   local/scripts/run-local.sh registry   # a claim registry for runners acting as regions (docs/multi-region.md)
#
# Ctrl-C stops it. Every SNOWID_* variable of docs/api.md and docs/local-runner.md applies.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
jar=local/target/snowid-local.jar

# Stale when the jar is missing, dynalite is not installed, or a POM, a module's main sources
# or the engine's pin is newer than the jar. Then Maven builds it; otherwise it starts at once.
stale() {
  [ -f "$jar" ] && [ -f dynalite/node_modules/dynalite/cli.js ] || return 0
  [ -n "$(find pom.xml ./*/pom.xml ./*/src/main dynalite/package.json dynalite/package-lock.json dynalite/dynalite-child.js \
          -newer "$jar" -print -quit 2>/dev/null)" ]
}
if stale; then
  echo "snowid local: building $jar (mvn -q -pl local -am package -DskipTests)" >&2
  # The function jar is not needed to run locally: one shaded jar to build, not two.
  mvn -q -pl local -am package -DskipTests -Dsnowid.skipFunctionJar=true
fi
exec java -jar "$jar" "$@"
