#!/usr/bin/python3
"""The zarr-python 2.13 side of libzarr's zip store interop test
(tests/interop/test_zarr_python_zip.cpp), run with /usr/bin/python3:

  zarr_python_zip_peer.py write OUT_DIR
      Write OUT_DIR/python.zip with zarr-python's ZipStore: the hierarchy of
      hierarchy() below, values from values(). One chunk of "rewritten" is
      written twice, so the archive holds that entry name twice (zipfile
      warns; the later entry is the value). Then OUT_DIR/python64.zip: the
      same hierarchy followed by 65536 padding entries, which makes zipfile
      write a zip64 end of central directory.

  zarr_python_zip_peer.py read ARCHIVE
      Open ARCHIVE (written by libzarr) with zarr-python's ZipStore and print
      JSON: {"groups": {path: attrs}, "arrays": {path: {"dtype", "shape",
      "chunks", "compressor", "attrs", "values"}}, "entries": {name:
      compress_type}, "entry_count", "bad_entry": zipfile's testzip() (null:
      every CRC good)}.
"""
import json
import sys
import warnings
import zipfile

import numpy as np
import zarr
from zarr.storage import ZipStore


def hierarchy():
    """path -> (shape, chunks, dtype, compressor id or None, fill value)."""
    return {
        "ints": ((7, 5), (3, 2), "<i4", "blosc", 0),
        "sub/floats": ((10,), (4,), ">f8", "zlib", 0.0),
        "sub/partial": ((6,), (2,), "|u1", None, 7),
        "rewritten": ((4,), (4,), "<i2", None, 0),
        "with space/donn\u00e9es": ((3,), (2,), "<i8", None, 0),
    }


def values(path, shape, dtype):
    n = int(np.prod(shape))
    if path == "sub/floats":
        v = np.arange(n) / 4.0
    elif path == "sub/partial":
        v = np.arange(n) + 1  # only the first 3 are written: the rest is the fill value 7
    else:
        v = np.arange(n) * 3 - 10
    return v.astype(dtype).reshape(shape)


def write_hierarchy(store):
    root = zarr.group(store=store)
    root.attrs["writer"] = "zarr-python"
    root.require_group("sub").attrs["level"] = 1
    for path, (shape, chunks, dtype, compressor, fill) in hierarchy().items():
        codec = {"blosc": zarr.Blosc(), "zlib": zarr.Zlib(level=3), None: None}[compressor]
        a = root.create_dataset(path, shape=shape, chunks=chunks, dtype=dtype, compressor=codec, fill_value=fill)
        v = values(path, shape, dtype)
        if path == "sub/partial":
            a[:3] = v[:3]
        elif path == "rewritten":
            a[:] = -v  # replaced below: the chunk's entry name occurs twice
            a[:] = v
        else:
            a[...] = v


def cmd_write(out_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile's "Duplicate name" for "rewritten/0"
        store = ZipStore(out_dir + "/python.zip", mode="w")
        write_hierarchy(store)
        store.close()
        store = ZipStore(out_dir + "/python64.zip", mode="w")
        write_hierarchy(store)
        store.close()
    with zipfile.ZipFile(out_dir + "/python64.zip", mode="a") as zf:
        for i in range(65536):
            zf.writestr("padding/%d" % i, b"")
    return 0


def plain(value):
    if isinstance(value, float) and value != value:
        return "NaN"
    return value


def cmd_read(archive):
    store = ZipStore(archive, mode="r")
    root = zarr.open_group(store=store, mode="r")
    out = {"groups": {"": dict(root.attrs)}, "arrays": {}}

    def visit(path, node):
        if isinstance(node, zarr.Array):
            out["arrays"][path] = {
                "dtype": node.dtype.str,
                "shape": list(node.shape),
                "chunks": list(node.chunks),
                "compressor": node.compressor.get_config()["id"] if node.compressor else None,
                "attrs": dict(node.attrs),
                "values": [plain(x) for x in node[...].ravel().tolist()],
            }
        else:
            out["groups"][path] = dict(node.attrs)

    root.visititems(visit)
    store.close()
    with zipfile.ZipFile(archive) as zf:
        out["entries"] = {i.filename: i.compress_type for i in zf.infolist()}
        out["entry_count"] = len(zf.infolist())  # more than len(entries): a name written twice
        out["bad_entry"] = zf.testzip()
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        sys.exit(cmd_write(sys.argv[2]))
    if len(sys.argv) == 3 and sys.argv[1] == "read":
        sys.exit(cmd_read(sys.argv[2]))
    sys.exit(__doc__)
