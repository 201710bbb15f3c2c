#!/usr/bin/env bash
# Set up, build, and run the demo: create an array on disk, write, read back,
# print its info.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
./build/docs/examples/zarr_demo "$out/demo.zarr"
