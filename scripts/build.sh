#!/usr/bin/env bash
# Configure (once) and build libzarr into ./build. Extra arguments go to
# `meson setup` the first time (e.g. -Dblosc=disabled). Development builds
# are debugoptimized (debug info for the ABI check and debuggers, assertions
# on) unless the arguments name a --buildtype; meson.build's own default,
# for installs, is release.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  buildtype=--buildtype=debugoptimized
  for arg in "$@"; do
    case $arg in --buildtype*|-Dbuildtype*) buildtype= ;; esac
  done
  meson setup "$BUILD_DIR" $buildtype "$@"
fi
ninja -C "$BUILD_DIR"
