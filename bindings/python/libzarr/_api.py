"""The module-level functions: opening and creating arrays and groups, zarr-python's way.

Modes are zarr-python's: "r" (read only, must exist), "r+" (read and write,
must exist), "a" (read and write, created when missing), "w" (created, what
was there erased first), "w-" or "x" (created, ExistsError when something is
there). The C API opens with "r" or "r+"; "a", "w" and "w-" are built here
from zarr_open_ex, zarr_create_ex and zarr_erase.

A new node takes the format of the hierarchy it is created in; a new root
is Zarr v3, as in zarr-python 3, unless zarr_format=2 is given.
"""
import ctypes
import os

from . import _capi
from ._array import Array
from ._capi import ArrayHandle, GroupHandle, lib
from ._creation import array_spec, needs_v2
from ._group import Group
from ._handle import Location
from .errors import InvalidArgumentError, NotFoundError
from .storage import Store, is_store_like, join_url, store_and_path

MODES = ("r", "r+", "a", "w", "w-", "x")
# The options zarr_open_ex takes for arrays, and zarr_group_open_ex for groups.
ARRAY_OPTIONS = {"write_empty_chunks", "zarr_format", "cache_pool", "data_copy_concurrency", "chunk_store",
                 "process_lock_dir", "store"}
GROUP_OPTIONS = {"consolidated", "store"}
# zarr-python's creation keywords (see _creation.array_spec).
CREATION_KEYWORDS = {"shape", "chunks", "dtype", "compressor", "compressors", "fill_value", "order",
                     "filters", "serializer", "codecs", "shards", "object_codec", "dimension_separator",
                     "chunk_key_encoding", "dimension_names", "attributes", "chunk_shape"}
# zarr-python keywords with nothing to do in libzarr (caches are the library's, and so on).
IGNORED_KEYWORDS = {"cache_metadata", "cache_attrs", "meta_array", "partial_decompress", "storage_transformers",
                    "normalize_keys"}


# -- reopening what a Location records (pickling, copy) ---------------------------------

def open_location(kind, location):
    """A new Array or Group handle on the node a Location records."""
    if location.spec is not None:
        return _open_spec_location(location)
    return open_array_at(location) if kind == "array" else open_group_at(location)


def open_array_at(location):
    """Open the array at location (mode "r" or "r+")."""
    handle = ArrayHandle()
    lib.zarr_open_ex(ctypes.byref(handle), _capi.text(location.url), _capi.text(location.mode),
                     _capi.options_json(location.options))
    return Array(handle, location)


def open_group_at(location):
    """Open the group at location (mode "r" or "r+")."""
    handle = GroupHandle()
    lib.zarr_group_open_ex(ctypes.byref(handle), _capi.text(location.url), _capi.text(location.mode),
                           _capi.options_json(location.options))
    return Group(handle, location)


def create_array_at(location, spec, parent=None):
    """Create the array spec describes at location (through parent, a Group, when given)."""
    handle = ArrayHandle()
    if parent is None:
        lib.zarr_create_ex(ctypes.byref(handle), _capi.text(location.url), _capi.to_json(spec.metadata),
                           _capi.options_json(location.options))
    else:
        with parent._using() as group:
            lib.zarr_group_create_array(ctypes.byref(handle), group,
                                        _capi.text(parent._relative(location.path)),
                                        _capi.to_json(spec.metadata))
    array = Array(handle, Location(location.store, location.path, "r+", location.options))
    if spec.attributes:
        array.attrs.update(spec.attributes)
    return array


def create_group_at(location, attributes=None, zarr_format=None, parent=None):
    """Create a group at location (through parent, a Group, when given)."""
    handle = GroupHandle()
    attributes_json = None if attributes is None else _capi.to_json(attributes)
    if parent is None:
        options = dict(location.options)
        options["zarr_format"] = zarr_format or format_for_new_node(location)
        lib.zarr_group_create_ex(ctypes.byref(handle), _capi.text(location.url), attributes_json,
                                 _capi.options_json(options))
    else:
        with parent._using() as group:
            lib.zarr_group_create_group(ctypes.byref(handle), group,
                                        _capi.text(parent._relative(location.path)), attributes_json)
    return Group(handle, Location(location.store, location.path, "r+", location.options))


