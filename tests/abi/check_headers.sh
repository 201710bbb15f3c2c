#!/usr/bin/env bash
# The public headers compile on their own, warning-free, as C99, C11 and C++
# (C++11 and C++17), so any C or C++ program can include them:
#
#   check_headers.sh HEADER_DIR [HEADER_DIR...]
set -uo pipefail
flags=()
for dir in "$@"; do flags+=(-I "$dir"); done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
strict=(-Wall -Wextra -Werror -pedantic -fsyntax-only)
failures=0
run=0
for header in zarr/zarr.h zarr/zarr_plugin.h zarr/zarr_version.h; do
  # Each header alone in its translation unit: it must bring what it needs.
  printf '#include <%s>\nint main(void) { return 0; }\n' "$header" > "$scratch/use.c"
  cp "$scratch/use.c" "$scratch/use.cpp"
  for case in "cc -std=c99 -x c" "cc -std=c11 -x c" "c++ -std=c++11 -x c++" "c++ -std=c++17 -x c++"; do
    read -r compiler std lang_flag lang <<< "$case"
    source_file=$scratch/use.c
    [ "$lang" = c++ ] && source_file=$scratch/use.cpp
    run=$((run + 1))
    if out=$($compiler "$std" "$lang_flag" "$lang" "${strict[@]}" "${flags[@]}" "$source_file" 2>&1); then
      echo "[       OK ] $header as $std"
    else
      failures=$((failures + 1))
      echo "[  FAILED  ] $header as $std:"
      echo "$out"
    fi
  done
done
echo "[==========] $run header compilations, $failures failed."
[ "$failures" = 0 ]
