#!/usr/bin/env bash
# Installs what the project needs on a fresh machine, and checks what must already be there.
# Safe to run again: every step is skipped when its work is done.
#
#   bash scripts/setup.sh             # what building and running the server needs
#   bash scripts/setup.sh --browser   # and Chromium for the web front end's browser tests
set -euo pipefail
cd "$(dirname "$0")/.."
browser=
for arg in "$@"; do
  case "$arg" in
    --browser) browser=1 ;;
    *) echo "setup: unknown argument $arg (usage: bash scripts/setup.sh [--browser])" >&2; exit 2 ;;
  esac
done

need() { command -v "$1" >/dev/null 2>&1 || { echo "setup: $1 is required but not installed ($2)" >&2; exit 1; }; }
need cargo "install Rust with rustup: https://rustup.rs"
need python3 "the Python package and the cross-language deal check (3.10 or newer)"
need npm "Node.js 20 or newer and npm: buf, the protobuf linter, and the TypeScript client (https://nodejs.org)"
need go "the Go client (Go 1.26 or newer: https://go.dev/dl)"
need java "the Java client (JDK 17 or newer)"
need mvn "the Java client's build (Maven 3.8 or newer)"
# The tests (--browser is the test command's set-up) run Ray in a network namespace with only
# loopback (scripts/test-ray.sh): unshare from util-linux, ip from iproute2.
if [ -n "$browser" ]; then
  if ! command -v ip >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    sudo_=""
    [ "$(id -u)" -ne 0 ] && sudo_="sudo"
    $sudo_ apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends iproute2 >/dev/null
  fi
  need unshare "util-linux: the Ray tests' loopback-only network namespace"
  need ip "iproute2: the Ray tests bring up loopback in their namespace"
fi

# bubblewrap, the sandbox that runs submitted bots (docs/SUBMISSIONS.md); setpriv and prlimit
# come with util-linux. Without bwrap the server runs no submitted bots and says why.
if ! command -v bwrap >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo_=""
    [ "$(id -u)" -ne 0 ] && sudo_="sudo"
    $sudo_ apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null
  else
    echo "setup: bubblewrap (bwrap) is not installed: the server will run no submitted bots" >&2
  fi
fi

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
# The Python package's tools (maturin, numpy, pytest, hypothesis, mypy, ruff, gymnasium,
# pettingzoo, tqdm, openskill) in .venv, pinned by sdk-python/requirements-dev.txt.
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if ! .venv/bin/python -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  echo "setup: the Python package needs Python 3.10 or newer" >&2
  exit 1
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r sdk-python/requirements-dev.txt
# Chromium from Debian's packages for the browser tests (playwright-core drives it; it never
# downloads a browser of its own).
if [ -n "$browser" ] && [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo_=""
    [ "$(id -u)" -ne 0 ] && sudo_="sudo"
    $sudo_ apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends \
      chromium fonts-dejavu-core >/dev/null
  else
    echo "setup: the browser tests need Chromium at /usr/bin/chromium (Debian: apt-get install chromium)" >&2
    exit 1
  fi
fi
echo "setup: ok ($(cargo --version), $(python3 --version), buf $(npx --no-install buf --version), $(go version | awk '{print $3}'), node $(node --version), $(mvn -v 2>/dev/null | head -n 1 | awk '{print "maven", $3}'))"
