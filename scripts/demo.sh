#!/usr/bin/env bash
# The main job: start the game server with its embedded defaults (its SQLite database at the
# default path), create a table of three built-in bots, and follow the match live as a spectator
# (every card played, and each hand's full deal once it is over); then fetch and replay the game
# record, and list the finished matches and the results table the database keeps. It ends by
# printing the address of the web front end (the same port) and keeps serving it until Ctrl-C.
#
#   bash scripts/demo.sh                            # the whole show, then the web front end
#   bash scripts/demo.sh --game briscola-chiamata   # another game (any registered name)
#   bash scripts/demo.sh --once   # stop the server when the show is over (scripts, CI)
#   KEEP=1 bash scripts/demo.sh   # leave the server running in the background and return
#
# Environment: CALABRESELLA_LISTEN (default 127.0.0.1:50051), BOT_DELAY_MS (default 15), SEED,
# GAME (the same as --game; default calabresella).
set -euo pipefail
cd "$(dirname "$0")/.."
game=${GAME:-calabresella}
once=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --game) game=${2:?--game needs a game name}; shift 2 ;;
    --game=*) game=${1#--game=}; shift ;;
    --once) once=1; shift ;;
    *) echo "demo: unknown argument $1 (usage: bash scripts/demo.sh [--game NAME] [--once])" >&2; exit 2 ;;
  esac
done
bash scripts/setup.sh >/dev/null
# The web front end first: the binary embeds clients/web/dist.
bash scripts/build-web.sh
cargo build --locked --release --quiet -p calabresella-server
bin=target/release/calabresella
listen=${CALABRESELLA_LISTEN:-127.0.0.1:50051}
log=target/demo-server.log
# Submitted Python bots need a Python with the calabresella package and numpy: the project's
# own environment once `scripts/test.sh` (or `maturin develop`) has built the package into it.
if [ -z "${CALABRESELLA_BOT_PYTHON:-}" ] && .venv/bin/python -c 'import calabresella, numpy' 2>/dev/null; then
  export CALABRESELLA_BOT_PYTHON="$PWD/.venv/bin/python"
fi

"$bin" serve --listen "$listen" >target/demo-server.out 2>"$log" &
server_pid=$!
stop() { kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true; }
if [[ -z "${KEEP:-}" ]]; then trap stop EXIT; fi
for _ in $(seq 100); do
  grep -q "listening on" target/demo-server.out 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { echo "demo: the server did not start:"; cat "$log"; exit 1; }
  sleep 0.1
done
addr=$(sed -n 's/.*listening on //p' target/demo-server.out)
server="http://$addr"
echo "server: $server (log: $log)"

seed=${SEED:-2026}
# One bot per seat: heuristic bots, and a random one in the last seat.
seats=$("$bin" deal --game "$game" --seed 1 | grep -c '^seat')
bots=$(printf 'heuristic,%.0s' $(seq $((seats - 1))))random
table=$("$bin" create --server "$server" --game "$game" --seats "$bots" \
  --seed "$seed" --bot-delay-ms "${BOT_DELAY_MS:-15}" --name demo)
echo "table:  $table ($game, $seats bots; a spectator follows it)"
echo
"$bin" watch --server "$server" "$table"
echo
grpc_record="target/demo-record.json"
echo "record of $table:"
"$bin" table-record --server "$server" "$table" >"$grpc_record"
"$bin" replay "$grpc_record" | python3 -c '
import json, sys
report = json.load(sys.stdin)
m = report["match"]
print("  %d hands check out; match over: %s, winners %s, totals %s" % (len(report["hands"]), m["over"], m["winners"], m["totals"]))
'
echo
echo "finished matches the server keeps in its database (they survive restarts), newest first:"
"$bin" records --server "$server" --limit 5
echo
echo "results table (OpenSkill ratings over every match in the database):"
"$bin" results --server "$server"
echo
echo "Play a seat by hand against the bots:"
echo "  table=\$($bin create --server $server --game $game --seats open,${bots#*,})"
echo "  $bin sit --server $server \$table --name you"
echo
if grep -q "web front end at" target/demo-server.out; then
  echo "Play in the browser (lobby, tables against bots, spectating, replays, results):"
  echo "  $server/"
else
  echo "demo: the server serves no web front end (see $log)" >&2
fi
if [[ -n "${KEEP:-}" ]]; then
  echo "(the server keeps running: pid $server_pid)"
elif [[ -z "$once" ]]; then
  echo "(the server keeps running until Ctrl-C)"
  wait "$server_pid" || true
fi
