#!/usr/bin/env bash
# The Python client's conformance runner: the package as the test command installs it in .venv,
# or in the Python that CALABRESELLA_PYTHON names.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
python=${CALABRESELLA_PYTHON:-$root/.venv/bin/python}
if ! "$python" -c 'import calabresella' 2>/dev/null; then
  echo "python runner: $python cannot import calabresella (run scripts/test.sh, or set CALABRESELLA_PYTHON)" >&2
  exit 2
fi
exec "$python" "$root/tests/conformance/runners/python.py" "$@"
