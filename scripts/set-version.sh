#!/usr/bin/env bash
# Sets the build's version everywhere it is written: every POM (mvn versions:set), the docs'
# dependency snippets and the jar versions they quote, and the examples' dependencies on snowid
# (DocCoordinatesTest and ExamplePomsTest keep them equal). scripts/release.sh runs it; so does
# the next snapshot (docs/release.md).
#
#   scripts/set-version.sh 0.2.1-SNAPSHOT
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:-}
if [[ ! $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-SNAPSHOT)?$ ]]; then
  echo "usage: scripts/set-version.sh <version>, e.g. 0.2.0 or 0.2.1-SNAPSHOT" >&2
  exit 2
fi
# The version before: the root POM's own (the first <version> at two spaces).
previous=$(sed -n 's#^  <version>\(.*\)</version>$#\1#p' pom.xml | head -1)
previous=${previous//./\\.}
mvn -B -ntp -q versions:set -DnewVersion="$version"
sed -i -E "s#(<version>)$previous(</version>)#\1$version\2#g; s#(dev\.snowid:snowid-[a-z-]+:)$previous#\1$version#g; s#(snowid-[a-z-]+ )$previous([^-0-9A-Za-z]|$)#\1$version\2#g; s#(\"version\":\")$previous\"#\1$version\"#g" \
  README.md docs/*.md examples/*/pom.xml
