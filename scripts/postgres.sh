#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: installs PostgreSQL from Debian's packages
# when it is missing, creates a cluster under /tmp, starts it on 127.0.0.1, and prints
# the URL to reach it. `bash scripts/postgres.sh stop` stops it.
#
#   url=$(bash scripts/postgres.sh start)     # postgres://postgres@127.0.0.1:PORT/postgres
set -euo pipefail
cd "$(dirname "$0")/.."
port=${CALABRESELLA_PG_PORT:-55432}
# Outside the checkout: the `postgres` user must reach it whatever the checkout's permissions.
dir="${TMPDIR:-/tmp}/calabresella-pg-$port"

find_bin() {
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/pg_ctl" ] && { echo "$d"; return; }
  done
  command -v pg_ctl >/dev/null 2>&1 && dirname "$(command -v pg_ctl)"
}

# PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user the
# Debian package creates.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-start}" in
stop)
  bin=$(find_bin) || exit 0
  [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
  exit 0
  ;;
start) ;;
*) echo "usage: $0 [start|stop]" >&2; exit 2 ;;
esac

bin=$(find_bin || true)
if [ -z "$bin" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "postgres.sh: PostgreSQL is not installed; run as root, or: apt-get install postgresql" >&2
    exit 1
  fi
  echo "postgres.sh: installing PostgreSQL from Debian's packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends postgresql >&2
  bin=$(find_bin)
fi

mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
if [ ! -f "$dir/data/PG_VERSION" ]; then
  rm -rf "$dir/data"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 >/dev/null
fi
if ! as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
fi
echo "postgres://postgres@127.0.0.1:$port/postgres"
