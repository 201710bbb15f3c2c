"""zarr-python's creation conveniences (full, zeros, ones, *_like), info,
stored chunks, erase and the thread count, through the C API."""
import numpy as np
import pytest

import libzarr


def test_zeros_ones_full_write_no_chunk(url, tmp_path):
    zeros = libzarr.zeros(url, (4, 6), dtype="<i2", chunks=(2, 3))
    assert zeros.dtype == np.int16 and zeros.chunks == (2, 3) and np.all(zeros[...] == 0)
    assert libzarr.ones(str(tmp_path / "ones"), (5,))[...].tolist() == [1.0] * 5
    full = libzarr.full(str(tmp_path / "full"), (2, 2), 7.5, dtype="<f4")
    assert np.all(full[...] == np.float32(7.5)) and full.fill_value == np.float32(7.5)
    assert zeros.info["chunks_initialized"] == 0 and zeros.info["chunks_total"] == 4


def test_like_functions_copy_metadata_not_data_or_attributes(url, tmp_path):
    source = libzarr.create(url, {"shape": [4, 4], "chunks": [2, 2], "dtype": "<u2", "fill_value": 3,
                                  "compressor": {"id": "zlib", "level": 1}})
    source.attrs["units"] = "K"
    source[...] = np.arange(16, dtype="<u2").reshape(4, 4)
    zeros = libzarr.zeros_like(str(tmp_path / "z"), source)
    assert np.all(zeros[...] == 0) and dict(zeros.attrs) == {}
    assert zeros.metadata["compressor"] == {"id": "zlib", "level": 1} and zeros.chunks == (2, 2)
    assert np.all(libzarr.ones_like(str(tmp_path / "o"), source)[...] == 1)
    assert np.all(libzarr.full_like(str(tmp_path / "f"), source, 9)[...] == 9)
    assert np.all(libzarr.empty_like(str(tmp_path / "e"), source)[...] == 3)
    smaller = libzarr.create_like(str(tmp_path / "s"), source, {"shape": [2, 2]})
    assert smaller.shape == (2, 2)
    with pytest.raises(libzarr.InvalidArgumentError, match="zarr_format"):
        libzarr.create_like(str(tmp_path / "bad"), source, {"zarr_format": 3})


def test_info_stored_chunks_and_erase(url):
    array = libzarr.create(url, {"shape": [4, 4], "chunks": [2, 2], "dtype": "<i4", "compressor": None})
    array[0:2, 0:4] = 1
    info = array.info
    assert info["shape"] == [4, 4] and info["chunks_initialized"] == 2 and info["nbytes"] == 64
    chunks, stray = array.stored_chunks()
    assert sorted(chunks) == [(0, 0), (0, 1)] and stray == []
    array.close()
    libzarr.erase(url)
    with pytest.raises(libzarr.NotFoundError):
        libzarr.open_array(url)


def test_thread_count_can_be_set_and_restored():
    libzarr.set_thread_count(3)
    try:
        assert libzarr.thread_count() == 3
    finally:
        libzarr.set_thread_count(0)
    assert libzarr.thread_count() >= 1
    with pytest.raises(libzarr.InvalidArgumentError, match="thread count"):
        libzarr.set_thread_count(100000)


def test_one_handle_can_be_limited_to_fewer_threads(tmp_path):
    url = str(tmp_path / "t")
    values = np.arange(64 * 64, dtype="<i4").reshape(64, 64)
    array = libzarr.create(url, {"zarr_format": 2, "shape": [64, 64], "chunks": [8, 8], "dtype": "<i4"})
    array[...] = values
    array.close()
    limited = libzarr.open_array(url, data_copy_concurrency={"limit": 1})
    assert np.array_equal(limited[...], values)
    limited.close()
    with pytest.raises(libzarr.InvalidArgumentError, match="data_copy_concurrency"):
        libzarr.open_array(url, data_copy_concurrency={"limit": 0})


