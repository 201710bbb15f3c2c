#!/usr/bin/env bash
# Set up, build, and run the demo of the main job: a C program creates a Zarr v2
# array on disk and writes it (docs/examples/demo.c), then zarrtool inspects it,
# prints a region, converts it to a sharded Zarr v3 array, verifies the copy and
# shows the hierarchy.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
build=${BUILD_DIR:-build}
zarrtool=./$build/src/cli/zarrtool
step() { printf '\n$ %s\n' "$*"; "$@"; }

step "$zarrtool" create "$out/data" --group --format 2 --attrs '{"title": "libzarr demo"}'
step "./$build/docs/examples/zarr_demo" "$out/data/temperature"
step "$zarrtool" info "$out/data/temperature"
step "$zarrtool" cat "$out/data/temperature" --region 98:102,997:1000
step "$zarrtool" cp "$out/data/temperature" "$out/data/temperature_v3" --format 3 --chunks 50,250 --shards 100,1000 \
  --codec '{"name": "zstd", "configuration": {"level": 3}}'
step "$zarrtool" info "$out/data/temperature_v3"
step "$zarrtool" verify "$out/data"
step "$zarrtool" tree "$out/data"