def format_for_new_node(location, given=None, default=3):
    """The format of a node created at location: given, else that of the nearest enclosing
    group (the library refuses to mix formats in one hierarchy), else default (3, as
    zarr-python 3)."""
    if given is not None:
        return int(given)
    for url in _enclosing_urls(location.url):
        handle = GroupHandle()
        try:
            lib.zarr_group_open_ex(ctypes.byref(handle), _capi.text(url), b"r",
                                   _capi.options_json(_store_only(location.options)))
        except NotFoundError:
            continue
        except Exception:  # noqa: BLE001  (an unreachable parent: nothing to follow)
            break
        try:
            return lib.zarr_group_format(handle)
        finally:
            lib.zarr_group_close(handle)
    return default


def _enclosing_urls(url, levels=32):
    """The URLs of the folders above url, nearest first, within its store (a zip archive,
    a memory store, a bucket, a server; for plain paths, the folders that exist)."""
    base, path = _split_store_root(url)
    absolute = path.startswith("/")
    parts = [p for p in path.split("/") if p]
    for end in list(range(len(parts) - 1, -1, -1))[:levels]:
        parent = "/".join(parts[:end])
        if base:
            yield base + (parent if base.endswith((":", "/")) or not parent else "/" + parent)
            continue
        folder = ("/" if absolute else "") + parent or "."
        if os.path.isdir(folder):
            yield folder


def _split_store_root(url):
    """(store root, path within it) of a URL; ("", path) for plain filesystem paths."""
    if "|zip:" in url:
        archive, _, inner = url.partition("|zip:")
        return archive + "|zip:", inner
    if "://" in url:
        scheme, _, rest = url.partition("://")
        if scheme == "file":
            return "", rest
        root, _, path = rest.partition("/")
        return f"{scheme}://{root}", path
    return "", url


def _store_only(options):
    return {"store": options["store"]} if "store" in options else {}


def _erase_if_present(location):
    try:
        lib.zarr_erase(_capi.text(location.url), _capi.options_json(_store_only(location.options)))
    except NotFoundError:
        pass


def _open_spec_location(location):
    """Reopen an array first opened by open_spec: open what is there, create nothing."""
    spec = dict(location.spec)
    spec.pop("create", None)
    spec.pop("delete_existing", None)
    spec["open"] = True
    handle = ArrayHandle()
    lib.zarr_open_spec(ctypes.byref(handle), _capi.to_json(spec))
    return Array(handle, Location(location.store, location.path, location.mode, spec=spec))


# -- keyword arguments --------------------------------------------------------------------

def split_keywords(keywords, allowed_options=ARRAY_OPTIONS, function="create"):
    """(creation keywords, library options) of zarr-python keyword arguments;
    TypeError naming any keyword neither zarr-python nor libzarr has."""
    creation, options = {}, {}
    for name, value in keywords.items():
        if name in CREATION_KEYWORDS:
            creation[name] = value
        elif name in ("zarr_format", "zarr_version"):  # the caller decides: create, or open only it
            if value is not None:
                creation["zarr_format"] = value
        elif name in allowed_options:
            options[name] = _option_value(name, value)
        elif name == "synchronizer":
            options.update(value.handle_options() if value is not None else {})
        elif name == "config":
            options.update({k: v for k, v in (value or {}).items() if k == "write_empty_chunks"})
        elif name not in IGNORED_KEYWORDS:
            raise TypeError(f"{function}() got an unexpected keyword argument {name!r}")
    return creation, options


def _option_value(name, value):
    if name == "chunk_store" and value is not None and not isinstance(value, str):
        return store_and_path(value)[0].url
    return value


def _resolve_mode(mode, store):
    if mode is None or (mode == "a" and store.read_only):
        return "r" if store.read_only else "a"  # a read-only store opens what is there
    if mode not in MODES:
        raise InvalidArgumentError(f"mode must be one of {', '.join(map(repr, MODES))}, not {mode!r}")
    return "w-" if mode == "x" else mode


def _location(store, path, mode, options, allowed):
    """A Location whose options are the store's and the caller's, for an array or a group."""
    merged = {k: v for k, v in store.handle_options(options).items() if k in allowed}
    return Location(store, path, mode, merged)


