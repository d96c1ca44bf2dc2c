#!/usr/bin/env bash
# The web app's whole check: installs its packages from the npm registry (only when
# package-lock.json changed since the last install), type-checks (tsc, strict), checks the
# formatting (prettier), runs the unit tests (node's test runner on the pure modules, bundled
# by esbuild) and builds dist/ (failing when the gzip-compressed JavaScript is over budget).
# It uses the TypeScript client as built by clients/typescript/check.sh: run that first.
# See README.md.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "check.sh: node and npm are needed (Node 20 or newer)" >&2
  exit 1
fi
if [ ! -f ../typescript/dist/src/web.js ]; then
  echo "check.sh: the TypeScript client is not built: run clients/typescript/check.sh first" >&2
  exit 1
fi
# npm records the installed tree in node_modules/.package-lock.json: reinstall only when the
# lock file is newer (or nothing is installed), so a warm run costs nothing here.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

npm run --silent typecheck
npm run --silent format:check
npm test --silent
npm run --silent build
