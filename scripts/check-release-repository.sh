#!/usr/bin/env bash
# Proves a release's Maven repository can be consumed: a fresh Maven project, with a fresh local
# repository, depends on every artifact in <dir> (jar, -sources, -javadoc; each checksum checked),
# resolves them from <dir> alone (never from an earlier copy), and compiles a class against the
# client. Third-party artifacts come from the user's local repository, else Maven Central.
#
#   scripts/check-release-repository.sh target/release/0.2.0/maven-repository
set -euo pipefail

dir=${1:-}
if [[ -z $dir || ! -d $dir/dev/snowid ]]; then
  echo "usage: scripts/check-release-repository.sh <dir with dev/snowid/…>" >&2
  exit 2
fi
dir=$(cd "$dir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
user_repository=${MAVEN_USER_REPOSITORY:-$HOME/.m2/repository}

dependencies=""
artifacts=()
for pom in "$dir"/dev/snowid/*/*/*.pom; do
  version_dir=$(dirname "$pom")
  version=$(basename "$version_dir")
  artifact=$(basename "$(dirname "$version_dir")")
  [[ -f $version_dir/$artifact-$version.jar ]] || continue # the parent POM: resolved as every module's parent
  for classifier in "" sources javadoc; do
    if [[ -n $classifier && ! -f $version_dir/$artifact-$version-$classifier.jar ]]; then
      echo "check: $artifact $version has no -$classifier jar" >&2
      exit 1
    fi
    dependencies+="<dependency><groupId>dev.snowid</groupId><artifactId>$artifact</artifactId><version>$version</version>"
    [[ -n $classifier ]] && dependencies+="<classifier>$classifier</classifier>"
    dependencies+="</dependency>"
  done
  artifacts+=("$artifact:$version")
done
if [[ ${#artifacts[@]} -eq 0 ]]; then
  echo "check: no artifact in $dir" >&2
  exit 1
fi

mkdir -p "$work/app/src/main/java/com/example"
cat > "$work/app/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>consumer</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.source>8</maven.compiler.source>
    <maven.compiler.target>8</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>$dependencies</dependencies>
  <build><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version>
  </plugin></plugins></build>
</project>
POM
cat > "$work/app/src/main/java/com/example/Ids.java" <<'JAVA'
package com.example;

import dev.snowid.SnowflakeCodec;
import dev.snowid.client.SnowidClient;

public class Ids {
    public static void main(String[] args) {
        try (SnowidClient ids = SnowidClient.builder().leaseUrl(args[0]).secret(System.getenv("SNOWID_LEASE_SECRET")).build()) {
            System.out.println(SnowflakeCodec.TWITTER.decode(ids.nextId()));
        }
    }
}
JAVA
cat > "$work/settings.xml" <<XML
<settings>
  <localRepository>$work/m2</localRepository>
  <profiles><profile><id>release</id>
    <repositories>
      <repository><id>snowid-release</id><url>file://$dir</url>
        <releases><checksumPolicy>fail</checksumPolicy></releases><snapshots><checksumPolicy>fail</checksumPolicy></snapshots></repository>
      <repository><id>user-repository</id><url>file://$user_repository</url></repository>
    </repositories>
    <pluginRepositories>
      <pluginRepository><id>user-repository</id><url>file://$user_repository</url></pluginRepository>
    </pluginRepositories>
  </profile></profiles>
  <activeProfiles><activeProfile>release</activeProfile></activeProfiles>
</settings>
XML

(cd "$work/app" && mvn -B -ntp -q -s "$work/settings.xml" compile)

# Every dev.snowid file came from the release repository, and nothing else claims to be ours.
for artifact in "${artifacts[@]}"; do
  name=${artifact%%:*}
  version=${artifact##*:}
  marker=$work/m2/dev/snowid/$name/$version/_remote.repositories
  if ! grep -q "$name-$version.jar>snowid-release=" "$marker" 2>/dev/null; then
    echo "check: $name-$version.jar was not resolved from $dir" >&2
    exit 1
  fi
done
test -f "$work/app/target/classes/com/example/Ids.class"
echo "check: a fresh project resolved ${artifacts[*]} (jar, sources, javadoc) from $dir and compiled against the client"
