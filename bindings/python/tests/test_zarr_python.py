"""Interop with zarr-python 2.13 (Debian's python3-zarr): each reads what the other writes."""
import numpy as np
import pytest

import libzarr

zarr = pytest.importorskip("zarr", reason="Debian's python3-zarr (zarr-python 2) is not installed")
numcodecs = pytest.importorskip("numcodecs")

# zarr-python 2.13 compares a U fill value with 0 itself, which NumPy warns about.
pytestmark = pytest.mark.filterwarnings("ignore:elementwise comparison failed:DeprecationWarning")

# (dtype, compressor, order) combinations zarr-python writes and libzarr reads, and back.
CASES = [
    ("<i4", numcodecs.Blosc(cname="zstd", clevel=3, shuffle=numcodecs.Blosc.SHUFFLE), "C"),
    (">f8", numcodecs.Zlib(level=4), "F"),
    ("<u2", numcodecs.LZ4(), "C"),
    ("|b1", None, "C"),
    ("<c16", numcodecs.BZ2(), "F"),
    ("<M8[ms]", numcodecs.Zstd(level=1), "C"),
    ("<U5", numcodecs.GZip(), "C"),
]


def values_of(dtype, shape):
    """Distinct values of dtype in shape (0/1 for bool, short text for U)."""
    numbers = np.arange(int(np.prod(shape))).reshape(shape)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return numbers % 3 == 0
    if dtype.kind == "U":
        return numbers.astype("U5")
    if dtype.kind == "M":
        return numbers.astype(dtype)
    return (numbers * 3 - 7).astype(dtype)


@pytest.mark.parametrize("dtype, compressor, order", CASES, ids=lambda v: str(v))
def test_libzarr_reads_what_zarr_python_writes(url, dtype, compressor, order):
    values = values_of(dtype, (9, 11))
    written = zarr.open_array(url, mode="w", shape=values.shape, chunks=(4, 5), dtype=dtype,
                              compressor=compressor, order=order)
    written[...] = values
    written.attrs["from"] = "zarr-python"
    array = libzarr.open(url)
    assert array.shape == (9, 11) and array.chunks == (4, 5)
    assert np.array_equal(array[...], values) and np.array_equal(array[2:7:2, ::-3], values[2:7:2, ::-3])
    assert array.attrs["from"] == "zarr-python"


@pytest.mark.parametrize("dtype, compressor, order", CASES, ids=lambda v: str(v))
def test_zarr_python_reads_what_libzarr_writes(url, dtype, compressor, order):
    values = values_of(dtype, (9, 11))
    array = libzarr.create(url, {"shape": [9, 11], "chunks": [4, 5], "dtype": np.dtype(dtype),
                                 "order": order, "compressor": compressor and compressor.get_config()})
    array[...] = values
    array.attrs["from"] = "libzarr"
    read = zarr.open_array(url, mode="r")
    assert read.dtype == np.dtype(dtype) and read.order == order
    assert np.array_equal(read[...], values) and read.attrs["from"] == "libzarr"


def test_strings_both_ways(tmp_path):
    words = np.array(["", "α", "two words", "x" * 300], dtype=object)
    theirs = zarr.open_array(str(tmp_path / "theirs"), mode="w", shape=4, chunks=3, dtype=str)
    theirs[...] = words
    assert libzarr.open(str(tmp_path / "theirs"))[...].tolist() == words.tolist()
    ours = libzarr.create(str(tmp_path / "ours"), {"shape": [4], "chunks": [3], "dtype": "|O",
                                                  "filters": [{"id": "vlen-utf8"}], "fill_value": None})
    ours[...] = words
    assert zarr.open_array(str(tmp_path / "ours"), mode="r")[...].tolist() == words.tolist()


def test_bytes_both_ways(tmp_path):
    blobs = np.array([b"", b"\x00\xff", b"abc"], dtype=object)
    # fill_value=None: zarr-python 2.13 cannot write its default fill value of bytes arrays.
    theirs = zarr.open_array(str(tmp_path / "theirs"), mode="w", shape=3, dtype=bytes, fill_value=None)
    theirs[...] = blobs
    assert libzarr.open(str(tmp_path / "theirs"))[...].tolist() == blobs.tolist()
    ours = libzarr.create(str(tmp_path / "ours"), {"shape": [3], "dtype": "|O",
                                                  "filters": [{"id": "vlen-bytes"}], "fill_value": None})
    ours[...] = blobs
    assert zarr.open_array(str(tmp_path / "ours"), mode="r")[...].tolist() == blobs.tolist()


def test_hierarchy_both_ways(tmp_path):
    theirs = zarr.open_group(str(tmp_path / "theirs"), mode="w")
    theirs.attrs["name"] = "root"
    theirs.create_dataset("g/a", data=np.arange(6).reshape(2, 3), chunks=(1, 3))
    root = libzarr.open(str(tmp_path / "theirs"))
    assert root.keys() == ["g"] and root.attrs["name"] == "root"
    assert root["g/a"][...].tolist() == [[0, 1, 2], [3, 4, 5]]

    ours = libzarr.group(str(tmp_path / "ours"), attributes={"name": "ours"}, zarr_format=2)
    ours.create_array("g/b", {"shape": [3], "dtype": "<f4"})[...] = [0.5, 1.5, 2.5]
    read = zarr.open_group(str(tmp_path / "ours"), mode="r")
    assert read.attrs["name"] == "ours" and list(read["g"]) == ["b"]
    assert read["g/b"][...].tolist() == [0.5, 1.5, 2.5]


def test_orthogonal_selection_agrees_with_zarr_python(url):
    values = np.arange(12 * 10).reshape(12, 10)
    zarr.open_array(url, mode="w", shape=values.shape, chunks=(5, 4), dtype="<i8")[...] = values
    theirs = zarr.open_array(url, mode="r")
    ours = libzarr.open(url)
    for key in [([0, 11, 3], slice(None, None, 2)), (np.arange(12) % 5 == 0, [9, 0])]:
        assert np.array_equal(ours.oindex[key], theirs.oindex[key])
