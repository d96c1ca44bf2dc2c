#!/usr/bin/env bash
# Compares two builds of the Python package in the same run, interleaved (old, new, old,
# new, ...) on one core: VectorEnv steps/s (Calabresella, one thread, tensors and masks) at
# 64, 1,024 and 16,384 games, and the information-state tensor's time in the middle of a
# hand. Prints each figure's medians and the ratio new/old.
#
# Usage: scripts/py-bench-compare.sh OLD_PYTHON_DIR NEW_PYTHON_DIR [ROUNDS]
# Each directory holds a `calabresella` package with its built `_core` extension. For example,
# from the repository's root (the old build is a wheel, so the .venv keeps this checkout's):
#   repo=$PWD && git worktree add /tmp/old HEAD~1
#   (cd /tmp/old/sdk-python && "$repo/.venv/bin/maturin" build --release -o /tmp/old-wheel)
#   mkdir /tmp/old-py && (cd /tmp/old-py && unzip -q /tmp/old-wheel/*.whl)
#   (cd sdk-python && maturin develop --release) && cp -rL sdk-python/python /tmp/new-py
#   scripts/py-bench-compare.sh /tmp/old-py /tmp/new-py 5
set -euo pipefail
old=${1:?usage: scripts/py-bench-compare.sh OLD_PYTHON_DIR NEW_PYTHON_DIR [ROUNDS]}
new=${2:?usage: scripts/py-bench-compare.sh OLD_PYTHON_DIR NEW_PYTHON_DIR [ROUNDS]}
rounds=${3:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-$root/.venv/bin/python}
core=$(( $(nproc) > 1 ? 1 : 0 ))
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# One figure per process, so each build's module is the only one loaded.
measure='
import sys, time
import calabresella as cb
what = sys.argv[1]
if what == "info":
    # Mid-hand: the auction over and a few tricks played (the history is half its length).
    s = cb.new_hand("calabresella", seed=3)
    for _ in range(20):
        if not s.is_terminal():
            s.apply_action(s.legal_actions()[-1])
    s.information_state_tensor()
    t = time.perf_counter()
    for _ in range(20000):
        s.information_state_tensor()
    print(what, (time.perf_counter() - t) / 20000 * 1e6)
else:
    n = int(what)
    env = cb.envs.VectorEnv("calabresella", num_envs=n, seed=1, threads=1)
    batches = max(4, 3_000_000 // n // 16)
    for _ in range(max(2, batches // 10)):
        env.step(env.sample_actions())
    t = time.perf_counter()
    for _ in range(batches):
        env.step(env.sample_actions())
    print(what, n * batches / (time.perf_counter() - t))
'
for _ in $(seq "$rounds"); do
  for what in 64 1024 16384 info; do
    for which in old new; do
      dir=$old
      [ "$which" = new ] && dir=$new
      echo "$which $(PYTHONPATH=$dir taskset -c "$core" "$python" -c "$measure" "$what")" >>"$out"
    done
  done
done
python3 - "$out" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
labels = {
    "64": "VectorEnv, 64 games, steps/s",
    "1024": "VectorEnv, 1,024 games, steps/s",
    "16384": "VectorEnv, 16,384 games, steps/s",
    "info": "information_state_tensor, us",
}
for what, label in labels.items():
    med = {
        w: statistics.median(float(v) for ww, k, v in rows if ww == w and k == what)
        for w in ("old", "new")
    }
    print(f"{label}: old {med['old']:,.2f}  new {med['new']:,.2f}  new/old {med['new'] / med['old']:.2f}")
PY
