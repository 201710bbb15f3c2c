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


# zarr-python 3's public calls (3.0 to 3.1: zarr/__init__.py's __all__, the public members of
# zarr.Array and zarr.Group), written down here: Debian 12 has no zarr-python 3 to list them.
ZARR3_MODULE = ["array", "consolidate_metadata", "copy", "copy_all", "copy_store", "create", "create_array",
                "create_group", "create_hierarchy", "empty", "empty_like", "from_array", "full", "full_like", "group",
                "load", "ones", "ones_like", "open", "open_array", "open_consolidated", "open_group", "open_like",
                "print_debug_info", "save", "save_array", "save_group", "tree", "zeros", "zeros_like", "config",
                "Array", "AsyncArray", "Group", "AsyncGroup", "__version__"]
ZARR3_ARRAY = ["append", "attrs", "basename", "blocks", "cdata_shape", "chunks", "compressor", "compressors",
               "create", "dtype", "fill_value", "filters", "get_basic_selection", "get_block_selection",
               "get_coordinate_selection", "get_mask_selection", "get_orthogonal_selection", "info",
               "info_complete", "metadata", "name", "nbytes", "nbytes_stored", "nchunks", "nchunks_initialized",
               "ndim", "oindex", "open", "order", "path", "read_only", "resize", "serializer",
               "set_basic_selection", "set_block_selection", "set_coordinate_selection", "set_mask_selection",
               "set_orthogonal_selection", "shape", "shards", "size", "store", "store_path", "update_attributes",
               "vindex", "async_array", "config", "nshards", "nshards_initialized", "from_dict", "with_config"]
ZARR3_GROUP = ["array_keys", "array_values", "arrays", "attrs", "basename", "create_array", "create_dataset",
               "create_group", "create_hierarchy", "empty", "empty_like", "from_store", "full", "full_like", "get",
               "group_keys", "group_values", "groups", "info", "info_complete", "members", "metadata", "move",
               "name", "nmembers", "ones", "ones_like", "open", "path", "read_only", "require_array",
               "require_dataset", "require_group", "require_groups", "store", "store_path", "synchronizer", "tree",
               "update_attributes", "zeros", "zeros_like", "array", "async_group", "keys", "__getitem__",
               "__contains__", "__iter__", "__len__", "__delitem__", "__setitem__"]


def test_every_public_name_of_zarr_python_3_is_on_the_page():
    """Each has a row: its libzarr equivalent, or "— absent" and why (AsyncArray,
    nshards, from_dict, with_config, create_hierarchy on groups had none)."""
    text = page_text()
    missing = [f"zarr.{n}" for n in ZARR3_MODULE if f"zarr.{n}" not in text]
    missing += [f"Array.{n}" for n in ZARR3_ARRAY if f"Array.{n}" not in text]
    missing += [f"Group.{n}" for n in ZARR3_GROUP if f"Group.{n}" not in text]
    assert not missing, f"zarr-python 3 names missing from {PAGE}: {missing}"


