"""NumPy-style indexing: every read and write is checked against NumPy on the same data."""
import numpy as np
import pytest
from conftest import filled, make_array, run_isolated

import libzarr

# Plain indexing has NumPy's meaning for every key: basic, one index array, several index
# arrays paired up pointwise, masks of any rank, None (np.newaxis).
MASK_2D = (np.arange(130).reshape(10, 13) % 7) == 2
KEYS_2D = [
    np.s_[...], np.s_[:], np.s_[3], np.s_[-1], np.s_[2, 5], np.s_[-3, -7],
    np.s_[1:6], np.s_[1:6, 2:11], np.s_[:, 4], np.s_[..., 4], np.s_[2, ...],
    np.s_[::2], np.s_[1::3, ::4], np.s_[::-1], np.s_[8:1:-2, ::-3], np.s_[-2:, :-9],
    np.s_[5:5], np.s_[7:2], np.s_[:, 20:30],
    np.s_[[4, 0, 2]], np.s_[[1, 1, -1], 3:9], np.s_[:, [11, 0, 5, 6, 7]],
    np.s_[np.array([0, 3, 4, 5, 9])], np.s_[[], :],
    np.s_[np.array([True, False] * 5)], np.s_[2:8, np.arange(13) % 3 == 0],
    np.s_[[0, 1, 9], [2, 3, 12]], np.s_[[[0, 1], [9, 4]], [[2, 3], [12, 0]]], np.s_[MASK_2D],
    np.s_[[[1, 2], [3, 4]]], np.s_[[0, 9], 2:7:2], np.s_[[3, 4], None, [5, 6]], np.s_[[[0], [1]], [2, 5, 8]],
    np.s_[None], np.s_[None, 2, :], np.s_[:, None, 3], np.s_[..., None], np.s_[2, None, ::-3],
    np.s_[None, [1, 0]], np.s_[np.zeros((10, 13), bool)],
]


@pytest.fixture
def pair(url):
    """A 10 x 13 int32 array in 3 x 5 chunks (edge chunks on both axes) and its NumPy twin."""
    return filled(*make_array(url, (10, 13), (3, 5), fill_value=-1))


@pytest.mark.parametrize("key", KEYS_2D, ids=repr)
def test_read_matches_numpy(pair, key):
    array, reference = pair
    got = array[key]
    expected = reference[key]
    assert np.shape(got) == np.shape(expected)
    assert np.array_equal(got, expected)
    assert type(got) is type(expected)  # a NumPy scalar where NumPy gives one


@pytest.mark.parametrize("key", KEYS_2D, ids=repr)
def test_write_matches_numpy(pair, key):
    array, reference = pair
    shape = np.shape(reference[key])
    value = -(np.arange(int(np.prod(shape)), dtype=np.int32) + 100).reshape(shape)
    array[key] = value
    reference[key] = value
    assert np.array_equal(array[...], reference)


@pytest.mark.parametrize("key", [np.s_[...], np.s_[::3, 2], np.s_[[5, 1]], np.s_[4:9:2, ::-1]], ids=repr)
def test_scalar_value_broadcasts(pair, key):
    array, reference = pair
    array[key] = 42
    reference[key] = 42
    assert np.array_equal(array[...], reference)


def test_value_of_another_shape_is_refused(pair):
    array, reference = pair
    with pytest.raises(libzarr.InvalidArgumentError, match="selection of shape"):
        array[0:2, 0:2] = np.ones((3, 3))
    assert np.array_equal(array[...], reference)


ORTHOGONAL_KEYS = [
    np.s_[[3, 0], [12, 1, 1]],
    np.s_[np.arange(10) > 6, [0, 4]],
    np.s_[[-1, 2], np.arange(13) % 2 == 1],
    np.s_[[9], ::-4],
]


