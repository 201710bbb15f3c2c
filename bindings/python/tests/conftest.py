"""Shared fixtures of the binding's tests.

The tests import the package from this source tree (bindings/python), so
``/usr/bin/python3 -m pytest bindings/python/tests`` tests the checkout with
the library LIBZARR_PATH names (meson test points it at the build's
libzarr.so).
"""
import os
import shutil
import subprocess
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


@pytest.fixture(scope="session")
def installed_binding(tmp_path_factory):
    """The binding installed the way docs/bindings-python.md says (pip, offline, into a folder
    of its own): the folder, whose package metadata carries the xarray entry point."""
    source = tmp_path_factory.mktemp("source") / "python"
    shutil.copytree(BINDING_ROOT, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = tmp_path_factory.mktemp("site")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-index", "--no-build-isolation", "--no-deps",
         "--disable-pip-version-check", "--no-cache-dir", "--target", str(target), str(source)],
        capture_output=True, text=True, check=False)
    assert install.returncode == 0, install.stdout + install.stderr
    return target


@pytest.fixture
def with_installed_metadata(installed_binding, monkeypatch):
    """This process sees the installed package's metadata (its entry points), as a user's would."""
    import importlib
    monkeypatch.syspath_prepend(str(installed_binding))
    importlib.invalidate_caches()
    plugins = sys.modules.get("xarray.backends.plugins")
    if plugins is not None:
        plugins.list_engines.cache_clear()
    yield installed_binding
    if plugins is not None:
        plugins.list_engines.cache_clear()


def run_isolated(code, cwd, env=None):
    """Run code in a fresh interpreter that imports this checkout; its stdout. A crash (a
    segmentation fault: a negative return code) fails the calling test, not the run."""
    import textwrap
    environment = dict(os.environ, PYTHONPATH=BINDING_ROOT, **(env or {}))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


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
