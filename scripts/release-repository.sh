#!/usr/bin/env bash
# Deploys the libraries of this checkout into <dir> as a Maven repository (the layout any
# repository manager takes: POMs, the parent POM, jars, -sources and -javadoc jars, with .sha1 and
# .md5 from Maven and .sha256/.sha512 beside them). Which modules: every module that does not set
# maven.deploy.skip (the function, the local runner, dynalite, the test fixtures under testing/,
# infra and bench set it), so a new library module is in it without a change here. Extra
# arguments go to Maven (scripts/release.sh passes none: the tests already ran; the test
# ReleaseRepositoryIT passes -pl …).
#
#   scripts/release-repository.sh target/release/0.2.0/maven-repository [-DskipTests …]
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:-}
if [[ -z $dir ]]; then
  echo "usage: scripts/release-repository.sh <dir> [maven arguments]" >&2
  exit 2
fi
shift
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

mvn -B -ntp deploy -DdeployAtEnd=true -DaltDeploymentRepository="snowid-release::file://$dir" "$@"

# Maven 3.8 writes SHA-1 and MD5 only; repository managers and auditors prefer SHA-256/512.
find "$dir" -type f \( -name '*.jar' -o -name '*.pom' \) | while read -r file; do
  sha256sum "$file" | cut -d' ' -f1 > "$file.sha256"
  sha512sum "$file" | cut -d' ' -f1 > "$file.sha512"
done
