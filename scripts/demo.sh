#!/usr/bin/env bash
# The main job: build the command and play a whole match between built-in bots, printing every
# hand and writing the game record, then replay the record to check it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
cargo build --locked --release --quiet -p calabresella-server
seed=${SEED:-2026}
record=${RECORD:-target/demo-match.json}
target/release/calabresella play --seed "$seed" --bots heuristic,heuristic,random --record "$record" "$@"
echo
echo "replaying $record:"
target/release/calabresella replay "$record" | python3 -c '
import json, sys
report = json.load(sys.stdin)
m = report["match"]
print("  %d hands check out; match over: %s, winners %s, totals %s" % (len(report["hands"]), m["over"], m["winners"], m["totals"]))
'
