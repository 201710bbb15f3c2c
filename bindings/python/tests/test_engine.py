"""Selections: each kind goes through its one function of _engine, reads each stored chunk
at most once per call, and agrees with NumPy on random selections of every kind."""
import itertools

import numpy as np
import pytest

import libzarr
from libzarr import _engine

KINDS = ["region", "step", "orthogonal", "points"]


@pytest.fixture
def calls(monkeypatch):
    """The _engine functions called, by kind, and the regions each read and wrote."""
    seen = {"read": [], "write": [], "regions_read": [], "regions_written": []}
    depth = [0]  # record the kind a selection enters by, not the calls it makes inside
    read_region, write_region = _engine.read_region, _engine.write_region
    for kind in KINDS:
        for direction in ("read", "write"):
            name = f"{direction}_{kind}"
            original = getattr(_engine, name)

            def spy(*args, _original=original, _kind=kind, _direction=direction):
                if not depth[0]:
                    seen[_direction].append(_kind)
                depth[0] += 1
                try:
                    return _original(*args)
                finally:
                    depth[0] -= 1
            monkeypatch.setattr(_engine, name, spy)

    def spy_read(array, start, count, out):
        if not depth[0]:
            seen["read"].append("region")
        seen["regions_read"].append((tuple(start), tuple(count)))
        return read_region(array, start, count, out)

    def spy_write(array, start, count, source):
        if not depth[0]:
            seen["write"].append("region")
        seen["regions_written"].append((tuple(start), tuple(count)))
        return write_region(array, start, count, source)
    # The kinds call the region functions through the module: patch them there.
    monkeypatch.setattr(_engine, "read_region", spy_read)
    monkeypatch.setattr(_engine, "write_region", spy_write)
    return seen


@pytest.fixture
def pair(tmp_path):
    shape, chunks = (37, 41), (8, 5)
    array = libzarr.create(str(tmp_path / "a.zarr"), shape=shape, chunks=chunks, dtype="i8", fill_value=-1)
    reference = np.arange(37 * 41, dtype=np.int64).reshape(shape)
    array[...] = reference
    return array, reference


@pytest.mark.parametrize("key, kind", [
    (np.s_[2:9, 3], "region"), (np.s_[...], "region"), (np.s_[None, 1:3], "region"),
    (np.s_[::3, 1:9], "step"), (np.s_[::-1], "region"), (np.s_[30:2:-7, ::2], "step"),
    (np.s_[[5, 1, 1], :], "orthogonal"), (np.s_[:, np.arange(41) % 3 == 0], "orthogonal"),
    (np.s_[[0, 3], [4, 6]], "points"), (np.s_[(np.arange(37 * 41) % 5 == 0).reshape(37, 41)], "points"),
    (np.s_[[[1], [2]], 3:6], "points"),
], ids=repr)
def test_each_key_goes_through_the_function_of_its_kind(pair, calls, key, kind):
    array, reference = pair
    assert np.array_equal(array[key], reference[key])
    assert calls["read"] == [kind]
    array[key] = 7
    assert calls["write"] == [kind]


@pytest.mark.parametrize("indexer, kind", [("oindex", "orthogonal"), ("vindex", "points"), ("blocks", "region")])
def test_zarr_python_indexers_go_through_their_kind(pair, calls, indexer, kind):
    array, _ = pair
    getattr(array, indexer)[[1, 2], [3, 4]] if indexer != "blocks" else array.blocks[1, 2]
    assert calls["read"] == [kind]


