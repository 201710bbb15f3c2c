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

import numpy as np

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
    "open_spec", "full", "zeros", "ones", "create_like", "empty_like", "full_like", "zeros_like", "ones_like",
    "erase", "set_thread_count", "thread_count",
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


def open_spec(spec):
    """Open or create an array from a TensorStore zarr driver spec (a dict or JSON
    text; zarr_open_spec, docs/spec.md), e.g. ``{"driver": "zarr", "kvstore":
    {"driver": "file", "path": "/data/a.zarr"}, "create": True, "open": True,
    "metadata": {"shape": [100], "dtype": "<f4"}}``. Opened read-write where the
    store allows it."""
    handle = ArrayHandle()
    lib.zarr_open_spec(ctypes.byref(handle), _capi.to_json(spec))
    return Array(handle, "spec", "r+")


def full(url, shape, fill_value, dtype="<f8", chunks=None, **options):
    """Create a v2 array whose every element reads as fill_value (zarr-python's full).

    No chunk is written: unwritten chunks read as the fill value. chunks
    defaults to the shape (one chunk). Options as for create(), e.g.
    ``chunk_store``.
    """
    metadata = {"shape": list(shape), "dtype": np.dtype(dtype), "fill_value": fill_value}
    if chunks is not None:
        metadata["chunks"] = list(chunks)
    return create(url, metadata, **options)


def zeros(url, shape, dtype="<f8", chunks=None, **options):
    """full() with 0 (zarr-python's zeros)."""
    return full(url, shape, 0, dtype, chunks, **options)


def ones(url, shape, dtype="<f8", chunks=None, **options):
    """full() with 1 (zarr-python's ones)."""
    return full(url, shape, 1, dtype, chunks, **options)


def create_like(url, like, overrides=None, **options):
    """Create an array at url like the open Array ``like`` (zarr_create_like): its
    format, shape, dtype, chunks, codecs, fill value and dimension names, not its
    attributes or data. ``overrides`` (a dict) replaces metadata members, e.g.
    ``{"shape": [10, 10]}``."""
    handle = ArrayHandle()
    lib.zarr_create_like(ctypes.byref(handle), _capi.text(url), like._live,
                         None if overrides is None else _capi.to_json(overrides), _capi.options_json(options))
    return Array(handle, url, "r+")


def empty_like(url, like, **options):
    """create_like() keeping the fill value (zarr-python's empty_like)."""
    return create_like(url, like, None, **options)


def full_like(url, like, fill_value, **options):
    """create_like() with another fill value (zarr-python's full_like)."""
    return create_like(url, like, {"fill_value": fill_value}, **options)


def zeros_like(url, like, **options):
    """full_like() with 0."""
    return full_like(url, like, 0, **options)


def ones_like(url, like, **options):
    """full_like() with 1."""
    return full_like(url, like, 1, **options)


def erase(url, **options):
    """Erase the array or group at url and everything below it (zarr_erase)."""
    lib.zarr_erase(_capi.text(url), _capi.options_json(options))


def set_thread_count(n):
    """Threads that work on one region read or write (0: the default, ZARR_NUM_THREADS
    or the processors available)."""
    lib.zarr_set_thread_count(n)


def thread_count():
    """The threads that work on one region read or write."""
    return lib.zarr_thread_count()


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
