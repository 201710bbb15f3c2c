"""Selections: each kind goes through its one function of _engine and one C call of its
kind (arrays of variable-length elements: the call's _vlen form, for reads and writes), and
agrees with NumPy on random selections of every kind."""
import ctypes

import numpy as np
import pytest

import libzarr
from libzarr import _capi, _engine

KINDS = ["region", "step", "orthogonal", "points"]
# The C call of each kind, after zarr_read_ / zarr_write_.
C_CALLS = {"region": "region_strided", "step": "region_step", "orthogonal": "orthogonal", "points": "points"}
# The C read and write of each kind for variable-length elements, after zarr_read_ / zarr_write_.
C_VLEN_CALLS = {"region": "region_vlen", "step": "region_step_vlen", "orthogonal": "orthogonal_vlen",
                "points": "points_vlen"}


class _RecordingLibrary:
    """The library with its zarr_read_* / zarr_write_* calls recorded by name."""

    def __init__(self, library, seen):
        self._library, self._seen = library, seen

    def __getattr__(self, name):
        function = getattr(self._library, name)
        if not name.startswith(("zarr_read_", "zarr_write_")):
            return function

        def record(*args):
            self._seen.append(name)
            return function(*args)
        return record


@pytest.fixture
def calls(monkeypatch):
    """The _engine functions called, by kind, the regions each read and wrote, and the C
    read and write calls made ("c")."""
    seen = {"read": [], "write": [], "regions_read": [], "regions_written": [], "c": []}
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
    monkeypatch.setattr(_engine, "lib", _RecordingLibrary(_engine.lib, seen["c"]))
    return seen


@pytest.fixture
def pair(tmp_path):
    shape, chunks = (37, 41), (8, 5)
    array = libzarr.create(str(tmp_path / "a.zarr"), shape=shape, chunks=chunks, dtype="i8", fill_value=-1)
    reference = np.arange(37 * 41, dtype=np.int64).reshape(shape)
    array[...] = reference
    return array, reference


KEYS_AND_KINDS = [
    (np.s_[2:9, 3], "region"), (np.s_[...], "region"), (np.s_[None, 1:3], "region"),
    (np.s_[::3, 1:9], "step"), (np.s_[::-1], "region"), (np.s_[30:2:-7, ::2], "step"),
    (np.s_[[5, 1, 1], :], "orthogonal"), (np.s_[:, np.arange(41) % 3 == 0], "orthogonal"),
    (np.s_[[0, 3], [4, 6]], "points"), (np.s_[(np.arange(37 * 41) % 5 == 0).reshape(37, 41)], "points"),
    (np.s_[[[1], [2]], 3:6], "points"),
]


@pytest.mark.parametrize("key, kind", KEYS_AND_KINDS, ids=repr)
def test_each_key_goes_through_the_function_of_its_kind(pair, calls, key, kind):
    array, reference = pair
    assert np.array_equal(array[key], reference[key])
    assert calls["read"] == [kind]
    assert calls["c"] == ["zarr_read_" + C_CALLS[kind]]  # one C call, however many chunks
    calls["c"].clear()
    array[key] = 7
    assert calls["write"] == [kind]
    assert calls["c"] == ["zarr_write_" + C_CALLS[kind]]


@pytest.mark.parametrize("indexer, kind", [("oindex", "orthogonal"), ("vindex", "points"), ("blocks", "region")])
def test_zarr_python_indexers_go_through_their_kind(pair, calls, indexer, kind):
    array, _ = pair
    getattr(array, indexer)[[1, 2], [3, 4]] if indexer != "blocks" else array.blocks[1, 2]
    assert calls["read"] == [kind]
    assert calls["c"] == ["zarr_read_" + C_CALLS[kind]]


@pytest.fixture
def strings(tmp_path):
    """pair's twin of strings, and its reference."""
    reference = np.arange(37 * 41).reshape(37, 41).astype(str).astype(object)
    array = libzarr.create(str(tmp_path / "s.zarr"), shape=(37, 41), chunks=(8, 5), dtype=str)
    array[...] = reference
    return array, reference


