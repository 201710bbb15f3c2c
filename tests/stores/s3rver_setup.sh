#!/usr/bin/env bash
# Prepares s3rver, the local S3 server of the S3 store tests, in PEER_DIR (a
# folder of the build tree):
#
#   s3rver_setup.sh PEER_DIR
#
# Installs s3rver 3.7.1 and its dependencies, pinned by s3rver-peer/
# package-lock.json, with `npm ci` from the npm registry the first time only.
# Exit status 0: ready. Otherwise the last line of output says why, and the
# tests skip with it: no Node.js, no npm, or npm could not install (offline,
# registry unreachable).
set -uo pipefail

peer_dir=${1:?usage: s3rver_setup.sh PEER_DIR}
here=$(cd "$(dirname "$0")" && pwd)
version=3.7.1

if ! command -v node >/dev/null 2>&1; then
  echo "s3rver: no 'node' on PATH (scripts/setup.sh installs Debian's nodejs)"
  exit 2
fi

# s3rver's continuation tokens need DES, which Node.js 17+ (OpenSSL 3) only
# has with --openssl-legacy-provider; the tests pass that flag.
if ! node --openssl-legacy-provider -e 0 >/dev/null 2>&1; then
  echo "s3rver: Node.js $(node --version 2>/dev/null) does not accept --openssl-legacy-provider (17 or later needed)"
  exit 2
fi

bash "$here/../support/npm_peer_install.sh" "s3rver" s3rver "$version" "$here/s3rver-peer" "$peer_dir" || exit 2
echo "s3rver: s3rver $version ready in $peer_dir"
