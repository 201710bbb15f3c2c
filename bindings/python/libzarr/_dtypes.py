"""NumPy dtypes for the data type names zarr_data_type() reports.

zarr_data_type() gives a Zarr v3 name for simple types ("int16", "float64",
"bool", "string", "r16") and the v2 dtype JSON otherwise ("\\"<M8[ns]\\"",
"\\"|S5\\"", "[[\\"a\\", \\"<i4\\"]]"). Region buffers are always in native byte
order, so every dtype returned here is native-order: it describes the bytes
the C API reads and writes, whatever order the store keeps them in.
"""
import json

import numpy as np

from .errors import UnsupportedError

# Elements of variable length: object arrays of str or of bytes.
STRING = "string"
BYTES = "bytes"

# v3 names NumPy has no type for but whose items have a fixed size: raw bytes
# (bfloat16, the 4-, 6- and 8-bit floats one code per byte, and the registry's
# complex pairs of them; ml_dtypes would give them names).
_SMALL_FLOATS = ("float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2", "float8_e5m2fnuz",
                 "float8_e4m3", "float8_e3m4", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn")
_RAW_V3_TYPES = {"bfloat16": 2, "complex_bfloat16": 4, "complex_float16": 4,
                 **{name: 1 for name in _SMALL_FLOATS},
                 **{"complex_" + name: 2 for name in _SMALL_FLOATS}}
# The sub-byte integers are one value per byte, sign- or zero-extended: int8 / uint8.
_SUB_BYTE_INTS = {"int2": "i1", "int4": "i1", "uint2": "u1", "uint4": "u1"}
# The registry's other names of complex64 / complex128.
_COMPLEX_ALIASES = {"complex_float32": "complex64", "complex_float64": "complex128"}


def numpy_dtype(type_name, load_metadata):
    """(native NumPy dtype, variable-length element kind or None) of an array.

    type_name is zarr_data_type()'s answer; load_metadata() (the stored
    document) is called only for v2 object arrays, whose element type (str or
    bytes) is set by their object codec rather than by the dtype.
    """
    if type_name == "string":
        return np.dtype(object), STRING
    if type_name == "variable_length_bytes":
        return np.dtype(object), BYTES
    if type_name in _SUB_BYTE_INTS:
        return np.dtype(_SUB_BYTE_INTS[type_name]), None
    if type_name in _COMPLEX_ALIASES:
        return np.dtype(_COMPLEX_ALIASES[type_name]), None
    if type_name in _RAW_V3_TYPES:
        return np.dtype(f"V{_RAW_V3_TYPES[type_name]}"), None
    if type_name.startswith("r") and type_name[1:].isdigit():
        return np.dtype(f"V{int(type_name[1:]) // 8}"), None
    if type_name.startswith("{"):
        return _optional_dtype(json.loads(type_name)), None
    if type_name[:1] in '"[':
        description = json.loads(type_name)
        if description == "|O":
            return np.dtype(object), _object_codec_kind(load_metadata())
        return np.dtype(_numpy_description(description)).newbyteorder("="), None
    return np.dtype(type_name), None  # "int16", "float64", "bool", "complex64"...


def _optional_dtype(description):
    """zarrs' experimental "optional" type: its elements as the C API lays them out, a
    flag byte (1 present, 0 missing) then the inner type's item, as a packed
    structured dtype [("present", u1), ("value", inner)] (nested for optional of
    optional). Inner types are those named without a configuration."""
    if description.get("name") != "optional":
        raise UnsupportedError(f"data type {json.dumps(description)} has no NumPy form in this binding")
    inner = description["configuration"]
    if inner.get("name") == "optional":
        value = _optional_dtype(inner)
    elif inner.get("configuration"):
        raise UnsupportedError(f"optional of {json.dumps(inner)} has no NumPy form in this binding")
    else:
        value, kind = numpy_dtype(inner["name"], dict)
        if kind is not None:
            raise UnsupportedError(f"optional of {inner['name']} has no NumPy form in this binding")
    return np.dtype([("present", "u1"), ("value", value)])


def is_masked_optional(dtype):
    """True for the dtype of optional<T> with T not itself optional: such arrays read
    as numpy.ma.MaskedArray of T (missing elements masked)."""
    return dtype.names == ("present", "value") and dtype["value"].names is None


def to_masked(records):
    """Records of is_masked_optional's dtype as a MaskedArray of their values."""
    return np.ma.MaskedArray(records["value"], mask=records["present"] == 0)


def from_masked(value, dtype):
    """A MaskedArray (or plain values: all present) as records of an optional dtype."""
    if isinstance(value, np.ndarray) and value.dtype == dtype:
        return value
    masked = np.ma.asarray(value)
    records = np.zeros(masked.shape, dtype=dtype)
    records["present"] = ~np.ma.getmaskarray(masked)
    records["value"] = masked.filled(0) if masked.dtype.kind != "V" else masked.data
    return records


def _numpy_description(description):
    """A v2 dtype JSON value as np.dtype takes it: field lists become lists of tuples."""
    if isinstance(description, str):
        return description
    return [(field[0], _numpy_description(field[1]), *([tuple(field[2])] if len(field) > 2 else []))
            for field in description]


def _object_codec_kind(metadata):
    """STRING or BYTES for a v2 object array, from its first filter (its object codec)."""
    filters = metadata.get("filters") or [{}]
    return BYTES if filters[0].get("id") == "vlen-bytes" else STRING


# -- the data type of a new array ------------------------------------------------

# v3 names of types NumPy has no dtype for: passed to the library as they are.
_V3_ONLY_NAMES = {*_SUB_BYTE_INTS, *_RAW_V3_TYPES}
_STRING_SPELLINGS = ("string", "str", "|O:str")
_BYTES_SPELLINGS = ("bytes", "variable_length_bytes")


class NewDataType:
    """The data type of an array to be created, in the forms both formats need.

    Attributes:
        kind: STRING or BYTES for variable-length elements, else None.
        numpy: the NumPy dtype (object for variable-length elements; None for the
            v3-only types such as "bfloat16").
        object_codec: the v2 object codec configuration of an object array, or None.
    """

    def __init__(self, dtype, object_codec=None):
        self.object_codec = object_codec
        self.kind = None
        self.v3_name = None
        if dtype is None:
            dtype = "float64"
        if dtype is str or (isinstance(dtype, str) and dtype in _STRING_SPELLINGS):
            self.kind, self.numpy = STRING, np.dtype(object)
        elif dtype is bytes or (isinstance(dtype, str) and dtype in _BYTES_SPELLINGS):
            self.kind, self.numpy = BYTES, np.dtype(object)
        elif isinstance(dtype, str) and (dtype in _V3_ONLY_NAMES or _is_raw_bits(dtype)):
            self.v3_name, self.numpy = dtype, None
        else:
            self.numpy = _numpy_dtype_of(dtype)
            if self.numpy.kind == "O":
                self.kind = _kind_of_object_codec(object_codec)

    @property
    def itemsize(self):
        """Bytes per element for codecs that ask (blosc's typesize); 1 for variable-length ones."""
        if self.kind:
            return 1
        if self.numpy is None:
            return max(1, _RAW_V3_TYPES.get(self.v3_name, 1))
        return self.numpy.itemsize

    def v2(self):
        """(dtype JSON value, object codec config or None) of a v2 .zarray."""
        if self.numpy is None:
            raise UnsupportedError(f"data type {self.v3_name!r} exists in Zarr v3 only: use zarr_format=3")
        if self.kind:
            codec = self.object_codec or {"id": "vlen-utf8" if self.kind == STRING else "vlen-bytes"}
            return "|O", codec
        return (self.numpy.descr if self.numpy.fields else self.numpy.str), None

    @property
    def v2_only(self):
        """Zarr v3 cannot hold it: strings stored as JSON, and structured types v3's struct
        has no form for (subarray fields, padding: see _struct_problem)."""
        if self.object_codec is not None and self.object_codec.get("id") == "json2":
            return True
        return self.numpy is not None and self.numpy.fields is not None and _struct_problem(self.numpy) is not None

    def v3(self):
        """(data_type JSON value, endian of the bytes codec or None) of a v3 zarr.json."""
        if self.v2_only:
            raise UnsupportedError(f"data type {self.numpy} with object codec {self.object_codec} has no "
                                   "Zarr v3 form: use zarr_format=2" if self.kind else
                                   f"structured data type {self.numpy} has no Zarr v3 struct form "
                                   f"({_struct_problem(self.numpy)}): use zarr_format=2")
        if self.kind:
            # zarr-python 3's names (libzarr writes the registry's "bytes" as given)
            return ("string" if self.kind == STRING else "variable_length_bytes"), None
        if self.numpy is None:
            return self.v3_name, None
        dtype = self.numpy
        if dtype.fields is not None:  # v3's struct: the packed record, fields in order
            fields = [{"name": name, "data_type": NewDataType(dtype.fields[name][0]).v3()[0]}
                      for name in dtype.names]
            return {"name": "struct", "configuration": {"fields": fields}}, "little"
        endian = ("big" if dtype.byteorder == ">" else "little") if dtype.itemsize > 1 else None
        if dtype.kind in "biufc":
            return dtype.name if dtype.kind != "b" else "bool", endian
        if dtype.kind in "Mm":
            unit, count = np.datetime_data(dtype)
            name = "numpy.datetime64" if dtype.kind == "M" else "numpy.timedelta64"
            return {"name": name, "configuration": {"unit": unit, "scale_factor": count}}, endian
        if dtype.kind == "U":
            return {"name": "fixed_length_utf32", "configuration": {"length_bytes": dtype.itemsize}}, endian
        name = "null_terminated_bytes" if dtype.kind == "S" else "raw_bytes"
        return {"name": name, "configuration": {"length_bytes": dtype.itemsize}}, None


def _struct_problem(dtype):
    """Why a structured NumPy dtype has no v3 struct form (None when it has one): v3 records
    are packed fields of fixed-size types, in order, without subarrays."""
    offset = 0
    for name in dtype.names:
        field, field_offset = dtype.fields[name][:2]
        if field.subdtype is not None:
            return f"field {name!r} is a subarray {field}"
        if field.kind == "O":
            return f"field {name!r} holds objects"
        if field_offset != offset:
            return f"field {name!r} is at offset {field_offset}, not {offset}: padding (aligned records)"
        if field.fields is not None:
            problem = _struct_problem(field)
            if problem:
                return f"field {name!r}: {problem}"
        offset += field.itemsize
    if offset != dtype.itemsize:
        return f"the record has {dtype.itemsize - offset} bytes of padding at its end"
    return None


def _is_raw_bits(name):
    return name.startswith("r") and name[1:].isdigit()


def _numpy_dtype_of(dtype):
    """np.dtype(dtype), as a ValueError naming the spelling when NumPy does not know it."""
    try:
        return np.dtype(dtype)
    except TypeError as exc:
        raise ValueError(f"data type {dtype!r} is not understood: {exc}") from None


def _kind_of_object_codec(object_codec):
    """STRING or BYTES for an object array's codec; ValueError without one."""
    if object_codec is None:
        raise ValueError("an object array needs an object_codec (e.g. numcodecs.VLenUTF8()), "
                         "or give dtype=str or dtype=bytes")
    codec_id = object_codec.get("id")
    if codec_id not in _OBJECT_CODECS:
        raise UnsupportedError(f"object codec {codec_id!r} is not supported: libzarr stores object arrays "
                               "of str (VLenUTF8, JSON) and of bytes (VLenBytes)")
    return _OBJECT_CODECS[codec_id]


_OBJECT_CODECS = {"vlen-utf8": STRING, "json2": STRING, "vlen-bytes": BYTES}