# -- opening ------------------------------------------------------------------------------

def open(store=None, mode=None, *, zarr_format=None, path=None, storage_options=None, **kwargs):  # noqa: A001
    """Open the array or group at store (a path, URL or libzarr.storage store).

    mode as zarr-python's (default "a": read and write, a group created when
    nothing is there; "r" for read-only stores). With ``shape=`` an array is
    opened or created (see open_array); keyword options go to the library
    (``write_empty_chunks``, ``cache_pool``, ``process_lock_dir``...).
    """
    store, path = store_and_path(store, path, storage_options, mode)
    mode = _resolve_mode(mode, store)
    if zarr_format is not None:
        kwargs["zarr_format"] = zarr_format
    if "shape" in kwargs:
        return open_array(store, mode=mode, path=path, **kwargs)
    group_kwargs = {k: v for k, v in kwargs.items() if k in GROUP_OPTIONS | {"use_consolidated", "attributes",
                                                                           "zarr_format"}}
    if mode in ("w", "w-"):  # without a shape these create a group, as zarr-python's open
        return open_group(store, mode=mode, path=path, **group_kwargs)
    try:
        return open_array(store, mode=mode, path=path, **{k: v for k, v in kwargs.items()
                                                         if k not in GROUP_OPTIONS | {"use_consolidated"}})
    except NotFoundError as no_array:
        try:
            return open_group(store, mode=mode, path=path, **group_kwargs)
        except NotFoundError as no_group:
            raise NotFoundError(f"{no_array.message}; {no_group.message}") from None


def open_array(store=None, mode=None, *, path=None, storage_options=None, **kwargs):
    """Open the array at store, or create it (mode "a", "w", "w-") from zarr-python's
    keywords: shape, chunks, dtype, compressor(s), filters, fill_value, order,
    shards, dimension_names... Mode "a" opens an existing array as it is."""
    store, path = store_and_path(store, path, storage_options, mode)
    mode = _resolve_mode(mode, store)
    creation, options = split_keywords(kwargs, function="open_array")
    zarr_format = creation.pop("zarr_format", None)
    if zarr_format is not None and mode in ("r", "r+", "a"):
        options["zarr_format"] = zarr_format
    location = _location(store, path, "r" if mode == "r" else "r+", options, ARRAY_OPTIONS)
    if mode in ("r", "r+"):
        return open_array_at(location)
    if mode == "a":
        try:
            return open_array_at(location)
        except NotFoundError:
            if "shape" not in creation:
                raise
    return _create(location, zarr_format, creation, overwrite=mode == "w")


def open_group(store=None, mode=None, *, path=None, storage_options=None, attributes=None, zarr_format=None,
               use_consolidated=None, consolidated=None, zarr_version=None, **ignored):
    """Open the group at store, or create it (modes "a", "w", "w-").

    use_consolidated (or consolidated): True to take every metadata document from
    the consolidated metadata, False to ignore it; by default mode "r" uses it
    when present.
    """
    store, path = store_and_path(store, path, storage_options, mode)
    consolidated = use_consolidated if use_consolidated is not None else consolidated
    if mode is None and consolidated:
        mode = "r"  # libzarr reads consolidated metadata read-only
    mode = _resolve_mode(mode, store)
    split_keywords(ignored, allowed_options={"synchronizer", "chunk_store"}, function="open_group")
    options = {}
    if consolidated is not None and mode in ("r", "r+", "a"):
        options["consolidated"] = consolidated
    location = _location(store, path, "r" if mode == "r" else "r+", options, GROUP_OPTIONS)
    if mode in ("r", "r+"):
        return open_group_at(location)
    if mode == "a":
        try:
            return open_group_at(location)
        except NotFoundError:
            pass
    elif mode == "w":
        _erase_if_present(location)
    location.options.pop("consolidated", None)
    return create_group_at(location, attributes, zarr_format or zarr_version)


