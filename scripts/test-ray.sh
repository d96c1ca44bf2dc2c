#!/usr/bin/env bash
# Runs the Ray tests (sdk-python/tests/test_ray.py) on a local two-node cluster inside a network
# namespace that has only loopback: Ray binds the host's routable address by itself, and the
# tests must reach nothing but 127.0.0.1. Needs root (or user namespaces: `unshare -rn`).
set -euo pipefail
cd "$(dirname "$0")/.."
as_root=""
[ "$(id -u)" -ne 0 ] && as_root="-r"
exec unshare $as_root -n bash -c '
  ip link set lo up
  cd sdk-python
  # A scheduling mistake waits for ever in Ray: bound the run.
  RAY_USAGE_STATS_ENABLED=0 CALABRESELLA_REQUIRE_RAY=1 timeout 900 ../.venv/bin/python -m pytest -q -p no:cacheprovider tests/test_ray.py "$@"
' bash "$@"
