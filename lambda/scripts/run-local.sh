#!/usr/bin/env bash
# Runs snowid on this machine: builds the function jar (the build installs dynalite with npm),
# then starts the local runner — dynalite in memory, the lease table, and the function behind
# http://localhost:${SNOWID_PORT:-8080}. Needs a JDK 17+, Maven and Node.js 18+ (with npm).
#
#   lambda/scripts/run-local.sh            # from the repository root (or anywhere)
#   SNOWID_PORT=9090 SNOWID_LEASE_SECRET=s3cret lambda/scripts/run-local.sh
#
# Ctrl-C stops it. Every SNOWID_* variable of docs/api.md applies.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
mvn -q -pl lambda -am package -DskipTests
jar=(lambda/target/snowid-function.jar)
exec java -jar "${jar[0]}" "$@"