def open_consolidated(store=None, metadata_key=".zmetadata", mode="r", *, path=None, storage_options=None,
                      **kwargs):
    """Open a group through its consolidated metadata (mode "r"); in mode "r+" the group is
    opened from the metadata of each node (libzarr takes consolidated metadata read-only)."""
    if mode == "r":
        return open_group(store, mode="r", path=path, storage_options=storage_options, use_consolidated=True,
                          **kwargs)
    return open_group(store, mode=mode, path=path, storage_options=storage_options, **kwargs)


# -- creating -----------------------------------------------------------------------------

def _create(location, zarr_format, creation, overwrite=False, parent=None):
    """Create an array at location from zarr-python's creation keywords."""
    defaults = location.store._creation_defaults
    for name, value in defaults.items():
        creation.setdefault(name, value)
    if parent is not None:
        zarr_format = zarr_format or parent.zarr_format
    else:
        zarr_format = format_for_new_node(location, zarr_format, 2 if needs_v2(**creation) else 3)
    if zarr_format == 3 and "dimension_separator" in defaults and "chunk_key_encoding" not in creation:
        creation.pop("dimension_separator", None)  # a store's v2 key style, not asked for this array
    spec = array_spec(zarr_format, **creation)
    if overwrite:
        _erase_if_present(location)
    return create_array_at(location, spec, parent)


def create(*args, store=None, path=None, overwrite=False, zarr_format=None, storage_options=None,
           read_only=False, **kwargs):
    """Create an array (zarr-python's create); in memory unless store is given.

    zarr-python 2's and 3's keywords: shape, chunks (True/"auto" to choose, an
    int, a tuple with None for whole axes), dtype (any NumPy spelling, str,
    bytes, "string"), compressor / compressors, filters, serializer, shards
    (v3), fill_value, order, dimension_separator, chunk_key_encoding,
    dimension_names, attributes, overwrite, zarr_format (default: that of the
    enclosing hierarchy, else 3). Library options (write_empty_chunks,
    cache_pool, process_lock_dir, ...) go with them. The first argument is the
    shape, or the store (``create("t.zarr", shape=...)``).

    libzarr's own form ``create(url, metadata)`` takes a v2 .zarray or v3
    zarr.json document (a dict or JSON text), missing fields defaulting as
    docs/c-api.md says.
    """
    if args and is_store_like(args[0]):
        target, args = args[0], args[1:]
        if args or "metadata" in kwargs:
            return create_from_metadata(target, args[0] if args else kwargs.pop("metadata"), **kwargs)
        store, shape = target, kwargs.pop("shape", None)
    elif len(args) > 1:
        raise TypeError("create() takes the shape (or the store) as its only positional argument")
    else:
        shape = args[0] if args else kwargs.pop("shape", None)
    store, path = store_and_path(store, path, storage_options, "w" if overwrite else None)
    creation, options = split_keywords(kwargs)
    creation["shape"] = shape
    zarr_format = creation.pop("zarr_format", zarr_format)
    location = _location(store, path, "r+", options, ARRAY_OPTIONS)
    array = _create(location, zarr_format, creation, overwrite)
    return _reopened_read_only(array) if read_only else array


def _reopened_read_only(array):
    location = array._location
    array.close()
    return open_array_at(Location(location.store, location.path, "r", location.options))


def create_from_metadata(url, metadata, **options):
    """libzarr's create(url, metadata): a v2 or v3 metadata document, opened read-write."""
    store, path = store_and_path(url)
    location = _location(store, path, "r+", options, ARRAY_OPTIONS)
    handle = ArrayHandle()
    lib.zarr_create_ex(ctypes.byref(handle), _capi.text(location.url), _capi.to_json(metadata),
                       _capi.options_json(location.options))
    return Array(handle, location)


def create_array(store, *, name=None, shape=None, dtype=None, data=None, overwrite=False, zarr_format=3,
                 storage_options=None, write_data=True, fill_value=None, **kwargs):
    """zarr-python 3's create_array: an array at name in store, from a shape and dtype or
    from data (which is then written unless write_data is False)."""
    if data is not None:
        data = _as_numpy(data)
        shape, dtype = data.shape, data_dtype(data, dtype, kwargs.get("object_codec"))
    array = create(shape, store=store, path=name, dtype=dtype, overwrite=overwrite, zarr_format=zarr_format,
                   storage_options=storage_options, fill_value=fill_value, **kwargs)
    if data is not None and write_data:
        array[...] = data
    return array


