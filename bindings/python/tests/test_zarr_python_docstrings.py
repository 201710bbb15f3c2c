"""zarr-python 2.13's own examples run with libzarr standing in for zarr.

Every example in the docstrings of zarr.creation, zarr.convenience,
zarr.hierarchy and zarr.core (Debian's python3-zarr) runs with ``zarr``
bound to libzarr, as a newcomer's ``import libzarr as zarr`` would. Their
printed output differs (reprs, digests), so only what raises is compared: an
example must raise exactly when zarr-python's docstring shows it raising, and
the examples libzarr does not run are listed below with the reason.
"""
import doctest
import importlib
import os
import sys
import warnings

import numpy as np
import pytest

import libzarr

zarr = pytest.importorskip("zarr", reason="Debian's python3-zarr (zarr-python 2) is not installed")

MODULES = ["zarr.creation", "zarr.convenience", "zarr.hierarchy", "zarr.core"]
# docstring -> (the example's start, why libzarr stops there)
NOT_RUN = {
    "zarr.creation.create": ("z = zarr.create((10000, 10000), chunks=(1000, 1000), dtype=object,",
                             "object_codec=MsgPack(): libzarr stores object arrays of str and bytes only"),
    "zarr.core.Array.view": ("v = a.view(", "Array.view() is absent: libzarr opens an array with its "
                                           "own metadata only (astype() gives a converted read-only view)"),
}


def docstring_tests():
    finder = doctest.DocTestFinder(exclude_empty=True)
    tests = []
    for name in MODULES:
        tests += [t for t in finder.find(importlib.import_module(name)) if t.examples]
    return tests


@pytest.fixture
def zarr_is_libzarr(monkeypatch, tmp_path):
    """``import zarr`` (and zarr.storage) gives libzarr, in a folder holding data/."""
    for name, module in {"zarr": libzarr, "zarr.storage": libzarr.storage, "zarr.codecs": libzarr.codecs,
                         "zarr.errors": libzarr.errors}.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.chdir(tmp_path)
    os.mkdir("data")
    warnings.simplefilter("ignore", UserWarning)


@pytest.mark.parametrize("test", docstring_tests(), ids=lambda t: t.name)
def test_zarr_python_example_runs_on_libzarr(zarr_is_libzarr, test, capsys):
    namespace = {"np": np}
    stop = NOT_RUN.get(test.name)
    for example in test.examples:
        if stop and example.source.startswith(stop[0]):
            with pytest.raises((libzarr.UnsupportedError, AttributeError)):
                exec(compile(example.source, test.name, "exec"), namespace)
            return
        raises = example.exc_msg is not None
        try:
            exec(compile(example.source, test.name, "exec"), namespace)
        except Exception as error:  # noqa: BLE001
            assert raises, f"{test.name}: {example.source.strip()} raised {type(error).__name__}: {error}"
        else:
            assert not raises, f"{test.name}: {example.source.strip()} should raise {example.exc_msg.strip()}"
    assert stop is None, f"{test.name} no longer stops at {stop[0]!r}: update NOT_RUN"
