"""zarrs' experimental "optional" data type: optional<T> reads as numpy.ma.MaskedArray of T
(missing elements masked); optional<optional<T>> as the C API's records; writing only with
ZARR_EXPERIMENTAL_OPTIONAL=1."""
import json
import os
import pathlib

import numpy as np
import pytest

import libzarr

PEER = pathlib.Path(__file__).resolve().parents[3].parent / "shared" / "peer-data" / "zarrs-data" / "v3"
FLAT = PEER / "array_optional.zarr" / "array"
NESTED = PEER / "array_optional_nested.zarr" / "array"

needs_peer_data = pytest.mark.skipif(not FLAT.is_dir(), reason=f"no peer data at {PEER}")


def grid(path):
    """The description's grid: rows of "N", "SN" or numbers."""
    description = json.loads((path / "zarr.json").read_text())["attributes"]["description"]
    rows = []
    for line in description.splitlines():
        cells = line.split()
        if len(cells) == 4 and all(c in ("N", "SN") or c.isdigit() for c in cells):
            rows.append(cells)
    return rows


@needs_peer_data
def test_optional_reads_as_a_masked_array():
    a = libzarr.open(str(FLAT), mode="r")
    data = a[...]
    assert isinstance(data, np.ma.MaskedArray)
    assert data.dtype == np.uint8
    cells = grid(FLAT)
    expected_mask = np.array([[c == "N" for c in row] for row in cells])
    np.testing.assert_array_equal(np.ma.getmaskarray(data), expected_mask)
    values = np.array([[int(c) if c.isdigit() else 0 for c in row] for row in cells], dtype=np.uint8)
    np.testing.assert_array_equal(data.filled(0), values)
    assert a[0, 1] is np.ma.masked
    assert a[1, 1] == 5


@needs_peer_data
def test_nested_optional_reads_as_records():
    a = libzarr.open(str(NESTED), mode="r")
    data = a[...]
    assert data.dtype.names == ("present", "value")
    for (i, j), cell in np.ndenumerate(np.array(grid(NESTED))):
        element = data[i, j]
        if cell == "N":
            assert element["present"] == 0
        elif cell == "SN":
            assert (element["present"], element["value"]["present"]) == (1, 0)
        else:
            assert (element["present"], element["value"]["present"], element["value"]["value"]) == (1, 1, int(cell))


def optional_metadata(inner="int16"):
    return {
        "zarr_format": 3, "node_type": "array", "shape": [5], "fill_value": None,
        "data_type": {"name": "optional", "configuration": {"name": inner, "configuration": {}}},
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "default"},
        "codecs": [{"name": "optional", "configuration": {
            "mask_codecs": [{"name": "packbits"}],
            "data_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}}],
    }


def test_masked_arrays_round_trip_with_the_flag(tmp_path, monkeypatch):
    folder = tmp_path / "a"
    folder.mkdir()
    (folder / "zarr.json").write_text(json.dumps(optional_metadata()))
    monkeypatch.setenv("ZARR_EXPERIMENTAL_OPTIONAL", "1")
    a = libzarr.open(str(folder), mode="r+")
    assert a[...].mask.all()  # the fill value null: every element missing
    written = np.ma.MaskedArray([1, -2, 3, 4, -5], mask=[False, True, False, False, True], dtype=np.int16)
    a[...] = written
    back = libzarr.open(str(folder), mode="r")[...]
    np.testing.assert_array_equal(back.mask, written.mask)
    np.testing.assert_array_equal(back.compressed(), written.compressed())


def test_writing_without_the_flag_is_refused(tmp_path, monkeypatch):
    folder = tmp_path / "a"
    folder.mkdir()
    (folder / "zarr.json").write_text(json.dumps(optional_metadata()))
    monkeypatch.delenv("ZARR_EXPERIMENTAL_OPTIONAL", raising=False)
    a = libzarr.open(str(folder), mode="r+")
    with pytest.raises(libzarr.errors.UnsupportedError, match="ZARR_EXPERIMENTAL_OPTIONAL"):
        a[0] = 7
    assert not os.path.exists(folder / "c" / "0")
