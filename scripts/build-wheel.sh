#!/usr/bin/env bash
# Builds the Python package's release wheel: one abi3 wheel (CPython 3.10 and later) for this
# platform, optimised (the release profile: LTO, one codegen unit), into dist/wheels/.
#   bash scripts/build-wheel.sh           manylinux tag for this machine's glibc (auto-detected)
#   bash scripts/build-wheel.sh --zig     manylinux2014 (glibc 2.17: any Linux of the last decade),
#                                         linking with zig (the `ziglang` package from PyPI)
# Install it anywhere with: pip install dist/wheels/calabresella-*.whl
# It takes several minutes (a whole optimised build), which is why the test command does not.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
[ -x "$venv/bin/maturin" ] || bash scripts/setup.sh
args=(build --release --strip --manifest-path sdk-python/Cargo.toml --out dist/wheels)
if [ "${1:-}" = "--zig" ]; then
  "$venv/bin/pip" install --quiet "ziglang>=0.13"
  args+=(--zig --compatibility manylinux2014)
fi
rm -f dist/wheels/calabresella-*.whl
PATH="$PWD/$venv/bin:$PATH" "$venv/bin/maturin" "${args[@]}"
wheel=$(ls dist/wheels/calabresella-*.whl)
echo "built $wheel"
# The wheel installs and imports in a fresh environment, with nothing from this checkout.
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
python3 -m venv "$check/venv"
"$check/venv/bin/pip" install --quiet "$wheel"
(cd "$check" && "$check/venv/bin/python" -c '
import calabresella as cb
s = cb.new_hand("tressette", seed=1)
while not s.is_terminal():
    s.apply_action(s.legal_actions()[0])
print("the wheel works: calabresella", cb.__version__, "returns", s.returns())')
