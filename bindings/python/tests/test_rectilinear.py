"""Rectilinear chunk grids (docs/v3.md): created from per-axis edges, their boundaries read
back, and every kind of indexing against a NumPy array of the same values."""
import numpy as np
import pytest

import libzarr


def _rectilinear(url, shape=(23, 17), chunks=([1, 3, 3, 5, 4, 4, 3], 5), **kwargs):
    return libzarr.create(store=url, shape=shape, chunks=chunks, dtype="int32", fill_value=-1,
                          zarr_format=3, **kwargs)


def test_edges_make_a_rectilinear_grid_whose_boundaries_read_back(url):
    array = _rectilinear(url)
    grid = array.metadata["chunk_grid"]
    assert grid == {"name": "rectilinear",
                    "configuration": {"kind": "inline", "chunk_shapes": [[1, [3, 2], 5, [4, 2], 3], 5]}}
    assert array.is_rectilinear and array.chunks == (5, 5)  # the largest edges
    assert array.chunk_boundaries(0) == (0, 1, 4, 7, 12, 16, 20, 23)
    assert array.chunk_boundaries(1) == (0, 5, 10, 15, 17)
    assert array.cdata_shape == (7, 4)
    regular = libzarr.create(store=url + "-regular", shape=(10,), chunks=4, dtype="uint8", zarr_format=3)
    assert regular.chunk_boundaries(0) == (0, 4, 8, 10) and not regular.is_rectilinear
    with pytest.raises(libzarr.InvalidArgumentError, match="axis 2"):
        array.chunk_boundaries(2)


def test_every_kind_of_indexing_matches_numpy(url):
    array = _rectilinear(url)
    reference = np.arange(23 * 17, dtype="int32").reshape(23, 17)
    array[...] = reference
    rng = np.random.default_rng(5)
    rows, cols = rng.integers(0, 23, 9), rng.integers(0, 17, 4)
    np.testing.assert_array_equal(array[3:19, 2:16], reference[3:19, 2:16])
    np.testing.assert_array_equal(array[1::4, ::3], reference[1::4, ::3])
    np.testing.assert_array_equal(array.oindex[rows, cols], reference[np.ix_(rows, cols)])
    points = rng.integers(0, 17, 9)
    np.testing.assert_array_equal(array.vindex[rows, points], reference[rows, points])
    # Writes of each kind, the NumPy array written the same way.
    array.oindex[[0, 22, 7], [16, 3]] = [[1, 2], [3, 4], [5, 6]]
    reference[np.ix_([0, 22, 7], [16, 3])] = [[1, 2], [3, 4], [5, 6]]
    array.vindex[[4, 5, 6], [4, 5, 6]] = [-7, -8, -9]
    reference[[4, 5, 6], [4, 5, 6]] = [-7, -8, -9]
    array[2:20:5, 1::6] = 100
    reference[2:20:5, 1::6] = 100
    mask = reference % 7 == 0
    array[mask] = 0
    reference[mask] = 0
    np.testing.assert_array_equal(array[...], reference)
    np.testing.assert_array_equal(libzarr.open(url, mode="r")[...], reference)


def test_sharded_rectilinear_arrays_and_strings(url):
    sharded = libzarr.create(store=url, shape=(12, 8), chunks=(2, 4), shards=([8, 2, 2], 8), dtype="float32",
                             zarr_format=3)
    assert sharded.metadata["chunk_grid"]["configuration"]["chunk_shapes"] == [[8, [2, 2]], 8]
    assert sharded.chunk_boundaries(0) == (0, 8, 10, 12) and sharded.chunks == (2, 4)
    values = np.arange(96, dtype="float32").reshape(12, 8)
    sharded[...] = values
    np.testing.assert_array_equal(sharded[9:12, 3:7], values[9:12, 3:7])
    strings = libzarr.create(store=url + "-strings", shape=(7,), chunks=([2, 4, 1],), dtype=str, zarr_format=3)
    strings[...] = np.array(["a", "bb", "", "dé", "e" * 9, "f", "g"], dtype=object)
    assert strings[1:6].tolist() == ["bb", "", "dé", "e" * 9, "f"]
    assert strings.oindex[[6, 0]].tolist() == ["g", "a"]


def test_bad_edges_are_refused_by_the_library_naming_the_axis(url):
    with pytest.raises(libzarr.InvalidMetadataError, match=r"chunk_shapes\[0\].*less than the extent 23"):
        _rectilinear(url, chunks=([5, 5], 5))
    with pytest.raises(libzarr.InvalidMetadataError, match="must be a positive integer"):
        _rectilinear(url, chunks=([5, 0, 20], 5))
    with pytest.raises(libzarr.InvalidArgumentError, match="chunk edges give 1 axes"):
        _rectilinear(url, chunks=([23],))


def test_blocks_are_the_chunks_of_a_rectilinear_grid(url):
    array = _rectilinear(url)
    reference = np.arange(23 * 17, dtype="int32").reshape(23, 17)
    array[...] = reference
    np.testing.assert_array_equal(array.blocks[3], reference[7:12])  # rows 7..11: the chunk of 5
    np.testing.assert_array_equal(array.blocks[1:3, 3], reference[1:7, 15:17])
    np.testing.assert_array_equal(array.blocks[-1, :2], reference[20:23, 0:10])
    array.blocks[0, 0] = -5
    reference[0:1, 0:5] = -5
    np.testing.assert_array_equal(array[...], reference)
    with pytest.raises(IndexError):
        array.blocks[7]
