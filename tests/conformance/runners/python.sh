#!/usr/bin/env bash
# The Python client's conformance runner (the package installed in .venv by the test command).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
if ! "$root/.venv/bin/python" -c 'import calabresella' 2>/dev/null; then
  echo "python runner: the calabresella package is not installed in .venv (run scripts/test.sh)" >&2
  exit 2
fi
exec "$root/.venv/bin/python" "$root/tests/conformance/runners/python.py" "$@"