def test_open_spec_creates_then_opens_with_constraints(tmp_path):
    spec = {"driver": "zarr", "kvstore": {"driver": "file", "path": str(tmp_path / "s.zarr")},
            "metadata": {"shape": [6, 4], "chunks": [3, 2], "dtype": "<i2", "fill_value": 5}, "create": True}
    created = libzarr.open_spec(spec)
    created[0, :] = [1, 2, 3, 4]
    created.close()
    opened = libzarr.open_spec({"driver": "zarr", "kvstore": str(tmp_path / "s.zarr"), "metadata": {"chunks": [3, 2]}})
    assert opened[0, :].tolist() == [1, 2, 3, 4] and opened[1, 0] == 5
    with pytest.raises(libzarr.InvalidMetadataError, match="metadata.chunks"):
        libzarr.open_spec({"driver": "zarr", "kvstore": str(tmp_path / "s.zarr"), "metadata": {"chunks": [2, 2]}})
    with pytest.raises(libzarr.InvalidArgumentError, match="delete_existing"):
        libzarr.open_spec({"driver": "zarr", "kvstore": str(tmp_path / "s.zarr"), "delete_existing": True})


def test_tree_prints_control_and_bidi_characters_of_names_escaped(tmp_path):
    # Names went to the terminal as they were: ESC, CSI (U+009B) and U+202E with them.
    root = libzarr.open_group(str(tmp_path / "g"), mode="w")
    root.create_group("a\x1b[2J")
    root.zeros("b\u009b1\u202egpj.exe", shape=(2,), dtype="i4")
    text = str(root.tree())
    assert "\x1b" not in text and "\u009b" not in text and "\u202e" not in text, text
    assert "a\\x1b[2J" in text and "b\\u009B1\\u202Egpj.exe (2,) int32" in text, text


def test_group_info_prints_zarr_python_rows(tmp_path):
    """Group.info has zarr-python's rows, in its order, with the names of arrays and
    groups (it had no Store type, Arrays or Groups row: audit of issue 23, point 8)."""
    root = libzarr.open_group(libzarr.DirectoryStore(str(tmp_path / "g.zarr")), mode="w", zarr_format=2)
    root.create_group("sub")
    root.zeros("y", shape=(2,))
    root.zeros("x", shape=(2,))
    rows = root.info_items()
    assert [name for name, _ in rows] == ["Name", "Type", "Zarr format", "Read-only", "Store type", "Store",
                                          "No. members", "No. arrays", "Arrays", "No. groups", "Groups"]
    values = dict(rows)
    assert values["Name"] == "/" and values["Read-only"] == "False"
    assert values["Store type"] == "libzarr.storage.DirectoryStore"
    assert (values["No. members"], values["No. arrays"], values["Arrays"]) == ("3", "2", "x, y")
    assert (values["No. groups"], values["Groups"]) == ("1", "sub")
    printed = str(root.info).splitlines()
    assert printed[0] == "Name        : /" and printed[4] == "Store type  : libzarr.storage.DirectoryStore"
    empty = dict(libzarr.group().info_items())
    assert "Arrays" not in empty and "Groups" not in empty and empty["Store type"] == "libzarr.storage.MemoryStore"
    array_rows = dict(root["x"].info_items())
    assert array_rows["Name"] == "/x" and array_rows["Store type"] == "libzarr.storage.DirectoryStore"


@pytest.mark.parametrize("name, value", [("zeros", 0), ("ones", 1), ("empty", None)])
def test_a_fill_value_given_to_zeros_ones_empty_is_a_type_error(name, value):
    """zeros((5,), fill_value=np.nan) made an array of zeros, the fill value given dropped
    silently; zarr-python 2 raises TypeError (multiple values for fill_value)."""
    with pytest.raises(TypeError, match=f"{name}\\(\\) got multiple values for argument 'fill_value'"):
        getattr(libzarr, name)((5,), dtype="f4", fill_value=np.nan)
    assert libzarr.full((2,), fill_value=np.nan, dtype="f4")[...].tolist() != [0.0, 0.0]


@pytest.mark.parametrize("n", [-1, 2**64], ids=["negative", "2**64"])
def test_a_thread_count_out_of_size_t_is_a_value_error_naming_it(n):
    """ctypes wrapped -1 to 2**64 - 1 (refused with that number) and 2**64 to 0, silently
    the default."""
    libzarr.set_thread_count(3)
    try:
        with pytest.raises(ValueError, match=rf"set_thread_count: n \({n}\) is (negative|not below 2\*\*64)"):
            libzarr.set_thread_count(n)
        assert libzarr.thread_count() == 3
    finally:
        libzarr.set_thread_count(0)
