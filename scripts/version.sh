#!/usr/bin/env bash
# One version number across the crates, the Python package and every client.
#   bash scripts/version.sh            prints the version, fails when two places disagree
#   bash scripts/version.sh set X.Y.Z  writes X.Y.Z everywhere (then update CHANGELOG.md)
# The places: Cargo.toml (the workspace's crates; the Python package takes its version from
# its crate), clients/typescript and clients/web (package.json and package-lock.json),
# clients/java/pom.xml, clients/go/version.go.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo_version() { sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml; }
json_version() { node -e 'const j = require(process.argv[1]); console.log(j.version + (j.packages ? " " + j.packages[""].version : ""))' "$PWD/$1"; }
pom_version() { sed -n '0,/<version>/s|.*<version>\(.*\)</version>.*|\1|p' clients/java/pom.xml; }
go_version() { sed -n 's/^const Version = "\(.*\)"/\1/p' clients/go/version.go; }

versions() {
  echo "Cargo.toml $(cargo_version)"
  for f in clients/typescript/package.json clients/typescript/package-lock.json \
    clients/web/package.json clients/web/package-lock.json; do
    for v in $(json_version "$f"); do echo "$f $v"; done
  done
  echo "clients/java/pom.xml $(pom_version)"
  echo "clients/go/version.go $(go_version)"
}

case ${1:-check} in
check)
  want=$(cargo_version)
  bad=$(versions | awk -v want="$want" '$2 != want')
  if [ -n "$bad" ]; then
    echo "version.sh: these disagree with Cargo.toml's $want:" >&2
    echo "$bad" >&2
    exit 1
  fi
  echo "$want"
  ;;
set)
  new=${2:?usage: version.sh set X.Y.Z}
  [[ $new =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]] || { echo "version.sh: $new is not X.Y.Z" >&2; exit 2; }
  sed -i "/^\[workspace.package\]/,/^\[/s/^version = \".*\"/version = \"$new\"/" Cargo.toml
  for f in clients/typescript/package.json clients/typescript/package-lock.json \
    clients/web/package.json clients/web/package-lock.json; do
    node -e 'const fs = require("fs"); const [f, v] = process.argv.slice(1); const j = JSON.parse(fs.readFileSync(f));
      j.version = v; if (j.packages) j.packages[""].version = v;
      fs.writeFileSync(f, JSON.stringify(j, null, 2) + "\n");' "$PWD/$f" "$new"
  done
  sed -i "0,/<version>.*<\/version>/s|<version>.*</version>|<version>$new</version>|" clients/java/pom.xml
  sed -i "s/^const Version = \".*\"/const Version = \"$new\"/" clients/go/version.go
  cargo update --workspace --offline >/dev/null 2>&1 || cargo update --workspace >/dev/null
  bash "$0" check
  ;;
*) echo "usage: version.sh [check | set X.Y.Z]" >&2; exit 2 ;;
esac
