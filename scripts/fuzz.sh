#!/usr/bin/env bash
# Fuzz every libFuzzer target of a build configured with -Dfuzz=enabled
# (clang, AddressSanitizer + UndefinedBehaviorSanitizer) for a bounded time,
# from seed corpora made out of ../shared/peer-data (docs/reliability.md#fuzzing).
#
#   scripts/fuzz.sh BUILD_DIR [SECONDS_PER_TARGET]    (default 10)
#
# Any crash, leak, timeout, out-of-memory or sanitizer report fails the run:
# the input that caused it is copied into tests/fuzz/regressions/<target>/,
# where the build's 'fuzz' test suite replays it from then on (commit it
# with the fix). Prints one line per target and a total of executions.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/fuzz.sh BUILD_DIR [SECONDS_PER_TARGET]}
seconds=${2:-10}
peer=../shared/peer-data
work=$build/fuzz-run
rm -rf "$work" && mkdir -p "$work/seeds"
if [ -d "$peer" ]; then
  python3 scripts/fuzz_seeds.py "$peer" "$work/seeds" >/dev/null || exit 1
else
  echo "fuzz: $peer is absent: fuzzing from the regression inputs only"
fi

ubsan_options=halt_on_error=1:print_stacktrace=1
status=0
total=0
for exe in "$build"/tests/fuzz/fuzz_*; do
  [ -x "$exe" ] && [ -f "$exe" ] || continue
  name=$(basename "$exe")
  corpus=$work/corpus/$name
  mkdir -p "$corpus" "$work/seeds/$name" "$work/artifacts"
  # The fuzzer's scratch files go to /dev/shm/libzarr-fuzz-<pid>-*.
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=$ubsan_options \
    "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$name-" "$corpus" "$work/seeds/$name" \
    "tests/fuzz/regressions/$name" >"$work/$name.log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$work/$name.log" | tail -1)
  runs=${runs:-0}
  total=$((total + runs))
  if [ $rc -ne 0 ]; then
    status=1
    echo "fuzz: $name FAILED (exit $rc) after $runs executions; log $work/$name.log"
    grep -m5 -E "ERROR|SUMMARY|runtime error" "$work/$name.log"
    for crash in "$work"/artifacts/"$name"-*; do
      [ -f "$crash" ] || continue
      cp "$crash" "tests/fuzz/regressions/$name/" && echo "fuzz: kept $(basename "$crash") in tests/fuzz/regressions/$name/"
    done
  else
    echo "fuzz: $name: $runs executions in ${seconds}s, $cov, no failure"
  fi
done
rm -rf /dev/shm/libzarr-fuzz-*
echo "fuzz: $total executions in total"
exit $status
