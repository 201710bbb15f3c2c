#!/usr/bin/env bash
# Runs the MPI example (docs/examples/mpi_slabs.c) on 2 ranks: against the
# filesystem store, then checks with zarr-python (Debian's /usr/bin/python3)
# that the array holds what the ranks wrote; then, when s3rver can be set
# up, against s3rver on 127.0.0.1 (docs/scaling.md).
#
#   run_mpi_slabs.sh MPI_SLABS SOURCE_ROOT BUILD_ROOT
#
# MPI_SLABS is "" when meson found no MPI implementation (nothing built).
# Exit 0: passed; 77 (meson's skip): no MPI or no mpirun; anything else: failed.
set -uo pipefail

if [ $# -ne 3 ]; then
  echo "usage: run_mpi_slabs.sh MPI_SLABS SOURCE_ROOT BUILD_ROOT"
  exit 2
fi
example=$1
source_root=$2
build_root=$3

if [ -z "$example" ]; then
  echo "skip: meson found no MPI implementation, so docs/examples/mpi_slabs.c was not built (scripts/setup.sh installs Debian's libopenmpi-dev; reconfigure the build)"
  exit 77
fi
if ! command -v mpirun >/dev/null 2>&1; then
  echo "skip: no mpirun on PATH (scripts/setup.sh installs Debian's openmpi-bin)"
  exit 77
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# OpenMPI refuses to start as root without these; --oversubscribe lets 2
# ranks run on a machine with fewer cores. Shared-memory transfers without
# cross-memory attach: containers often forbid process_vm_readv.
run_ranks() {
  OMPI_MCA_btl_vader_single_copy_mechanism=none \
    mpirun --allow-run-as-root --oversubscribe -np 2 "$example" "$@"
}

echo "== filesystem: $work/a.zarr"
run_ranks "$work/a.zarr" || { echo "FAIL: mpi_slabs on the filesystem store"; exit 1; }

if /usr/bin/python3 -c "import zarr" 2>/dev/null; then
  /usr/bin/python3 - "$work/a.zarr" <<'PY' || { echo "FAIL: zarr-python disagrees"; exit 1; }
import sys
import numpy as np
import zarr
a = zarr.open_array(sys.argv[1], mode="r")
assert a.shape == (128, 256) and a.chunks == (64, 256), (a.shape, a.chunks)
rows, cols = np.indices(a.shape)
expected = (rows * 1000 + cols).astype("<i4")
bad = int((a[:] != expected).sum())
assert bad == 0, f"{bad} elements differ"
print("zarr-python reads what both ranks wrote")
PY
else
  echo "note: /usr/bin/python3 has no zarr; zarr-python check left out"
fi

# S3: the same program against s3rver on 127.0.0.1 (as tests/stores does).
peer_dir="$build_root/tests/stores/s3rver-peer"
if ! setup_out=$(bash "$source_root/tests/stores/s3rver_setup.sh" "$peer_dir" 2>&1); then
  echo "note: S3 run left out: $(echo "$setup_out" | tail -n 1)"
  exit 0
fi
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/s3data"
node --openssl-legacy-provider "$peer_dir/node_modules/s3rver/bin/s3rver.js" --directory "$work/s3data" \
  --address 127.0.0.1 --port "$port" --silent --service-endpoint localhost \
  --configure-bucket mpi-slabs >"$work/s3rver.log" 2>&1 &
server_pid=$!
for _ in $(seq 200); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
options="{\"store\": {\"endpoint\": \"http://127.0.0.1:$port\", \"access_key_id\": \"S3RVER\", \"secret_access_key\": \"S3RVER\", \"timeout_ms\": 10000}}"
echo "== S3 (s3rver on 127.0.0.1:$port): s3://mpi-slabs/a.zarr"
run_ranks "s3://mpi-slabs/a.zarr" "$options" || { echo "FAIL: mpi_slabs on s3rver"; cat "$work/s3rver.log"; exit 1; }
echo "PASS"
