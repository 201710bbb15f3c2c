#!/usr/bin/env bash
# Set up, build, and run every test (unit, C API, interop with zarr-python,
# peer-data corpus). Exits non-zero on any failure; the last line is the
# summary "N passed, N failed, N skipped" over every GoogleTest case.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh || exit 1
scripts/build.sh || exit 1

meson test -C build --print-errorlogs --num-processes 2
status=$?

python3 scripts/test_summary.py build/meson-logs/testlog.json || status=1
exit $status
