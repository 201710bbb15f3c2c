#!/usr/bin/python3
"""The zarr-python 2.13 side of libzarr's interop tests (tests/interop).

Run by test_interop with /usr/bin/python3 (zarr-python 2.13, numcodecs 0.11):

  zarr_python_peer.py write SPEC.json OUT_DIR
      For every case of SPEC.json, create the v2 array OUT_DIR/<name> with
      zarr-python, write the case's boxes (partial writes: some chunks stay
      unwritten so the fill value shows), read the whole array back with
      zarr-python and dump it as C-order, little-endian bytes to
      OUT_DIR/<name>.bin. Writes OUT_DIR/manifest.json describing each case
      (item size, fill value bytes, which elements are defined, errors).

  zarr_python_peer.py check CHECK.json
      Open every array and group CHECK.json lists (written by libzarr) with
      zarr-python and compare it with what libzarr meant to write: values
      against a .bin of C-order little-endian bytes, dtype, shape, chunks,
      order, compressor, fill value, attributes, group membership, and the
      store keys. Prints {"<case>": {"ok": bool, "errors": [...]}} as JSON.

"Little-endian bytes" is the layout of libzarr's region buffers on x86-64 and
ARM64: numbers in '<' order, structured types field by field, U as UTF-32LE,
M8/m8 as int64, bool as one byte.
"""
import base64
import itertools
import json
import os
import sys
import traceback

import numpy as np
import numcodecs
import zarr
from zarr.meta import Metadata2


# ---------------------------------------------------------------------------
# dtypes


def dtype_from_json(d):
    """numpy dtype from a .zarray "dtype" member (typestr or field list)."""
    if isinstance(d, str):
        return np.dtype(d)
    fields = []
    for f in d:
        name, t = f[0], f[1]
        base = dtype_from_json(t)
        if len(f) > 2:
            shape = f[2]
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            fields.append((name, base, shape))
        else:
            fields.append((name, base))
    return np.dtype(fields)


def le_dtype(dt):
    # newbyteorder applies to every field and subarray of a structured type.
    return dt.newbyteorder("<")


def le_bytes(a, dt):
    return np.ascontiguousarray(np.asarray(a).astype(le_dtype(dt))).tobytes(order="C")


def fill_bytes(fv, dt):
    """Little-endian bytes of a fill value, or None for null."""
    if fv is None:
        return None
    return np.array(fv, dtype=dt).astype(le_dtype(dt)).tobytes()


# ---------------------------------------------------------------------------
# chunk keys


def chunk_grid(shape, chunks):
    return [-(-s // c) if c else 0 for s, c in zip(shape, chunks)]


def chunk_key(idx, sep):
    return sep.join(str(i) for i in idx) if idx else "0"


def all_chunk_indices(shape, chunks):
    grid = chunk_grid(shape, chunks)
    return itertools.product(*[range(g) for g in grid])


def stored_mask(path, shape, chunks, sep):
    """One bool per element: does the chunk holding it exist in the store?"""
    mask = np.zeros(shape, dtype=bool)
    for idx in all_chunk_indices(shape, chunks):
        if os.path.exists(os.path.join(path, *chunk_key(idx, sep).split("/"))):
            sl = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, chunks, shape))
            mask[sl] = True
    return mask


def store_files(path):
    out = []
    for root, _dirs, files in os.walk(path):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), path)
            out.append(rel.replace(os.sep, "/"))
    return sorted(out)


# ---------------------------------------------------------------------------
# write


def generate(dt, shape, rng):
    """Deterministic pseudo-random values of every bit pattern the type allows."""
    n = int(np.prod(shape, dtype=np.int64))
    if dt.kind == "b":
        a = rng.integers(0, 2, size=n).astype(dt)
    elif dt.kind == "U":
        nchar = dt.itemsize // 4
        # valid code points only (no surrogates), including beyond the BMP
        cps = rng.integers(1, 0x110000 - 0x800, size=(n, nchar), dtype=np.int64)
        cps = np.where(cps >= 0xD800, cps + 0x800, cps)
        lens = rng.integers(0, nchar + 1, size=n)
        cps[np.arange(nchar)[None, :] >= lens[:, None]] = 0
        a = cps.astype("<u4").view("<U%d" % nchar).reshape(n).astype(dt)
    else:
        a = np.frombuffer(rng.bytes(n * dt.itemsize), dtype=dt).copy()
    return a.reshape(shape)


