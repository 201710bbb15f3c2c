#!/usr/bin/env bash
# Install libzarr into a temporary DESTDIR and check what a system package
# would ship: libzarr.so.1 with its SONAME, only zarr_* symbols exported,
# C-only headers under include/zarr/, and a zarr.pc that lets a C program
# and a Fortran program (with the Fortran module's source zarr.pc names)
# build and run against the installed copy.
set -euo pipefail
build_dir=$1
source_dir=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fails=0 ran=0 skipped=0
check() {  # check NAME COMMAND...: one GoogleTest-style line per check
  ran=$((ran + 1))
  if "${@:2}"; then echo "[       OK ] install.$1"; else echo "[  FAILED  ] install.$1"; fails=$((fails + 1)); fi
}

meson install -C "$build_dir" --destdir "$dest" --quiet >/dev/null
prefix=$(meson introspect "$build_dir" --buildoptions | python3 -c \
  'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"))')
root="$dest$prefix"
lib=$(find "$root" -name 'libzarr.so.1' | head -n1)

check library_installed test -n "$lib"
check soname_is_libzarr_so_1 bash -c "readelf -d '$lib' | grep -q 'SONAME.*\[libzarr.so.1\]'"
check dev_symlink_installed test -n "$(find "$root" -name 'libzarr.so')"
check only_zarr_symbols_exported bash -c \
  "nm -D --defined-only '$lib' | awk '\$2 != \"A\" {print \$3}' | grep -v '^ZARR_1\$' | grep -v '^zarr_' | (! grep .)"
check core_functions_exported bash -c \
  "for f in zarr_open zarr_create zarr_close zarr_read_region zarr_write_region zarr_resize zarr_last_error; do nm -D --defined-only '$lib' | grep -q \" \$f@@ZARR_1\$\" || exit 1; done"
check headers_installed test -f "$root/include/zarr/zarr.h" -a -f "$root/include/zarr/zarr_version.h"
check headers_are_plain_c bash -c "! grep -E 'std::|namespace|template *<|class ' '$root'/include/zarr/*.h"
pc_dir=$(dirname "$(find "$root" -name zarr.pc | head -n1)")
check pkgconfig_file_installed test -f "$pc_dir/zarr.pc"

# zarrtool and its manual page, and the installed tool runs against the installed library.
check zarrtool_installed test -x "$root/bin/zarrtool"
check zarrtool_man_page_installed test -f "$root/share/man/man1/zarrtool.1"
check zarrtool_runs_against_installed_library bash -c \
  "LD_LIBRARY_PATH='$(dirname "$lib")' '$root/bin/zarrtool' create '$dest/t.zarr' --shape 4 --dtype int8 &&
   LD_LIBRARY_PATH='$(dirname "$lib")' '$root/bin/zarrtool' info '$dest/t.zarr' --json | grep -q '\"chunks_total\":1'"

# The manual page stands alone: it points at no docs file, which is not installed.
check zarrtool_man_page_names_no_docs_file bash -c "! grep -E 'docs/|\\.md' '$root/share/man/man1/zarrtool.1'"

# A plain `meson setup` (what an installer runs) configures a release build:
# optimised, no debug info, assertions off (the library was a 37 MB debug build).
check plain_setup_defaults_to_release bash -c \
  "meson introspect --buildoptions '$source_dir/meson.build' | python3 -c '
import json, sys
options = {o[\"name\"]: o[\"value\"] for o in json.load(sys.stdin)}
sys.exit(0 if options[\"buildtype\"] == \"release\" and options[\"b_ndebug\"] == \"if-release\" else 1)'"

# The install script runs ldconfig for a system-wide install only (a fake
# ldconfig records the calls): never for a staged one (DESTDIR), and for
# root; a libdir the loader does not search is named with what to do.
fakebin="$dest/fakebin"
mkdir -p "$fakebin"
printf '#!/bin/sh\necho "$*" >> "%s/ldconfig.log"\n' "$dest" > "$fakebin/ldconfig"
chmod +x "$fakebin/ldconfig"
check install_script_skips_staged_installs bash -c \
  "DESTDIR=/staged PATH='$fakebin:/usr/bin:/bin' sh '$source_dir/scripts/install_ldconfig.sh' /opt/z/lib &&
   test ! -e '$dest/ldconfig.log'"
if [ "$(id -u)" -eq 0 ]; then
  check install_script_runs_ldconfig_system_wide bash -c \
    "out=\$(env -u DESTDIR PATH='$fakebin:/usr/bin:/bin' sh '$source_dir/scripts/install_ldconfig.sh' /opt/z/lib) &&
     grep -qx '' '$dest/ldconfig.log' && grep -qx -- '-p' '$dest/ldconfig.log' &&
     echo \"\$out\" | grep -q '/opt/z/lib is not among the loader'\''s folders'"
else
  echo "skipped: install_script_runs_ldconfig_system_wide (not root)"
  skipped=$((skipped + 1))
fi

# Build the documented demo against the installed copy through pkg-config, as a user would.
export PKG_CONFIG_PATH="$pc_dir" PKG_CONFIG_SYSROOT_DIR="$dest"
cflags=$(pkg-config --cflags zarr)
libs=$(pkg-config --libs zarr)
check demo_builds_with_pkg_config cc -std=c99 -Wall -Werror $cflags "$source_dir/docs/examples/demo.c" $libs -o "$dest/demo"
check demo_runs_against_installed_library \
  env LD_LIBRARY_PATH="$(dirname "$lib")" "$dest/demo" "$dest/demo.zarr"

# The Fortran example, built with the module source zarr.pc names (.mod files
# go to the temporary folder: -J).
fortran_module=$(pkg-config --variable=fortran_module zarr)
check fortran_module_installed test -f "$fortran_module"
if command -v gfortran >/dev/null 2>&1; then
  check fortran_demo_builds_with_pkg_config gfortran -std=f2018 -Wall -Werror -J "$dest" "$fortran_module" \
    "$source_dir/docs/examples/demo.f90" $cflags $libs -o "$dest/demo_fortran"
  check fortran_demo_runs_against_installed_library \
    env LD_LIBRARY_PATH="$(dirname "$lib")" "$dest/demo_fortran" "$dest/demo_fortran.zarr"
else
  echo "skipped: the Fortran demo (gfortran not installed)"
  skipped=$((skipped + 2))
fi

echo "[==========] $((ran + skipped)) tests ran."
echo "[  PASSED  ] $((ran - fails)) tests."
if [ "$skipped" -ne 0 ]; then echo "[  SKIPPED ] $skipped tests."; fi
if [ "$fails" -ne 0 ]; then
  echo "[  FAILED  ] $fails tests."
  exit 1
fi
