#!/usr/bin/env bash
# Builds release <version> from a clean checkout: sets the version (and the reproducible-build
# timestamp) in every POM, runs the full build with all its tests, and collects the artifacts in
# target/release/<version>/ with their SHA-256 sums. It commits nothing: see docs/release.md for
# the commit, the tag and the next snapshot.
#
#   scripts/release.sh 0.2.0
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:-}
if [[ ! $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "usage: scripts/release.sh <version>, e.g. 0.2.0 (three numbers, no -SNAPSHOT)" >&2
  exit 2
fi
if [[ -n $(git status --porcelain --untracked-files=no) ]]; then
  echo "release: the working tree has uncommitted changes; a release is built from a commit" >&2
  exit 1
fi

# Every archive entry gets this time, so the same commit builds the same bytes again.
timestamp=$(date -u +%Y-%m-%dT%H:%M:%SZ)
mvn -B -ntp -q versions:set -DnewVersion="$version"
mvn -B -ntp -q versions:set-property -Dproperty=project.build.outputTimestamp -DnewVersion="$timestamp"

mvn -B -ntp verify

out=target/release/$version
rm -rf "$out"
mkdir -p "$out"
for module in core client; do
  if [[ -d $module ]]; then
    cp "$module/target/snowid-$module-$version.jar" \
       "$module/target/snowid-$module-$version-sources.jar" \
       "$module/target/snowid-$module-$version-javadoc.jar" "$out/"
  fi
done
# Fixed names: the ones users put behind -javaagent: and the template's CodeUri.
cp agent/target/snowid-agent.jar "$out/snowid-agent.jar"
cp agent/target/snowid-agent-sources.jar "$out/snowid-agent-$version-sources.jar"
cp agent/target/snowid-agent-javadoc.jar "$out/snowid-agent-$version-javadoc.jar"
# The Lambda deployment package: a jar is a zip, and sam deploy uploads this file as it is.
cp lambda/target/snowid-function.jar "$out/snowid-function.jar"
# The local runner: `java -jar snowid-local.jar` serves the same API on a laptop.
cp local/target/snowid-local.jar "$out/snowid-local.jar"
cp infra/template.yaml "$out/template.yaml"
(cd "$out" && sha256sum -- * > SHA256SUMS)

echo
echo "release $version (build time $timestamp) in $out:"
ls -l "$out"
echo "next: docs/release.md (check, commit, tag, next snapshot)"