@pytest.mark.parametrize("key", ORTHOGONAL_KEYS, ids=repr)
def test_oindex_selects_each_axis_on_its_own(pair, key):
    array, reference = pair
    numpy_key = np.ix_(*[np.arange(n)[k] for k, n in zip(key, reference.shape)])
    assert np.array_equal(array.oindex[key], reference[numpy_key])
    value = np.arange(reference[numpy_key].size, dtype=np.int32).reshape(reference[numpy_key].shape)
    array.oindex[key] = value
    reference[numpy_key] = value
    assert np.array_equal(array[...], reference)


def test_index_arrays_on_two_axes_pair_up_as_in_numpy_and_zarr_python(pair):
    array, reference = pair
    assert array[[0, 1], [2, 3]].tolist() == [reference[0, 2], reference[1, 3]]
    assert np.array_equal(array.vindex[[0, 1], [2, 3]], array[[0, 1], [2, 3]])
    assert array.oindex[[0, 1], [2, 3]].shape == (2, 2)  # oindex: each axis on its own
    array[[0, 0, 5], [2, 2, 7]] = [1, 2, 3]  # a repeated point: the last value wins
    assert array[0, 2] == 2 and array[5, 7] == 3


def test_step_write_keeps_elements_between_steps(pair):
    array, reference = pair
    array[1:9:3, ::5] = 0
    reference[1:9:3, ::5] = 0
    assert np.array_equal(array[...], reference)


def test_iteration_and_len(pair):
    array, reference = pair
    assert len(array) == 10
    assert all(np.array_equal(row, expected) for row, expected in zip(array, reference))


def test_asarray_and_dtype_argument(pair):
    array, reference = pair
    assert np.array_equal(np.asarray(array), reference)
    as_float = np.asarray(array, dtype=np.float64)
    assert as_float.dtype == np.float64 and np.array_equal(as_float, reference)


def test_three_dimensions_and_ellipsis(url):
    array, reference = filled(*make_array(url, (4, 5, 6), (3, 2, 4)))
    for key in [np.s_[..., 1], np.s_[1, ..., ::-2], np.s_[:, [4, 0], 1:5], np.s_[2, 3, 4]]:
        assert np.array_equal(array[key], reference[key])


def test_zero_dimensional_array(url):
    array = libzarr.create(url, {"shape": [], "dtype": "<f8", "fill_value": 1.5})
    assert array.shape == () and array[()] == 1.5 and array[...].shape == ()
    array[...] = 2.25
    assert array[()] == 2.25
    assert np.asarray(array).shape == ()
    with pytest.raises(TypeError):
        len(array)


@pytest.mark.parametrize("key", [np.s_[10], np.s_[-11], np.s_[0, 13], np.s_[[0, 10]], np.s_[:, [-14]]],
                         ids=repr)
def test_out_of_bounds_index_raises_index_error(pair, key):
    array, _ = pair
    with pytest.raises(libzarr.OutOfBoundsError) as caught:
        array[key]
    assert isinstance(caught.value, IndexError)
    assert caught.value.code == -8 and caught.value.status == "ZARR_ERR_OUT_OF_BOUNDS"
    assert "out of bounds" in caught.value.message


@pytest.mark.parametrize("key, message", [
    (np.s_[0, 0, 0], "too many indices"),
    (np.s_[..., 0, ...], "single ellipsis"),
    (np.s_["a"], "without fields"),
    (np.s_[1.5], "not an index"),
    (np.s_[True], "boolean scalar"),
    (np.s_[::0], "step cannot be zero"),
    (np.s_[np.ones(3, bool)], "boolean mask of length 3"),
    (np.s_[np.zeros((3, 3), bool)], "boolean index"),
    (np.s_[[0.5, 1.5]], "must hold integers"),
], ids=repr)
def test_malformed_index_raises(pair, key, message):
    array, _ = pair
    with pytest.raises(libzarr.InvalidSelectionError, match=message) as caught:
        array[key]
    assert isinstance(caught.value, IndexError) and caught.value.code == -1


