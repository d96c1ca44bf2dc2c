#!/usr/bin/env bash
# Runs every client's conformance runner against one real server; prints `N passed, M failed`.
#   run.sh [--bench | --tls] [client...]   clients: typescript go java python rust (default: all)
# --tls runs the TLS scenarios on a server that speaks TLS only (a throwaway CA; the runners get
# --ca-cert and an https:// address).
# Expects the clients built (scripts/test.sh builds them); CALABRESELLA_BIN defaults to the
# test profile's binary.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tests/conformance"
bench=()
tls=()
clients=()
for a in "$@"; do
  case $a in
    # The bench runs on a server that keeps nothing: it measures the clients and the wire, not
    # the disk's fsync per action.
    --bench) bench=(--bench) && export CONFORMANCE_DB=:memory: ;;
    # A match, a resumed stream and a server restart (reconnecting) over TLS.
    --tls) tls=(--only match/calabresella --only stream/resume-after-drop --only server/restart-mid-match) && export CONFORMANCE_TLS=1 ;;
    typescript | go | java | python | rust) clients+=("$a") ;;
    *) echo "run.sh: unknown argument $a (clients: typescript go java python rust; --bench, --tls)" >&2; exit 2 ;;
  esac
done
[ ${#clients[@]} -gt 0 ] || clients=(typescript go java python rust)

export CALABRESELLA_BIN=${CALABRESELLA_BIN:-$root/target/debug/calabresella}
if [ ! -x "$CALABRESELLA_BIN" ]; then
  echo "run.sh: $CALABRESELLA_BIN is missing: build it first (cargo build)" >&2
  exit 2
fi
CONFORMANCE_STATE=$(mktemp -d)
export CONFORMANCE_STATE
export CONFORMANCE_RESTART="bash '$here/server.sh' restart"
cleanup() {
  bash "$here/server.sh" stop
  if [ "${KEEP_LOGS:-}" = 1 ]; then echo "conformance: logs in $CONFORMANCE_STATE"; else rm -rf "$CONFORMANCE_STATE"; fi
}
trap cleanup EXIT
bash "$here/server.sh" start || exit 1
# The address the runners are given: host:port, or an https:// URL with the CA to verify it.
server_address() {
  if [ "${CONFORMANCE_TLS:-}" = 1 ]; then
    echo "https://$(cat "$CONFORMANCE_STATE/address")"
  else
    cat "$CONFORMANCE_STATE/address"
  fi
}
[ "${CONFORMANCE_TLS:-}" = 1 ] && tls+=(--ca-cert "$CONFORMANCE_STATE/certs/ca.pem")
addr=$(server_address)
echo "conformance: server on $addr, clients: ${clients[*]}"

passed=0
failed=0
broken=()
started=$(date +%s.%N)
for c in "${clients[@]}"; do
  t0=$(date +%s.%N)
  out="$CONFORMANCE_STATE/$c.out"
  bash "$here/runners/$c.sh" --scenarios "$here/scenarios.json" --server "$addr" "${bench[@]}" "${tls[@]}" 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  p=$(grep -c '^PASS ' "$out")
  f=$(grep -c '^FAIL ' "$out")
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    # The runner died before reporting: count it as one failure of its own.
    echo "FAIL $c: the runner exited with status $status"
    f=1
  fi
  if ! grep -q "^$c: [0-9]* passed, [0-9]* failed$" "$out"; then
    echo "FAIL $c: the runner printed no summary line"
    f=$((f + 1))
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  [ "$f" -eq 0 ] || broken+=("$c")
  printf 'conformance: %s took %.1f s\n' "$c" "$(awk "BEGIN{print $(date +%s.%N) - $t0}")"
  # A restart scenario may have left a new server: read its address again.
  addr=$(server_address)
done
printf 'conformance: %d passed, %d failed in %.1f s\n' "$passed" "$failed" "$(awk "BEGIN{print $(date +%s.%N) - $started}")"
if [ "$failed" -ne 0 ]; then
  echo "conformance: failures in ${broken[*]}; the server log is kept:" >&2
  tail -n 40 "$CONFORMANCE_STATE/server.log" >&2
  exit 1
fi
