"""libzarr: Zarr v2 and v3 arrays and groups from Python, through libzarr's C API.

Written to be used as zarr-python is (``import libzarr as zarr``)::

    import libzarr as zarr
    z = zarr.open("data.zarr", mode="w", shape=(100, 100), chunks=(10, 10), dtype="f8")
    z[:10, ::2] = 1.0
    print(z[0, :6], z.shape, z.dtype, z.chunks)
    print(z.info)

The binding is thin: every operation is a call of libzarr.so.1's C API made
through ctypes (docs/bindings-python.md; docs/coming-from-zarr-python.md
lists each zarr-python call beside its libzarr equivalent). Set LIBZARR_PATH
to the library (or its folder) when pkg-config does not know where it is
installed. ``xarray.open_dataset(path, engine="libzarr")`` reads Zarr v2
and v3 datasets once the package is installed.
"""
from . import codecs, errors, storage, sync
from ._api import (
    array, consolidate_metadata, create, create_array, create_group, create_like, empty, empty_like, erase,
    from_array, full, full_like, group, library_version, migrate, migrate_1to2, ones, ones_like, open, open_array,
    open_consolidated, open_group, open_like, open_spec, set_thread_count, thread_count, zeros, zeros_like)
from ._array import Array
from ._convenience import copy, copy_all, copy_store, load, save, save_array, save_group, tree
from ._group import Group
from .codecs import (  # numcodecs' names, as zarr-python 2 re-exports them
    BZ2, JSON, LZ4, LZMA, Adler32, AsType, BitRound, Blosc, Categorize, CRC32, Delta, FixedScaleOffset,
    Fletcher32, GZip, PackBits, Quantize, Shuffle, VLenBytes, VLenUTF8, ZFPY, Zlib, Zstd)
from .errors import (  # noqa: F401  (re-exported)
    BufferSizeError, CodecError, CopyError, ExistsError, InternalError, InvalidArgumentError,
    InvalidMetadataError, InvalidSelectionError, MetadataError, NoMemoryError, NotFoundError, OutOfBoundsError,
    RangeError, ReadOnlyError, StoreError, UnsupportedError, ZarrError)
from .storage import (  # noqa: F401  (zarr-python 2's names at the top level)
    DirectoryStore, FSStore, LRUStoreCache, MemoryStore, NestedDirectoryStore, TempStore, ZipStore)
from .sync import ProcessSynchronizer, ThreadSynchronizer  # noqa: F401

__version__ = "0.1.0"

__all__ = [
    "Array", "Group", "open", "open_array", "open_group", "open_consolidated", "open_like", "create",
    "create_array", "create_group", "array", "from_array", "empty", "zeros", "ones", "full", "empty_like",
    "zeros_like", "ones_like", "full_like", "create_like", "group", "copy", "copy_all", "copy_store", "tree", "save",
    "save_array", "save_group", "load", "consolidate_metadata", "migrate", "migrate_1to2", "erase", "open_spec",
    "set_thread_count", "thread_count", "library_version", "codecs", "storage", "errors", "sync",
    "DirectoryStore", "NestedDirectoryStore", "ZipStore", "MemoryStore", "TempStore", "FSStore", "LRUStoreCache",
    "ThreadSynchronizer", "ProcessSynchronizer",
    "Blosc", "Zstd", "Zlib", "GZip", "BZ2", "LZMA", "LZ4", "Delta", "FixedScaleOffset", "Quantize", "BitRound",
    "AsType", "PackBits", "Categorize", "Shuffle", "CRC32", "Adler32", "Fletcher32", "VLenUTF8", "VLenBytes",
    "JSON", "ZFPY",
    "ZarrError", "InvalidArgumentError", "InvalidSelectionError", "NotFoundError", "ExistsError",
    "InvalidMetadataError", "MetadataError", "UnsupportedError", "CodecError", "StoreError", "OutOfBoundsError",
    "ReadOnlyError", "NoMemoryError", "BufferSizeError", "InternalError", "RangeError", "CopyError",
]
