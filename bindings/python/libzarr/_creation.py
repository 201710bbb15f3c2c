"""The metadata document of a new array, from zarr-python's keyword arguments.

One builder serves every creation call (libzarr.create, zeros, open(mode="w"),
Group.create_dataset, ...): it takes the keywords zarr-python 2's create and
zarr-python 3's create_array take and writes the v2 .zarray or v3 zarr.json
document the C API's zarr_create takes. Defaults: what the library fills in
for v2 (zarr-python 2's Blosc lz4), zarr-python 3's for v3 (zstd level 0;
libzarr's C default adds no compressor). Chunk shapes left to choose are
chosen by the library's own rule (zarr_open_spec's, TensorStore's).
"""
import math
import uuid

from . import _capi
from . import storage as _storage
from ._dtypes import STRING, NewDataType
from .codecs import as_codec
from .errors import InvalidArgumentError

DEFAULT = "auto"  # zarr-python 3's spelling of "choose for me"; 2's "default" and True mean it too
_CHOOSE = (DEFAULT, "default", True)
# zarr-python 3's default compressor of v3 arrays.
V3_DEFAULT_COMPRESSORS = [{"name": "zstd", "configuration": {"level": 0, "checksum": False}}]
_NO_VALUE = object()


class ArraySpec:
    """A new array: the metadata document and what is set right after creating it."""

    def __init__(self, metadata, attributes, dtype):
        self.metadata = metadata
        self.attributes = attributes  # v2: written with zarr_set_attributes after creation
        self.dtype = dtype


def array_spec(zarr_format, shape, dtype=None, chunks=DEFAULT, fill_value=_NO_VALUE, order=None,
               compressor=DEFAULT, compressors=DEFAULT, filters=DEFAULT, serializer=DEFAULT,
               codecs=None, shards=None, object_codec=None, dimension_separator=None,
               chunk_key_encoding=None, dimension_names=None, attributes=None, chunk_shape=None):
    """The ArraySpec of a new array of format 2 or 3 (see the module's docstring)."""
    shape = _shape_of(shape)
    if compressor in _CHOOSE and compressors in _CHOOSE and _storage.default_compressor is not None:
        compressor = _storage.default_compressor  # zarr.storage.default_compressor = Zstd(1)
    new_type = NewDataType(dtype, None if object_codec is None else as_codec(object_codec).get_config())
    if chunk_shape is not None:  # zarr-python 3.0's create spells chunks so for v3
        chunks = chunk_shape
    if zarr_format == 2:
        return _v2_spec(shape, new_type, chunks, fill_value, order, _one_compressor(compressor, compressors),
                        filters, shards, codecs, dimension_separator, chunk_key_encoding, dimension_names,
                        attributes)
    if zarr_format != 3:
        raise InvalidArgumentError(f"zarr_format must be 2 or 3, not {zarr_format!r}")
    if compressors is DEFAULT and compressor not in _CHOOSE:
        compressors = [] if compressor is None else [compressor]  # zarr-python 2's spelling
    return _v3_spec(shape, new_type, chunks, fill_value, compressors, filters, serializer, codecs, shards,
                    dimension_separator, chunk_key_encoding, dimension_names, attributes)


def _v2_spec(shape, new_type, chunks, fill_value, order, compressor, filters, shards, codecs,
             dimension_separator, chunk_key_encoding, dimension_names, attributes):
    if shards is not None or codecs is not None:
        raise InvalidArgumentError("shards and codecs exist in Zarr v3 only: use zarr_format=3")
    dtype_json, object_codec = new_type.v2()
    metadata = {"zarr_format": 2, "shape": list(shape), "dtype": dtype_json,
                "chunks": list(normalize_chunks(chunks, shape, new_type))}
    if fill_value is not _NO_VALUE:
        metadata["fill_value"] = fill_value_json(fill_value, new_type)
    if order is not None:
        metadata["order"] = order
    if compressor not in _CHOOSE:
        metadata["compressor"] = None if compressor is None else as_codec(compressor).get_config()
    chosen_filters = [] if filters in _CHOOSE or filters is None else [as_codec(f).get_config() for f in filters]
    if object_codec and not any(f.get("id") == object_codec.get("id") for f in chosen_filters):
        chosen_filters.insert(0, object_codec)
    if chosen_filters:
        metadata["filters"] = chosen_filters
    separator = dimension_separator or _separator_of(chunk_key_encoding)
    if separator:
        metadata["dimension_separator"] = separator
    attributes = dict(attributes or {})
    if dimension_names is not None:
        attributes["_ARRAY_DIMENSIONS"] = _v2_dimension_names(dimension_names, len(shape))
    return ArraySpec(metadata, attributes, new_type)


