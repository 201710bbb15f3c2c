"""docs/coming-from-zarr-python.md keeps its promise: every public name of zarr-python 2.13 is
on the page, and every libzarr name the page gives exists."""
import inspect
import os
import re

import pytest
from conftest import SOURCE_ROOT

import libzarr

PAGE = os.path.join(SOURCE_ROOT, "docs", "coming-from-zarr-python.md")
pytestmark = pytest.mark.skipif(not os.path.exists(PAGE), reason="docs/ is not beside this checkout")
NAME = re.compile(r"`((?:zarr|Array|Group)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)")
# Helpers zarr 2.13's namespace picks up from numcodecs' star import, not calls of its own.
NOT_API = {"ncores", "atexit", "multiprocessing", "suppress", "version", "Codec"}


def rows():
    """(zarr-python 2 cell, zarr-python 3 cell, libzarr cell) of the page's tables."""
    with open(PAGE, encoding="utf-8") as page:
        for line in page:
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if len(cells) == 3 and not set(cells[0]) <= {"-", " "} and cells[0] != "zarr-python 2":
                yield cells


def page_text():
    with open(PAGE, encoding="utf-8") as page:
        return page.read()


def resolve(name):
    """The object a dotted name of the libzarr column names (zarr = libzarr)."""
    head, *rest = name.split(".")
    target = {"zarr": libzarr, "Array": libzarr.Array, "Group": libzarr.Group}[head]
    for part in rest:
        target = getattr(target, part)
    return target


def test_every_libzarr_name_on_the_page_exists():
    checked = 0
    for zarr2, zarr3, ours in rows():
        if ours.startswith("—"):
            assert len(ours) > 10, f"an absent call needs its reason: {zarr2} | {zarr3}"
            continue
        for name in NAME.findall(ours):
            resolve(name)
            checked += 1
    assert checked > 150


def test_every_public_name_of_zarr_python_2_is_on_the_page():
    zarr = pytest.importorskip("zarr", reason="Debian's python3-zarr (zarr-python 2) is not installed")
    text = page_text()
    module_names = [n for n in dir(zarr) if not n.startswith("_") and n not in NOT_API
                    and not inspect.ismodule(getattr(zarr, n))]
    missing = [n for n in module_names if f"zarr.{n}" not in text]
    for cls, label in ((zarr.core.Array, "Array"), (zarr.hierarchy.Group, "Group")):
        missing += [f"{label}.{n}" for n in dir(cls) if not n.startswith("_") and f"{label}.{n}" not in text]
    assert not missing, f"zarr-python 2.13 names missing from {PAGE}: {missing}"
