#!/usr/bin/env bash
# Runs the Go client's conformance runner, already built by clients/go/check.sh, with the
# runner contract's arguments (tests/conformance/README.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runner="$here/../../../clients/go/.bin/calabresella-conformance"
if [ ! -x "$runner" ]; then
  echo "runners/go.sh: $runner is not built: run clients/go/check.sh first" >&2
  exit 2
fi
exec "$runner" "$@"
