#!/usr/bin/env bash
# Starts, restarts (SIGKILL, then start again on the same address and database) or stops the
# conformance server. Its state lives in $CONFORMANCE_STATE: the address, the pid, the log (and
# with CONFORMANCE_TLS=1 the certificates in certs/: the server then speaks TLS only).
#   server.sh start | restart | stop
set -euo pipefail
state=${CONFORMANCE_STATE:?CONFORMANCE_STATE is not set}
bin=${CALABRESELLA_BIN:?CALABRESELLA_BIN is not set}

# Starts the server on $1 (port 0: a free one) and waits until it answers; writes the address.
start() {
  local listen=$1 before
  before=$(grep -c 'calabresella: listening on' "$state/server.log" 2>/dev/null || true)
  local tls=()
  if [ "${CONFORMANCE_TLS:-}" = 1 ]; then
    # A throwaway CA and server certificate, made once per run; runners get ca.pem.
    [ -f "$state/certs/ca.pem" ] || "$bin" dev-certs --out "$state/certs" >/dev/null
    tls=(--tls-cert "$state/certs/server.pem" --tls-key "$state/certs/server.key")
  fi
  # The limits a shared test server needs: several clients create tables from one address.
  "$bin" serve --listen "$listen" --db "${CONFORMANCE_DB:-$state/conformance.db}" --log info \
    --max-open-tables-per-client 0 --max-creates-per-client-per-minute 0 \
    --max-bot-tables-per-client 0 --waiting-timeout-s 120 "${tls[@]}" \
    >>"$state/server.log" 2>&1 &
  echo $! >"$state/pid"
  for _ in $(seq 1 300); do
    # The server prints "calabresella: listening on ADDR" once it accepts connections.
    if [ "$(grep -c 'calabresella: listening on' "$state/server.log")" -gt "${before:-0}" ]; then
      grep -o 'calabresella: listening on .*' "$state/server.log" | tail -n 1 | awk '{print $4}' >"$state/address"
      return 0
    fi
    if ! kill -0 "$(cat "$state/pid")" 2>/dev/null; then
      echo "conformance: the server exited; its log:" >&2
      tail -n 20 "$state/server.log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "conformance: the server did not start within 30 s" >&2
  return 1
}

stop() {
  if [ -f "$state/pid" ]; then
    kill -9 "$(cat "$state/pid")" 2>/dev/null || true
    # Wait until the process is gone, so the port is free for the next start.
    while kill -0 "$(cat "$state/pid")" 2>/dev/null; do sleep 0.05; done
    rm -f "$state/pid"
  fi
}

case ${1:-} in
  start) start "127.0.0.1:0" ;;
  restart)
    addr=$(cat "$state/address")
    stop
    start "$addr"
    ;;
  stop) stop ;;
  *) echo "usage: server.sh start|restart|stop" >&2; exit 2 ;;
esac
