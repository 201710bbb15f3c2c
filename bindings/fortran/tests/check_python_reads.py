"""Fortran writes, zarr-python reads: run write_for_python into a temporary
folder, then read every array with zarr-python 2.13 and compare each element
with what the Fortran program put at the reversed index.

    /usr/bin/python3 check_python_reads.py WRITE_FOR_PYTHON_EXE

Run by the interpreter that has zarr-python (Debian's /usr/bin/python3);
exits 77 (skipped) where zarr or numpy cannot be imported.
"""
import itertools
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import zarr
except ImportError as error:
    print(f"skipped: this Python ({sys.executable}) has no zarr-python/numpy: {error}")
    sys.exit(77)

FORTRAN_SHAPE = (3, 4, 2, 5)  # n1..n4 of write_for_python.f90

# What write_for_python stores for f = i + 10 j + 100 k + 1000 l, per type.
VALUE = {
    "int8": lambda f: f % 128,
    "int16": lambda f: f,
    "int32": lambda f: f,
    "int64": lambda f: f,
    "float32": lambda f: f + 0.5,
    "float64": lambda f: f + 0.5,
    "complex64": lambda f: complex(f, -f),
    "complex128": lambda f: complex(f, -f),
    "bool": lambda f: f % 3 == 0,
}

# Each written array as (Fortran shape, the full Fortran index of the element
# at a 1-based index of the written array): rank r takes the leading r
# dimensions with the others at 1; "section" is a(2, :, :, 1).
LAYOUTS = {
    "1d": (FORTRAN_SHAPE[:1], lambda i: (i[0], 1, 1, 1)),
    "2d": (FORTRAN_SHAPE[:2], lambda i: (i[0], i[1], 1, 1)),
    "3d": (FORTRAN_SHAPE[:3], lambda i: (i[0], i[1], i[2], 1)),
    "4d": (FORTRAN_SHAPE, lambda i: i),
    "section": (FORTRAN_SHAPE[1:3], lambda i: (2, i[0], i[1], 1)),
}


def f(i, j, k, l):
    return i + 10 * j + 100 * k + 1000 * l


def expected(dtype, fortran_shape, full_index):
    """The Zarr array a reader must see: element a(i1, ..., ir) of the Fortran
    array sits at Zarr index [ir - 1, ..., i1 - 1]."""
    out = np.empty(tuple(reversed(fortran_shape)), dtype=dtype)
    for index in itertools.product(*(range(1, n + 1) for n in fortran_shape)):
        out[tuple(i - 1 for i in reversed(index))] = VALUE[dtype](f(*full_index(index)))
    return out


def offset_block_expected():
    """int32_offset: a(1:3, 1:4, 1, 1) written at start (2, 3) of a Fortran
    5 x 6 array (Zarr [6, 5]) filled with -1."""
    out = np.full((6, 5), -1, dtype="int32")
    for i, j in itertools.product(range(1, 4), range(1, 5)):
        out[3 - 1 + j - 1, 2 - 1 + i - 1] = f(i, j, 1, 1)
    return out


def compare(name, array, want):
    got = array[...]
    if got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want):
        print(f"[       OK ] fortran_to_python.{name}")
        return True
    print(f"[  FAILED  ] fortran_to_python.{name}: zarr-python read {got.dtype}{list(got.shape)}\n"
          f"{got}\nexpected {want.dtype}{list(want.shape)}\n{want}")
    return False


def main(writer):
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([writer, folder], check=True)
        results = []
        for dtype, (layout, (shape, full_index)) in itertools.product(VALUE, LAYOUTS.items()):
            name = f"{dtype}_{layout}"
            results.append(compare(name, zarr.open_array(f"{folder}/{name}", mode="r"),
                                   expected(dtype, shape, full_index)))
        results.append(compare("int32_offset", zarr.open_array(f"{folder}/int32_offset", mode="r"),
                               offset_block_expected()))
    print(f"[==========] {len(results)} tests ran.")
    print(f"[  PASSED  ] {sum(results)} tests.")
    if not all(results):
        print(f"[  FAILED  ] {len(results) - sum(results)} tests.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
