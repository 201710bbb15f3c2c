"""libzarr: Zarr v2 and v3 arrays and groups from Python, through libzarr's C API.

    import libzarr
    a = libzarr.create("data.zarr", {"shape": [100, 100], "chunks": [10, 10], "dtype": "<f8"})
    a[:10, ::2] = 1.0
    print(a[0, :6], a.shape, a.dtype, a.chunks)

The binding is thin: every operation is a call of libzarr.so.1's C API made
through ctypes (see docs/bindings-python.md). Set LIBZARR_PATH to the library
(or its folder) when pkg-config does not know where it is installed.
"""
import ctypes

from . import _capi
from ._capi import ArrayHandle, GroupHandle, lib
from .array import Array
from .errors import (  # noqa: F401  (re-exported)
    BufferSizeError, CodecError, ExistsError, InternalError, InvalidArgumentError,
    InvalidMetadataError, InvalidSelectionError, NoMemoryError, NotFoundError, OutOfBoundsError,
    ReadOnlyError, StoreError, UnsupportedError, ZarrError)
from .group import Group, open_node

__version__ = "0.1.0"

__all__ = [
    "Array", "Group", "open", "open_array", "open_group", "create", "group",
    "consolidate_metadata", "library_version", "ZarrError", "InvalidArgumentError",
    "InvalidSelectionError", "NotFoundError", "ExistsError", "InvalidMetadataError",
    "UnsupportedError", "CodecError", "StoreError", "OutOfBoundsError", "ReadOnlyError",
    "NoMemoryError", "BufferSizeError", "InternalError",
]


def library_version():
    """Version of the libzarr C library loaded, e.g. "0.1.0"."""
    return lib.zarr_version_string().decode("ascii")


def open(url, mode="r", **options):  # noqa: A001  (zarr-python's name)
    """Open the array or group at url: an Array or a Group.

    mode is "r" (read only) or "r+" (read and write). Keyword options go to the
    library as its JSON options: for arrays ``write_empty_chunks`` and
    ``zarr_format`` (see docs/c-api.md); use open_group() for group options
    such as ``consolidated``.
    """
    return open_node(lambda: open_array(url, mode, **options), lambda: open_group(url, mode))


def open_array(url, mode="r", **options):
    """Open the array at url (NotFoundError when there is none)."""
    handle = ArrayHandle()
    lib.zarr_open_ex(ctypes.byref(handle), _capi.text(url), _capi.text(mode),
                     _capi.options_json(options))
    return Array(handle, url, mode)


def open_group(url, mode="r", **options):
    """Open the group at url (NotFoundError when there is none).

    Option ``consolidated``: True to take every metadata document from the
    consolidated metadata, False to ignore it (by default mode "r" uses it when
    present).
    """
    handle = GroupHandle()
    lib.zarr_group_open_ex(ctypes.byref(handle), _capi.text(url), _capi.text(mode),
                           _capi.options_json(options))
    return Group(handle, url, mode)


def create(url, metadata, **options):
    """Create an array at url from a metadata dict and open it read-write.

    metadata is a Zarr v2 .zarray document (``shape`` and ``dtype`` required)
    or a Zarr v3 zarr.json document (``shape`` and ``data_type`` required), as a
    dict or as JSON text;
    missing fields take zarr-python's defaults (docs/c-api.md). NumPy dtypes
    and scalars may stand in for their JSON forms. Options as for open().
    ExistsError when a node is already at url.
    """
    handle = ArrayHandle()
    lib.zarr_create_ex(ctypes.byref(handle), _capi.text(url), _capi.to_json(metadata),
                       _capi.options_json(options))
    return Array(handle, url, "r+")


def group(url, attributes=None, zarr_format=None):
    """Open the group at url read-write, or create it (with attributes) when none is there.

    zarr_format (2 or 3) is the format of a group created here (default 2);
    an existing group keeps its own.
    """
    try:
        return open_group(url, "r+")
    except NotFoundError:
        handle = GroupHandle()
        options = {"zarr_format": zarr_format} if zarr_format is not None else None
        lib.zarr_group_create_ex(ctypes.byref(handle), _capi.text(url),
                                 None if attributes is None else _capi.to_json(attributes),
                                 _capi.options_json(options))
        return Group(handle, url, "r+")


def consolidate_metadata(url):
    """Record the metadata of every node below the group at url in one place (.zmetadata)."""
    lib.zarr_consolidate_metadata(_capi.text(url))
