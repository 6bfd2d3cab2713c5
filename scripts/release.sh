#!/usr/bin/env bash
# Builds release <version> from a clean checkout: sets the version (and the reproducible-build
# timestamp) in every POM, the docs' dependency snippets and the examples' POMs, runs the full build with all its tests,
# deploys the libraries into target/release/<version>/maven-repository/ (a Maven repository layout),
# and collects the jars in target/release/<version>/ with their SHA-256 sums. It commits nothing: see docs/release.md for
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
scripts/set-version.sh "$version"
mvn -B -ntp -q versions:set-property -Dproperty=project.build.outputTimestamp -DnewVersion="$timestamp"

out=target/release/$version
rm -rf "$out"
mkdir -p "$out"
# The full build with all its tests; at its end the libraries go into the release's Maven
# repository, the layout a team deploys into its own (docs/release.md).
scripts/release-repository.sh "$out/maven-repository"

for module in core protocol region-plan client integrations cdk; do
  if [[ -d $module ]]; then
    cp "$module/target/snowid-$module-$version.jar" \
       "$module/target/snowid-$module-$version-sources.jar" \
       "$module/target/snowid-$module-$version-javadoc.jar" "$out/"
  fi
done
# The Spring Boot starter and its auto-configuration (the starter has no code: its -sources and
# -javadoc jars hold only the licence files, as Maven Central requires them of every jar).
for module in autoconfigure starter; do
  name=snowid-spring-boot-$module
  cp "spring-boot/$module/target/$name-$version.jar" \
     "spring-boot/$module/target/$name-$version-sources.jar" \
     "spring-boot/$module/target/$name-$version-javadoc.jar" "$out/"
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
(cd "$out" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%P\n' | sort | xargs sha256sum -- > SHA256SUMS)

echo
echo "release $version (build time $timestamp) in $out:"
ls -l "$out"
echo "next: docs/release.md (check, commit, tag, next snapshot)"
