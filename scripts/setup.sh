#!/usr/bin/env bash
# Install every Debian 12 package libzarr's build, tests and demo need.
# Safe to run again: packages already present are not fetched twice.
set -euo pipefail

PACKAGES=(
  # build
  meson ninja-build pkg-config g++
  # libraries: JSON, tests, codecs, zip, HTTP and S3 stores
  rapidjson-dev libgtest-dev libgmock-dev
  libzstd-dev libbz2-dev zlib1g-dev libblosc-dev liblz4-dev liblzma-dev libzfp-dev libzip-dev libcurl4-openssl-dev
  # remote store tests: nginx serves arrays on 127.0.0.1 (tests/stores/test_http_store.cpp);
  # boto3 is the S3 interop peer (tests/interop/test_s3_boto3.cpp); s3rver comes from npm
  nginx python3-boto3
  # interop peers: zarr-python 2.13 and numcodecs 0.11, run by /usr/bin/python3
  python3 python3-numpy python3-zarr python3-numcodecs
  # numcodecs' zfpy codec needs zfp's Python module (tests/interop: zarr-python reads libzarr's zfpy)
  python3-zfpy
  # the registry's JSON schemas checked over what libzarr writes (tests/capi/registry_schema_check.py)
  python3-jsonschema
  # ABI checks
  abigail-tools
  # the sanitizer and fuzzing build: clang with libFuzzer (tests/fuzz, scripts/fuzz.sh)
  clang-14 libclang-rt-14-dev
  # language bindings: Rust, Go and Fortran toolchains (bindings/, docs/bindings.md)
  rustc cargo golang-go gfortran
  # Python binding (bindings/python): its tests, Dask (threads, processes, dask.distributed),
  # the xarray backend, fsspec and aiohttp (zarr-python's HTTP peer in the xarray tests), h5py
  # (a source for copy), and installing it offline with pip
  python3-pytest python3-dask python3-distributed python3-pip python3-setuptools python3-venv
  python3-xarray python3-pandas python3-fsspec python3-aiohttp python3-h5py
  # the MPI example (docs/examples/mpi_slabs.c, tests/mpi): OpenMPI's compiler wrappers and mpirun
  libopenmpi-dev openmpi-bin
)

# Interop peer zarrita.js (Zarr v3) and the S3 test server s3rver, run by
# Node.js >= 18 and installed with npm into the build tree by the tests. A Node.js already on PATH will do
# (NodeSource's nodejs bundles npm); without one, Debian's nodejs and npm.
if ! command -v node >/dev/null 2>&1; then
  PACKAGES+=(nodejs npm)
elif ! command -v npm >/dev/null 2>&1 && \
     ! dpkg-query -W -f='${Version}' nodejs 2>/dev/null | grep -q nodesource; then
  PACKAGES+=(npm)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "setup: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
