#!/bin/sh
# Runs the legacy app with the snowid agent. Every path is relative to this folder (examples/legacy-agent);
# build first with `mvn -q package`.
#
#   ./run.sh fixed     node 7:13, no lease API
#   ./run.sh leased    a slot leased from the lease API in snowid.properties (the README's local runner),
#                      with the secret in SNOWID_LEASE_SECRET
set -eu
cd "$(dirname "$0")"
case "${1:-}" in
  fixed)
    exec java -javaagent:target/snowid-agent.jar -Dsnowid.node=7:13 -Dsnowid.targets=hutool,com.acme.Ids#next -jar target/legacy-app.jar ;;
  leased)
    exec java -javaagent:target/snowid-agent.jar=snowid.properties -jar target/legacy-app.jar ;;
  *)
    echo "usage: ./run.sh fixed|leased" >&2
    exit 2 ;;
esac
