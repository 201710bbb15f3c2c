"""Shared fixtures of the binding's tests.

The tests import the package from this source tree (bindings/python), so
``/usr/bin/python3 -m pytest bindings/python/tests`` tests the checkout with
the library LIBZARR_PATH names (meson test points it at the build's
libzarr.so).
"""
import os
import sys

import numpy as np
import pytest

BINDING_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_ROOT = os.path.dirname(os.path.dirname(BINDING_ROOT))
sys.path.insert(0, BINDING_ROOT)

import libzarr  # noqa: E402


@pytest.fixture
def url(tmp_path):
    """A fresh filesystem location for one node."""
    return str(tmp_path / "node.zarr")


def make_array(url, shape, chunks, dtype="<i4", fill_value=0, **extra):
    """A v2 array and the NumPy array of what it holds (its fill value everywhere)."""
    metadata = {"shape": list(shape), "chunks": list(chunks), "dtype": dtype,
                "fill_value": fill_value, **extra}
    array = libzarr.create(url, metadata)
    return array, np.full(shape, fill_value, dtype=np.dtype(dtype).newbyteorder("="))


def filled(array, reference, seed=0):
    """Write distinct values everywhere, in both the array and the reference."""
    values = (np.arange(reference.size, dtype=np.int64) * 7 + seed).reshape(reference.shape)
    reference[...] = values.astype(reference.dtype)
    array[...] = reference
    return array, reference


def pytest_terminal_summary(terminalreporter):
    """Totals in GoogleTest's words, which scripts/test_summary.py adds to the project's count."""
    stats = terminalreporter.stats
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    skipped = len(stats.get("skipped", []))
    terminalreporter.write_line(f"[  PASSED  ] {len(stats.get('passed', []))} tests.")
    if failed:
        terminalreporter.write_line(f"[  FAILED  ] {failed} tests.")
    if skipped:
        terminalreporter.write_line(f"[  SKIPPED ] {skipped} tests.")
