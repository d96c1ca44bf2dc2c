#!/usr/bin/env bash
# The TypeScript client's whole check: installs its packages from the npm registry (only when
# package-lock.json changed since the last install), generates the protobuf code from proto/,
# builds the package, the example and the conformance runner with `tsc --strict`, checks the
# formatting (prettier) and runs the unit tests (node's test runner). See README.md.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "check.sh: node and npm are needed (Node 20 or newer)" >&2
  exit 1
fi
# npm records the installed tree in node_modules/.package-lock.json: reinstall only when the
# lock file is newer (or nothing is installed), so a warm run costs nothing here.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

npm run --silent generate
rm -rf dist
npm run --silent build
npm run --silent format:check
# test/server.test.ts holds the client to the real server; without its binary those tests are
# skipped (scripts/test.sh runs them once it has built the binary).
bin=${CALABRESELLA_BIN:-../../target/debug/calabresella}
[ -x "$bin" ] || echo "check.sh: no server binary at $bin (set CALABRESELLA_BIN): the real-server tests are skipped"
npm test --silent
