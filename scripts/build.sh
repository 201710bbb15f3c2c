#!/usr/bin/env bash
# Configure (once) and build libzarr into ./build. Extra arguments go to
# `meson setup` the first time (e.g. -Dblosc=disabled).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  meson setup "$BUILD_DIR" "$@"
fi
ninja -C "$BUILD_DIR"
