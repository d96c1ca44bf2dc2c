#!/usr/bin/env bash
# Runs every check and test of the project (what CI runs). Sets up the machine first.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh --browser

step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }

# One full run compiles each crate once: incremental caches would only cost disk (several GB),
# and a CI machine's disk can be small. Set CARGO_INCREMENTAL=1 to keep them.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

step "the TypeScript client and the web front end (first: the server binary embeds clients/web/dist)"
# Each check.sh installs its packages, generates, type-checks, lints, unit-tests and builds.
bash clients/typescript/check.sh
bash clients/web/check.sh

step "format (cargo fmt --check)"
cargo fmt --all --check

step "lints (cargo clippy -D warnings)"
cargo clippy --locked --workspace --all-targets -- -D warnings

step "imports run one way: no circle of files in the Rust crates or the TypeScript packages"
python3 scripts/import_cycles.py

step "docs (rustdoc -D warnings)"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --workspace --quiet

step "the wire contract (buf lint STANDARD + COMMENTS, buf format, buf breaking)"
npx --no-install buf lint
npx --no-install buf format --diff --exit-code
# Additive changes only: the contract as released (proto/baseline/, a buf image) must still hold.
npx --no-install buf breaking --against proto/baseline/calabresella-v1.binpb
echo "ok"

step "one version number across the crates, the Python package and every client"
bash scripts/version.sh

step "the engine stays pure: no IO, async, wire or Python crates among its dependencies"
forbidden=$(cargo tree --locked -p calabresella-engine -e normal --prefix none |
  awk '{print $1}' | grep -E '^(tokio|tonic|prost|pyo3|hyper|mio|reqwest|tower)$' | sort -u || true)
if [ -n "$forbidden" ]; then
  echo "calabresella-engine depends on: $forbidden" >&2
  exit 1
fi
echo "ok"

step "a local PostgreSQL for the store tests (scripts/postgres.sh)"
CALABRESELLA_TEST_DATABASE_URL=$(bash scripts/postgres.sh start)
export CALABRESELLA_TEST_DATABASE_URL CALABRESELLA_REQUIRE_POSTGRES=1
# setup.sh installed bubblewrap, and the tests run as root: the submitted bots' sandbox must
# work, not be skipped.
if [ "$(id -u)" -eq 0 ]; then
  export CALABRESELLA_REQUIRE_SANDBOX=1
fi
trap 'bash scripts/postgres.sh stop' EXIT
echo "ok: $CALABRESELLA_TEST_DATABASE_URL"

step "tests (cargo test; the store, durability and crash tests run on SQLite and PostgreSQL)"
cargo test --locked --workspace

# The binaries `cargo test` built (test profile: optimised, no LTO), so CI compiles once.
bin=target/debug/calabresella

step "the seeded and the committed deals agree with an independent implementation of their documentation"
for seed in 0 1 7 42 1000003 18446744073709551615; do
  for table in "calabresella 3 0" "calabresella 3 2" "calabresella 4 1" "calabresella 4 3" \
               "tressette 4 0" "tressette 4 3" "tressette-in-due 2 0" "tressette-in-due 2 1" \
               "tressette-chiamata 5 0" "tressette-chiamata 5 4" "tressette-chiamata 4 2" \
               "briscola-chiamata 5 1" "briscola-chiamata 5 3"; do
    set -- $table
    if ! diff <("$bin" deal --game "$1" --seed "$seed" --players "$2" --dealer "$3") \
              <(python3 scripts/deal_reference.py "$seed" "$2" "$3" "$1") >/dev/null; then
      echo "$1, seed $seed, $2 players, dealer $3: the Rust deal differs from scripts/deal_reference.py" >&2
      exit 1
    fi
  done
