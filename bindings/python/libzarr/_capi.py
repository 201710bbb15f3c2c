"""The C API of libzarr.so.1 through ctypes: loading, declarations, errors.

Declarations are written by hand from include/zarr/zarr.h (no compiled
extension, no generator). Every function returning a status code gets an
``errcheck`` that turns a negative code into the matching exception of
libzarr.errors, with zarr_last_error()'s message read on the same thread
right after the failing call (the message is thread-local in the library).
ctypes releases the GIL during each call, so several Python threads (Dask's
threaded scheduler) read and write in parallel.
"""
import ctypes
import ctypes.util
import json
import os
import shutil
import subprocess

import numpy as np

from .errors import InvalidArgumentError, error_for

SONAME = "libzarr.so.1"

# Opaque handles: distinct pointer types so one is never passed for another.
class ArrayHandle(ctypes.c_void_p):
    """A zarr_array *."""


class GroupHandle(ctypes.c_void_p):
    """A zarr_group *."""


class CodecHandle(ctypes.c_void_p):
    """A zarr_codec *."""


class _Text(ctypes.c_char_p):
    """A const char * argument, converted and checked by text(): a backstop for
    any caller that passes a str without calling text() first."""

    @classmethod
    def from_param(cls, value):
        return None if value is None else text(value)


_u64_p = ctypes.POINTER(ctypes.c_uint64)
_i64_p = ctypes.POINTER(ctypes.c_int64)
_size_p = ctypes.POINTER(ctypes.c_size_t)
_char_pp = ctypes.POINTER(ctypes.c_void_p)  # char ** the library allocates
_str = _Text            # string arguments
_cstr = ctypes.c_char_p  # strings the library returns
_size = ctypes.c_size_t
_int = ctypes.c_int
_ptr = ctypes.c_void_p
_array_p = ArrayHandle
_group_p = GroupHandle
_array_pp = ctypes.POINTER(ArrayHandle)
_group_pp = ctypes.POINTER(GroupHandle)
_codec_p = CodecHandle
_codec_pp = ctypes.POINTER(CodecHandle)