def array(data, **kwargs):
    """A new array holding data (zarr-python's array): shape and dtype from data."""
    source = data
    data = _as_numpy(data)
    kwargs["dtype"] = data_dtype(data, kwargs.get("dtype"), kwargs.get("object_codec"))
    if "chunks" not in kwargs and getattr(source, "chunks", None) is not None and \
            all(isinstance(c, int) for c in source.chunks):
        kwargs["chunks"] = source.chunks
    new = create(data.shape, **kwargs)
    new[...] = data
    return new


def from_array(store, *, data, name=None, chunks="keep", write_data=True, overwrite=False, **kwargs):
    """zarr-python 3's from_array: a new array like data (its chunks and codecs when data is
    a libzarr Array), holding a copy of it."""
    like = like_keywords(data, with_codecs=True) if chunks == "keep" else {}
    if chunks != "keep":
        like["chunks"] = chunks
    like.update(kwargs)
    like.setdefault("shape", data.shape)
    like.setdefault("dtype", data.dtype)
    new = create(store=store, path=name, overwrite=overwrite, **like)
    if write_data:
        new[...] = _as_numpy(data)
    return new


def data_dtype(data, dtype=None, object_codec=None):
    """The dtype of an array made from data: dtype if given, else the data's; an object array
    of str (or bytes) only, with no object codec given, is a string (bytes) array."""
    if dtype is not None:
        return dtype
    if data.dtype.kind == "O" and object_codec is None and data.size:
        for kind in (str, bytes):
            if all(isinstance(item, kind) for item in data.flat):
                return kind
    return data.dtype


def _as_numpy(data):
    import numpy
    return data if isinstance(data, numpy.ndarray) else numpy.asarray(data)


def _fill(fill_value):
    """zeros, ones, full, empty: create with a fill value, in zarr-python's form
    ``f(shape, **kwargs)`` or libzarr's ``f(url, shape, ...)``."""
    def make(*args, **kwargs):
        positional = ["dtype", "chunks"]
        value = fill_value
        if args and is_store_like(args[0]):  # libzarr's f(url, shape, ...)
            kwargs["store"], args = args[0], args[1:]
        if args:
            kwargs["shape"], args = args[0], args[1:]
        if value is _FULL:
            if not args and "fill_value" not in kwargs:
                raise TypeError("full() needs a fill_value")
            value = args[0] if args else kwargs.pop("fill_value")
            args = args[1:]
        elif "fill_value" in kwargs:  # zeros(..., fill_value=nan) wrote 0, silently
            raise TypeError(f"{make.__name__}() got multiple values for argument 'fill_value' (its fill "
                            f"value is {value!r}: use full() for another)")
        kwargs.update(zip(positional, args))
        kwargs["fill_value"] = value
        return create(**kwargs)
    return make


_FULL = object()
zeros = _fill(0)
ones = _fill(1)
empty = _fill(None)
full = _fill(_FULL)
zeros.__name__, ones.__name__, empty.__name__, full.__name__ = "zeros", "ones", "empty", "full"
zeros.__doc__ = "A new array reading 0 everywhere (no chunk is written): zeros(shape, **create's keywords)."
ones.__doc__ = "A new array reading 1 everywhere: ones(shape, **create's keywords)."
empty.__doc__ = ("A new array with a null fill value (unwritten elements read as zeros): "
                 "empty(shape, **create's keywords).")
full.__doc__ = "A new array reading fill_value everywhere: full(shape, fill_value, **create's keywords)."


