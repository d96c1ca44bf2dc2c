#!/usr/bin/env bash
# The Rust client's conformance runner (built by `cargo test`/`cargo build` into target/debug).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin="$root/target/debug/calabresella-conformance"
if [ ! -x "$bin" ]; then
  echo "rust runner: $bin is missing (cargo build -p calabresella-conformance)" >&2
  exit 2
fi
exec "$bin" "$@"
