#!/usr/bin/env bash
# Installs a pinned npm package (and its dependencies) into a folder of the
# build tree, the first time only; the peer setup scripts share it
# (tests/interop/zarrita_setup.sh, tests/stores/s3rver_setup.sh):
#
#   npm_peer_install.sh LABEL PACKAGE VERSION LOCK_DIR PEER_DIR
#
# LOCK_DIR holds package.json and package-lock.json, which pin everything;
# `npm ci` installs from them. Exit status 0: PACKAGE VERSION is in
# PEER_DIR/node_modules. Otherwise the last line of output says why
# (prefixed with LABEL), and the tests skip with it: no npm, or npm could not
# install (offline, registry unreachable).
set -uo pipefail

label=${1:?usage: npm_peer_install.sh LABEL PACKAGE VERSION LOCK_DIR PEER_DIR}
package=${2:?} version=${3:?} lock_dir=${4:?} peer_dir=${5:?}

installed() {
  node -e 'const p = require(process.argv[1]); process.exit(p.version === process.argv[2] ? 0 : 1)' \
    "$peer_dir/node_modules/$package/package.json" "$version" >/dev/null 2>&1
}

installed && exit 0
if ! command -v npm >/dev/null 2>&1; then
  echo "$label: no 'npm' on PATH (scripts/setup.sh installs Debian's npm)"
  exit 2
fi
# Install into a fresh folder and move it into place, so an interrupted or
# concurrent install never leaves a half-filled node_modules behind.
mkdir -p "$(dirname "$peer_dir")"
staging=$(mktemp -d "$peer_dir.install.XXXXXX") || exit 2
cp "$lock_dir/package.json" "$lock_dir/package-lock.json" "$staging/"
if ! log=$(cd "$staging" && timeout 300 npm ci --prefer-offline --no-audit --no-fund --loglevel=error \
    --fetch-retries=1 --fetch-retry-mintimeout=1000 --fetch-retry-maxtimeout=3000 2>&1); then
  rm -rf "$staging"
  echo "$log" | tail -5
  echo "$label: 'npm ci' of $package $version failed (offline or registry unreachable?)"
  exit 2
fi
if ! installed; then
  rm -rf "$peer_dir/node_modules"
  mkdir -p "$peer_dir"
  mv "$staging/node_modules" "$peer_dir/node_modules"
  cp "$staging/package.json" "$staging/package-lock.json" "$peer_dir/"
fi
rm -rf "$staging"
if ! installed; then
  echo "$label: $package $version is not in $peer_dir/node_modules after 'npm ci'"
  exit 2
fi