def _v3_spec(shape, new_type, chunks, fill_value, compressors, filters, serializer, codecs, shards,
             dimension_separator, chunk_key_encoding, dimension_names, attributes):
    data_type, endian = new_type.v3()
    # Edges per axis (a list of lengths on some axis) make a rectilinear grid: of
    # chunks, or of shards when sharded.
    rectilinear = _is_rectilinear(shards if shards is not None else chunks)
    if rectilinear and shards is None:
        chunk_grid = _rectilinear_grid(chunks, shape)
        chunks = tuple(max(c, default=1) if isinstance(c, (list, tuple)) else c for c in chunks)
    inner = normalize_chunks(chunks, shape, new_type)
    if codecs is None:
        before, after = _v3_filters(filters)
        compressing = _v3_compressors(compressors, new_type)
        if serializer in _CHOOSE and compressing and compressing[0]["name"] in _ARRAY_TO_BYTES:
            serializer, compressing = compressing[0], compressing[1:]  # zfpy given as v2's compressor
        codecs = [*before, _v3_serializer(serializer, new_type, endian), *after, *compressing]
    else:
        codecs = [_v3_codec(c, new_type) for c in codecs]
    grid = inner
    if shards is not None:
        if rectilinear:
            chunk_grid = _rectilinear_grid(shards, shape)
            shards = tuple(max(s, default=1) if isinstance(s, (list, tuple)) else s for s in shards)
        grid, index_location = _shards_of(shards, shape, inner, new_type)
        inner = _inner_chunks(inner, grid) if chunks in _CHOOSE else inner
        codecs = [{"name": "sharding_indexed", "configuration": {
            "chunk_shape": list(inner), "codecs": codecs,
            "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                             {"name": "crc32c", "configuration": {}}],
            "index_location": index_location}}]
    metadata = {"zarr_format": 3, "node_type": "array", "shape": list(shape), "data_type": data_type,
                "chunk_grid": chunk_grid if rectilinear else
                {"name": "regular", "configuration": {"chunk_shape": list(grid)}},
                "codecs": codecs}
    if fill_value is not _NO_VALUE:
        metadata["fill_value"] = (struct_fill_value_json(fill_value, new_type.numpy) if _is_struct(new_type)
                                  else fill_value_json(fill_value, new_type))
    encoding = _v3_key_encoding(chunk_key_encoding, dimension_separator)
    if encoding:
        metadata["chunk_key_encoding"] = encoding
    if dimension_names is not None:
        metadata["dimension_names"] = list(dimension_names)
    if attributes:
        metadata["attributes"] = dict(attributes)
    return ArraySpec(metadata, {}, new_type)


# -- shapes and chunks ------------------------------------------------------------

def _shape_of(shape):
    if shape is None:
        raise InvalidArgumentError("shape is required to create an array")
    shape = (shape,) if isinstance(shape, int) or hasattr(shape, "__index__") else tuple(shape)
    shape = tuple(int(n) for n in shape)
    _capi.check_u64(shape, "shape")
    return shape


def normalize_chunks(chunks, shape, new_type):
    """A chunk shape from zarr-python's spellings: True/"auto" (chosen), False (one chunk),
    an int (every axis), a tuple whose None or -1 entries mean the whole axis."""
    if chunks in _CHOOSE or chunks is None:
        return auto_chunks(shape, new_type)
    if chunks is False:
        return tuple(max(n, 1) for n in shape)
    if isinstance(chunks, int) or hasattr(chunks, "__index__"):
        chunks = (int(chunks),) * len(shape)
    chunks = tuple(chunks)
    if len(chunks) > len(shape):
        raise InvalidArgumentError(f"chunks {chunks} have more dimensions than shape {shape}")
    chunks += (None,) * (len(shape) - len(chunks))  # zarr-python: missing axes are whole
    chunks = tuple(max(n, 1) if c is None or c == -1 else int(c) for c, n in zip(chunks, shape))
    _capi.check_u64(chunks, "chunks")
    return chunks


