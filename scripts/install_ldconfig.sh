#!/bin/sh
# Run by `meson install` after it has copied the files (meson.build:
# add_install_script): refresh the dynamic loader's cache, so programs
# (zarrtool first) find libzarr.so.1 in a system-wide prefix such as
# /usr/local without LD_LIBRARY_PATH. Argument: the installed libdir.
#
# Nothing is run for a staged install (DESTDIR set: a package's own trigger
# runs ldconfig when the package is installed), and an install that is not
# root only says what to run. Never fails the install.
libdir=$1
if [ -n "${DESTDIR:-}" ]; then
  exit 0
fi
PATH="$PATH:/sbin:/usr/sbin"
if ! command -v ldconfig >/dev/null 2>&1; then
  echo "libzarr: no ldconfig found: make the loader see $libdir (docs/building.md)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "libzarr: installed into $libdir as a user: run 'sudo ldconfig' if that is a system folder," \
       "or set LD_LIBRARY_PATH=$libdir"
  exit 0
fi
ldconfig || { echo "libzarr: ldconfig failed: run it by hand"; exit 0; }
# A prefix outside the loader's folders (/opt/zarr) is not seen even now.
if ! ldconfig -p | grep -q "libzarr\.so\.1 .*=> $libdir/libzarr\.so\.1\$"; then
  echo "libzarr: $libdir is not among the loader's folders: add it to a file in /etc/ld.so.conf.d/" \
       "and run ldconfig, or set LD_LIBRARY_PATH=$libdir"
fi
exit 0