class TestOut:
    """read(selection, out=...) fills the caller's array."""

    def test_c_and_fortran_order_and_strided_views(self, pair):
        array, reference = pair
        fortran = np.zeros((10, 13), dtype=np.int32, order="F")
        assert array.read(out=fortran) is fortran and np.array_equal(fortran, reference)
        backing = np.zeros((20, 39), dtype=np.int32)
        view = backing[::2, ::3]  # every other row, every third column
        array.read(..., out=view)
        assert np.array_equal(view, reference)
        assert np.count_nonzero(backing) == np.count_nonzero(reference)  # nothing else touched

    def test_direct_read_writes_into_out_in_place(self, pair, monkeypatch):
        array, reference = pair
        out = np.zeros((4, 13), dtype=np.int32)
        monkeypatch.setattr(np, "copyto", None)  # the direct path must not copy
        array.read(np.s_[2:6], out=out)
        assert np.array_equal(out, reference[2:6])

    @pytest.mark.parametrize("key", [np.s_[::2], np.s_[[3, 1], 1:3], np.s_[::-1, 0]], ids=repr)
    def test_selections_needing_a_view_or_take(self, pair, key):
        array, reference = pair
        out = np.zeros(reference[key].shape, dtype=np.int32)
        array.read(key, out=out)
        assert np.array_equal(out, reference[key])

    def test_negative_stride_out(self, pair):
        array, reference = pair
        out = np.zeros((10, 13), dtype=np.int32)[::-1]
        array.read(out=out)
        assert np.array_equal(out, reference)

    @pytest.mark.parametrize("out, message", [
        (np.zeros((10, 12), np.int32), r"out: shape \(10, 12\) is not the selection's \(10, 13\)"),
        (np.zeros((10, 13), np.int64), "out: dtype int64 is not the array's int32"),
        (np.zeros((10, 13), np.int16), "out: dtype int16 is not the array's int32"),
        (np.broadcast_to(np.int32(0), (10, 13)), "out: it is read-only")], ids=["shape", "dtype", "smaller dtype",
                                                                                 "read-only"])
    def test_unusable_out_is_a_value_error_naming_out(self, pair, out, message):
        array, _ = pair
        for read in _reads_with_out(array):
            with pytest.raises(libzarr.InvalidArgumentError, match=message) as caught:
                read(out)
            assert isinstance(caught.value, ValueError)

    @pytest.mark.parametrize("out", [[[0] * 13] * 10, bytearray(520), object(), memoryview(bytearray(520)),
                                     type(None)], ids=["list", "bytearray", "object", "memoryview", "type"])
    def test_out_that_is_no_ndarray_is_a_type_error(self, pair, out):
        array, _ = pair
        everything = np.ones(array.shape, bool)
        for read in _reads_with_out(array) + [lambda out: array.get_mask_selection(everything, out=out)]:
            with pytest.raises(TypeError, match="out must be a numpy.ndarray"):
                read(out)

    def test_every_read_fills_non_contiguous_and_reversed_out(self, pair):
        array, reference = pair
        for make in (lambda: np.zeros((10, 26), np.int32)[:, ::2], lambda: np.zeros((10, 13), np.int32)[::-1, ::-1],
                     lambda: np.zeros((13, 10), np.int32).T):
            for read in _reads_with_out(array):
                out = make()
                assert read(out) is out and np.array_equal(out, reference), read

    def test_masks_and_points_fill_strided_1d_out(self, pair):
        """A points or mask read into a 1-D out with steps: its reshape copied, and the
        values went to the copy (out stayed zero)."""
        array, reference = pair
        mask = np.zeros((10, 13), bool)
        mask[2:4, 3:6] = True
        for read, expected in ((lambda o: array.get_mask_selection(mask, out=o), reference[mask]),
                               (lambda o: array.get_coordinate_selection(([1, 2, 3], [4, 5, 6]), out=o),
                                reference[[1, 2, 3], [4, 5, 6]])):
            out = np.zeros(2 * len(expected), np.int32)[::2]
            assert read(out) is out and out.tolist() == expected.tolist()

    def test_read_only_memory_map_out_is_refused_not_a_crash(self, tmp_path):
        """A read-only mapped file as out: the library wrote into it, a segmentation fault."""
        printed = run_isolated("""
            import mmap, numpy as np, libzarr
            a = libzarr.zeros((6, 4), chunks=(3, 2), dtype="i4")
            open("m.bin", "wb").write(bytes(96))
            with open("m.bin", "rb") as f:
                mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            out = np.frombuffer(mapped, dtype="i4").reshape(6, 4)
            for read in (a.get_basic_selection, a.get_orthogonal_selection, a.get_block_selection, a.read):
                try:
                    read(..., out=out)
                except ValueError as error:
                    print(str(error).split(" [")[0])
            """, tmp_path)
        assert printed.splitlines() == ["out: it is read-only"] * 4

    def test_fields_into_out_check_the_fields_dtype(self, url):
        records = np.array([(1, 2.5), (3, 4.5)], dtype=[("x", "<i4"), ("y", "<f8")])
        array = libzarr.array(records, store=url, zarr_format=2)
        out = np.zeros(2, "<f8")
        assert array.get_basic_selection(..., out=out, fields="y") is out and out.tolist() == [2.5, 4.5]
        with pytest.raises(libzarr.InvalidArgumentError, match="out: dtype int32 is not the array's float64"):
            array.get_basic_selection(..., out=np.zeros(2, "<i4"), fields="y")
        with pytest.raises(TypeError, match="out must be"):
            array.get_basic_selection(..., out=[0, 0], fields="y")


