"""Array: a Zarr array behind a zarr_array handle, indexed like a NumPy array."""
import ctypes

import numpy as np

from . import _capi, _info, _selection
from ._attributes import Attributes
from ._capi import lib
from ._dtypes import from_masked, is_masked_optional, numpy_dtype, to_masked
from ._handle import Handle
from .codecs import get_codec
from .errors import BufferSizeError, InvalidArgumentError, InvalidSelectionError
from .storage import shown_url


class Array(Handle):
    """A Zarr array (v2 or v3) opened through libzarr, with zarr-python's interface.

    Index it as a NumPy array, with NumPy's meaning: ``a[2:8, ::3]``,
    ``a[[0, 2], [1, 3]]`` (points), ``a[mask]`` (a boolean array of any rank),
    ``a[None, 0]``; write with ``a[key] = value``. zarr-python's indexers work
    too: ``a.oindex[...]`` (each index array on its own axis), ``a.vindex[...]``
    (coordinates or a mask), ``a.blocks[...]`` (chunks by their grid index), and
    the get_*/set_*_selection methods. ``np.asarray(a)`` reads it all.

    Arrays of strings or bytes read as NumPy object arrays of ``str`` or
    ``bytes``. Create arrays with libzarr.create(), zeros(), array(),
    Group.create_array()...; open them with libzarr.open(). close() (or a
    ``with`` block, or garbage collection) closes the handle; an Array pickles
    and copies by reopening its URL.
    """

    def __init__(self, handle, location):
        """Wrap an open zarr_array handle (use libzarr.open / libzarr.create)."""
        self._adopt(handle, location)
        self._dtype, self._vlen_kind = numpy_dtype(lib.zarr_data_type(handle).decode("utf-8"),
                                                   lambda: self.metadata)
        extents = (ctypes.c_uint64 * lib.zarr_ndim(handle))()
        lib.zarr_chunk_shape(handle, extents)
        self._storage_chunks = tuple(extents)  # the stored grid: shards of a sharded array
        sharding = _sharding_of(self.metadata)
        self._inner_chunks = tuple(sharding["chunk_shape"]) if sharding else self._storage_chunks
        self._sharded = sharding is not None

    _kind = "array"
    _handle_type = _capi.ArrayHandle
    is_view = False  # zarr-python 2: views are astype() here
    _close_handle = staticmethod(lambda handle: lib.zarr_close(handle))

    # -- description -------------------------------------------------------------

    @property
    def ndim(self):
        """Number of dimensions."""
        return len(self._storage_chunks)

    @property
    def shape(self):
        """Current shape, as the library reports it (setting it resizes the array)."""
        extents = (ctypes.c_uint64 * self.ndim)()
        self._call(lib.zarr_shape, extents)
        return tuple(extents)

    @shape.setter
    def shape(self, value):
        self.resize(value)

    @property
    def chunks(self):
        """Chunk shape; for a sharded array the inner chunks (zarr-python 3), see ``shards``."""
        return self._inner_chunks

    @property
    def shards(self):
        """Shard shape of a sharded v3 array, else None."""
        return self._storage_chunks if self._sharded else None

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
        return self._call(lib.zarr_item_size)

    @property
    def nbytes(self):
        """Bytes of the whole array in memory (0 for variable-length elements)."""
        return self.size * self.itemsize

    @property
    def zarr_format(self):
        """Zarr format of the stored metadata: 1, 2 or 3."""
        return self._call(lib.zarr_format)

    @property
    def metadata(self):
        """The stored metadata document (.zarray or zarr.json) as a dict."""
        return self._json(lib.zarr_get_metadata)

    @property
    def dimension_names(self):
        """Names of the dimensions as a tuple (None for unnamed ones), or None: v3's
        dimension_names, or v2's _ARRAY_DIMENSIONS attribute (as xarray writes it)."""
        names = self._json(lib.zarr_get_dimension_names)
        if names is None and self.zarr_format != 3:
            names = self.attrs.get("_ARRAY_DIMENSIONS")
        return None if names is None else tuple(names)

    @property
    def fill_value(self):
        """The fill value as a NumPy scalar (None when it is null); for strings and bytes
        the stored value."""
        if self._vlen_kind:
            return self.metadata.get("fill_value")
        item = np.zeros((), dtype=self._dtype)
        is_null = ctypes.c_int()
        self._call(lib.zarr_fill_value, item.ctypes.data, item.nbytes, ctypes.byref(is_null))
        return None if is_null.value else item[()]

    @property
    def order(self):
        """Memory layout of the chunks: "C" or "F" (v2's order; v3 arrays are "C" unless a
        transpose codec reverses the axes)."""
        metadata = self.metadata
        if "order" in metadata:
            return metadata["order"]
        codecs = metadata.get("codecs") or []
        first = codecs[0] if codecs else {}
        reverse = list(range(self.ndim))[::-1]
        if first.get("name") == "transpose" and first.get("configuration", {}).get("order") in (reverse, "F"):
            return "F" if self.ndim > 1 else "C"
        return "C"

    @property
    def compressor(self):
        """The v2 compressor as a codec object (None when there is none). For v3 arrays the
        first of ``compressors``, or None."""
        if self.zarr_format == 3:
            compressors = self.compressors
            return compressors[0] if compressors else None
        config = self.metadata.get("compressor")
        return None if config is None else get_codec(config)

    @property
    def compressors(self):
        """The bytes -> bytes codecs, a tuple (zarr-python 3)."""
        if self.zarr_format != 3:
            compressor = self.compressor
            return () if compressor is None else (compressor,)
        return tuple(get_codec(c) for c in self._codec_chain()[2])

    @property
    def filters(self):
        """v2: the filters (a tuple of codecs, without the object codec of string arrays);
        v3: the array -> array codecs."""
        if self.zarr_format == 3:
            return tuple(get_codec(c) for c in self._codec_chain()[0])
        configs = self.metadata.get("filters") or []
        return tuple(get_codec(c) for c in configs if c.get("id") not in ("vlen-utf8", "vlen-bytes", "json2"))

    @property
    def serializer(self):
        """The v3 array -> bytes codec (None for v2 arrays)."""
        if self.zarr_format != 3:
            return None
        return get_codec(self._codec_chain()[1])

    def _codec_chain(self):
        """(array->array, array->bytes, bytes->bytes) codecs of a v3 array (inside its shards)."""
        metadata = self.metadata
        sharding = _sharding_of(metadata)
        codecs = sharding["codecs"] if sharding else metadata.get("codecs") or []
        names = [c["name"] for c in codecs]
        serializers = [i for i, name in enumerate(names)
                       if name in ("bytes", "vlen-utf8", "vlen-bytes", "sharding_indexed")]
        at = serializers[0] if serializers else len(codecs)
        return codecs[:at], (codecs[at] if at < len(codecs) else None), codecs[at + 1:]

    @property
    def attrs(self):
        """User attributes as a mutable mapping (each change is written at once)."""
        return Attributes(lambda: self._json(lib.zarr_get_attributes),
                          lambda values: self._call(lib.zarr_set_attributes, _capi.to_json(values)),
                          lambda key: self._json(lib.zarr_get_attribute, _capi.text(key)),
                          lambda changes: self._call(lib.zarr_update_attributes, _capi.to_json(changes)))

    def update_attributes(self, new_attributes):
        """Merge new_attributes into the attributes (zarr-python 3); returns self."""
        self.attrs.update(new_attributes)
        return self

    # -- where it is --------------------------------------------------------------

    @property
    def store(self):
        """The store the array was reached through (a libzarr.storage.Store)."""
        return self._location.store

    @property
    def path(self):
        """Path of the array below its store's root ("" at the root)."""
        return self._location.path

    @property
    def name(self):
        """"/" and the path, as h5py and zarr-python name nodes."""
        return "/" + self.path

    @property
    def basename(self):
        """The last part of the name."""
        return self.name.split("/")[-1]

    @property
    def store_path(self):
        """zarr-python 3's StorePath: the store and the path below its root."""
        from .storage import StorePath
        return StorePath(self.store, self.path)

    @property
    def chunk_store(self):
        """Where the chunks are when they live apart from the metadata (the chunk_store
        option), else None."""
        return self._location.options.get("chunk_store")

    @property
    def write_empty_chunks(self):
        """Whether chunks equal to the fill value everywhere are stored (default False)."""
        return bool(self._location.options.get("write_empty_chunks", False))

    synchronizer = None  # the library locks each chunk; see libzarr.sync
    meta_array = np.empty(())  # results are NumPy arrays

    @classmethod
    def open(cls, store, **kwargs):
        """zarr-python 3's Array.open: the array at store."""
        from ._api import open_array
        return open_array(store, **kwargs)

    @classmethod
    def create(cls, store, **kwargs):
        """zarr-python 3's Array.create: a new array at store (create's keywords)."""
        from ._api import create
        return create(store=store, **kwargs)

    # -- chunks ------------------------------------------------------------------

    def chunk_boundaries(self, axis):
        """Where each chunk along ``axis`` begins, then the axis' extent, as a tuple:
        chunk i covers ``[b[i], b[i + 1])``. Any chunk grid, regular or rectilinear
        (whose chunks differ in size); for a sharded array these are the shards."""
        if not 0 <= axis < self.ndim:
            raise InvalidArgumentError(f"axis {axis} is not below the array's {self.ndim} dimensions")
        count = ctypes.c_size_t(0)
        try:
            self._call(lib.zarr_chunk_boundaries, axis, None, 0, ctypes.byref(count))
        except BufferSizeError:
            pass  # count says how many entries
        out = (ctypes.c_uint64 * count.value)()
        self._call(lib.zarr_chunk_boundaries, axis, out, count.value, ctypes.byref(count))
        return tuple(out)

    @property
    def is_rectilinear(self):
        """True when the chunk grid is the zarr-extensions "rectilinear" one."""
        grid = self.metadata.get("chunk_grid") if self.metadata.get("zarr_format") == 3 else None
        return isinstance(grid, dict) and grid.get("name") == "rectilinear"

    def _block_grid(self):
        """Per axis the chunk extent, or a rectilinear grid's chunk boundaries (blocks)."""
        if self.is_rectilinear and not self._sharded:
            return tuple(self.chunk_boundaries(d) for d in range(self.ndim))
        return self.chunks

    @property
    def cdata_shape(self):
        """The chunk grid's shape: chunks along each axis."""
        if self.is_rectilinear and not self._sharded:
            return tuple(len(self.chunk_boundaries(d)) - 1 for d in range(self.ndim))
        return tuple(-(-n // c) if c else 0 for n, c in zip(self.shape, self.chunks))

    @property
    def nchunks(self):
        """Number of chunks in the grid."""
        return int(np.prod(self.cdata_shape, dtype=np.uint64))

    @property
    def nshards(self):
        """Number of shards in the grid of a sharded array (zarr-python 3); of chunks otherwise,
        each chunk being its own stored object."""
        return int(np.prod([-(-n // c) if c else 0 for n, c in zip(self.shape, self._storage_chunks)],
                           dtype=np.uint64))

    @property
    def nshards_initialized(self):
        """Number of shards stored (zarr-python 3); of chunks, for an array without shards."""
        return len(self.stored_chunks()[0])

    @classmethod
    def from_dict(cls, store_path, data):
        """zarr-python 3's Array.from_dict: a new array at store_path (a URL, store or
        StorePath) from a v2 .zarray or v3 zarr.json metadata document."""
        from ._api import create_from_metadata
        return create_from_metadata(store_path, data)

    @property
    def nchunks_initialized(self):
        """Number of chunks stored (shards, for a sharded array)."""
        return len(self.stored_chunks()[0])

    @property
    def initialized(self):
        """zarr-python 2's old name of nchunks_initialized."""
        return self.nchunks_initialized

    @property
    def nbytes_stored(self):
        """Bytes of every key of the array in the store, metadata included. A number that
        may also be called, as zarr-python 3's nbytes_stored()."""
        return _CallableInt(self._info_facts()["nbytes_stored"] or 0)

    def stored_chunks(self):
        """The grid indices of the stored chunks (a list of tuples), and the other keys
        under the array (chunk keys outside the grid, foreign files): zarr_stored_chunks."""
        stored = self._json(lib.zarr_stored_chunks)
        return [tuple(index) for index in stored["chunks"]], stored["stray_keys"]

    def _info_facts(self):
        return self._json(lib.zarr_info)

    @property
    def info(self):
        """zarr_info's facts as a mapping, printed as zarr-python's table."""
        return _info.array_info(self)

    def info_items(self):
        """The rows of ``info`` as (name, value) pairs (zarr-python 2)."""
        return self.info.items_table()

    def info_complete(self):
        """zarr-python 3's info_complete(): the same as ``info`` here (it always counts
        the stored bytes and chunks)."""
        return self.info

    def digest(self, hashname="sha1"):
        """A hash of the metadata document and the data (equal arrays give equal digests;
        the value differs from zarr-python's, which hashes the stored bytes)."""
        import hashlib
        import json
        hasher = hashlib.new(hashname)
        hasher.update(json.dumps(self.metadata, sort_keys=True).encode("utf-8"))
        for block in self.islice():
            hasher.update(np.ascontiguousarray(block).tobytes() if not self._vlen_kind else repr(block).encode())
        return hasher.digest()

    def hexdigest(self, hashname="sha1"):
        """digest() as hexadecimal text."""
        return self.digest(hashname).hex()

    def astype(self, dtype):
        """A read-only view reading the elements converted to dtype (zarr-python 2's astype)."""
        return _AsTypeView(self, np.dtype(dtype))

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]

    def islice(self, start=None, end=None):
        """Iterate over the first axis from start to end, reading one chunk of rows at a time."""
        start, end, _ = slice(start, end).indices(len(self))
        step = self.chunks[0] if self.ndim else 1
        for block_start in range(start, end, step):
            yield from self[block_start:min(block_start + step, end)]

    def __repr__(self):
        if self.closed:
            return f"<libzarr.Array {shown_url(self.url)!r} (closed)>"
        return f"<libzarr.Array {shown_url(self.url)!r} shape={self.shape} dtype={self._dtype}>"

    def __eq__(self, other):
        """Two handles on the same node are equal (zarr-python compares store and path)."""
        return isinstance(other, Array) and other.url == self.url

    def __hash__(self):
        return hash(("array", self.url))

    # -- reading and writing -------------------------------------------------------

    def _get(self, plan, out=None, fields=None):
        if fields is not None:
            records = plan.read(self)
            if out is not None:
                self._check_out(out, plan.shape, _fields_dtype(records.dtype, fields))
            result = _select_fields(records, fields, out)
        else:
            if out is not None:
                self._check_out(out, plan.shape, self._dtype)
            result = plan.read(self, out)
            if out is None and is_masked_optional(self._dtype):
                result = to_masked(result)  # zarrs' optional<T>: missing elements masked
        return result[()] if plan.scalar and out is None else result

    def _set(self, plan, value, fields=None):
        if fields is None and is_masked_optional(self._dtype):
            value = from_masked(value, self._dtype)
        if fields is not None:
            current = plan.read(self)
            current[fields] = value
            value = current
        plan.write(self, self._broadcast(value, plan.shape))

    def _plan(self, key, style="numpy"):
        fields, key = _pop_fields(key)
        return _selection.plan(key, self.shape, style), fields

    def __getitem__(self, key):
        plan, fields = self._plan(key)
        return self._get(plan, fields=fields)

    def __setitem__(self, key, value):
        plan, fields = self._plan(key)
        self._set(plan, value, fields)

    def __array__(self, dtype=None, copy=None):
        data = self[...]
        data = np.asarray(data) if self.ndim == 0 else data
        return data if dtype is None else data.astype(dtype)

    @property
    def oindex(self):
        """Orthogonal indexing: ``a.oindex[[0, 2], [1, 3]]`` is rows 0, 2 by columns 1, 3."""
        return _Indexer(self._get_orthogonal, self._set_orthogonal)

    @property
    def vindex(self):
        """Vectorised (coordinate) indexing: ``a.vindex[[0, 2], [1, 3]]`` is the elements (0, 1)
        and (2, 3); ``a.vindex[mask]`` the elements where a boolean array of a's shape is True."""
        return _Indexer(self._get_vectorized, self._set_vectorized)

    @property
    def blocks(self):
        """Chunks by their grid index: ``a.blocks[1, 0:2]`` is chunk row 1, chunk columns 0-1."""
        return _Indexer(self.get_block_selection, self.set_block_selection)

    def _get_orthogonal(self, selection):
        fields, key = _pop_fields(selection)  # zarr-python's a.oindex[rows, columns, "field"]
        return self.get_orthogonal_selection(key, fields=fields)

    def _set_orthogonal(self, selection, value):
        fields, key = _pop_fields(selection)
        self.set_orthogonal_selection(key, value, fields=fields)

    def _get_vectorized(self, selection):
        fields, key = _pop_fields(selection)
        if isinstance(key, np.ndarray) and key.dtype == bool and key.ndim == self.ndim:
            return self._get(_selection.mask_plan(key, self.shape), fields=fields)
        return self._get(_selection.plan(key, self.shape), fields=fields)

    def _set_vectorized(self, selection, value):
        fields, key = _pop_fields(selection)
        self._set(_selection.plan(key, self.shape), value, fields)

    def get_basic_selection(self, selection=Ellipsis, out=None, fields=None):
        """Integers, slices (any step), ``...`` and None; into out when given."""
        return self._get(_selection.plan(selection, self.shape, "basic"), out, fields)

    def set_basic_selection(self, selection, value, fields=None):
        self._set(_selection.plan(selection, self.shape, "basic"), value, fields)

    def get_orthogonal_selection(self, selection, out=None, fields=None):
        """Each axis on its own: integers, slices, 1-D integer arrays or masks (``oindex``)."""
        return self._get(_selection.plan(selection, self.shape, "orthogonal"), out, fields)

    def set_orthogonal_selection(self, selection, value, fields=None):
        self._set(_selection.plan(selection, self.shape, "orthogonal"), value, fields)

    def get_coordinate_selection(self, selection, out=None, fields=None):
        """The elements at coordinates: one integer array per axis, broadcast together."""
        return self._get(_selection.coordinate_plan(selection, self.shape), out, fields)

    def set_coordinate_selection(self, selection, value, fields=None):
        self._set(_selection.coordinate_plan(selection, self.shape), value, fields)

    def get_mask_selection(self, selection, out=None, fields=None):
        """The elements where a boolean array of the array's shape is True (a 1-D result)."""
        return self._get(_selection.mask_plan(selection, self.shape), out, fields)

    def set_mask_selection(self, selection, value, fields=None):
        self._set(_selection.mask_plan(selection, self.shape), value, fields)

    def get_block_selection(self, selection, out=None, fields=None):
        """Whole chunks by grid index: integers and slices over ``cdata_shape``."""
        return self._get(_selection.block_plan(selection, self.shape, self._block_grid()), out, fields)

    def set_block_selection(self, selection, value, fields=None):
        self._set(_selection.block_plan(selection, self.shape, self._block_grid()), value, fields)

    def read(self, selection=Ellipsis, out=None):
        """Read an orthogonal selection, into ``out`` when given.

        out must be a writable NumPy array of the selection's shape and of
        exactly this array's dtype. A selection of integers and slices of step 1
        is read straight into out through byte strides, whatever out's memory
        layout (Fortran order, a view with steps); others go through a
        temporary array. Returns out, or a new array.
        """
        return self._get(_selection.plan(selection, self.shape, "orthogonal"), out)

    def write(self, selection, value):
        """Write value (broadcast to the selection's shape) into an orthogonal selection."""
        self.set_orthogonal_selection(selection, value)

    @staticmethod
    def _check_out(out, shape, dtype):
        """TypeError unless out is a NumPy array; ValueError unless it is writable and of the
        selection's shape and exactly dtype (the library writes the elements' bytes into it:
        another dtype would be garbage or, smaller, a write past its end)."""
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray of shape {shape} and dtype {dtype}, "
                            f"not {type(out).__name__}")
        problems = []
        if out.shape != shape:
            problems.append(f"shape {out.shape} is not the selection's {shape}")
        if out.dtype != dtype:
            problems.append(f"dtype {out.dtype} is not the array's {dtype}")
        if not out.flags.writeable:
            problems.append("it is read-only")
        if problems:
            raise InvalidArgumentError("out: " + "; ".join(problems))

    def _broadcast(self, value, shape):
        """value as elements of this array's dtype, broadcast (without a copy) to shape."""
        try:
            return np.broadcast_to(np.asarray(value, dtype=self._dtype), shape)
        except (TypeError, ValueError) as exc:
            raise InvalidArgumentError(
                f"cannot write {type(value).__name__} into a selection of shape {shape} "
                f"and dtype {self._dtype}: {exc}") from exc

    # -- shape -----------------------------------------------------------------

    def resize(self, *shape):
        """Change the shape: ``a.resize(10, 20)`` or ``a.resize((10, 20))``.

        Chunks wholly outside the new shape are erased; data inside it is kept.
        """
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        self._call(lib.zarr_resize, len(shape), _capi.u64_array(shape))

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
        self._call(lib.zarr_append, axis, data.ndim, _capi.u64_array(data.shape), data.ctypes.data, data.nbytes)
        return self.shape


class _Indexer:
    """``a.oindex``, ``a.vindex``, ``a.blocks``: square brackets calling a get and a set."""

    def __init__(self, get, set):  # noqa: A002
        self._get_selection = get
        self._set_selection = set

    def __getitem__(self, key):
        return self._get_selection(key)

    def __setitem__(self, key, value):
        self._set_selection(key, value)


class _AsTypeView:
    """Array.astype(): reads of the array, converted."""

    is_view = True

    def __init__(self, array, dtype):
        self._array = array
        self.dtype = dtype
        self.shape, self.ndim, self.chunks = array.shape, array.ndim, array.chunks

    def __getitem__(self, key):
        return np.asarray(self._array[key]).astype(self.dtype)

    def __array__(self, dtype=None, copy=None):
        return self[...] if dtype is None else self[...].astype(dtype)

    def __len__(self):
        return len(self._array)


class _CallableInt(int):
    """An int that returns itself when called: zarr-python 2's nbytes_stored property and
    zarr-python 3's nbytes_stored() method in one."""

    def __call__(self):
        return int(self)


def _sharding_of(metadata):
    """The sharding codec's configuration of a sharded v3 array's metadata, else None."""
    codecs = metadata.get("codecs") or []
    if len(codecs) == 1 and codecs[0].get("name") == "sharding_indexed":
        return codecs[0].get("configuration", {})
    return None


def _pop_fields(key):
    """(fields or None, the key without them): zarr-python's field names in a selection."""
    items = key if isinstance(key, tuple) else (key,)
    fields = [item for item in items if isinstance(item, str)
              or (isinstance(item, list) and item and all(isinstance(f, str) for f in item))]
    if not fields:
        return None, key
    if len(fields) > 1:
        raise InvalidSelectionError(f"give one field name or one list of them, not {fields}")
    if not isinstance(key, tuple):
        return fields[0], Ellipsis
    rest = tuple(item for item in items if item is not fields[0])
    return fields[0], rest if rest else Ellipsis


def _fields_dtype(dtype, fields):
    """The dtype of the named fields of records of dtype (what _select_fields returns)."""
    if dtype.fields is None:
        raise InvalidSelectionError(f"fields {fields!r} given for an array without fields")
    names = fields if isinstance(fields, list) else [fields]
    missing = [name for name in names if name not in dtype.fields]
    if missing:
        raise InvalidSelectionError(f"no field {missing[0]!r} in {dtype}")
    if not isinstance(fields, list):
        return dtype.fields[fields][0]
    return np.dtype([(name, dtype.fields[name][0]) for name in names])


def _select_fields(records, fields, out):
    """The named fields of structured records (a list of names keeps only those fields)."""
    if records.dtype.fields is None:
        raise InvalidSelectionError(f"fields {fields!r} given for an array without fields")
    try:
        selected = records[fields]
    except (KeyError, ValueError) as exc:
        raise InvalidSelectionError(f"no field {exc} in {records.dtype}") from None
    if isinstance(fields, list):
        from numpy.lib import recfunctions
        selected = recfunctions.repack_fields(selected)
    if out is not None:
        np.copyto(out, selected)
        return out
    return selected
