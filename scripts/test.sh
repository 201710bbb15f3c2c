#!/usr/bin/env bash
# Set up, build, and run every test (unit, C API, plugins, stores against
# nginx and s3rver, interop with zarr-python, zarrita.js and boto3, peer-data
# corpus, language bindings, install and ABI checks), then build once more
# with clang, AddressSanitizer (LeakSanitizer included) and
# UndefinedBehaviorSanitizer and run the unit and interop suites again in that
# build, replay and run the libFuzzer targets for 60 s in all, and run the
# threaded C API tests under ThreadSanitizer (docs/reliability.md#sanitizers,
# #fuzzing; ZARR_SANITIZE=0 skips these passes).
# Exits non-zero on any failure; the last line is the summary
# "N passed, N failed, N skipped" over every GoogleTest case of both passes.
set -uo pipefail
cd "$(dirname "$0")/.."
# How long each phase took, on stderr (CI must stay under 30 minutes).
# They are printed again just before the summary, so that a CI log that keeps
# only its last lines still shows where the time went.
phase_start=$SECONDS
phase_times=()
phase_done() {
  phase_times+=("test.sh: $1 took $((SECONDS - phase_start)) s")
  echo "${phase_times[-1]}" >&2
  phase_start=$SECONDS
}
scripts/setup.sh || exit 1
phase_done "setup"
scripts/build.sh || exit 1
phase_done "build"

meson test -C build --print-errorlogs --num-processes 2
status=$?
phase_done "tests"
logs=(build/meson-logs/testlog.json)

if [ "${ZARR_SANITIZE:-1}" != 0 ]; then
  # The sanitizer build: clang, AddressSanitizer (LeakSanitizer included) and
  # UndefinedBehaviorSanitizer, with the libFuzzer targets (tests/fuzz). The
  # bindings' interpreters and toolchains do not carry the sanitizer runtime,
  # and the install check links a program without it: both run in the normal
  # build only. RapidJSON's own harmless UB is left out of the instrumentation
  # (tests/fuzz/ubsan-ignorelist.txt, added by meson.build).
  # Line tables are all the sanitizers' reports need: -gline-tables-only
  # (GCC's -g1 in the TSan build below) instead of -g takes about a tenth off
  # the compile time of both passes.
  CC=clang-14 CXX=clang++-14 BUILD_DIR=build-sanitize-fuzz scripts/build.sh \
    -Db_sanitize=address,undefined -Db_lundef=false -Dfuzz=enabled \
    -Dc_args=-gline-tables-only -Dcpp_args=-gline-tables-only \
    -Dpython_binding=disabled -Dbinding_rust=disabled -Dbinding_go=disabled \
    -Dbinding_fortran=disabled -Dbinding_julia=disabled || exit 1
  phase_done "sanitizer build"
  ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-sanitize-fuzz --suite unit --suite interop --suite fuzz --print-errorlogs \
    --num-processes 2 || status=1
  logs+=(build-sanitize-fuzz/meson-logs/testlog.json)
  phase_done "sanitizer tests"
  # Fuzz each target for 10 s from the peer-data seeds (docs/reliability.md#fuzzing).
  scripts/fuzz.sh build-sanitize-fuzz 10 || status=1
  phase_done "fuzzing"

  # ThreadSanitizer on the threaded C API tests only (the stress test, the
  # shared-handle tests, per-thread errors): the library and that one test
  # program are all this build compiles.
  if [ ! -f build-tsan/build.ninja ]; then
    meson setup build-tsan --buildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false \
      -Dc_args=-g1 -Dcpp_args=-g1 -Dpython_binding=disabled \
      -Dbinding_rust=disabled -Dbinding_go=disabled -Dbinding_fortran=disabled -Dbinding_julia=disabled || exit 1
  fi
  ninja -C build-tsan tests/capi/test_capi || exit 1
  TSAN_OPTIONS=halt_on_error=1 meson test -C build-tsan --no-rebuild capi --print-errorlogs \
    --test-args='--gtest_filter=Stress.*:Threads.*:ErrorMessages.*:ThreadCount.*:CachePool.*' || status=1
  logs+=(build-tsan/meson-logs/testlog.json)
  phase_done "thread sanitizer build and tests"
fi

printf '%s\n' "${phase_times[@]}" "test.sh: all phases took $SECONDS s"
python3 scripts/test_summary.py "${logs[@]}" || status=1
exit $status
