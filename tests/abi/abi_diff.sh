#!/usr/bin/env bash
# The ABI guard's second half (check_abi.py is the first): libabigail's view
# of the built library against the baseline tests/abi/libzarr.abi, which
# covers what prototypes alone cannot, the layout of the public structs (the
# codec and store vtables and their output structs).
#
#   abi_diff.sh LIBRARY HEADER_DIR [HEADER_DIR...]            compare
#   abi_diff.sh LIBRARY HEADER_DIR [HEADER_DIR...] --update   rewrite the baseline
#
# A removed or changed function (a parameter's type, a struct it reaches) or
# a removed variable fails; additions are reported. A deliberate change (a
# field appended to a vtable) means regenerating the baseline with --update
# in the same commit. Exit 77 (skip) without abigail-tools or debug info.
set -uo pipefail

baseline=$(cd "$(dirname "$0")" && pwd)/libzarr.abi
update=0
args=()
for a in "$@"; do
  if [ "$a" = --update ]; then update=1; else args+=("$a"); fi
done
library=${args[0]:?usage: abi_diff.sh LIBRARY HEADER_DIR... [--update]}
header_flags=()
for dir in "${args[@]:1}"; do header_flags+=(--headers-dir2 "$dir/zarr"); done

if ! command -v abidw >/dev/null 2>&1 || ! command -v abidiff >/dev/null 2>&1; then
  echo "SKIP: abidw/abidiff not installed (Debian's abigail-tools; scripts/setup.sh installs it)"
  exit 77
fi
if ! readelf -S "$library" 2>/dev/null | grep -q '\.debug_info'; then
  echo "SKIP: $library has no debug info, which libabigail needs (build with -g: buildtype debugoptimized or debug)"
  exit 77
fi

if [ "$update" = 1 ]; then
  # abidw takes --headers-dir where abidiff takes --headers-dir2.
  abidw --exported-interfaces-only --no-corpus-path --drop-private-types --no-show-locs \
    "${header_flags[@]/--headers-dir2/--headers-dir}" "$library" > "$baseline" || exit 1
  echo "baseline written: $baseline"
  exit 0
fi

report=$(abidiff --exported-interfaces-only --drop-private-types "${header_flags[@]}" "$baseline" "$library")
status=$?
echo "$report"
# abidiff's status is a bit set: 1 error, 2 usage error, 4 ABI change, 8 incompatible change.
if (( status & 3 )); then
  echo "[  FAILED  ] abidiff could not compare $library with $baseline (status $status)"
  exit 1
fi
summary=$(echo "$report" | sed -n 's/^Functions changes summary: \([0-9]*\) Removed, \([0-9]*\) Changed.*, \([0-9]*\) Added.*/\1 \2 \3/p')
read -r removed changed added <<< "${summary:-0 0 0}"
variables_removed=$(echo "$report" | sed -n 's/^Variables changes summary: \([0-9]*\) Removed.*/\1/p')
if (( status & 8 )) || (( removed > 0 || changed > 0 || ${variables_removed:-0} > 0 )); then
  echo "[  FAILED  ] abi: $removed removed and $changed changed functions against tests/abi/libzarr.abi"
  echo "             (a deliberate change: regenerate with tests/abi/abi_diff.sh LIBRARY include BUILD/include --update)"
  exit 1
fi
echo "[  PASSED  ] abi layout: no function removed or changed; $added added"
