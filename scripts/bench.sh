#!/usr/bin/env bash
# The region I/O benchmark of libzarr against zarr-python 2.13 and zarrita.js
# 0.7.5 (docs/performance.md), in one command:
#
#   bash scripts/bench.sh [scripts/bench.py options, e.g. --only W2,W5 --keep-data]
#
# 1. builds libzarr in release mode into build-bench (only what the benchmark
#    needs: no tests, bindings or zip; the HTTP store for --remote);
# 2. installs zarrita 0.7.5 with npm into build-bench/zarrita-bench, the first
#    time only (pinned by tests/interop/zarrita-peer/package-lock.json);
# 3. runs scripts/bench.py: generates the data under /dev/shm, runs libzarr and
#    the peers side by side and prints the table, the machine's ceilings and
#    the peak RSS of a 1 GiB write + read. A benchmark: it never fails on speed.
# About 10 minutes on a 2-core machine; nothing else should be running.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=build-bench bash scripts/build.sh --buildtype=release -Db_ndebug=true \
  -Dtests=disabled -Dpython_binding=disabled -Dbinding_rust=disabled -Dbinding_go=disabled \
  -Dbinding_fortran=disabled -Dbinding_julia=disabled -Dfuzz=disabled \
  -Dcurl=enabled -Dzip=disabled -Dbz2=disabled -Dlzma=disabled \
  -Dzstd=enabled -Dblosc=enabled >build-bench.log 2>&1 || {
  tail -30 build-bench.log
  echo "bench.sh: the release build failed (build-bench.log)" >&2
  exit 1
}

peer_dir=$PWD/build-bench/zarrita-bench  # absolute: npm_peer_install.sh require()s from it
zarrita_arg=()
if command -v node >/dev/null 2>&1 &&
   bash tests/support/npm_peer_install.sh "zarrita (bench)" zarrita 0.7.5 tests/interop/zarrita-peer "$peer_dir"; then
  cp tests/bench/peer_zarrita.mjs "$peer_dir/peer_zarrita.mjs"
  zarrita_arg=(--zarrita "$peer_dir")
else
  echo "bench.sh: zarrita.js 0.7.5 is not available: the W6 rows are skipped" >&2
fi

# s3rver for the S3 rows of --remote (tests/stores/s3rver_setup.sh, first time only).
s3rver_arg=()
if [[ " $* " == *" --remote "* || " $* " == *" --all "* ]]; then
  if bash tests/stores/s3rver_setup.sh "$PWD/build-bench/s3rver-peer" >build-bench-s3rver.log 2>&1; then
    s3rver_arg=(--s3rver "$PWD/build-bench/s3rver-peer")
  else
    echo "bench.sh: $(tail -1 build-bench-s3rver.log): the S3 rows of --remote are skipped" >&2
  fi
fi

if ! /usr/bin/python3 -c 'import zarr, numcodecs' 2>/dev/null; then
  echo "bench.sh: /usr/bin/python3 lacks zarr or numcodecs (apt-get install python3-zarr)" >&2
  exit 1
fi

exec python3 scripts/bench.py --build build-bench "${zarrita_arg[@]}" "${s3rver_arg[@]}" "$@"