# name: (result type, argument types). STATUS marks an int status code.
STATUS = "status"
_DECLARATIONS = {
    "zarr_version_string": (_cstr, []),
    "zarr_version_number": (ctypes.c_uint, []),
    "zarr_last_error": (_cstr, []),
    "zarr_status_name": (_cstr, [_int]),
    "zarr_free": (None, [_ptr]),
    "zarr_open_ex": (STATUS, [_array_pp, _str, _str, _str]),
    "zarr_create_ex": (STATUS, [_array_pp, _str, _str, _str]),
    "zarr_create_like": (STATUS, [_array_pp, _str, _array_p, _str, _str]),
    "zarr_open_spec": (STATUS, [_array_pp, _str]),
    "zarr_erase": (STATUS, [_str, _str]),
    "zarr_info": (STATUS, [_array_p, _char_pp]),
    "zarr_stored_chunks": (STATUS, [_array_p, _char_pp]),
    "zarr_set_thread_count": (STATUS, [_size]),
    "zarr_thread_count": (_size, []),
    "zarr_close": (STATUS, [_array_p]),
    "zarr_ndim": (_size, [_array_p]),
    "zarr_shape": (STATUS, [_array_p, _u64_p]),
    "zarr_chunk_shape": (STATUS, [_array_p, _u64_p]),
    "zarr_chunk_boundaries": (STATUS, [_array_p, _size, _u64_p, _size, _size_p]),
    "zarr_item_size": (_size, [_array_p]),
    "zarr_data_type": (_cstr, [_array_p]),
    "zarr_format": (_int, [_array_p]),
    "zarr_fill_value": (STATUS, [_array_p, _ptr, _size, ctypes.POINTER(_int)]),
    "zarr_get_metadata": (STATUS, [_array_p, _char_pp]),
    "zarr_get_dimension_names": (STATUS, [_array_p, _char_pp]),
    "zarr_read_region_strided": (STATUS, [_array_p, _size, _u64_p, _u64_p, _i64_p, _ptr, _size]),
    "zarr_write_region_strided": (STATUS, [_array_p, _size, _u64_p, _u64_p, _i64_p, _ptr, _size]),
    "zarr_read_region_vlen": (STATUS, [_array_p, _size, _u64_p, _u64_p, _u64_p, _size, _ptr, _size, _size_p]),
    "zarr_write_region_vlen": (STATUS, [_array_p, _size, _u64_p, _u64_p, _u64_p, _size, _ptr, _size]),
    "zarr_read_orthogonal": (STATUS, [_array_p, _size, ctypes.POINTER(_u64_p), _u64_p, _ptr, _size]),
    "zarr_write_orthogonal": (STATUS, [_array_p, _size, ctypes.POINTER(_u64_p), _u64_p, _ptr, _size]),
    "zarr_read_points": (STATUS, [_array_p, _size, ctypes.c_uint64, _u64_p, _ptr, _size]),
    "zarr_write_points": (STATUS, [_array_p, _size, ctypes.c_uint64, _u64_p, _ptr, _size]),
    "zarr_read_region_step": (STATUS, [_array_p, _size, _u64_p, _u64_p, _u64_p, _ptr, _size]),
    "zarr_write_region_step": (STATUS, [_array_p, _size, _u64_p, _u64_p, _u64_p, _ptr, _size]),
    "zarr_read_orthogonal_vlen": (STATUS, [_array_p, _size, ctypes.POINTER(_u64_p), _u64_p, _u64_p, _size, _ptr,
                                           _size, _size_p]),
    "zarr_read_points_vlen": (STATUS, [_array_p, _size, ctypes.c_uint64, _u64_p, _u64_p, _size, _ptr, _size,
                                       _size_p]),
    "zarr_read_region_step_vlen": (STATUS, [_array_p, _size, _u64_p, _u64_p, _u64_p, _u64_p, _size, _ptr, _size,
                                            _size_p]),
    "zarr_write_orthogonal_vlen": (STATUS, [_array_p, _size, ctypes.POINTER(_u64_p), _u64_p, _u64_p, _size, _ptr,
                                            _size]),
    "zarr_write_points_vlen": (STATUS, [_array_p, _size, ctypes.c_uint64, _u64_p, _u64_p, _size, _ptr, _size]),
    "zarr_write_region_step_vlen": (STATUS, [_array_p, _size, _u64_p, _u64_p, _u64_p, _u64_p, _size, _ptr,
                                             _size]),
    "zarr_resize": (STATUS, [_array_p, _size, _u64_p]),
    "zarr_append": (STATUS, [_array_p, _size, _size, _u64_p, _ptr, _size]),
    "zarr_get_attributes": (STATUS, [_array_p, _char_pp]),
    "zarr_set_attributes": (STATUS, [_array_p, _str]),
    "zarr_group_open_ex": (STATUS, [_group_pp, _str, _str, _str]),
    "zarr_group_create_ex": (STATUS, [_group_pp, _str, _str, _str]),
    "zarr_group_close": (STATUS, [_group_p]),
    "zarr_group_list": (STATUS, [_group_p, _char_pp]),
    "zarr_group_open_array": (STATUS, [_array_pp, _group_p, _str, _str]),
    "zarr_group_create_array": (STATUS, [_array_pp, _group_p, _str, _str]),
    "zarr_group_open_group": (STATUS, [_group_pp, _group_p, _str]),
    "zarr_group_create_group": (STATUS, [_group_pp, _group_p, _str, _str]),
    "zarr_group_get_attributes": (STATUS, [_group_p, _char_pp]),
    "zarr_group_set_attributes": (STATUS, [_group_p, _str]),
    "zarr_get_attribute": (STATUS, [_array_p, _str, _char_pp]),
    "zarr_update_attributes": (STATUS, [_array_p, _str]),
    "zarr_group_get_attribute": (STATUS, [_group_p, _str, _char_pp]),
    "zarr_group_update_attributes": (STATUS, [_group_p, _str]),
    "zarr_consolidate_metadata": (STATUS, [_str]),
    "zarr_group_format": (_int, [_group_p]),
    "zarr_migrate_v1_to_v2": (STATUS, [_str]),
    "zarr_migrate_v2_to_v3": (STATUS, [_str]),
    "zarr_codec_create": (STATUS, [_codec_pp, _str]),
    "zarr_codec_encode": (STATUS, [_codec_p, _ptr, _size, _char_pp, _size_p]),
    "zarr_codec_decode": (STATUS, [_codec_p, _ptr, _size, _char_pp, _size_p]),
    "zarr_codec_config": (STATUS, [_codec_p, _char_pp]),
    "zarr_codec_free": (None, [_codec_p]),
}


def _candidate_paths():
    """Where to look for the library, in order: LIBZARR_PATH, pkg-config, the loader."""
    explicit = os.environ.get("LIBZARR_PATH")
    if explicit:
        # A file, or a folder holding the library (a build directory, a libdir).
        if os.path.isdir(explicit):
            return [os.path.join(explicit, SONAME), os.path.join(explicit, "libzarr.so")]
        return [explicit]
    candidates = []
    libdir = _pkg_config_libdir()
    if libdir:
        candidates.append(os.path.join(libdir, SONAME))
    # The dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache).
    candidates.append(SONAME)
    found = ctypes.util.find_library("zarr")
    if found and found != SONAME:
        candidates.append(found)
    return candidates


