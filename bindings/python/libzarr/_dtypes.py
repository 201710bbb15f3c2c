"""NumPy dtypes for the data type names zarr_data_type() reports.

zarr_data_type() gives a Zarr v3 name for simple types ("int16", "float64",
"bool", "string", "r16") and the v2 dtype JSON otherwise ("\\"<M8[ns]\\"",
"\\"|S5\\"", "[[\\"a\\", \\"<i4\\"]]"). Region buffers are always in native byte
order, so every dtype returned here is native-order: it describes the bytes
the C API reads and writes, whatever order the store keeps them in.
"""
import json

import numpy as np

# Elements of variable length: object arrays of str or of bytes.
STRING = "string"
BYTES = "bytes"

# v3 names NumPy has no type for but whose items have a fixed size: raw bytes
# (TensorStore's bfloat16 and 8-bit floats; ml_dtypes would give them names).
_RAW_V3_TYPES = {"bfloat16": 2, "float8_e4m3fn": 1, "float8_e4m3fnuz": 1, "float8_e4m3b11fnuz": 1,
                 "float8_e5m2": 1, "float8_e5m2fnuz": 1}
# TensorStore's int4 is stored one sign-extended value per byte: an int8.
_INT4 = "int4"


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
    if type_name == _INT4:
        return np.dtype("i1"), None
    if type_name in _RAW_V3_TYPES:
        return np.dtype(f"V{_RAW_V3_TYPES[type_name]}"), None
    if type_name.startswith("r") and type_name[1:].isdigit():
        return np.dtype(f"V{int(type_name[1:]) // 8}"), None
    if type_name[:1] in '"[':
        description = json.loads(type_name)
        if description == "|O":
            return np.dtype(object), _object_codec_kind(load_metadata())
        return np.dtype(_numpy_description(description)).newbyteorder("="), None
    return np.dtype(type_name), None  # "int16", "float64", "bool", "complex64"...


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
