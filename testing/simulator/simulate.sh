#!/usr/bin/env bash
# The deterministic simulator (docs/contributing.md#the-simulator), from the repository root or anywhere:
#   testing/simulator/simulate.sh run SECONDS [FIRST_SEED]   new seeds for SECONDS of wall time; prints seeds/s,
#                                                            simulated holder-hours, faults by class and violations
#   testing/simulator/simulate.sh replay SEED [FAULTS]       one seed's trace, with only the listed faults of its plan
#                                                            (comma-separated indexes, or none); all when left out
# It builds the module and what it needs first; SNOWID_SIMULATOR_NO_BUILD=1 skips that.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
if [ -z "${SNOWID_SIMULATOR_NO_BUILD:-}" ]; then
  mvn -B -q -pl testing/simulator -am package -DskipTests -Dsnowid.skipNpm=true >&2
fi
[ -f testing/simulator/target/simulator.classpath ] || { echo "no testing/simulator/target/simulator.classpath: build without SNOWID_SIMULATOR_NO_BUILD once" >&2; exit 1; }
exec java -cp "testing/simulator/target/classes:$(cat testing/simulator/target/simulator.classpath)" dev.snowid.simulator.Simulator "$@"