def _pkg_config_libdir():
    """libzarr's libdir as pkg-config reports it, or None without pkg-config or zarr.pc."""
    if not shutil.which("pkg-config"):
        return None
    result = subprocess.run(["pkg-config", "--variable=libdir", "zarr"],
                            capture_output=True, text=True, check=False)
    return result.stdout.strip() if result.returncode == 0 and result.stdout.strip() else None


def _load_library():
    """Open the first candidate that loads; ImportError naming every attempt otherwise."""
    failures = []
    for path in _candidate_paths():
        try:
            return ctypes.CDLL(path)
        except OSError as exc:
            failures.append(f"{path}: {exc}")
    raise ImportError(
        "libzarr: cannot load the C library (set LIBZARR_PATH to libzarr.so.1 or its "
        "folder, or install it where pkg-config finds zarr.pc); tried:\n  "
        + "\n  ".join(failures))


def _raise_on_status(status, function, _arguments):
    """ctypes errcheck: a negative status becomes the exception of libzarr.errors."""
    if status >= 0:
        return status
    message = lib.zarr_last_error().decode("utf-8", "replace")
    name = lib.zarr_status_name(status).decode("ascii", "replace")
    raise error_for(status, message or f"{function.__name__} failed", name)


def _declare(library):
    """Give each declared function its signature; ImportError when one is missing."""
    for name, (result, arguments) in _DECLARATIONS.items():
        try:
            function = getattr(library, name)
        except AttributeError:
            raise ImportError(f"libzarr: {library._name} lacks {name}: it is older than "
                              "this binding") from None
        function.restype = _int if result is STATUS else result
        function.argtypes = arguments
        if result is STATUS:
            function.errcheck = _raise_on_status
    return library


lib = _declare(_load_library())


def take_json(call, *arguments):
    """Call a function ending in a ``char **json_out``, parse and free the string."""
    text = ctypes.c_void_p()
    call(*arguments, ctypes.byref(text))
    try:
        return json.loads(ctypes.string_at(text).decode("utf-8"))
    finally:
        lib.zarr_free(text)


def to_json(value):
    """A JSON string for the library, with NumPy values turned into plain ones.

    A str is taken as JSON text already (metadata given as a document).
    """
    if isinstance(value, str):
        return text(value)
    return json.dumps(value, default=_plain_json_value).encode("utf-8")


def _plain_json_value(value):
    """json.dumps fallback: NumPy dtypes as typestrs or field lists, scalars as numbers."""
    if isinstance(value, np.dtype):
        return value.descr if value.fields else value.str
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable: {value!r}")


def options_json(options):
    """The JSON options string of the *_ex functions; NULL when there are none."""
    return to_json(options) if options else None


def u64_array(values, what="shape"):
    """A uint64_t[] holding values (ctypes arrays convert to uint64_t *).

    ctypes would wrap a negative value or one of 2**64 and more around silently (a
    resize to 2**64 became 0), so they are refused here, naming the dimension.
    """
    values = [int(v) for v in values]
    check_u64(values, what)
    return (ctypes.c_uint64 * len(values))(*values)


def check_u64(values, what="shape"):
    """InvalidArgumentError (a ValueError) naming the first entry of values that is negative
    or not below 2**64: what the C API's uint64_t cannot hold."""
    for dimension, value in enumerate(values):
        if not 0 <= value < 2**64:
            reason = "is negative" if value < 0 else "is not below 2**64"
            raise InvalidArgumentError(f"{what} {tuple(values)}: dimension {dimension} ({value}) {reason}")


def i64_array(values):
    """An int64_t[] holding values."""
    values = [int(v) for v in values]
    return (ctypes.c_int64 * len(values))(*values)


def text(value):
    """A str, bytes or path argument as the UTF-8 bytes a const char * takes.

    C stops reading a string at its first NUL, so "h.zarr\\0/sub" would reach
    the library as "h.zarr": a string with an embedded NUL is a ValueError.
    """
    value = os.fspath(value)
    if isinstance(value, str):
        value = value.encode("utf-8")
    if not isinstance(value, bytes):
        raise TypeError(f"expected str, bytes or a path, got {type(value).__name__}")
    if b"\0" in value:
        raise ValueError("embedded NUL character in string argument "
                         f"{value.decode('utf-8', 'replace')!r}")
    return value
