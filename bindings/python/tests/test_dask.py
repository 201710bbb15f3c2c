"""Dask: a libzarr Array is a source for dask.array.from_array and a target for dask.array.store."""
import numpy as np
import pytest

import libzarr

da = pytest.importorskip("dask.array", reason="Debian's python3-dask is not installed")


@pytest.fixture
def source(url):
    array = libzarr.create(url, {"shape": [50, 37], "chunks": [8, 10], "dtype": "<f8", "fill_value": -1.0})
    values = np.arange(50 * 37, dtype=np.float64).reshape(50, 37) / 7
    array[...] = values
    return array, values


def test_from_array_computes_what_numpy_computes(source):
    array, values = source
    lazy = da.from_array(array, chunks=array.chunks)
    assert lazy.chunks[0][0] == 8 and lazy.chunks[1][-1] == 7  # one task per Zarr chunk
    assert np.allclose((lazy * 2 - lazy.mean(axis=0)).compute(), values * 2 - values.mean(axis=0))
    assert np.array_equal(lazy[5:40:3, ::-2].compute(), values[5:40:3, ::-2])
    assert lazy.sum().compute() == pytest.approx(values.sum())


def test_store_writes_every_chunk_in_parallel(source, tmp_path):
    array, values = source
    target = libzarr.create(str(tmp_path / "target"),
                            {"shape": [50, 37], "chunks": [8, 10], "dtype": "<f8", "fill_value": 0.0})
    result = da.from_array(array, chunks=array.chunks) ** 2 + 1
    da.store(result, target, lock=False, scheduler="threads")  # the handle is thread-safe
    np.testing.assert_allclose(libzarr.open(str(tmp_path / "target"))[...], values ** 2 + 1)


def test_store_with_dask_chunks_unlike_zarr_chunks(source, tmp_path):
    array, values = source
    target = libzarr.create(str(tmp_path / "target"), {"shape": [50, 37], "chunks": [8, 10], "dtype": "<i8"})
    # Dask blocks straddle Zarr chunks: threads write parts of the same chunks at once,
    # which the library serialises per chunk, so no lock is needed here either.
    da.store(da.from_array(values.astype(np.int64), chunks=(13, 11)), target, lock=False)
    assert np.array_equal(target[...], values.astype(np.int64))
