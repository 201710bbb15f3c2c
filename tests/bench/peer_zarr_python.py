"""The zarr-python side of scripts/bench.sh (docs/performance.md).

Run by /usr/bin/python3 (Debian's zarr 2.13.6 and numcodecs 0.11; the python3
first on PATH may lack them):

    peer_zarr_python.py read    DIR RUNS [OFFSET [LIBRARY [CONCURRENCY]]]
                                                         open + read whole into out= + close
    peer_zarr_python.py write   KIND DIR DATA RUNS       create + write whole
    peer_zarr_python.py windows DIR POSITIONS RUNS       read the 16^3 windows at POSITIONS
    peer_zarr_python.py checksum DIR                     read whole once, print the checksum

read's OFFSET places out= (a NumPy array, malloc'd by NumPy) OFFSET bytes past a
page boundary (issue 25; default or "-": where NumPy put it); LIBRARY is zarr
(default) or libzarr, libzarr's Python binding (then LIBZARR_PATH names the library
to load). DIR may be an http:// URL (scripts/bench.py --remote): zarr-python then
reads through fsspec's HTTP filesystem, and libzarr's binding takes CONCURRENCY as
its store's max_concurrency.

Each prints one line "RESULT {json}" as tests/bench/bench_region_io.cpp does:
best_s, runs_s and the checksum [sum v, sum v * (i % 251 + 1)] of the values
read, computed after the timed runs.
"""
import json
import os
import shutil
import sys
import time

import numcodecs
import numpy as np
import zarr

SHAPE = (64, 1024, 2048)
BINDING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bindings", "python")


def checksum(values):
    flat = values.reshape(-1)
    s1 = int(flat.sum(dtype=np.uint64))
    s2 = 0
    block = 251 * (1 << 16)  # a multiple of 251, so the weights restart with each block
    weights = (np.arange(block, dtype=np.uint64) % 251) + 1
    for i in range(0, flat.size, block):
        part = flat[i:i + block].astype(np.uint64)
        s2 += int(np.dot(part, weights[:part.size]))
    return [s1, s2]


def result(runs, **extra):
    print("RESULT " + json.dumps(dict(best_s=min(runs), runs_s=runs, **extra)), flush=True)


def compressor(kind):
    if kind == "v2raw8":
        return None, (16, 512, 512)
    if kind == "v2zstd8":
        return numcodecs.Zstd(level=1), (16, 512, 512)
    if kind == "v2lz48":
        return numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE), (16, 512, 512)
    if kind == "v2zstd32":
        return numcodecs.Zstd(level=1), (32, 32, 32)
    raise SystemExit(f"peer_zarr_python.py: unknown kind {kind}")


def placed_array(offset):
    """A uint16 array of SHAPE in a NumPy-allocated block, OFFSET bytes past a page boundary."""
    page, nbytes = 4096, int(np.prod(SHAPE)) * 2
    block = np.full(nbytes + 2 * page, 0xAB, dtype=np.uint8)  # pages faulted in before timing
    start = -block.ctypes.data % page + offset % page
    return block[start:start + nbytes].view("<u2").reshape(SHAPE)


def cmd_read(path, runs, offset=None, library=zarr, storage_options=None):
    if offset is None:
        out = np.full(SHAPE, 0xABAB, dtype="<u2")  # pages faulted in before timing
    else:
        out = placed_array(offset)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        z = library.open_array(path, mode="r", **({"storage_options": storage_options} if storage_options else {}))
        z.get_basic_selection(Ellipsis, out=out)
        times.append(time.perf_counter() - t0)
    result(times, page_offset=out.ctypes.data % 4096, checksum=checksum(out))


def library_named(name):
    if name == "zarr":
        return zarr
    if name == "libzarr":
        sys.path.insert(0, BINDING)
        import libzarr
        return libzarr
    raise SystemExit(f"peer_zarr_python.py: unknown library {name}")


def cmd_write(kind, path, data_path, runs):
    data = np.fromfile(data_path, dtype="<u2").reshape(SHAPE)
    comp, chunks = compressor(kind)
    times = []
    for _ in range(runs):
        shutil.rmtree(path, ignore_errors=True)  # untimed: every run writes a new array
        t0 = time.perf_counter()
        z = zarr.open_array(path, mode="w", shape=SHAPE, chunks=chunks, dtype="<u2",
                            compressor=comp, fill_value=0, order="C")
        z[...] = data
        times.append(time.perf_counter() - t0)
    back = zarr.open_array(path, mode="r")[...]
    if not np.array_equal(back, data):
        raise SystemExit(f"peer_zarr_python.py: {path} does not read back as the data")
    result(times, checksum=checksum(back))


def cmd_windows(path, positions_path, runs):
    pos = np.loadtxt(positions_path, dtype=np.int64).reshape(-1, 3).tolist()
    out = np.full((len(pos), 16, 16, 16), 0xABAB, dtype="<u2")
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        z = zarr.open_array(path, mode="r")
        for w, (a, b, c) in enumerate(pos):
            out[w] = z[a:a + 16, b:b + 16, c:c + 16]
        times.append(time.perf_counter() - t0)
    result(times, windows=len(pos), checksum=checksum(out))


def main(argv):
    cmd = argv[1]
    if cmd == "read":
        offset = int(argv[4]) if len(argv) > 4 and argv[4] != "-" else None
        options = {"max_concurrency": int(argv[6])} if len(argv) > 6 else None
        cmd_read(argv[2], int(argv[3]), offset, library_named(argv[5] if len(argv) > 5 else "zarr"), options)
    elif cmd == "write":
        cmd_write(argv[2], argv[3], argv[4], int(argv[5]))
    elif cmd == "windows":
        cmd_windows(argv[2], argv[3], int(argv[4]))
    elif cmd == "checksum":
        result([0.0], checksum=checksum(zarr.open_array(argv[2], mode="r")[...]))
    else:
        raise SystemExit(f"peer_zarr_python.py: unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv)
