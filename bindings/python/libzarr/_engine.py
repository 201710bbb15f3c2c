"""The one function per kind of selection that calls the C library.

Every read and write of an Array goes through exactly one of these pairs, each
one C call:

    read_region / write_region           zarr_read_region_strided / _write_ (and _vlen)
    read_step / write_step               zarr_read_region_step / zarr_write_region_step
    read_orthogonal / write_orthogonal   zarr_read_orthogonal / zarr_write_orthogonal
    read_points / write_points           zarr_read_points / zarr_write_points

The selection calls fetch and decode each chunk the selection touches once per
call, chunks in parallel on the library's threads (ctypes releases the GIL for
the call); a write reads, modifies and writes each touched chunk once under its
lock, and where one element is written twice the last value in selection order
wins (NumPy's rule). Indices reach the C calls as uint64, already in bounds and
with negatives counted from the end (libzarr._selection does both); the
buffers are C-order elements of the array's dtype.

Arrays of variable-length elements (strings, bytes) are read and written
through the _vlen forms of the same calls (zarr_read_region_vlen /
zarr_write_region_vlen, zarr_read_region_step_vlen / _write_, and so on), one
C call each too.
"""
import ctypes

import numpy as np

from . import _capi
from ._capi import lib
from ._dtypes import STRING
from .errors import BufferSizeError, CodecError, InvalidArgumentError

_u64_pointer = ctypes.POINTER(ctypes.c_uint64)


# -- regions: the C API's calls ------------------------------------------------------

def read_region(array, start, count, out):
    """Read the region (start, count) into out, an array of shape count with strides >= 0."""
    if 0 in count or out.size == 0:
        return
    with array._using() as handle:
        if array._vlen_kind:
            out[...] = _read_vlen(handle, array._vlen_kind, count, lib.zarr_read_region_vlen, len(start),
                                  _capi.u64_array(start), _capi.u64_array(count))
            return
        lib.zarr_read_region_strided(handle, len(start), _capi.u64_array(start), _capi.u64_array(count),
                                     _capi.i64_array(out.strides), out.ctypes.data, _byte_extent(out))


def write_region(array, start, count, source):
    """Write source (an array of shape count, any strides) into the region (start, count)."""
    if 0 in count or source.size == 0:
        return
    with array._using() as handle:
        if array._vlen_kind:
            _write_vlen(handle, array._vlen_kind, source, lib.zarr_write_region_vlen, len(start),
                        _capi.u64_array(start), _capi.u64_array(count))
            return
        if any(stride < 0 for stride in source.strides):
            source = np.ascontiguousarray(source)  # the C API takes elements above the pointer
        lib.zarr_write_region_strided(handle, len(start), _capi.u64_array(start), _capi.u64_array(count),
                                      _capi.i64_array(source.strides), source.ctypes.data,
                                      _byte_extent(source))


def _byte_extent(view):
    """Bytes from a view's first element to the end of its last (strides are not negative)."""
    if view.size == 0:
        return 0
    return sum((length - 1) * stride for length, stride in zip(view.shape, view.strides)) + view.itemsize


# Bytes per element of the first buffer a _vlen read offers. A _vlen call that finds its
# buffer too small has decoded every chunk only to report the size, so the buffer is guessed
# large enough for most strings (np.empty reserves it without touching it; the object array
# of the result takes more per element) and a second call, sized exactly, is made only for
# longer elements.
_VLEN_BYTES_GUESS = 32


def _read_vlen(handle, kind, shape, function, *arguments):
    """The elements function(handle, *arguments, offsets, n_offsets, data, capacity,
    &data_size) reads (a _vlen read of shape elements, C order) as an object array of str
    or bytes."""
    elements = int(np.prod(shape, dtype=np.uint64))
    offsets = np.empty(elements + 1, dtype=np.uint64)
    data = np.empty(elements * _VLEN_BYTES_GUESS, dtype=np.uint8)
    needed = ctypes.c_size_t(0)
    while True:  # read; again, sized, if the elements need more (or a writer grew them between)
        try:
            function(handle, *arguments, offsets.ctypes.data_as(_u64_pointer), len(offsets), data.ctypes.data,
                     data.size, ctypes.byref(needed))
            break
        except BufferSizeError:
            if needed.value <= data.size:
                raise
            data = np.empty(needed.value, dtype=np.uint8)
    raw = data[:needed.value].tobytes()
    bounds = offsets.tolist()
    items = [raw[begin:end] for begin, end in zip(bounds, bounds[1:])]
    if kind == STRING:
        items = [_decode_utf8(item, index) for index, item in enumerate(items)]
    block = np.empty(elements, dtype=object)
    block[:] = items
    return block.reshape(shape)


def _write_vlen(handle, kind, source, function, *arguments):
    """function(handle, *arguments, offsets, n_offsets, data, data_size) writing the elements
    of source (C order of the selection) as a _vlen write takes them."""
    encoded = [_encode_element(kind, item) for item in source.ravel()]
    offsets = np.zeros(len(encoded) + 1, dtype=np.uint64)
    np.cumsum([len(item) for item in encoded], out=offsets[1:])
    data = b"".join(encoded)
    function(handle, *arguments, offsets.ctypes.data_as(_u64_pointer), len(offsets), data, len(data))


