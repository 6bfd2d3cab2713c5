#!/usr/bin/env bash
# The Spring Boot starter's costs, in one JMH run each (results as ratios):
#   SpringStartBenchmark      context start with / without the starter, cold JVM per fork, lease round trip included
#   SpringBeanNextIdBenchmark nextId() through the starter's bean / a SnowidClient built by hand
# Builds bench/spring through the reactor, then runs JMH on its class path (not shaded: Spring's
# resource files would clash in one jar). From the repository root, or anywhere:
#
#   bench/scripts/spring.sh                            # both
#   bench/scripts/spring.sh SpringBeanNextIdBenchmark  # one; any JMH option may follow
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
mvn -B -ntp -q -pl bench/spring -am package -DskipTests -Dmaven.javadoc.skip=true
cp="bench/spring/target/classes:bench/spring/target/lib/*"
exec java -cp "$cp" org.openjdk.jmh.Main "${@:-dev.snowid.bench.spring}"
