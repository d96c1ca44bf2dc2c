#!/usr/bin/env bash
# Builds the web front end into clients/web/dist: the TypeScript client it is built on
# (packages from the npm registry, protobuf code generated from proto/), then the app's bundle.
# Only the build: `clients/typescript/check.sh` and `clients/web/check.sh` also lint and test.
# The server binary built afterwards embeds clients/web/dist (server/build.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v npm >/dev/null; then
  echo "build-web: Node.js 20 or newer with npm is needed to build the web front end" >&2
  exit 1
fi
install() {
  # npm records the installed tree in node_modules/.package-lock.json: reinstall only when the
  # lock file is newer (or nothing is installed).
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
  fi
}
(cd clients/typescript && install && npm run --silent generate && rm -rf dist && npm run --silent build)
(cd clients/web && install && npm run --silent build)