# Strings were read by region calls, one per chunk a selection touched (and one more per
# chunk to size each buffer), and written by region calls, one per chunk: the C API's _vlen
# selection reads and writes make each one call.
@pytest.mark.parametrize("key, kind", KEYS_AND_KINDS, ids=repr)
def test_each_key_of_strings_is_read_and_written_by_one_vlen_call_of_its_kind(strings, calls, key, kind):
    array, reference = strings
    assert np.array_equal(array[key], reference[key])
    assert calls["read"] == [kind]
    assert calls["c"] == ["zarr_read_" + C_VLEN_CALLS[kind]]
    calls["c"].clear()
    array[key] = "x"
    assert calls["write"] == [kind]
    assert calls["c"] == ["zarr_write_" + C_VLEN_CALLS[kind]]
    reference[key] = "x"
    assert np.array_equal(array[...], reference)


@pytest.mark.parametrize("indexer, kind", [("oindex", "orthogonal"), ("vindex", "points"), ("blocks", "region")])
def test_zarr_python_indexers_of_strings_read_by_one_vlen_call(strings, calls, indexer, kind):
    array, reference = strings
    got = getattr(array, indexer)[[1, 2], [3, 4]] if indexer != "blocks" else array.blocks[1, 2]
    expected = {"oindex": reference[np.ix_([1, 2], [3, 4])], "vindex": reference[[1, 2], [3, 4]],
                "blocks": reference[8:16, 10:15]}[indexer]
    assert np.array_equal(got, expected)
    assert calls["c"] == ["zarr_read_" + C_VLEN_CALLS[kind]]


def test_strings_longer_than_the_first_buffer_are_read_by_a_second_sized_call(strings, calls):
    array, reference = strings
    long = "é" * 3 * _engine._VLEN_BYTES_GUESS  # 2 bytes each in UTF-8
    array[3, 4] = reference[3, 4] = long
    calls["c"].clear()
    assert array.vindex[[3, 0], [4, 0]].tolist() == [long, "0"]
    assert calls["c"] == ["zarr_read_points_vlen"] * 2
    assert np.array_equal(array.oindex[::2, [4, 4]], reference[::2][:, [4, 4]])


def test_a_zero_dimensional_string_array_through_every_kind(tmp_path):
    array = libzarr.create(str(tmp_path / "0d.zarr"), shape=(), dtype=str)
    array[...] = "one"
    assert array[()] == "one" and array[None].tolist() == ["one"] and array.oindex[()] == "one"
    array.vindex[()] = "two"
    assert array[...] == "two" and array.vindex[()] == "two"


SELECTIONS = {
    "orthogonal, sorted": lambda rng: np.s_[np.sort(rng.choice(37, 12, replace=False)),
                                            np.sort(rng.choice(41, 15, replace=False))],
    "orthogonal, any order with repeats": lambda rng: np.s_[rng.integers(0, 37, 20), rng.integers(0, 41, 9)],
    "mask rows": lambda rng: np.s_[np.arange(37) % 3 == 0, :],
    "steps": lambda rng: np.s_[1::3, ::4],
    "negative steps": lambda rng: np.s_[::-3, 40:0:-6],
}


@pytest.fixture(params=["fixed-size", "strings"])
def any_pair(request, tmp_path):
    """pair's array, or its twin of strings."""
    reference = np.arange(37 * 41, dtype=np.int64).reshape(37, 41)
    dtype = "i8"
    if request.param == "strings":
        reference, dtype = reference.astype(str).astype(object), str
    array = libzarr.create(str(tmp_path / "a.zarr"), shape=(37, 41), chunks=(8, 5), dtype=dtype)
    array[...] = reference
    return array, reference


def changed(values):
    """Other values of the same type: negated numbers, strings with a '-' before them."""
    if values.dtype != object:
        return -values
    return np.frompyfunc(lambda v: "-" + v, 1, 1)(values).astype(object)


def assert_one_pass(array, calls, direction, kind):
    """One C call of the selection's kind (for strings, its _vlen form), and no region call."""
    names = C_CALLS if array.dtype != object else C_VLEN_CALLS
    assert calls["c"] == [f"zarr_{direction}_{names[kind]}"]
    assert not calls["regions_read"] and not calls["regions_written"]
    calls["c"].clear()
    calls["regions_read"].clear()
    calls["regions_written"].clear()


