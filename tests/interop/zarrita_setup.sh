#!/usr/bin/env bash
# Prepares the zarrita.js peer of test_zarrita.cpp in PEER_DIR (a folder of the
# build tree):
#
#   zarrita_setup.sh PEER_DIR
#
# Installs zarrita 0.7.5 and its dependencies, pinned by zarrita-peer/
# package-lock.json, with `npm ci` from the npm registry the first time only,
# and copies zarrita_peer.mjs next to them (every time: it may have changed).
# Exit status 0: ready. Otherwise the last line of output says why, and the
# tests skip with it: no Node.js >= 18, no npm, or npm could not install
# (offline, registry unreachable).
set -uo pipefail

peer_dir=${1:?usage: zarrita_setup.sh PEER_DIR}
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v node >/dev/null 2>&1; then
  echo "zarrita peer: no 'node' on PATH (scripts/setup.sh installs Debian's nodejs)"
  exit 2
fi
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 18 ]; then
  echo "zarrita peer: Node.js $(node --version 2>/dev/null) is too old, zarrita 0.7.5 needs 18 or later"
  exit 2
fi

bash "$here/../support/npm_peer_install.sh" "zarrita peer" zarrita "0.7.5" "$here/zarrita-peer" "$peer_dir" || exit 2

cp "$here/zarrita_peer.mjs" "$peer_dir/zarrita_peer.mjs.tmp.$$" && mv "$peer_dir/zarrita_peer.mjs.tmp.$$" "$peer_dir/zarrita_peer.mjs" || {
  echo "zarrita peer: cannot copy zarrita_peer.mjs into $peer_dir"
  exit 2
}
echo "zarrita peer: zarrita 0.7.5 ready in $peer_dir"
