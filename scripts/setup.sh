#!/usr/bin/env bash
# Installs what the project needs on a fresh machine, and checks what must already be there.
# Safe to run again: every step is skipped when its work is done.
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null 2>&1 || { echo "setup: $1 is required but not installed ($2)" >&2; exit 1; }; }
need cargo "install Rust with rustup: https://rustup.rs"
need python3 "used by the cross-language deal check"
need npm "Node.js and npm install buf, the protobuf linter (https://nodejs.org)"

# rustfmt and clippy come with the toolchain; add them where rustup can, else say so.
for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    rustup component add "$component" >/dev/null 2>&1 || {
      echo "setup: the Rust component $component is missing (rustup component add $component)" >&2
      exit 1
    }
  fi
done

# Every crate the workspace needs, from crates.io, once.
cargo fetch --locked >/dev/null

# buf (protobuf lint and format) from its npm package, pinned by package-lock.json.
if ! npx --no-install buf --version >/dev/null 2>&1; then
  npm ci --no-audit --no-fund --silent >/dev/null
fi
echo "setup: ok ($(cargo --version), $(python3 --version), buf $(npx --no-install buf --version))"
