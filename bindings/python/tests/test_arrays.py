"""Arrays: open and create, what they describe, attributes, resize, append, closing."""
import pathlib

import numpy as np
import pytest

import libzarr


def test_create_v2_then_open_describes_it(url):
    created = libzarr.create(url, {"shape": [10, 7], "chunks": [4, 3], "dtype": np.dtype("<f4"),
                                   "fill_value": np.float32(0.5), "compressor": {"id": "zlib", "level": 1}})
    array = libzarr.open(url, mode="r")
    assert isinstance(array, libzarr.Array) and array.mode == "r" and array.read_only
    assert array.shape == (10, 7) and array.chunks == (4, 3) and array.ndim == 2
    assert array.dtype == np.float32 and array.itemsize == 4 and array.nbytes == 280 and array.size == 70
    assert array.fill_value == np.float32(0.5) and array.zarr_format == 2
    assert array.metadata["compressor"] == {"id": "zlib", "level": 1}
    assert array.dimension_names is None
    assert np.all(array[...] == 0.5)
    assert "shape=(10, 7)" in repr(array) and not created.read_only


def test_create_v3_with_dimension_names(url):
    array = libzarr.create(url, {"shape": [3, 4], "data_type": "uint16", "dimension_names": ["y", None],
                                 "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 2]}}})
    assert array.zarr_format == 3 and array.dimension_names == ("y", None)
    assert array.metadata["node_type"] == "array" and array.chunks == (2, 2)


@pytest.mark.parametrize("location", ["path", "pathlib", "file url", "memory"])
def test_url_forms(tmp_path, location):
    url = {"path": str(tmp_path / "a"), "pathlib": pathlib.Path(tmp_path) / "a",
           "file url": f"file://{tmp_path}/a", "memory": f"memory://{tmp_path.name}/a"}[location]
    writer = libzarr.create(url, {"shape": [4], "dtype": "<i8"})
    writer[...] = [1, 2, 3, 4]
    assert libzarr.open(url)[...].tolist() == [1, 2, 3, 4]


def test_open_options_reach_the_library(url):
    libzarr.create(url, {"shape": [4], "chunks": [2], "dtype": "|u1"}).close()
    array = libzarr.open(url, "r+", write_empty_chunks=True)
    array[...] = 0  # the fill value: stored only because of the option
    assert sorted(p.name for p in pathlib.Path(url).iterdir()) == [".zarray", "0", "1"]
    with pytest.raises(libzarr.NotFoundError):
        libzarr.open(url, mode="r", zarr_format=3)


def test_attributes_are_a_mutable_mapping_written_through(url):
    array = libzarr.create(url, {"shape": [1], "dtype": "<i4"})
    array.attrs["unit"] = "m"
    array.attrs.update({"scale": np.float64(2.5), "axes": np.array([1, 2])}, title="t")
    assert dict(libzarr.open(url).attrs) == {"unit": "m", "scale": 2.5, "axes": [1, 2], "title": "t"}
    del array.attrs["unit"]
    assert "unit" not in array.attrs and len(array.attrs) == 3 and array.attrs["scale"] == 2.5
    with pytest.raises(KeyError):
        del array.attrs["unit"]
    with pytest.raises(TypeError, match="not JSON serialisable"):
        array.attrs["bad"] = object()


def test_attribute_changes_merge_into_the_stored_attributes(url):
    """Two handles changing different keys keep each other's (zarr_update_attributes)."""
    libzarr.create(url, {"shape": [1], "dtype": "<i4"})
    first, second = libzarr.open(url, mode="r+"), libzarr.open(url, mode="r+")
    assert dict(first.attrs) == {} and dict(second.attrs) == {}
    first.attrs["a"] = 1
    second.attrs.update(b=2, c=[3])
    assert dict(second.attrs) == {"a": 1, "b": 2, "c": [3]}
    del second.attrs["a"]
    second.attrs["none"] = None  # kept as null, as zarr-python keeps it
    assert dict(libzarr.open(url).attrs) == {"b": 2, "c": [3], "none": None}
    assert second.attrs["c"] == [3] and second.attrs.get("a") is None and 1 not in second.attrs


def test_resize_keeps_data_inside_the_new_shape(url):
    array = libzarr.create(url, {"shape": [4, 4], "chunks": [2, 2], "dtype": "<i4"})
    array[...] = np.arange(16).reshape(4, 4)
    array.resize(3, 6)
    assert array.shape == (3, 6)
    assert array[...].tolist() == [[0, 1, 2, 3, 0, 0], [4, 5, 6, 7, 0, 0], [8, 9, 10, 11, 0, 0]]
    array.resize((2,) * 2)
    assert libzarr.open(url).shape == (2, 2)
    with pytest.raises(libzarr.InvalidArgumentError, match="negative"):
        array.resize(-1, 2)


def test_append_along_an_axis(url):
    array = libzarr.create(url, {"shape": [2, 3], "chunks": [2, 2], "dtype": "<i2"})
    assert array.append(np.ones((2, 2)), axis=-1) == (2, 5)
    assert array.append([[7, 7, 7, 7, 7]]) == (3, 5)
    assert array[...].tolist() == [[0, 0, 0, 1, 1], [0, 0, 0, 1, 1], [7] * 5]
    with pytest.raises(libzarr.InvalidArgumentError, match="must equal the array shape"):
        array.append(np.ones((1, 4)))
    with pytest.raises(libzarr.InvalidArgumentError, match="axis 2 is not below"):
        array.append(np.ones((2, 1)), axis=2)
    assert array.shape == (3, 5)


def test_the_last_elements_of_an_axis_of_2_to_64_minus_1(url):
    """a[-1] wrote the rest of its chunk past a one-element buffer (the chunk
    count along such an axis wrapped); 4-byte items make 2^66 - 4 bytes, an
    array that cannot be described."""
    last = 2**64 - 1
    array = libzarr.create(url, {"shape": [last], "chunks": [10], "dtype": "|u1"})
    array[-2:] = [1, 2]
    assert array[-1] == 2
    assert array[-3:].tolist() == [0, 1, 2]
    assert array[last - 7:last - 4].tolist() == [0, 0, 0]
    assert array.nbytes == last
    with pytest.raises(libzarr.InvalidMetadataError, match="field 'shape'"):
        libzarr.create(url + "4", {"shape": [last], "chunks": [10], "dtype": "<i4"})
    with pytest.raises(libzarr.InvalidArgumentError, match="field 'shape'"):
        libzarr.create(url + "2", {"shape": [3], "chunks": [10], "dtype": "<i2"}).resize(last)


def test_metadata_may_be_json_text(url):
    array = libzarr.create(url, '{"shape": [2], "dtype": "<u2", "fill_value": 9}')
    assert array[...].tolist() == [9, 9]


def test_closed_array_refuses_every_use(url):
    with libzarr.create(url, {"shape": [2], "dtype": "<i4"}) as array:
        pass
    assert "closed" in repr(array)
    array.close()  # twice is fine
    for use in (lambda: array.shape, lambda: array[0], lambda: array.attrs["a"], lambda: array.metadata):
        with pytest.raises(libzarr.InvalidArgumentError, match="is closed"):
            use()


def test_library_version_is_the_loaded_library():
    assert libzarr.library_version().count(".") == 2


@pytest.mark.parametrize("shape, dimension, value", [((2**64, 4), 0, 2**64), ((4, 2**64 + 3), 1, 2**64 + 3),
                                                     ((4, -1), 1, -1)], ids=["2**64", "2**64+3", "negative"])
def test_a_dimension_out_of_uint64_is_a_value_error_naming_it(shape, dimension, value):
    """resize((2**64, 4)) wrapped around to (0, 4) silently, erasing every chunk (audit of
    issue 23, point 3); creation said only that the metadata held a float."""
    array = libzarr.zeros((4, 4), chunks=(2, 2), dtype="i1")
    array[...] = 1
    message = rf"dimension {dimension} \(({value}|-2)\) is (negative|not below 2\*\*64)"
    for call in (lambda: array.resize(shape), lambda: array.resize(*shape),
                 lambda: setattr(array, "shape", shape),
                 lambda: libzarr.zeros(shape, chunks=(2, 2), dtype="i1"),
                 lambda: libzarr.create_array(libzarr.storage.MemoryStore(), shape=shape, dtype="i1"),
                 lambda: libzarr.zeros((4, 4), chunks=shape if value != -1 else (4, -2), dtype="i1")):
        with pytest.raises(ValueError, match=message):
            call()
    assert array.shape == (4, 4) and array[...].sum() == 16