def write_case(case, out_dir):
    name = case["name"]
    dt = dtype_from_json(case["dtype"])
    shape = tuple(case["shape"])
    chunks = tuple(case["chunks"])
    comp = case["compressor"]
    compressor = numcodecs.get_codec(dict(comp)) if comp is not None else None
    fv = Metadata2.decode_fill_value(case["fill_value"], dt)
    path = os.path.join(out_dir, name)
    # zarr-python 2.13 cannot be given a void or structured fill value
    # (normalize_fill_value compares it with 0: "Cannot compare structured or
    # void to non-void arrays"), so those arrays are created without one and
    # the .zarray then gets the fill value as zarr-python encodes it.
    patch_fill = dt.kind == "V" and fv is not None
    z = zarr.open(path, mode="w", shape=shape, chunks=chunks, dtype=dt,
                  compressor=compressor, fill_value=None if patch_fill else fv,
                  order=case["order"], dimension_separator=case["separator"], filters=None)
    if patch_fill:
        zpath = os.path.join(path, ".zarray")
        with open(zpath) as f:
            meta = json.load(f)
        meta["fill_value"] = Metadata2.encode_fill_value(fv, dt)
        with open(zpath, "w") as f:
            json.dump(meta, f, indent=4, sort_keys=True, ensure_ascii=True)
        z = zarr.open(path, mode="r+")
    src = generate(dt, shape, np.random.default_rng(case["seed"]))
    for box in case["boxes"]:
        sl = tuple(slice(s, s + c) for s, c in zip(box["start"], box["count"]))
        if sl:
            z[sl] = src[sl]
        else:
            z[...] = src

    r = zarr.open(path, mode="r")
    full = np.asarray(r[...])
    data = le_bytes(full, dt)
    with open(path + ".bin", "wb") as f:
        f.write(data)
    with open(os.path.join(path, ".zarray")) as f:
        zarray = json.load(f)
    entry = {
        "name": name,
        "path": path,
        "bin": path + ".bin",
        "itemsize": le_dtype(dt).itemsize,
        "shape": list(r.shape),
        "chunks": list(r.chunks),
        "zarray_dtype": zarray["dtype"],
        "fill_null": r.fill_value is None,
        "fill_hex": None if r.fill_value is None else fill_bytes(r.fill_value, dt).hex(),
        # zarr-python's decoding of the spec's JSON itself (creating an array
        # normalises some values: -0.0 becomes 0.0)
        "decoded_fill_hex": None if fv is None else fill_bytes(fv, dt).hex(),
        "mask": None,
    }
    if r.fill_value is None:
        # Chunks never written are undefined with a null fill value (zarr-python
        # returns np.empty there); only elements of stored chunks are defined.
        mask = stored_mask(path, shape, chunks, case["separator"])
        with open(path + ".mask", "wb") as f:
            f.write(mask.astype(np.uint8).tobytes(order="C"))
        entry["mask"] = path + ".mask"
    entry["stored_chunks"] = sum(
        1 for idx in all_chunk_indices(shape, chunks)
        if os.path.exists(os.path.join(path, *chunk_key(idx, case["separator"]).split("/"))))
    return entry


def write_hierarchy(path):
    """A small hierarchy with attributes; returns what each group holds."""
    root = zarr.open_group(path, mode="w")
    root.attrs.update({"title": "from zarr-python", "list": [1, 2.5, None, True], "u": "\u00e9\U0001F600"})
    sub = root.create_group("sub")
    sub.attrs["level"] = 1
    sub.create_group("deeper")
    a = root.create_dataset("a", shape=(4,), chunks=(2,), dtype="<i2")
    a[:] = [1, 2, 3, 4]
    b = sub.create_dataset("arr", shape=(2, 2), chunks=(1, 2), dtype=">f8")
    b.attrs["units"] = "m"
    root.create_group("z_last")
    out = []
    for rel in ("", "sub", "sub/deeper", "z_last"):
        g = root[rel] if rel else root
        children = [{"name": k, "kind": "array"} for k in g.array_keys()]
        children += [{"name": k, "kind": "group"} for k in g.group_keys()]
        children.sort(key=lambda c: c["name"])
        out.append({"path": os.path.join(path, rel) if rel else path, "attrs": dict(g.attrs),
                    "children": children})
    return out


def cmd_write(spec_path, out_dir):
    with open(spec_path) as f:
        spec = json.load(f)
    manifest = {"zarr": zarr.__version__, "numcodecs": numcodecs.__version__,
                "numpy": np.__version__, "cases": []}
    for case in spec["cases"]:
        try:
            manifest["cases"].append(write_case(case, out_dir))
        except Exception:
            manifest["cases"].append({"name": case["name"], "error": traceback.format_exc()})
    try:
        manifest["groups"] = write_hierarchy(os.path.join(out_dir, "py_hierarchy"))
    except Exception:
        manifest["groups_error"] = traceback.format_exc()
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return 0


# ---------------------------------------------------------------------------
# check


