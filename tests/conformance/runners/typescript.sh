#!/usr/bin/env bash
# Runs the TypeScript client's conformance runner (already built by clients/typescript/check.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
runner="$root/clients/typescript/dist/conformance/runner.js"
if [ ! -f "$runner" ]; then
  echo "typescript runner: $runner is missing: build it first (bash clients/typescript/check.sh)" >&2
  exit 2
fi
exec node "$runner" "$@"