def _encode_element(kind, item):
    """One element's bytes: UTF-8 for string arrays, the bytes themselves otherwise."""
    if kind == STRING:
        if isinstance(item, str):
            return item.encode("utf-8")
        raise InvalidArgumentError(f"elements of a string array must be str, not {item!r}")
    if isinstance(item, (bytes, bytearray, memoryview)):
        return bytes(item)
    raise InvalidArgumentError(f"elements of a bytes array must be bytes, not {item!r}")


def _decode_utf8(item, position):
    try:
        return item.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CodecError(f"string element {position} of the selection (C order) is not UTF-8: "
                         f"{exc}") from None


# -- selections: the C API's calls ----------------------------------------------------

def read_step(array, start, count, step, out):
    """count[d] elements along axis d from start[d], every step[d]-th (step >= 1), into out."""
    function = lib.zarr_read_region_step_vlen if array._vlen_kind else lib.zarr_read_region_step
    _read_selection(array, out, function, len(start), _capi.u64_array(start),
                    _capi.u64_array(count), _capi.u64_array(step, "step"))


def write_step(array, start, count, step, source):
    """The write counterpart of read_step."""
    function = lib.zarr_write_region_step_vlen if array._vlen_kind else lib.zarr_write_region_step
    _write_selection(array, source, function, len(start), _capi.u64_array(start), _capi.u64_array(count),
                     _capi.u64_array(step, "step"))


def read_orthogonal(array, indices, out):
    """Along axis d the indices indices[d] (in bounds, any order, repeats allowed), into out."""
    lists, pointers, counts = _index_lists(indices)
    function = lib.zarr_read_orthogonal_vlen if array._vlen_kind else lib.zarr_read_orthogonal
    _read_selection(array, out, function, len(lists), pointers, counts)


def write_orthogonal(array, indices, source):
    """Write source (of the selection's shape) at the orthogonal selection; among repeated
    indices the last value (in C order of the selection) wins."""
    lists, pointers, counts = _index_lists(indices)
    function = lib.zarr_write_orthogonal_vlen if array._vlen_kind else lib.zarr_write_orthogonal
    _write_selection(array, source, function, len(lists), pointers, counts)


def read_points(array, coords, out):
    """The elements at coords (npoints x ndim, in bounds) into out (npoints elements)."""
    coords = _as_indices(coords)
    function = lib.zarr_read_points_vlen if array._vlen_kind else lib.zarr_read_points
    _read_selection(array, out, function, coords.shape[1], coords.shape[0],
                    coords.ctypes.data_as(_u64_pointer))


def write_points(array, coords, source):
    """Write source[i] at coords[i]; where a point repeats, the last value wins."""
    coords = _as_indices(coords)
    function = lib.zarr_write_points_vlen if array._vlen_kind else lib.zarr_write_points
    _write_selection(array, source, function, coords.shape[1], coords.shape[0],
                     coords.ctypes.data_as(_u64_pointer))


def _read_selection(array, out, function, *arguments):
    """function(handle, *arguments, buffer, nbytes) reading into out, through a C-order
    buffer of the array's dtype when out is not one (a view with gaps, another dtype);
    for variable-length elements, function is the _vlen form (see _read_vlen)."""
    if out.size == 0:
        return
    if array._vlen_kind:
        with array._using() as handle:
            out[...] = _read_vlen(handle, array._vlen_kind, out.shape, function, *arguments)
        return
    direct = out.flags.c_contiguous and out.dtype == array.dtype
    buffer = out if direct else np.empty(out.shape, dtype=array.dtype)
    with array._using() as handle:
        function(handle, *arguments, buffer.ctypes.data, buffer.nbytes)
    if not direct:
        out[...] = buffer


def _write_selection(array, source, function, *arguments):
    """function(handle, *arguments, buffer, nbytes) writing source as C-order elements of
    the array's dtype (a broadcast value is expanded here: the C calls take one element
    per selected position); for variable-length elements, function is the _vlen form
    (see _write_vlen)."""
    if source.size == 0:
        return
    if array._vlen_kind:
        with array._using() as handle:
            _write_vlen(handle, array._vlen_kind, source, function, *arguments)
        return
    buffer = np.ascontiguousarray(source, dtype=array.dtype)
    with array._using() as handle:
        function(handle, *arguments, buffer.ctypes.data, buffer.nbytes)


def _as_indices(values):
    """Indices as a C-contiguous uint64 array (the caller has counted negatives from the end:
    a negative left here would reach the library as an index near 2^64, out of bounds)."""
    values = np.asarray(values)
    if values.dtype.kind == "i" and values.size and values.min() < 0:
        raise InvalidArgumentError(f"index {values.min()} reached the engine negative")
    return np.ascontiguousarray(values, dtype=np.uint64)


def _index_lists(indices):
    """(the per-axis uint64 lists, their const uint64_t *const[] and their counts)."""
    lists = [_as_indices(ix).reshape(-1) for ix in indices]
    pointers = (_u64_pointer * len(lists))(*(ix.ctypes.data_as(_u64_pointer) for ix in lists))
    return lists, pointers, _capi.u64_array([len(ix) for ix in lists], "counts")
