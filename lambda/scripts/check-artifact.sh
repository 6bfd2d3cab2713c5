#!/usr/bin/env bash
# Checks the deployment artifact built by `mvn -pl lambda -am package`: its size against the
# 12 MB goal, the handler class, that no Netty, Apache HTTP client or logging framework
# slipped in with a dependency, that no client class came with the wire contract, and that
# nothing of the local runner is in it (its classes,
# dynalite's files, a Main-Class).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jar=("$root"/lambda/target/snowid-function.jar)
[ -f "${jar[0]}" ] || { echo "no function jar: run mvn -pl lambda -am package -DskipTests first" >&2; exit 1; }
bytes=$(stat -c %s "${jar[0]}")
listing=$(unzip -Z1 "${jar[0]}")
echo "artifact: ${jar[0]}"
echo "size: $bytes bytes ($(awk "BEGIN{printf \"%.2f\", $bytes/1048576}") MiB; goal <= 12 MB)"
echo "classes: $(grep -c '\.class$' <<<"$listing")"
status=0
grep -qx 'dev/snowid/lambda/SnowidHandler.class' <<<"$listing" || { echo "FAIL: handler class missing"; status=1; }
for banned in 'io/netty/' 'org/apache/http' 'org/apache/hc/' 'software/amazon/awssdk/http/apache' \
              'software/amazon/awssdk/http/nio/netty' 'ch/qos/logback/' 'org/apache/logging/log4j/' 'org/apache/commons/logging/'; do
  if grep -q "^$banned" <<<"$listing"; then echo "FAIL: contains $banned"; status=1; fi
done
for local in 'dev/snowid/local/' 'dev/snowid/dynalite/' 'dev/snowid/lambda/local/' 'dev/snowid/client/'; do
  if grep -q "^$local" <<<"$listing"; then echo "FAIL: contains $local (the local runner's or the client's: neither belongs in the function)"; status=1; fi
done
if grep -qE '(^|/)(package\.json|package-lock\.json|dynalite-child\.js)$' <<<"$listing"; then echo "FAIL: contains dynalite's files"; status=1; fi
if unzip -p "${jar[0]}" META-INF/MANIFEST.MF | grep -qi '^Main-Class:'; then echo "FAIL: has a Main-Class"; status=1; fi
[ "$bytes" -le 12582912 ] || { echo "FAIL: larger than 12 MB"; status=1; }
[ $status -eq 0 ] && echo "OK: handler dev.snowid.lambda.SnowidHandler::handleRequest; no Netty, Apache HTTP client or logging framework; no local runner, no client"
exit $status
