#!/usr/bin/env bash
# Runs every check and test of the project (what CI runs). Sets up the machine first.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

step() { printf '\n== %s\n' "$*"; }

step "format (cargo fmt --check)"
cargo fmt --all --check

step "lints (cargo clippy -D warnings)"
cargo clippy --locked --workspace --all-targets -- -D warnings

step "docs (rustdoc -D warnings)"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --workspace --quiet

step "the engine stays pure: no IO, async, wire or Python crates among its dependencies"
forbidden=$(cargo tree --locked -p calabresella-engine -e normal --prefix none |
  awk '{print $1}' | grep -E '^(tokio|tonic|prost|pyo3|hyper|mio|reqwest|tower)$' | sort -u || true)
if [ -n "$forbidden" ]; then
  echo "calabresella-engine depends on: $forbidden" >&2
  exit 1
fi
echo "ok"

step "the seeded deal agrees with an independent implementation of its documentation"
cargo build --locked --release --quiet -p calabresella-server
for seed in 0 1 7 42 1000003 18446744073709551615; do
  for table in "3 0" "3 2" "4 1" "4 3"; do
    set -- $table
    if ! diff <(target/release/calabresella deal --seed "$seed" --players "$1" --dealer "$2") \
              <(python3 scripts/deal_reference.py "$seed" "$1" "$2") >/dev/null; then
      echo "seed $seed, $1 players, dealer $2: the Rust deal differs from scripts/deal_reference.py" >&2
      exit 1
    fi
  done
done
echo "ok"

step "tests (cargo test)"
cargo test --locked --workspace
