#!/usr/bin/env bash
# Compares `calabresella bench` of two binaries in the same run, interleaved (A, B, A, B, ...) on
# one core, for every registered game, and prints the medians and the ratio B/A per game and
# driver. Usage: scripts/bench-compare.sh OLD_BINARY NEW_BINARY [ROUNDS] [HANDS]
# Build the old binary from a worktree of the commit to compare with, for example:
#   git worktree add /tmp/old HEAD~1 && (cd /tmp/old && cargo build --release --bin calabresella)
set -euo pipefail
old=${1:?usage: scripts/bench-compare.sh OLD_BINARY NEW_BINARY [ROUNDS] [HANDS]}
new=${2:?usage: scripts/bench-compare.sh OLD_BINARY NEW_BINARY [ROUNDS] [HANDS]}
rounds=${3:-3}
hands=${4:-500000}
core=$(( $(nproc) > 1 ? 1 : 0 ))
games=$("$new" play --help | sed -n 's/.*\[possible values: \(.*\)\].*/\1/p' | head -1 | tr -d ',')
# Only the games both binaries know (a game added in between has nothing to compare with).
known=$("$old" play --help | sed -n 's/.*\[possible values: \(.*\)\].*/\1/p' | head -1 | tr -d ',')
games=$(for g in $games; do case " $known " in *" $g "*) echo "$g" ;; esac; done)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$rounds"); do
  for game in $games; do
    for which in old new; do
      bin=$old
      [ "$which" = new ] && bin=$new
      taskset -c "$core" "$bin" bench --game "$game" --hands "$hands" --runs 5 |
        python3 -c 'import json, sys; r = json.load(sys.stdin); print(sys.argv[1], sys.argv[2], r["hands_per_sec"], r["api_hands_per_sec"])' \
          "$game" "$which" >>"$out"
    done
  done
done
python3 - "$out" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
print(f"{'game':<18} {'driver':<8} {'old hands/s':>12} {'new hands/s':>12} {'new/old':>8}")
for game in dict.fromkeys(r[0] for r in rows):
    for col, driver in ((2, "rollout"), (3, "api")):
        old = statistics.median(float(r[col]) for r in rows if r[0] == game and r[1] == "old")
        new = statistics.median(float(r[col]) for r in rows if r[0] == game and r[1] == "new")
        print(f"{game:<18} {driver:<8} {old:>12,.0f} {new:>12,.0f} {new / old:>8.3f}")
PY