def _reads_with_out(array):
    """Every read of the whole of a 2-D array that takes out= (a mask's result is 1-D: see
    test_masks_and_points_fill_strided_1d_out), as functions of out."""
    columns = array.shape[1]
    return [lambda out: array.read(out=out),
            lambda out: array.get_basic_selection(..., out=out),
            lambda out: array.get_orthogonal_selection((slice(None), list(range(columns))), out=out),
            lambda out: array.get_block_selection((slice(None), slice(None)), out=out),
            lambda out: array.get_coordinate_selection(tuple(np.indices(array.shape)), out=out)]


def test_selections_on_an_axis_of_2_to_64_minus_1(url):
    """Positions of 2^63 and more are exact everywhere: steps, negative steps and index
    arrays (the binding cast positions to int64, where they wrapped and raised, or counted
    from the end and read another element: audit of issue 20, finding 12)."""
    last = 2**64 - 1
    array = libzarr.create(url, {"shape": [last], "chunks": [10], "dtype": "|u1", "fill_value": 0})
    array[last - 7:] = np.arange(1, 8, dtype="u1")
    array[2**63 + 5] = 11
    array[2**63 - 10] = 22
    assert array[last - 7::3].tolist() == [1, 4, 7]
    assert array[-1:-8:-2].tolist() == [7, 5, 3, 1]
    assert array[::2**63].tolist() == [0, 0]
    assert array[::-(2**63)].tolist() == [7, 0]
    assert array[[last - 1, last - 2, 0]].tolist() == [7, 6, 0]
    big = np.array([2**63 + 5], dtype=np.uint64)
    for selection in (big, [2**63 + 5]):
        assert array.get_orthogonal_selection(selection).tolist() == [11]
        assert array.oindex[selection].tolist() == [11]
        assert array.vindex[selection].tolist() == [11]
    assert array.get_coordinate_selection(np.array([last - 1], dtype=np.uint64)).tolist() == [7]
    array.set_orthogonal_selection(big, 99)
    assert (array[2**63 + 5], array[2**63 - 10]) == (99, 22)
    array[::2**63] = 5
    assert array[::2**63].tolist() == [5, 5]
    with pytest.raises(libzarr.OutOfBoundsError):
        array[2**64]