done
# The committed scheme (docs/RECORDS.md, "Committed deals"): the reference's own ChaCha20 is
# first checked against RFC 8439's vectors, then every hand below must agree.
python3 scripts/deal_reference.py --selftest >/dev/null
for secret in "$(printf '00%.0s' {1..32})" "$(printf 'a5%.0s' {1..32})" \
              "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"; do
  for row in "calabresella 3 0 0 t-1 aa,," "calabresella 3 7 2 t-1 aa,bb,cc" "calabresella 4 1 3 tn-x/deal/9 ,,," \
             "tressette 4 0 1 t-22 $(printf 'ff%.0s' {1..64}),,01," "tressette-in-due 2 3 0 t-3 0102," \
             "tressette-chiamata 5 0 4 t-4 ,,,,aa" "tressette-chiamata 4 12 2 t-4 a,b,c,d" \
             "briscola-chiamata 5 1 3 t-5 11,22,33,44,55"; do
    set -- $row
    contributions=${6//a,b,c,d/0a,0b,0c,0d}
    if ! diff <("$bin" deal --game "$1" --players "$2" --secret "$secret" --context "$5" \
                  --contributions "$contributions" --hand "$3" --dealer "$4") \
              <(python3 scripts/deal_reference.py --committed "$secret" "$5" "$contributions" "$3" "$2" "$4" "$1") \
              >/dev/null; then
      echo "committed $1, hand $3, context $5: the Rust deal differs from scripts/deal_reference.py" >&2
      exit 1
    fi
  done
done
echo "ok"

step "the Python package: build (maturin), ruff, mypy, stubtest, pytest"
# A debug build: it compiles fastest, and the tests measure behaviour, not speed.
(cd sdk-python && VIRTUAL_ENV="$PWD/../.venv" ../.venv/bin/maturin develop --quiet)
(cd sdk-python && ../.venv/bin/ruff check . && ../.venv/bin/ruff format --check . &&
  ../.venv/bin/ruff check ../tests/conformance && ../.venv/bin/ruff format --check ../tests/conformance &&
  ../.venv/bin/mypy && ../.venv/bin/mypy --strict ../tests/conformance/runners/python.py &&
  ../.venv/bin/python -m mypy.stubtest calabresella._core &&
  CALABRESELLA_BIN="$PWD/../$bin" ../.venv/bin/python -m pytest -q)

step "Ray: a sharded tournament and a rollout pool on a local two-node cluster (loopback only)"
bash scripts/test-ray.sh

step "the Go and Java clients: generate, build, lint and unit-test (clients/*/check.sh)"
# Each builds its own conformance runner too (the Rust one, target/debug/calabresella-conformance,
# was built by `cargo test` above).
for client in go java; do
  printf -- '-- %s\n' "$client"
  bash "clients/$client/check.sh"
done
# The TypeScript client's check ran before the binary existed: its real-server tests now.
printf -- '-- typescript, against the real server\n'
(cd clients/typescript && CALABRESELLA_BIN="$PWD/../../$bin" node --test --test-reporter=dot dist/test/server.test.js)

step "conformance: every client (TypeScript, Go, Java, Python, Rust) against one real server"
CALABRESELLA_BIN="$PWD/$bin" bash tests/conformance/run.sh

step "conformance over TLS: every client verifies a TLS-only server against a throwaway CA"
CALABRESELLA_BIN="$PWD/$bin" bash tests/conformance/run.sh --tls

step "the web front end in headless Chromium (clients/web/e2e), served by the binary itself"
CALABRESELLA_BIN="$PWD/$bin" bash clients/web/e2e/run.sh

step "the load generator runs a short load against a real server process, in plain text and over TLS"
for tls in "" --tls; do
  target/debug/calabresella-load --tables 50 --seconds 3 --warmup 1 $tls | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["errors"] == 0 and r["completed_matches"] > 0 and r["actions_per_sec"] > 0, r
assert r["server_cpu_seconds"] > 0 and r["server_cpu_us_per_action"] > 0, r
print("ok%s: %d matches, %.0f actions/s, act p99 %.1f ms, server %.0f us CPU per action" % (sys.argv[1], r["completed_matches"], r["actions_per_sec"], r["act_latency_ms"]["p99"], r["server_cpu_us_per_action"]))
' "${tls:+ (TLS)}"
done

step "disk used by the build"
du -sh target .venv 2>/dev/null || true