def chunks_touched(regions, chunks):
    """The grid indices of the chunks each region touches, one list entry per (region, chunk)."""
    touched = []
    for start, count in regions:
        ranges = [range(s // c, (s + n - 1) // c + 1) for s, n, c in zip(start, count, chunks)]
        touched.extend(itertools.product(*ranges))
    return touched


SELECTIONS = {
    "orthogonal, sorted": lambda rng: np.s_[np.sort(rng.choice(37, 12, replace=False)),
                                            np.sort(rng.choice(41, 15, replace=False))],
    "orthogonal, any order with repeats": lambda rng: np.s_[rng.integers(0, 37, 20), rng.integers(0, 41, 9)],
    "mask rows": lambda rng: np.s_[np.arange(37) % 3 == 0, :],
    "steps": lambda rng: np.s_[1::3, ::4],
    "negative steps": lambda rng: np.s_[::-3, 40:0:-6],
}


@pytest.mark.parametrize("name", SELECTIONS)
def test_orthogonal_and_step_selections_read_each_chunk_once(pair, calls, name):
    array, reference = pair
    key = SELECTIONS[name](np.random.default_rng(1))
    expected = reference[np.ix_(*[np.arange(n)[k] for k, n in zip(key, reference.shape)])]
    assert np.array_equal(array.oindex[key], expected)
    touched = chunks_touched(calls["regions_read"], array.chunks)
    assert len(touched) == len(set(touched)), "a chunk was read twice"
    array.oindex[key] = -expected
    written = chunks_touched(calls["regions_written"], array.chunks)
    assert len(written) == len(set(written)), "a chunk was written twice"
    reference[np.ix_(*[np.arange(n)[k] for k, n in zip(key, reference.shape)])] = -expected
    assert np.array_equal(array[...], reference)


def test_points_read_and_write_each_chunk_once(pair, calls):
    array, reference = pair
    rng = np.random.default_rng(2)
    rows, columns = rng.integers(0, 37, 300), rng.integers(0, 41, 300)
    assert np.array_equal(array.vindex[rows, columns], reference[rows, columns])
    touched = chunks_touched(calls["regions_read"], array.chunks)
    assert len(touched) == len(set(touched))
    calls["regions_read"].clear()
    values = np.arange(300)
    array.vindex[rows, columns] = values
    reference[rows, columns] = values  # NumPy: where a point repeats, the last value wins
    assert np.array_equal(array[...], reference)
    assert len(set(chunks_touched(calls["regions_written"], array.chunks))) == len(calls["regions_written"])


def random_key(rng, shape):
    """A random key of any kind NumPy takes: ints, slices with steps, index arrays, masks, None."""
    items = []
    for length in shape:
        choice = rng.integers(0, 5)
        if choice == 0:
            items.append(int(rng.integers(-length, length)))
        elif choice == 1:
            start, stop = sorted(rng.integers(-length, length, 2))
            step = int(rng.choice([1, 2, 3, -1, -2, -5]))
            items.append(slice(int(start), int(stop), step) if step > 0 else slice(int(stop), int(start), step))
        elif choice == 2:
            items.append(rng.integers(-length, length, int(rng.integers(1, 6))))
        elif choice == 3:
            items.append(rng.random(length) < 0.3)
        else:
            items.append(slice(None))
    if rng.random() < 0.2:
        items.insert(int(rng.integers(0, len(items) + 1)), None)
    return tuple(items)


@pytest.mark.parametrize("layout", ["v2", "v3 sharded", "v2 F order", "v3 strings"])
def test_random_keys_agree_with_numpy(tmp_path, layout):
    rng = np.random.default_rng(7)
    shape = (13, 11, 7)
    reference = (np.arange(np.prod(shape)) * 3).reshape(shape)
    options = {"v2": dict(zarr_format=2, chunks=(4, 3, 5), dtype="i4"),
               "v3 sharded": dict(zarr_format=3, chunks=(2, 3, 2), shards=(4, 6, 4), dtype="f8"),
               "v2 F order": dict(zarr_format=2, chunks=(5, 4, 3), order="F", dtype=">u2"),
               "v3 strings": dict(zarr_format=3, chunks=(4, 4, 4), dtype=str)}[layout]
    if options["dtype"] is str:
        reference = reference.astype(str).astype(object)
    else:
        reference = reference.astype(np.dtype(options["dtype"]).newbyteorder("="))
    array = libzarr.create(str(tmp_path / "r.zarr"), shape=shape, **options)
    array[...] = reference
    for _ in range(60):
        key = random_key(rng, shape)
        try:
            expected = reference[key]
        except IndexError:  # arrays that do not broadcast together: refused alike
            with pytest.raises(IndexError):
                array[key]
            continue
        got = array[key]
        assert np.shape(got) == np.shape(expected) and np.array_equal(got, expected), key
        value = np.asarray(expected).copy()
        value[...] = reference.flat[0]
        array[key] = value
        reference[key] = value
        assert np.array_equal(array[...], reference), key


def test_orthogonal_random_keys_agree_with_numpy_outer_indexing(pair):
    array, reference = pair
    rng = np.random.default_rng(3)
    for _ in range(40):
        key = tuple(rng.integers(-n, n, int(rng.integers(0, 5))) if rng.random() < 0.5 else
                    slice(None, None, int(rng.choice([1, -2, 3]))) for n in reference.shape)
        outer = np.ix_(*[np.arange(n)[k] for k, n in zip(key, reference.shape)])
        assert np.array_equal(array.oindex[key], reference[outer])


def test_a_zero_dimensional_array_through_every_kind(tmp_path):
    array = libzarr.create(str(tmp_path / "0d.zarr"), shape=(), dtype="f4", fill_value=2.5)
    assert array[()] == 2.5 and array[...].shape == () and array[None].shape == (1,)
    array.vindex[()] = 4
    assert array.oindex[()] == 4
