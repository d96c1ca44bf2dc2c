#!/usr/bin/env bash
# Builds and checks the Go client: installs its modules and code generators (idempotent),
# checks that the committed generated code matches the proto contract, builds the package,
# the example bot and the conformance runner (into .bin/), runs gofmt, go vet and the unit
# tests.
#   check.sh               check (the generated code must be up to date)
#   check.sh --regenerate  rewrite gen/ from ../../proto, then check
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)

# Pinned code generators: the versions the committed gen/ was made with.
protoc_gen_go=v1.36.12
protoc_gen_go_grpc=v1.6.2

step() { printf 'go client: %s\n' "$*"; }

command -v go >/dev/null || { echo "check.sh: Go 1.26 or newer is needed (https://go.dev/dl)" >&2; exit 2; }

step "modules"
go mod download

# The generators live in .bin (gitignored), reinstalled only when missing or of another version.
mkdir -p .bin
if [ "$(.bin/protoc-gen-go --version 2>/dev/null)" != "protoc-gen-go $protoc_gen_go" ]; then
  step "installing protoc-gen-go $protoc_gen_go"
  GOBIN="$PWD/.bin" go install "google.golang.org/protobuf/cmd/protoc-gen-go@$protoc_gen_go"
fi
if [ "$(.bin/protoc-gen-go-grpc --version 2>/dev/null)" != "protoc-gen-go-grpc ${protoc_gen_go_grpc#v}" ]; then
  step "installing protoc-gen-go-grpc $protoc_gen_go_grpc"
  GOBIN="$PWD/.bin" go install "google.golang.org/grpc/cmd/protoc-gen-go-grpc@$protoc_gen_go_grpc"
fi

# buf comes from the repository's npm package (@bufbuild/buf, pinned by package-lock.json).
buf="$root/node_modules/.bin/buf"
if [ ! -x "$buf" ]; then
  step "installing buf (npm ci at the repository root)"
  (cd "$root" && npm ci --no-audit --no-fund --silent >/dev/null)
fi

# The generated code is committed (a Go module must build with a plain `go get`): generate
# into a scratch directory and compare.
if [ "${1:-}" = "--regenerate" ]; then
  step "regenerating gen/"
  rm -rf gen
  "$buf" generate
fi
step "generated code up to date"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$buf" generate -o "$scratch"
if ! diff -r "$scratch/gen" gen >"$scratch/diff"; then
  head -n 40 "$scratch/diff" >&2
  echo "check.sh: gen/ differs from what ../../proto generates: run clients/go/check.sh --regenerate and commit gen/" >&2
  exit 1
fi

step "gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "check.sh: not gofmt-formatted (run gofmt -w .):" >&2
  echo "$unformatted" >&2
  exit 1
fi

step "build, vet"
go build ./...
go vet ./...
go build -o .bin/calabresella-conformance ./cmd/calabresella-conformance
go build -o .bin/calabresella-bot ./examples/bot

step "unit tests"
# server_test.go holds the client to the real server; without its binary those tests are
# skipped (scripts/test.sh builds it first).
bin=${CALABRESELLA_BIN:-$root/target/debug/calabresella}
[ -x "$bin" ] || echo "check.sh: no server binary at $bin (set CALABRESELLA_BIN): the real-server tests are skipped"
go test ./...

step "ok"
