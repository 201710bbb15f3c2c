"""Array: a Zarr array behind a zarr_array handle, indexed like a NumPy array."""
import ctypes

import numpy as np

from . import _capi
from ._capi import lib
from ._dtypes import STRING, numpy_dtype
from ._selection import Selection
from ._handle import Handle
from .attributes import Attributes
from .errors import BufferSizeError, CodecError, InvalidArgumentError

_u64_pointer = ctypes.POINTER(ctypes.c_uint64)


class Array(Handle):
    """A Zarr array (v2 or v3) opened through libzarr.

    Index it like a NumPy array to read (``a[2:8, ::3]``) or write
    (``a[0, :] = 1``): integers, slices with steps, ``...``, negative indices,
    and one integer array or boolean mask; ``a.oindex[...]`` takes arrays or
    masks on several axes, each axis on its own (orthogonal indexing, as
    zarr-python's ``oindex``). ``np.asarray(a)`` reads the whole array and
    ``a.read(selection, out=buffer)`` reads into a caller's array.

    Arrays of strings or bytes read as NumPy object arrays of ``str`` or
    ``bytes``; fixed-width ``U``/``S`` types read as NumPy ``U``/``S`` arrays.

    Create arrays with libzarr.create() or Group.create_array() and open them
    with libzarr.open(); close with close() or a ``with`` block (the handle is
    also closed when the object is garbage collected).
    """

    def __init__(self, handle, url, mode):
        """Wrap an open zarr_array handle (use libzarr.open / libzarr.create)."""
        self._handle = handle
        self.url = url
        self.mode = mode
        type_name = lib.zarr_data_type(handle).decode("utf-8")
        self._dtype, self._vlen_kind = numpy_dtype(type_name, lambda: self.metadata)

    # -- handle ----------------------------------------------------------------

    _kind = "array"
    _close_handle = staticmethod(lambda handle: lib.zarr_close(handle))

    # -- description -------------------------------------------------------------

    @property
    def ndim(self):
        """Number of dimensions."""
        return lib.zarr_ndim(self._live)

    @property
    def shape(self):
        """Current shape, as the library reports it (resize() changes it)."""
        return self._dimensions(lib.zarr_shape)

    @property
    def chunks(self):
        """Chunk shape (the shard shape of a sharded v3 array)."""
        return self._dimensions(lib.zarr_chunk_shape)

    def _dimensions(self, function):
        extents = (ctypes.c_uint64 * self.ndim)()
        function(self._live, extents)
        return tuple(extents)

    @property
    def dtype(self):
        """NumPy dtype of the elements, in native byte order; object for strings and bytes."""
        return self._dtype

    @property
    def size(self):
        """Number of elements."""
        return int(np.prod(self.shape, dtype=np.uint64))

    @property
    def itemsize(self):
        """Bytes per element (0 for variable-length strings and bytes)."""
        return lib.zarr_item_size(self._live)

    @property
    def nbytes(self):
        """Bytes of the whole array in memory (0 for variable-length elements)."""
        return self.size * self.itemsize

    @property
    def zarr_format(self):
        """Zarr format of the stored metadata: 1, 2 or 3."""
        return lib.zarr_format(self._live)

    @property
    def metadata(self):
        """The stored metadata document (.zarray or zarr.json) as a dict."""
        return _capi.take_json(lib.zarr_get_metadata, self._live)

    @property
    def info(self):
        """What zarr-python's ``info`` reports, as a dict (zarr_info): shape, chunks,
        codecs, nbytes, nbytes_stored, chunks_initialized out of chunks_total, store..."""
        return _capi.take_json(lib.zarr_info, self._live)

    def stored_chunks(self):
        """The grid indices of the stored chunks (a list of tuples), and the other keys
        under the array (chunk keys outside the grid, foreign files): zarr_stored_chunks."""
        stored = _capi.take_json(lib.zarr_stored_chunks, self._live)
        return [tuple(index) for index in stored["chunks"]], stored["stray_keys"]

    @property
    def dimension_names(self):
        """The v3 dimension names as a tuple (None entries for unnamed ones), or None."""
        names = _capi.take_json(lib.zarr_get_dimension_names, self._live)
        return None if names is None else tuple(names)

    @property
    def fill_value(self):
        """The fill value as a NumPy scalar; None when it is null or elements vary in length."""
        if self._vlen_kind:
            return None  # the C API gives fill values of fixed-size items only
        item = np.zeros((), dtype=self._dtype)
        is_null = ctypes.c_int()
        lib.zarr_fill_value(self._live, item.ctypes.data, item.nbytes, ctypes.byref(is_null))
        return None if is_null.value else item[()]

    @property
    def attrs(self):
        """User attributes as a mutable mapping (each change is written at once)."""
        return Attributes(lambda: _capi.take_json(lib.zarr_get_attributes, self._live),
                          lambda values: lib.zarr_set_attributes(self._live, _capi.to_json(values)))

    @property
    def read_only(self):
        """True when the array was opened in mode "r"."""
        return self.mode == "r"

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]

    def __repr__(self):
        if not self._handle:
            return f"<libzarr.Array {self.url!r} (closed)>"
        return f"<libzarr.Array {self.url!r} shape={self.shape} dtype={self._dtype}>"

    # -- reading ---------------------------------------------------------------

    def __getitem__(self, key):
        selection = Selection(key, self.shape)
        result = self._read(selection, None)
        return result[()] if selection.is_scalar else result

    @property
    def oindex(self):
        """Orthogonal indexing: ``a.oindex[[0, 2], [1, 3]]`` is rows 0, 2 by columns 1, 3."""
        return _OrthogonalIndexer(self)

    def __array__(self, dtype=None, copy=None):
        data = self._read(Selection(Ellipsis, self.shape), None)
        return data if dtype is None else data.astype(dtype)

    def read(self, selection=Ellipsis, out=None):
        """Read a selection (orthogonal indexing), into ``out`` when given.

        out must be a writable NumPy array of the selection's shape and of
        exactly this array's dtype. When the selection has no step slices and no
        index arrays, the library writes straight into out through byte strides,
        whatever out's memory layout (a Fortran-order array, a view with steps);
        otherwise the data is read into a temporary array and copied.
        Returns out, or a new array.
        """
        return self._read(Selection(selection, self.shape, orthogonal=True), out)

    def _read(self, selection, out):
        if out is None:
            compact = np.empty(selection.compact_shape, dtype=self._dtype)
            self._read_compact(selection, compact)
            result = selection.result_from_compact(compact)
            # A view of a step slice's bounding runs would keep all of them alive.
            return result if selection.covers_runs else result.copy()
        self._check_out(out, selection.shape)
        if selection.is_direct and all(stride >= 0 for stride in out.strides):
            self._read_compact(selection, selection.as_compact(out))
        else:
            np.copyto(out, self._read(selection, None))
        return out

    def _check_out(self, out, shape):
        if not isinstance(out, np.ndarray):
            raise InvalidArgumentError(f"out must be a NumPy array, not {type(out).__name__}")
        if out.shape != shape or out.dtype != self._dtype or not out.flags.writeable:
            raise InvalidArgumentError(
                f"out must be a writable array of shape {shape} and dtype {self._dtype}; "
                f"got shape {out.shape}, dtype {out.dtype}, writable {out.flags.writeable}")

    def _read_compact(self, selection, compact):
        """Fill the compact array: one C read per block, into its view of compact."""
        for start, count, where in selection.blocks():
            destination = compact[where]
            if destination.size:
                self._read_block(start, count, destination)

    def _read_block(self, start, count, destination):
        if self._vlen_kind:
            destination[...] = self._read_vlen_block(start, count)
            return
        lib.zarr_read_region_strided(
            self._live, len(start), _capi.u64_array(start), _capi.u64_array(count),
            _capi.i64_array(destination.strides), destination.ctypes.data, _byte_extent(destination))

    def _read_vlen_block(self, start, count):
        """A block of variable-length elements as an object array of str or bytes."""
        elements = int(np.prod(count, dtype=np.uint64))
        offsets = np.empty(elements + 1, dtype=np.uint64)
        data = np.empty(0, dtype=np.uint8)
        needed = ctypes.c_size_t(0)
        while True:  # size the buffer, then read; again if a writer grew the data between
            try:
                lib.zarr_read_region_vlen(
                    self._live, len(start), _capi.u64_array(start), _capi.u64_array(count),
                    offsets.ctypes.data_as(_u64_pointer), len(offsets), data.ctypes.data, data.size,
                    ctypes.byref(needed))
                break
            except BufferSizeError:
                if needed.value <= data.size:
                    raise
                data = np.empty(needed.value, dtype=np.uint8)
        raw = data.tobytes()
        bounds = offsets.tolist()
        items = [raw[begin:end] for begin, end in zip(bounds, bounds[1:])]
        if self._vlen_kind == STRING:
            items = [_decode_utf8(item, start) for item in items]
        block = np.empty(elements, dtype=object)
        block[:] = items
        return block.reshape(count)

    # -- writing ---------------------------------------------------------------

    def __setitem__(self, key, value):
        self._write(Selection(key, self.shape), value)

    def write(self, selection, value):
        """Write value (broadcast to the selection's shape) into a selection (orthogonal indexing).

        Step slices are written by reading their bounding runs, changing the
        selected elements and writing the runs back: elements between the steps
        are rewritten with what they held, so a concurrent writer of those
        elements through another handle may lose its change.
        """
        self._write(Selection(selection, self.shape, orthogonal=True), value)

    def _write(self, selection, value):
        value = self._broadcast(value, selection.shape)
        if selection.is_direct:
            compact = selection.as_compact(value)
        else:
            compact = np.empty(selection.compact_shape, dtype=self._dtype)
            if not selection.covers_runs:
                self._read_compact(selection, compact)  # keep the elements between steps
            selection.assign_to_compact(compact, value)
        for start, count, where in selection.blocks():
            source = compact[where]
            if source.size:
                self._write_block(start, count, source)

    def _broadcast(self, value, shape):
        """value as elements of this array's dtype, broadcast (without a copy) to shape."""
        try:
            return np.broadcast_to(np.asarray(value, dtype=self._dtype), shape)
        except (TypeError, ValueError) as exc:
            raise InvalidArgumentError(
                f"cannot write {type(value).__name__} into a selection of shape {shape} "
                f"and dtype {self._dtype}: {exc}") from exc

    def _write_block(self, start, count, source):
        if self._vlen_kind:
            self._write_vlen_block(start, count, source)
            return
        if any(stride < 0 for stride in source.strides):
            source = np.ascontiguousarray(source)  # the C API takes elements above the pointer
        lib.zarr_write_region_strided(
            self._live, len(start), _capi.u64_array(start), _capi.u64_array(count),
            _capi.i64_array(source.strides), source.ctypes.data, _byte_extent(source))

    def _write_vlen_block(self, start, count, source):
        encoded = [self._encode_element(item) for item in source.ravel()]
        offsets = np.zeros(len(encoded) + 1, dtype=np.uint64)
        np.cumsum([len(item) for item in encoded], out=offsets[1:])
        data = b"".join(encoded)
        lib.zarr_write_region_vlen(
            self._live, len(start), _capi.u64_array(start), _capi.u64_array(count),
            offsets.ctypes.data_as(_u64_pointer), len(offsets), data, len(data))

    def _encode_element(self, item):
        """One element's bytes: UTF-8 for string arrays, the bytes themselves otherwise."""
        if self._vlen_kind == STRING:
            if isinstance(item, str):
                return item.encode("utf-8")
            raise InvalidArgumentError(f"elements of a string array must be str, not {item!r}")
        if isinstance(item, (bytes, bytearray, memoryview)):
            return bytes(item)
        raise InvalidArgumentError(f"elements of a bytes array must be bytes, not {item!r}")

    # -- shape -----------------------------------------------------------------

    def resize(self, *shape):
        """Change the shape: ``a.resize(10, 20)`` or ``a.resize((10, 20))``.

        Chunks wholly outside the new shape are erased; data inside it is kept.
        """
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        lib.zarr_resize(self._live, len(shape), _capi.u64_array(shape))

    def append(self, data, axis=0):
        """Grow the array along axis and write data into the new part; returns the new shape.

        data must match the array's shape on every other axis.
        """
        data = np.asarray(data, dtype=self._dtype)
        old = self.shape
        axis = axis + len(old) if axis < 0 else axis
        if not 0 <= axis < len(old):
            raise InvalidArgumentError(f"append: axis {axis} is not below the array's {len(old)} dimensions")
        if self._vlen_kind:
            # zarr_append takes fixed-size items only: grow, then write the new part.
            other_axes = [d for d in range(len(old)) if d != axis]
            if data.ndim != len(old) or any(data.shape[d] != old[d] for d in other_axes):
                raise InvalidArgumentError(f"append: data of shape {data.shape} must equal the array "
                                           f"shape {old} on every axis but {axis}")
            self.resize(old[:axis] + (old[axis] + data.shape[axis],) + old[axis + 1:])
            self[(slice(None),) * axis + (slice(old[axis], None),)] = data
            return self.shape
        data = np.ascontiguousarray(data)
        lib.zarr_append(self._live, axis, data.ndim, _capi.u64_array(data.shape),
                        data.ctypes.data, data.nbytes)
        return self.shape


class _OrthogonalIndexer:
    """``a.oindex[...]``: integer arrays and masks on any number of axes, each on its own."""

    def __init__(self, array):
        self._array = array

    def __getitem__(self, key):
        return self._array.read(key)

    def __setitem__(self, key, value):
        self._array.write(key, value)


def _byte_extent(view):
    """Bytes from a view's first element to the end of its last (strides are not negative)."""
    if view.size == 0:
        return 0
    return sum((length - 1) * stride for length, stride in zip(view.shape, view.strides)) + view.itemsize


def _decode_utf8(item, block_start):
    try:
        return item.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CodecError(f"a string element of the block at {tuple(block_start)} is not UTF-8: "
                         f"{exc}") from None