def like_keywords(a, with_codecs=True):
    """The creation keywords that make an array like a (a libzarr Array, a zarr-python or
    h5py array, or any array-like): shape, dtype, chunks, and for libzarr arrays their
    format, codecs, order and dimension names."""
    keywords = {"shape": a.shape, "dtype": a.dtype}
    if isinstance(a, Array):
        metadata = a.metadata
        keywords["zarr_format"] = a.zarr_format if a.zarr_format in (2, 3) else 2
        if with_codecs and keywords["zarr_format"] == 3:
            keywords["chunks"] = a._storage_chunks
            keywords["codecs"] = metadata["codecs"]
            keywords["dimension_names"] = metadata.get("dimension_names")
        elif with_codecs:
            keywords["chunks"] = a.chunks
            keywords.update({k: metadata.get(k) for k in ("compressor", "filters", "order")})
            keywords["dimension_separator"] = metadata.get("dimension_separator")
        keywords["fill_value"] = a.fill_value
        keywords = {k: v for k, v in keywords.items() if v is not None or k == "compressor"}
    elif getattr(a, "chunks", None) is not None:
        keywords["chunks"] = tuple(c if isinstance(c, int) else max(c) for c in a.chunks)
    return keywords


def _like(fill_value):
    """empty_like, zeros_like...: zarr-python's ``f(a, **kwargs)`` or libzarr's ``f(url, like)``."""
    def make(a, *args, **kwargs):
        if is_store_like(a) and args and isinstance(args[0], Array):  # libzarr's (url, like[, fill])
            url, like, rest = a, args[0], args[1:]
            value = fill_value
            if value is _FULL:
                value = rest[0] if rest else kwargs.pop("fill_value")
            overrides = None if value is _KEEP else {"fill_value": value}
            return create_like(url, like, overrides, **kwargs)
        keywords = like_keywords(a)
        if fill_value is _FULL:
            keywords["fill_value"] = args[0] if args else kwargs.pop("fill_value")
        elif fill_value is not _KEEP:
            keywords["fill_value"] = fill_value
        keywords.update(kwargs)
        return create(**keywords)
    return make


_KEEP = object()
empty_like = _like(_KEEP)
zeros_like = _like(0)
ones_like = _like(1)
full_like = _like(_FULL)
empty_like.__name__, zeros_like.__name__, ones_like.__name__, full_like.__name__ = (
    "empty_like", "zeros_like", "ones_like", "full_like")
empty_like.__doc__ = "A new array like a (shape, dtype, chunks, codecs, fill value), without its data."
zeros_like.__doc__ = "A new array like a, reading 0 everywhere."
ones_like.__doc__ = "A new array like a, reading 1 everywhere."
full_like.__doc__ = "A new array like a, reading fill_value everywhere: full_like(a, fill_value, **kwargs)."


def open_like(a, path, **kwargs):
    """Open the array at path, or create it like a (zarr-python 2's open_like)."""
    keywords = like_keywords(a)
    keywords.update(kwargs)
    return open_array(path, **keywords)


def create_like(url, like, overrides=None, **options):
    """Create an array at url like the open Array ``like`` (zarr_create_like): its format,
    shape, dtype, chunks, codecs, fill value and dimension names, not its attributes or
    data. ``overrides`` (a dict) replaces metadata members, e.g. ``{"shape": [10, 10]}``."""
    store, path = store_and_path(url)
    location = _location(store, path, "r+", options, ARRAY_OPTIONS)
    handle = ArrayHandle()
    with like._using() as like_handle:
        lib.zarr_create_like(ctypes.byref(handle), _capi.text(location.url), like_handle,
                             None if overrides is None else _capi.to_json(overrides),
                             _capi.options_json(location.options))
    return Array(handle, location)


def group(store=None, overwrite=False, *, path=None, attributes=None, zarr_format=None, zarr_version=None,
          storage_options=None, **ignored):
    """The group at store opened read-write, created when nothing is there (overwrite=True:
    created anew, what was there erased). zarr_format: of a group created here (default:
    that of the enclosing hierarchy, else 3)."""
    if isinstance(overwrite, dict):  # libzarr's group(url, attributes)
        attributes, overwrite = overwrite, False
    return open_group(store, mode="w" if overwrite else "a", path=path, attributes=attributes,
                      zarr_format=zarr_format or zarr_version, storage_options=storage_options, **ignored)


def create_group(store, *, path=None, zarr_format=None, overwrite=False, attributes=None,
                 storage_options=None):
    """zarr-python 3's create_group: a new group (ExistsError when a node is there, unless
    overwrite)."""
    return open_group(store, mode="w" if overwrite else "w-", path=path, attributes=attributes,
                      zarr_format=zarr_format, storage_options=storage_options)