def _is_rectilinear(chunks):
    """Chunks (or shards) given as edge lengths on some axis: ((10, 20, 5), 8)."""
    return isinstance(chunks, (list, tuple)) and any(isinstance(c, (list, tuple)) for c in chunks)


def _rectilinear_grid(edges, shape):
    """The zarr-extensions rectilinear chunk_grid of per-axis edges: a list of lengths
    (equal neighbours written as [length, count] runs) or an int (a regular step).
    The library checks the edges (each at least 1, reaching the extent)."""
    if len(edges) != len(shape):
        raise InvalidArgumentError(f"chunk edges give {len(edges)} axes for shape {shape}")
    shapes = []
    for axis in edges:
        if not isinstance(axis, (list, tuple)):
            shapes.append(int(axis))
            continue
        runs = []
        for length in axis:
            if runs and runs[-1][0] == int(length):
                runs[-1][1] += 1
            else:
                runs.append([int(length), 1])
        shapes.append([length if count == 1 else [length, count] for length, count in runs])
    return {"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": shapes}}


def auto_chunks(shape, new_type):
    """The chunk shape the library's rule (zarr_open_spec without chunks) picks for this shape."""
    if not shape:
        return ()
    stand_in = {1: "|u1", 2: "<u2", 4: "<u4", 8: "<u8"}.get(new_type.itemsize, f"|V{new_type.itemsize}")
    spec = {"driver": "zarr", "kvstore": f"memory://libzarr-chunks-{uuid.uuid4().hex}",
            "metadata": {"shape": list(shape), "dtype": stand_in, "compressor": None}, "create": True}
    handle = _capi.ArrayHandle()
    _capi.lib.zarr_open_spec(_capi.ctypes.byref(handle), _capi.to_json(spec))
    try:
        extents = (_capi.ctypes.c_uint64 * len(shape))()
        _capi.lib.zarr_chunk_shape(handle, extents)
        return tuple(extents)
    finally:
        _capi.lib.zarr_close(handle)


# shards="auto": a shard grows (doubling its chunks along one axis at a time) up to this many
# bytes, and never past the array's extent.
AUTO_SHARD_BYTES = 1 << 27


def _shards_of(shards, shape, inner, new_type):
    """(shard shape, index location) from zarr-python 3's spellings of shards: a tuple, a
    dict {"shape": tuple, "index_location": "end" | "start"}, or "auto"."""
    index_location = "end"
    if isinstance(shards, dict):
        unknown = set(shards) - {"shape", "index_location"}
        if "shape" not in shards or unknown:
            raise InvalidArgumentError(f"shards {shards!r}: a dict takes 'shape' and optionally "
                                       "'index_location'" + (f", not {sorted(unknown)}" if unknown else ""))
        index_location = shards.get("index_location") or "end"
        if index_location not in ("start", "end"):
            raise InvalidArgumentError(f"shards: index_location must be 'start' or 'end', not {index_location!r}")
        shards = shards["shape"]
    if isinstance(shards, str):
        if shards != "auto":
            raise InvalidArgumentError(f"shards must be a tuple, a dict with 'shape' or 'auto', not {shards!r}")
        return _auto_shards(shape, inner, new_type.itemsize), index_location
    if isinstance(shards, int) or hasattr(shards, "__index__"):
        shards = (shards,) * len(shape)
    try:
        grid = tuple(int(s) for s in shards)
    except TypeError:
        raise TypeError(f"shards must be a tuple of integers, a dict with 'shape' or 'auto', "
                        f"not {type(shards).__name__}") from None
    if len(grid) != len(shape):
        raise InvalidArgumentError(f"shards {grid} must have one entry per dimension of shape {shape}")
    _capi.check_u64(grid, "shards")
    return grid, index_location


