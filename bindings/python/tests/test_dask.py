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


# -- every scheduler: tasks in other processes get the array by pickling (its URL) --------

@pytest.mark.parametrize("scheduler", ["threads", "processes", "synchronous"])
def test_from_array_and_store_on_each_local_scheduler(source, tmp_path, scheduler):
    array, values = source
    lazy = da.from_array(array, chunks=array.chunks)
    assert float(lazy.sum().compute(scheduler=scheduler)) == pytest.approx(values.sum())
    target = libzarr.create(str(tmp_path / "target"), shape=(50, 37), chunks=(8, 10), dtype="f8", zarr_format=2)
    da.store(lazy * 3, target, lock=False, scheduler=scheduler)  # blocks match chunks: no two share one
    np.testing.assert_allclose(libzarr.open(str(tmp_path / "target"), mode="r")[...], values * 3)


@pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")
def test_dask_distributed_local_cluster(source, tmp_path):
    distributed = pytest.importorskip("distributed", reason="Debian's python3-distributed is not installed")
    array, values = source
    target = libzarr.create(str(tmp_path / "target"), shape=(50, 37), chunks=(8, 10), dtype="f8")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=50) as cluster, \
            distributed.Client(cluster) as client:
        lazy = da.from_array(array, chunks=array.chunks)
        assert float(client.compute(lazy.sum()).result()) == pytest.approx(values.sum())
        da.store(lazy - 1, target, lock=False, compute=True)
        workers = client.run(lambda: __import__("os").getpid())
        assert len(set(workers.values())) == 2
    np.testing.assert_allclose(target[...], values - 1)


def test_a_memory_array_cannot_go_to_another_process():
    array = libzarr.zeros((10, 10), chunks=(5, 5))
    lazy = da.from_array(array, chunks=(5, 5))
    with pytest.raises(TypeError, match="memory:// store exists in this process only"):
        lazy.sum().compute(scheduler="processes")
    assert float(lazy.sum().compute(scheduler="threads")) == 0.0



def test_a_zip_archive_open_for_writing_cannot_go_to_another_process(tmp_path):
    """Storing into a zip array on the processes scheduler pickled it as its URL: the
    workers found no array (the archive is written when its last handle closes) and raised
    NotFoundError from inside Dask. Now a TypeError that says why, before any task runs;
    a closed archive reopened read-only goes to other processes."""
    store = libzarr.ZipStore(str(tmp_path / "w.zip"), mode="w")
    target = libzarr.zeros((20, 20), chunks=(5, 5), dtype="f8", store=store, zarr_format=2)
    with pytest.raises(TypeError, match="opened for writing: a zip archive is written by the one process"):
        da.store(da.ones((20, 20), chunks=(5, 5)), target, lock=False, scheduler="processes")
    da.store(da.ones((20, 20), chunks=(5, 5)), target, lock=False, scheduler="threads")
    store.close()
    written = libzarr.open_array(libzarr.ZipStore(str(tmp_path / "w.zip"), mode="r"), mode="r")
    assert float(da.from_array(written, chunks=(5, 5)).sum().compute(scheduler="processes")) == 400.0

def test_xarray_chunks_compute_in_other_processes(tmp_path, with_installed_metadata):
    xr = pytest.importorskip("xarray")
    path = str(tmp_path / "x.zarr")
    xr.Dataset({"v": (("a", "b"), np.arange(40.0).reshape(8, 5))}).to_zarr(path, encoding={"v": {"chunks": (2, 5)}})
    ds = xr.open_dataset(path, engine="libzarr", chunks={})
    assert float(ds.v.sum().compute(scheduler="processes")) == sum(range(40))