# -- whole hierarchies ----------------------------------------------------------------------

def consolidate_metadata(store, metadata_key=".zmetadata", *, path=None, zarr_format=None):
    """Record the metadata of every node below the group at store in one place (.zmetadata
    in v2, the root's "consolidated_metadata" in v3); returns the group opened through it."""
    store, path = store_and_path(store, path)
    lib.zarr_consolidate_metadata(_capi.text(store.url_of(path)))
    return open_consolidated(store, path=path)


def erase(url, **options):
    """Erase the array or group at url and everything below it (zarr_erase)."""
    store, path = store_and_path(url)
    lib.zarr_erase(_capi.text(store.url_of(path)),
                   _capi.options_json(_store_only(store.handle_options(options))))


def migrate(store, zarr_format=3, *, path=None):
    """Convert the node at store (and everything below a group) to zarr_format, in place:
    v1 arrays to v2 (zarr_migrate_v1_to_v2), v2 arrays and hierarchies to v3
    (zarr_migrate_v2_to_v3: chunks keep their keys and bytes). Nothing changes when the
    node already has that format or newer. A node below a v2 group is refused
    (InvalidArgumentError: one hierarchy has one format; migrate the root), and a group's
    .zmetadata becomes its v3 consolidated_metadata."""
    store, path = store_and_path(store, path)
    url = store.url_of(path)
    current = _format_at(url)
    if current == 1 and zarr_format >= 2:
        lib.zarr_migrate_v1_to_v2(_capi.text(url))
        current = 2
    if current == 2 and zarr_format >= 3:
        lib.zarr_migrate_v2_to_v3(_capi.text(url))


def migrate_1to2(store):
    """zarr-python 2's migrate_1to2: a v1 array to v2, in place."""
    migrate(store, zarr_format=2)


def _format_at(url):
    node = open(url, mode="r")
    try:
        return node.zarr_format
    finally:
        node.close()


def open_spec(spec):
    """Open or create an array from a TensorStore zarr driver spec (a dict or JSON text;
    zarr_open_spec, docs/spec.md). Opened read-write where the store allows it."""
    spec_value = _capi.json.loads(spec) if isinstance(spec, str) else dict(spec)
    handle = ArrayHandle()
    lib.zarr_open_spec(ctypes.byref(handle), _capi.to_json(spec))
    return Array(handle, Location(_spec_store(spec_value), "", "r+", spec=spec_value))


def _spec_store(spec):
    """The store a spec's kvstore names (for pickling and copying: memory stores stay in
    this process, and an anonymous one, a memory kvstore without a path, is the opened
    array's own: nothing can reopen it)."""
    kvstore = spec.get("kvstore")
    if isinstance(kvstore, dict):
        driver = kvstore.get("driver")
        anonymous = driver == "memory" and not kvstore.get("path")
        base = "memory://" + (kvstore.get("path") or "anonymous") if driver == "memory" else kvstore.get("path", "")
        store = Store(join_url(base, spec.get("path", "")))
        store.reopenable = not anonymous
        return store
    return Store(join_url(str(kvstore or ""), spec.get("path", "")))


def library_version():
    """Version of the libzarr C library loaded, e.g. "0.1.0"."""
    return lib.zarr_version_string().decode("ascii")


def set_thread_count(n):
    """Threads that work on one region read or write (0: the default, ZARR_NUM_THREADS
    or the processors available)."""
    n = int(n)
    if not 0 <= n < 2**64:  # ctypes wraps -1 and 2**64 around (2**64 became 0: the default)
        raise InvalidArgumentError(f"set_thread_count: n ({n}) is {'negative' if n < 0 else 'not below 2**64'}")
    lib.zarr_set_thread_count(n)


def thread_count():
    """The threads that work on one region read or write."""
    return lib.zarr_thread_count()


__all__ = ["open", "open_array", "open_group", "open_consolidated", "open_like", "create", "create_array",
           "create_group", "array", "from_array", "empty", "zeros", "ones", "full", "empty_like",
           "zeros_like", "ones_like", "full_like", "create_like", "group", "consolidate_metadata", "erase",
           "migrate", "migrate_1to2", "open_spec", "library_version", "set_thread_count", "thread_count"]