def _auto_shards(shape, inner, itemsize):
    """shards="auto": whole chunks per shard, doubled along one axis after another while the
    shard stays within AUTO_SHARD_BYTES and within the array (rounded up to chunks)."""
    shard = [max(1, c) for c in inner]
    limits = [max(c, -(-n // max(c, 1)) * max(c, 1)) for n, c in zip(shape, shard)]
    grew = True
    while grew:
        grew = False
        for axis in range(len(shard)):
            bytes_now = math.prod(shard) * max(itemsize, 1)
            if shard[axis] * 2 <= limits[axis] and bytes_now * 2 <= AUTO_SHARD_BYTES:
                shard[axis] *= 2
                grew = True
    return tuple(shard)


def _inner_chunks(chosen, shards):
    """Inner chunks for a shard shape: the chosen ones cut to divide each shard's extent."""
    inner = []
    for c, s in zip(chosen, shards):
        c = max(1, min(c, s))
        while s % c:
            c -= 1
        inner.append(c)
    return tuple(inner)


# -- codecs ------------------------------------------------------------------------

def _one_compressor(compressor, compressors):
    """v2 has one compressor: zarr-python 3's compressors=[c] means compressor=c."""
    if compressors in _CHOOSE:
        return compressor
    if compressors is None or (not isinstance(compressors, (list, tuple)) and compressors is not None):
        return compressors
    if len(compressors) > 1:
        raise InvalidArgumentError(f"Zarr v2 arrays take one compressor, got {len(compressors)}")
    return compressors[0] if compressors else None


def _v3_codec(codec, new_type):
    """A codec's v3 form, blosc's typesize and automatic shuffle set from the data type."""
    config = as_codec(codec).to_dict()
    if config["name"] == "blosc":
        settings = config["configuration"]
        settings.setdefault("typesize", new_type.itemsize)
        if settings.get("shuffle") in (None, -1):
            settings["shuffle"] = "bitshuffle" if new_type.itemsize == 1 else "shuffle"
    return config


# v3 array -> array codecs; other filters of zarr-python 2 (shuffle, packbits, checksums...)
# work on bytes, so in v3 they follow the serializer, still ahead of the compressors.
_ARRAY_TO_ARRAY = {"transpose", "numcodecs.delta", "numcodecs.bitround", "numcodecs.fixedscaleoffset",
                   "numcodecs.quantize", "numcodecs.astype"}


# v3 array -> bytes codecs that zarr-python 2 spells as a compressor: in v3 they take the
# place of "bytes".
_ARRAY_TO_BYTES = {"numcodecs.zfpy", "zfp"}


def _v3_filters(filters):
    """(array -> array codecs, bytes -> bytes codecs) of the filters, in their order."""
    if filters in _CHOOSE or filters is None:
        return [], []
    configs = [as_codec(f).to_dict() for f in _as_list(filters)]
    return ([c for c in configs if c["name"] in _ARRAY_TO_ARRAY],
            [c for c in configs if c["name"] not in _ARRAY_TO_ARRAY])


def needs_v2(dtype=None, object_codec=None, **_):
    """True when zarr-python's keywords ask for what only Zarr v2 holds (structured types,
    strings as JSON): a new root is then v2 rather than v3."""
    codec = None if object_codec is None else as_codec(object_codec).get_config()
    return NewDataType(dtype, codec).v2_only


def _v3_serializer(serializer, new_type, endian):
    if serializer not in _CHOOSE:
        return as_codec(serializer).to_dict()
    if new_type.kind:
        return {"name": "vlen-utf8" if new_type.kind == "string" else "vlen-bytes", "configuration": {}}
    return {"name": "bytes", "configuration": {"endian": endian} if endian else {}}


def _v3_compressors(compressors, new_type):
    if compressors in _CHOOSE:
        return [dict(c, configuration=dict(c["configuration"])) for c in V3_DEFAULT_COMPRESSORS]
    if compressors is None:
        return []
    return [_v3_codec(c, new_type) for c in _as_list(compressors)]


def _as_list(codecs):
    return list(codecs) if isinstance(codecs, (list, tuple)) else [codecs]


# -- keys, names, fill values --------------------------------------------------------

def _separator_of(chunk_key_encoding):
    """The separator of zarr-python 3's chunk_key_encoding (dict, tuple or v3 form), or None."""
    if chunk_key_encoding is None:
        return None
    if isinstance(chunk_key_encoding, (tuple, list)):
        return chunk_key_encoding[1] if len(chunk_key_encoding) > 1 else None
    configuration = chunk_key_encoding.get("configuration", chunk_key_encoding)
    return configuration.get("separator")


def _v3_key_encoding(chunk_key_encoding, dimension_separator):
    if chunk_key_encoding is None and dimension_separator is None:
        return None
    if isinstance(chunk_key_encoding, (tuple, list)):
        name = chunk_key_encoding[0]
    elif chunk_key_encoding is not None:
        name = chunk_key_encoding.get("name", "default")
    else:
        name = "default"
    separator = _separator_of(chunk_key_encoding) or dimension_separator
    return {"name": name, "configuration": {"separator": separator or ("/" if name == "default" else ".")}}


def _v2_dimension_names(names, ndim):
    names = list(names)
    if len(names) != ndim or not all(isinstance(n, str) for n in names):
        raise InvalidArgumentError(f"dimension_names {names!r} must be {ndim} strings in Zarr v2 "
                                   "(they are stored as the _ARRAY_DIMENSIONS attribute)")
    return names


def fill_value_json(value, new_type):
    """A fill value as the JSON both formats take: NaN and infinities as strings, NumPy
    scalars as numbers, datetimes as integers, complex numbers as [re, im]."""
    import numpy as np  # here: this module's namespace keeps no NumPy name
    if _is_struct(new_type) and value is not None and not isinstance(value, (str, bytes)):
        return _record_base64(value, new_type.numpy)
    value = _number_in_type(value, new_type)
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, bytes):
        import base64
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, (np.datetime64, np.timedelta64)):
        return int(value.astype(np.int64))
    if isinstance(value, (complex, np.complexfloating)):
        return [_float_json(value.real), _float_json(value.imag)]
    if isinstance(value, (float, np.floating)):
        return _float_json(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def _is_struct(new_type):
    return new_type.numpy is not None and new_type.numpy.fields is not None


def _record_base64(value, dtype):
    """A v2 structured fill value: base64 of the record (a tuple, a void scalar, or one value
    for every field, as zeros()' 0)."""
    import base64
    import numpy as np
    try:
        record = np.array(value, dtype=dtype) if isinstance(value, (tuple, np.void)) else \
            np.asarray(value).astype(dtype)
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(f"fill_value {value!r} is not a record of {dtype}: {exc}") from None
    return base64.b64encode(record.tobytes()).decode("ascii")


def struct_fill_value_json(value, dtype):
    """A v3 struct's fill value: {"field": value, ...} with every field, from a record (a
    NumPy void scalar, a tuple in field order, a dict by name), or from one value for every
    field (zeros()' 0). None stays None (the library's default record)."""
    import numpy as np
    if value is None:
        return None
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    if isinstance(value, np.void) and value.dtype.names:
        value = {name: value[name] for name in value.dtype.names}
    elif isinstance(value, (tuple, list)):
        if len(value) != len(dtype.names):
            raise InvalidArgumentError(f"fill_value {value!r} has {len(value)} items for the {len(dtype.names)} "
                                       f"fields {dtype.names}")
        value = dict(zip(dtype.names, value))
    elif not isinstance(value, dict):
        value = {name: value for name in dtype.names}
    unknown = set(value) - set(dtype.names)
    if unknown:
        raise InvalidArgumentError(f"fill_value names fields {sorted(unknown)} that {dtype} has not")
    result = {}
    for name in dtype.names:
        field = dtype.fields[name][0]
        item = value.get(name, 0)
        result[name] = (struct_fill_value_json(item, field) if field.fields is not None
                        else fill_value_json(item, NewDataType(field)))
    return result


def _number_in_type(value, new_type):
    """A number given as the fill value of a type that holds none, as zarr-python 2 takes
    it: 0 (zeros(), zeros_like()) is the type's zero ("" for strings, b"" for bytes and
    fixed-length ones), a real number of a complex type is complex. Other values pass."""
    import numpy as np
    if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, (bool, np.bool_)):
        return value
    if new_type.kind:
        return value if value != 0 else ("" if new_type.kind == STRING else b"")
    numpy_type = new_type.numpy
    if numpy_type is not None and numpy_type.kind == "c":
        return complex(value)
    if numpy_type is not None and numpy_type.kind in "US" and value == 0:
        return np.zeros((), dtype=numpy_type)[()]
    return value


def _float_json(value):
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value
