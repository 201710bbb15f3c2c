"""The hand-written ctypes declarations and status codes agree with include/zarr/zarr.h.

The header is read by bindings/check_declarations.py's parser (shared with the
Rust, Julia and Fortran checks); ctypes types are compared by kind, byte width
and pointer depth, since ctypes spells size_t and uint64_t with one class.
"""
import ctypes
import os
import sys

import pytest
from conftest import SOURCE_ROOT

from libzarr import _capi, errors

HEADER = os.path.join(SOURCE_ROOT, "include", "zarr", "zarr.h")
if not os.path.exists(HEADER):
    pytest.skip("zarr.h is not beside this checkout of the binding", allow_module_level=True)
sys.path.insert(0, os.path.join(SOURCE_ROOT, "bindings"))
check_declarations = pytest.importorskip("check_declarations")

HEADER_FUNCTIONS, HEADER_CONSTANTS = check_declarations.parse_header(HEADER)
C_WIDTHS = {"int": 4, "unsigned": 4, "uint32_t": 4, "size_t": ctypes.sizeof(ctypes.c_size_t),
            "uint64_t": 8, "int64_t": 8, "char": 1}
HANDLES = {_capi.ArrayHandle: "zarr_array", _capi.GroupHandle: "zarr_group", _capi.CodecHandle: "zarr_codec"}


def header_shape(c_type):
    """(kind, width, pointer depth) of a type of the header."""
    if c_type.base in C_WIDTHS:
        return ("int" if c_type.base != "char" else "char", C_WIDTHS[c_type.base], c_type.depth)
    return (c_type.base, None, c_type.depth)  # void or an opaque handle


def ctypes_shape(ctype):
    """(kind, width, pointer depth) of a ctypes type, as header_shape gives them."""
    depth = 0
    while isinstance(ctype, type) and issubclass(ctype, ctypes._Pointer):
        ctype, depth = ctype._type_, depth + 1
    if ctype is None:
        return ("void", None, depth)
    if ctype in HANDLES:
        return (HANDLES[ctype], None, depth + 1)
    if ctype is ctypes.c_void_p:
        return ("void", None, depth + 1)
    if isinstance(ctype, type) and issubclass(ctype, ctypes.c_char_p):  # _capi._Text too
        return ("char", 1, depth + 1)
    return ("int", ctypes.sizeof(ctype), depth)


def agree(mine, theirs):
    """A binding type fits the header's: same shape, or an untyped pointer of the same depth."""
    return mine == theirs or (mine[0] == "void" and mine[2] == theirs[2] > 0)


@pytest.mark.parametrize("name", sorted(_capi._DECLARATIONS))
def test_declaration_matches_the_header(name):
    assert name in HEADER_FUNCTIONS, f"{name} is not in zarr.h"
    result, arguments = _capi._DECLARATIONS[name]
    header = HEADER_FUNCTIONS[name]
    assert len(arguments) == len(header.params), f"{name}: argument count differs from zarr.h"
    mine_result = ctypes_shape(ctypes.c_int if result is _capi.STATUS else result)
    assert agree(mine_result, header_shape(header.result)), f"{name}: result type differs"
    for position, (mine, theirs) in enumerate(zip(arguments, header.params), start=1):
        assert agree(ctypes_shape(mine), header_shape(theirs)), \
            f"{name} parameter {position}: {ctypes_shape(mine)} here, {theirs} in zarr.h"


def test_status_codes_match_the_header():
    codes = {name: value for name, value in vars(errors).items() if name.startswith("ZARR_")}
    header_codes = {name: value for name, value in HEADER_CONSTANTS.items()
                    if name == "ZARR_OK" or name.startswith("ZARR_ERR_")}
    assert codes == header_codes  # every status of zarr.h, with its value