def describe_mismatch(got, want, mask, shape, itemsize):
    g = np.frombuffer(got, dtype=np.uint8).reshape(-1, itemsize) if itemsize else None
    w = np.frombuffer(want, dtype=np.uint8).reshape(-1, itemsize) if itemsize else None
    bad = np.any(g != w, axis=1)
    if mask is not None:
        bad &= mask.reshape(-1)
    nbad = int(bad.sum())
    if nbad == 0:
        return None
    first = int(np.argmax(bad))
    idx = np.unravel_index(first, shape) if shape else ()
    return "%d of %d elements differ; first at %s: zarr-python read %s, expected %s" % (
        nbad, bad.size, list(int(i) for i in idx), g[first].tobytes().hex(), w[first].tobytes().hex())


def check_array(case):
    errors = []
    path = case["path"]
    z = zarr.open(path, mode="r")
    if not isinstance(z, zarr.Array):
        return ["zarr.open gave %s, not an array" % type(z).__name__]
    dt = dtype_from_json(case["dtype"])
    if z.dtype != dt:
        errors.append("dtype %s, expected %s" % (z.dtype.descr if z.dtype.fields else z.dtype.str,
                                                 dt.descr if dt.fields else dt.str))
        return errors
    shape = tuple(case["shape"])
    if z.shape != shape:
        errors.append("shape %s, expected %s" % (z.shape, shape))
        return errors
    chunks = tuple(case["chunks"])
    if z.chunks != chunks:
        errors.append("chunks %s, expected %s" % (z.chunks, chunks))
    if z.order != case["order"]:
        errors.append("order %s, expected %s" % (z.order, case["order"]))
    sep = case["separator"]
    if z._dimension_separator not in (sep, None if sep == "." else sep):
        errors.append("dimension_separator %r, expected %r" % (z._dimension_separator, sep))
    want_comp = case["compressor"]
    got_comp = None if z.compressor is None else z.compressor.get_config()
    if want_comp is not None:
        want_comp = numcodecs.get_codec(dict(want_comp)).get_config()
    if got_comp != want_comp:
        errors.append("compressor %s, expected %s" % (got_comp, want_comp))
    if z.filters:
        errors.append("filters %s, expected none" % z.filters)
    want_fv = Metadata2.decode_fill_value(case["fill_value"], dt)
    if fill_bytes(z.fill_value, dt) != fill_bytes(want_fv, dt):
        errors.append("fill_value %r, expected %r" % (z.fill_value, want_fv))
    if "attrs" in case and dict(z.attrs) != case["attrs"]:
        errors.append("attributes %s, expected %s" % (json.dumps(dict(z.attrs)), json.dumps(case["attrs"])))

    # store keys: metadata and well-formed chunk keys only (no temporary files
    # left behind, nested keys with "/").
    allowed = {".zarray", ".zattrs"}
    allowed.update(chunk_key(idx, sep) for idx in all_chunk_indices(shape, chunks))
    extra = [k for k in store_files(path) if k not in allowed]
    if extra:
        errors.append("unexpected keys in the store: %s" % extra[:10])

    for key in case.get("absent_keys", []):
        if os.path.exists(os.path.join(path, *key.split("/"))):
            errors.append("key %r should have been erased" % key)

    full = np.asarray(z[...])
    got = le_bytes(full, dt)
    with open(case["bin"], "rb") as f:
        want = f.read()
    if len(got) != len(want):
        errors.append("read %d bytes, expected %d" % (len(got), len(want)))
        return errors
    mask = None
    if z.fill_value is None:
        # zarr-python leaves chunks never written undefined (np.empty): compare
        # the stored chunks only.
        mask = stored_mask(path, shape, chunks, sep)
        if case.get("expect_stored_chunks") and not mask.any():
            errors.append("no chunk was stored")
    if got != want:
        msg = describe_mismatch(got, want, mask, shape, le_dtype(dt).itemsize)
        if msg:
            errors.append(msg)
    return errors


def check_group(case):
    errors = []
    g = zarr.open_group(case["path"], mode="r")
    if dict(g.attrs) != case["attrs"]:
        errors.append("attributes %s, expected %s" % (json.dumps(dict(g.attrs)), json.dumps(case["attrs"])))
    if sorted(g.group_keys()) != sorted(case["groups"]):
        errors.append("groups %s, expected %s" % (sorted(g.group_keys()), sorted(case["groups"])))
    if sorted(g.array_keys()) != sorted(case["arrays"]):
        errors.append("arrays %s, expected %s" % (sorted(g.array_keys()), sorted(case["arrays"])))
    return errors


def cmd_check(check_path):
    with open(check_path) as f:
        spec = json.load(f)
    results = {}
    for kind, fn in (("arrays", check_array), ("groups", check_group)):
        for case in spec.get(kind, []):
            try:
                errors = fn(case)
            except Exception:
                errors = ["zarr-python raised: " + traceback.format_exc()]
            results[case["name"]] = {"ok": not errors, "errors": errors}
    json.dump(results, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "write":
        sys.exit(cmd_write(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 3 and sys.argv[1] == "check":
        sys.exit(cmd_check(sys.argv[2]))
    sys.stderr.write(__doc__)
    sys.exit(2)