def test_nshards_and_from_dict_as_zarr_python_3(tmp_path):
    sharded = libzarr.create_array(str(tmp_path / "s.zarr"), shape=(40, 30), chunks=(5, 5), shards=(10, 15),
                                   dtype="i2")
    assert (sharded.nshards, sharded.nshards_initialized, sharded.nchunks) == (8, 0, 48)
    sharded[:10, :] = 1
    assert sharded.nshards_initialized == 2
    plain = libzarr.zeros((10,), chunks=(3,), dtype="u1")
    assert (plain.nshards, plain.nshards_initialized) == (4, 0)
    document = {"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "int32",
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
                "chunk_key_encoding": {"name": "default"}, "fill_value": 7,
                "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}
    made = libzarr.Array.from_dict(libzarr.storage.StorePath(libzarr.storage.LocalStore(str(tmp_path)), "d.zarr"),
                                   document)
    assert made[...].tolist() == [7] * 4 and libzarr.open(str(tmp_path / "d.zarr"), mode="r").shape == (4,)


# -- the same calls, side by side -----------------------------------------------------------
#
# What a newcomer types first, run with zarr-python 2.13 and with libzarr in folders of their
# own: each call must give zarr-python's result, but where the page lists a difference on
# purpose (then libzarr's own result is checked).

def newcomer_calls(zarr, v2):
    """name -> a function of no arguments giving a comparable result, in the order to run."""
    import numpy as np
    z = zarr.full((20, 30), chunks=(10, 10), dtype="f8", store="a.zarr", fill_value=1.5, **v2)
    z[:10, :10] = 3
    g = zarr.group("g.zarr", **v2)
    visited = []
    return {
        "create": lambda: (lambda a: (a.shape, a.chunks, str(a.dtype)))(
            zarr.create(shape=(100, 100), chunks=(10, 10), dtype="i4", store="c.zarr", **v2)),
        "dtype spellings": lambda: [str(zarr.zeros((4,), chunks=(2,), dtype=s, **v2).dtype)
                                    for s in ("i4", "float32", np.float32, "M8[ns]", "m8[s]", "<U5", "S3", "bool",
                                              "complex128", "u1", int, float)],
        "zeros of text": lambda: [zarr.zeros((2,), dtype=s, **v2)[...].tolist() for s in ("<U5", "S3", "c16")],
        "modes": lambda: [(lambda a: (a.shape, a.read_only))(zarr.open_array("m.zarr", mode=m, shape=(5,), chunks=(2,),
                                                                           dtype="i2", **v2))
                          for m in ("w", "a", "r+", "r")],
        "mode w- on an array": lambda: pytest.raises(ValueError, zarr.open, "m.zarr", mode="w-", shape=(3,)) and "refused",
        "mode r on nothing": lambda: pytest.raises(Exception, zarr.open, "nothing.zarr", mode="r") and "refused",
        "counts": lambda: (z.nchunks, z.nchunks_initialized, z.cdata_shape, z.nbytes, z.size, z.ndim, z.itemsize),
        "nbytes_stored": lambda: (z.nbytes_stored() if callable(z.nbytes_stored) else z.nbytes_stored) > 0,
        "compressor": lambda: z.compressor.get_config()["id"],
        "filters": lambda: z.filters,
        "order and fill": lambda: (z.order, z.fill_value, z.path),
        "name and basename": lambda: (z.name, z.basename),
        "len and iter": lambda: (len(z), next(iter(z))[:2].tolist()),
        "oindex": lambda: z.oindex[[0, 15], [1, 29]].tolist(),
        "vindex": lambda: z.vindex[[0, 15], [1, 29]].tolist(),
        "coordinate and mask selections": lambda: (z.get_coordinate_selection(([0, 19], [0, 29])).tolist(),
                                                   z.get_mask_selection(np.arange(600).reshape(20, 30) % 97 == 0).tolist()),
        "resize and append": lambda: (z.resize(25, 30), z.append(np.ones((5, 30))), z.shape)[2],
        "attrs": lambda: (z.attrs.update({"a": 1}), dict(z.attrs))[1],
        "array": lambda: (lambda a: (a.shape, a.chunks, int(a[3])))(zarr.array(np.arange(10), chunks=(3,), **v2)),
        "likes": lambda: (zarr.open_like(z, "like.zarr").shape, zarr.zeros_like(z).shape,
                          zarr.full((3,), fill_value=7, chunks=2, **v2)[...].tolist()),
        "groups": lambda: (g.create_group("foo").name, g.require_group("foo").name,
                           g.create_dataset("foo/bar", shape=(4, 4), chunks=(2, 2), dtype="i4").name,
                           g.require_dataset("foo/bar", shape=(4, 4), dtype="i4").shape,
                           g.zeros("z", shape=(3,), chunks=(3,)).name, g.ones("o", shape=(3,), chunks=(3,))[...].tolist(),
                           g.full("f", shape=(3,), chunks=(3,), fill_value=2)[...].tolist(),
                           g.array("arr", np.arange(5), chunks=(2,))[...].tolist()),
        "require_dataset of another shape": lambda: pytest.raises(TypeError, g.require_dataset, "foo/bar",
                                                                  shape=(5, 4), dtype="i4") and "refused",
        "tree": lambda: (str(g.tree()), str(zarr.tree(g))),
        "listings": lambda: (sorted(g.array_keys()), sorted(g.group_keys()), sorted(k for k, _ in g.arrays()),
                             sorted(k for k, _ in g.groups()), sorted(g), "foo/bar" in g, "nope" in g, len(g)),
        "visit": lambda: (g.visit(visited.append), g.visititems(lambda p, o: visited.append((p, type(o).__name__))),
                          sorted(map(str, visited)))[2],
        "move and del": lambda: (g.move("z", "foo/z2"), g.__delitem__("o"), sorted(g["foo"]), sorted(g))[2:],
        "child names": lambda: (g["foo"].name, g["foo"].path, g["foo"].basename, g.foo.name),
        "open_group and consolidated": lambda: (sorted(zarr.open_group("g.zarr", mode="r")),
                                                type(zarr.consolidate_metadata("g.zarr")).__name__,
                                                sorted(zarr.open_consolidated("g.zarr"))),
        "save and load": lambda: (zarr.save("s.zarr", np.arange(4)), zarr.load("s.zarr").tolist(),
                                  zarr.save("sg.zarr", np.arange(3), y=np.ones(2)), sorted(zarr.load("sg.zarr")))[1::2],
        "copy and copy_all": lambda: (zarr.copy(g["foo/bar"], zarr.group("cp.zarr", **v2), name="bar2"),
                                      zarr.copy_all(g, zarr.group("cpa.zarr", **v2)), sorted(zarr.open_group("cpa.zarr"))),
        "open gives the kind": lambda: (type(zarr.open("g.zarr")).__name__, type(zarr.open("a.zarr")).__name__),
        "pickle and deepcopy": lambda: (__import__("pickle").loads(__import__("pickle").dumps(zarr.open("a.zarr")))[0, 0],
                                        sorted(__import__("copy").deepcopy(zarr.open_group("g.zarr", mode="r")))),
    }


# libzarr's result where it differs on purpose (see "What differs on purpose" above the tables).
DIFFERENT_ON_PURPOSE = {
    "filters": (),  # zarr-python 2: None
    "name and basename": ("/", ""),  # an array at the root: zarr-python 2 gives None, None
}


def test_newcomer_calls_give_what_zarr_python_2_gives(tmp_path, monkeypatch):
    zarr_python = pytest.importorskip("zarr", reason="Debian's python3-zarr (zarr-python 2) is not installed")
    results = {}
    for name, module, v2 in (("zarr-python", zarr_python, {}), ("libzarr", libzarr, {"zarr_format": 2})):
        (tmp_path / name).mkdir()
        monkeypatch.chdir(tmp_path / name)
        results[name] = {call: function() for call, function in newcomer_calls(module, v2).items()}
    theirs, ours = results["zarr-python"], results["libzarr"]
    for call in theirs:
        expected = DIFFERENT_ON_PURPOSE.get(call, theirs[call])
        assert ours[call] == expected, f"{call}: zarr-python gives {theirs[call]!r}, libzarr {ours[call]!r}"
    assert all(theirs[call] != DIFFERENT_ON_PURPOSE[call] for call in DIFFERENT_ON_PURPOSE)
