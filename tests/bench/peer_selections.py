"""The Python side of the selection workloads of scripts/bench.sh (docs/performance.md):
the same code for zarr-python 2.13 and for libzarr's Python binding, which differ only in
the import (``import zarr`` or ``import libzarr as zarr``, as a user would switch).

Run by /usr/bin/python3 (Debian's zarr 2.13.6 and numcodecs 0.11):

    peer_selections.py LIBRARY DIR WORKLOAD MODE INDICES RUNS

LIBRARY: zarr or libzarr (then LIBZARR_PATH names the library to load). WORKLOAD,
MODE (read or write) and INDICES as tests/bench/bench_region_io.cpp's ``select``;
each run opens the array, does the selection and lets the handle go. Prints one
line "RESULT {json}": best_s, runs_s, best_cpu_s (CPU seconds of every thread) and, for reads, the checksum [sum u, sum u *
(i % 251 + 1)] mod 2^64 of the bit patterns u of the values read.
"""
import json
import os
import sys
import time

import numpy as np

SIDE = 5120
BINDING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bindings", "python")


def load_indices(path):
    with open(path) as f:
        numbers = np.array(f.read().split(), dtype=np.int64)
    rows_n = int(numbers[0])
    rows = numbers[1:1 + rows_n]
    at = 1 + rows_n
    columns_n = int(numbers[at])
    columns = numbers[at + 1:at + 1 + columns_n]
    at += 1 + columns_n
    npoints = int(numbers[at])
    points = numbers[at + 1:at + 1 + 2 * npoints].reshape(npoints, 2)
    return rows, columns, points


def checksum(values):
    bits = np.ascontiguousarray(values, dtype="<f8").reshape(-1).view(np.uint64)
    weights = (np.arange(bits.size, dtype=np.uint64) % np.uint64(251)) + np.uint64(1)
    with np.errstate(over="ignore"):
        return [int(bits.sum(dtype=np.uint64)), int((bits * weights).sum(dtype=np.uint64))]


def workload(z, name, mode, key):
    """One selection, spelled as zarr-python 2.13's documentation spells it."""
    rows, columns, points, mask, row_mask = key
    write = mode == "write"
    if name == "oindex":
        if write:
            z.oindex[rows, columns] = -np.arange(1, rows.size * columns.size + 1, dtype="f8").reshape(rows.size, -1)
            return None
        return z.oindex[rows, columns]
    if name == "vindex":
        if write:
            z.vindex[points[:, 0], points[:, 1]] = -np.arange(1, len(points) + 1, dtype="f8")
            return None
        return z.vindex[points[:, 0], points[:, 1]]
    if name == "mask":  # a[mask] with a 2-D mask: zarr-python's mask selection
        if write:
            z.set_mask_selection(mask, 5)
            return None
        return z.get_mask_selection(mask)
    if name == "maskrows":  # a 1-D mask on the rows, every column
        if write:
            z.oindex[row_mask, :] = 5
            return None
        return z.oindex[row_mask, :]
    if name == "step":
        if write:
            n = len(range(0, SIDE, 3))
            z[::3, ::3] = -np.arange(1, n * n + 1, dtype="f8").reshape(n, n)
            return None
        return z[::3, ::3]
    raise SystemExit(f"peer_selections.py: unknown workload {name}")


def main(argv):
    library, path, name, mode, index_path, runs = argv[1:7]
    if library == "libzarr":
        sys.path.insert(0, BINDING)
        import libzarr as zarr
    elif library == "zarr":
        import zarr
    else:
        raise SystemExit(f"peer_selections.py: unknown library {library}")
    rows, columns, points = load_indices(index_path)
    mask = np.zeros((SIDE, SIDE), dtype=bool)
    mask[::3] = True
    key = (rows, columns, points, mask, np.arange(SIDE) % 3 == 0)
    times, cpu, last = [], [], None
    for _ in range(int(runs)):
        t0, c0 = time.perf_counter(), time.process_time()  # process_time: every thread's CPU
        z = zarr.open_array(path, mode="r+" if mode == "write" else "r")
        last = workload(z, name, mode, key)
        del z
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    extra = {} if last is None else {"elements": int(last.size), "checksum": checksum(last)}
    print("RESULT " + json.dumps(dict(best_s=min(times), runs_s=times, best_cpu_s=min(cpu), **extra)), flush=True)


if __name__ == "__main__":
    main(sys.argv)
