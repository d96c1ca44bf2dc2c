#!/usr/bin/env bash
# Builds and checks the Java client: fetches what it needs from Maven Central (the first run
# fills ~/.m2; later runs reuse it), generates the gRPC code from ../../proto (protoc and
# protoc-gen-grpc-java come from Maven Central too), compiles with every javac lint and doclint
# as errors (generated code included), runs the unit tests, and lays out the conformance runner
# and the example (target/classes + target/lib) for tests/conformance/runners/java.sh.
set -euo pipefail
cd "$(dirname "$0")"

for tool in java mvn; do
  if ! command -v "$tool" > /dev/null; then
    echo "clients/java/check.sh: $tool is missing: install JDK 17+ and Maven 3.8+" >&2
    exit 2
  fi
done
release=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
if [ "${release%%.*}" -lt 17 ]; then
  echo "clients/java/check.sh: Java $release is too old: JDK 17 or newer is needed" >&2
  exit 2
fi

# A short-lived build: the quick JIT tier and the serial collector start fastest on 2 cores;
# jansi.noreset keeps Maven 3.8 from writing colour resets into quiet, colourless output.
export MAVEN_OPTS="${MAVEN_OPTS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC} -Djansi.noreset=true"
# ServerTest holds the client to the real server; without its binary those tests are skipped
# (scripts/test.sh builds it first).
bin=${CALABRESELLA_BIN:-../../target/debug/calabresella}
[ -x "$bin" ] || echo "check.sh: no server binary at $bin (set CALABRESELLA_BIN): the real-server tests are skipped"
mvn -q -B -Dstyle.color=never package
echo "clients/java: built, linted and tested (runner: tests/conformance/runners/java.sh)"
