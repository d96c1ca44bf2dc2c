#!/usr/bin/env bash
# Runs the Java client's conformance runner, already built by clients/java/check.sh (classes in
# target/classes, the runtime classpath in target/lib), with the runner contract's arguments
# (tests/conformance/README.md). It never builds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
java_dir="$here/../../../clients/java"
classes="$java_dir/target/classes"
if [ ! -f "$classes/io/calabresella/conformance/Runner.class" ] || [ ! -d "$java_dir/target/lib" ]; then
  echo "runners/java.sh: the Java runner is not built: run clients/java/check.sh first" >&2
  exit 2
fi
exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$classes:$java_dir/target/lib/*" io.calabresella.conformance.Runner "$@"
