#!/usr/bin/env bash
# The web front end's end-to-end tests in Debian's headless Chromium (see README.md).
# Runs from anywhere: installs the test packages from the npm registry only when
# package-lock.json changed since the last install, then runs every *.test.mjs here (or the
# files given as arguments) with node's test runner, one file at a time. Each file starts its
# own server (`calabresella serve --web-dir clients/web/dist` on a free loopback port) and its
# own browser. Screenshots go to <repo>/target/web-e2e/.
set -euo pipefail
cd "$(dirname "$0")"
repo="$(cd ../../.. && pwd)"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "run.sh: node and npm are needed (Node 20 or newer)" >&2
  exit 1
fi
if [ ! -x /usr/bin/chromium ]; then
  echo "run.sh: /usr/bin/chromium is missing: apt-get install chromium (Debian's package; no browser is downloaded)" >&2
  exit 1
fi
if [ "${E2E_EMBEDDED:-}" != 1 ] && [ ! -f ../dist/index.html ]; then
  echo "run.sh: the app is not built: clients/web/dist/index.html is missing (build clients/web first)" >&2
  exit 1
fi
bin="${CALABRESELLA_BIN:-$repo/target/debug/calabresella}"
if [ ! -x "$bin" ]; then
  echo "run.sh: the server binary $bin is missing (cargo build, or set CALABRESELLA_BIN)" >&2
  exit 1
fi

# npm records the installed tree in node_modules/.package-lock.json: reinstall only when the
# lock file is newer (or nothing is installed), so a warm run costs nothing here.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

mkdir -p "$repo/target/web-e2e"
rm -f "$repo/target/web-e2e"/failed-*.png # screenshots of an earlier run's failures
if [ "$#" -gt 0 ]; then
  files=("$@")
else
  files=(*.test.mjs)
fi
exec node --test --test-concurrency=1 "${files[@]}"
