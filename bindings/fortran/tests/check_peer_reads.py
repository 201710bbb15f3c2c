"""Fortran reads what peers wrote: every int16 array of rank 1 to 3 in the
../shared/peer-data manifest (v2 and v3, chunked, ragged, sharded, F order)
is read by read_peer, and its Fortran shape and elements are compared with
what zarr-python and zarrita.js read from it.

    check_peer_reads.py READ_PEER_EXE PEER_DATA_DIR

With the reversed dimension order, the Fortran shape is the peers' shape
reversed and the elements in Fortran memory order are the peers' values in
C order. Exits 77 (skipped) when PEER_DATA_DIR is absent.
"""
import json
import os
import subprocess
import sys


def int16_arrays(peer_data):
    """(path, shape, C-order values) of each int16 array of rank 1 to 3 whose
    peers agree and list the values."""
    with open(os.path.join(peer_data, "manifest.json")) as f:
        manifest = json.load(f)
    for entry in manifest["arrays"]:
        readings = list(entry["peers"].values())
        first = readings[0]
        if (entry.get("peers_agree") and first.get("dtype") == "int16" and 1 <= len(first.get("shape", [])) <= 3
                and "values" in first):
            yield entry["path"], first["shape"], first["values"]


def read_with_fortran(reader, url):
    """(shape, values) that read_peer printed."""
    out = subprocess.run([reader, url], check=True, capture_output=True, text=True).stdout
    lines = dict(line.split(maxsplit=1) for line in out.splitlines() if line.strip())
    return [int(v) for v in lines["shape"].split()], [int(v) for v in lines["values"].split()]


def main(reader, peer_data):
    if not os.path.isfile(os.path.join(peer_data, "manifest.json")):
        print(f"skipped: no peer data at {os.path.normpath(peer_data)} (../shared/peer-data beside the source tree)")
        return 77
    passed = failed = 0
    for path, shape, values in int16_arrays(peer_data):
        try:
            got_shape, got_values = read_with_fortran(reader, os.path.join(peer_data, path))
        except subprocess.CalledProcessError as error:
            got_shape, got_values = f"read_peer failed: {error.stderr.strip()}", None
        if got_shape == list(reversed(shape)) and got_values == values:
            passed += 1
            print(f"[       OK ] fortran_reads_peer_data.{path}")
        else:
            failed += 1
            print(f"[  FAILED  ] fortran_reads_peer_data.{path}\n    Fortran read shape {got_shape} values "
                  f"{got_values}\n    peers read shape {shape} (so Fortran {list(reversed(shape))}) values {values}")
    print(f"[==========] {passed + failed} tests ran.")
    print(f"[  PASSED  ] {passed} tests.")
    if failed or not passed:
        print(f"[  FAILED  ] {failed} tests.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