@pytest.mark.parametrize("name", SELECTIONS)
def test_orthogonal_and_step_selections_read_each_chunk_once(any_pair, calls, name):
    array, reference = any_pair
    key = SELECTIONS[name](np.random.default_rng(1))
    outer = np.ix_(*[np.arange(n)[k] for k, n in zip(key, reference.shape)])
    expected = reference[outer]
    kind = "step" if all(isinstance(k, slice) for k in key) else "orthogonal"
    assert np.array_equal(array.oindex[key], expected)
    assert_one_pass(array, calls, "read", kind)
    array.oindex[key] = changed(expected)
    assert_one_pass(array, calls, "write", kind)
    reference[outer] = changed(expected)
    assert np.array_equal(array[...], reference)


def test_points_read_and_write_each_chunk_once(any_pair, calls):
    array, reference = any_pair
    rng = np.random.default_rng(2)
    rows, columns = rng.integers(0, 37, 300), rng.integers(0, 41, 300)
    assert np.array_equal(array.vindex[rows, columns], reference[rows, columns])
    assert_one_pass(array, calls, "read", "points")
    values = changed(reference[:10, :30].reshape(-1))
    array.vindex[rows, columns] = values
    assert_one_pass(array, calls, "write", "points")
    reference[rows, columns] = values  # NumPy: where a point repeats, the last value wins
    assert np.array_equal(array[...], reference)


def test_repeated_elements_keep_the_last_value_in_selection_order(pair):
    """NumPy's rule, which the C calls promise. (zarr-python 2.13 sorts the points by chunk
    with an unstable sort, so among repeated points of one chunk any may win there.)"""
    array, reference = pair
    rows, columns = np.array([3, 9, 3, 3, 20]), np.array([4, 4, 4, 4, 40])
    array.vindex[rows, columns] = [1, 2, 3, 4, 5]
    assert (array[3, 4], array[9, 4], array[20, 40]) == (4, 2, 5)
    array.oindex[[7, 0, 7], [2, 2]] = [[1, 2], [3, 4], [5, 6]]
    assert (array[7, 2], array[0, 2]) == (6, 4)


def test_the_library_is_called_without_the_gil():
    """A CDLL, not a PyDLL: ctypes releases the GIL for each call, so a large selection does
    not stop the interpreter's other threads."""
    assert not _capi.lib._func_flags_ & ctypes._FUNCFLAG_PYTHONAPI


def test_a_negative_index_never_reaches_the_library(pair):
    """The selection layer counts negatives from the end; the engine refuses one left over
    rather than pass it on as an index near 2^64."""
    array, _ = pair
    with pytest.raises(libzarr.InvalidArgumentError, match="negative"):
        _engine.read_points(array, np.array([[1, -2]]), np.empty(1, dtype=np.int64))
    assert array.vindex[[1, -2], [-1, 0]].tolist() == [81, 1435]


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


def _masks():
    rows = np.zeros((37, 41), bool)
    rows[::3, :] = True
    box = np.zeros((37, 41), bool)
    box[4:20, 7:33] = True
    box[:, 10] = False  # still one mask per axis: rows 4..19, columns 7..32 but 10
    scattered = np.zeros((37, 41), bool)
    scattered[[1, 5, 30], [2, 40, 7]] = True
    return {"every 3rd row": (rows, "orthogonal"), "a box less a column": (box, "orthogonal"),
            "scattered": (scattered, "points")}


# A 2-D mask of whole rows (zarr-python's a[mask]) was turned into one point per
# element: 8.7 M points for every 3rd row of a 5120^2 array, 8.6x the time of reading
# the chunks it touches. A mask that is one mask per axis, multiplied out, is the
# orthogonal selection of those axes' positions, in the same C order.
@pytest.mark.parametrize("name", ["every 3rd row", "a box less a column", "scattered"])
def test_a_mask_made_of_one_mask_per_axis_is_an_orthogonal_selection(pair, calls, name):
    array, reference = pair
    mask, kind = _masks()[name]
    call = {"orthogonal": "orthogonal", "points": "points"}[kind]
    for read in (lambda: array.get_mask_selection(mask), lambda: array.vindex[mask], lambda: array[mask]):
        assert np.array_equal(read(), reference[mask])
        assert calls["c"] == [f"zarr_read_{call}"]
        calls["c"].clear()
    values = -np.arange(mask.sum(), dtype=np.int64)
    array.set_mask_selection(mask, values)
    assert calls["c"] == [f"zarr_write_{call}"]
    reference[mask] = values
    array[mask] = 7
    reference[mask] = 7
    assert np.array_equal(array[...], reference)
