"""Stores: where a hierarchy lives, named the way zarr-python names it.

libzarr opens every node by URL (docs/urls.md), so a store here is a URL and
the options its handles are opened with; the bytes are the C library's
business. The classes carry zarr-python 2's and 3's names so that code written
for either runs unchanged:

    DirectoryStore(path), LocalStore(path)   a folder                  PATH
    NestedDirectoryStore(path)               a folder, "/" chunk keys  PATH
    ZipStore(path, mode)                     a zip archive             PATH|zip:
    MemoryStore()                            this process's memory     memory://NAME
    TempStore()                              a temporary folder        PATH (removed at exit)
    FSStore(url, **storage_options),         file://, http(s)://, s3:// URLS
      FsspecStore.from_url(url, storage_options)
    LRUStoreCache(store, max_size)           a cache of decoded chunks (the "cache_pool" option)

Anywhere a store is taken, a str or pathlib.Path will do: a path ending in
".zip" is a zip archive, as in zarr-python 2.
"""
import atexit
import os
import shutil
import tempfile
import urllib.parse
import uuid
import weakref

__all__ = ["Store", "DirectoryStore", "LocalStore", "NestedDirectoryStore", "ZipStore",
           "MemoryStore", "TempStore", "FSStore", "FsspecStore", "LRUStoreCache", "StorePath",
           "rmdir"]

# zarr-python 2's module setting: the compressor of new arrays that name none (of both
# formats here). None keeps each format's default (v2: Blosc lz4; v3: Zstd level 0).
default_compressor = None


class Store:
    """A location libzarr opens nodes from: a URL plus the options of the handles opened there.

    Attributes:
        url: the store's root as a libzarr URL; a node at path p is ``url_of(p)``.
        read_only: handles default to mode "r" (zarr-python 3's ``read_only``).
    """

    def __init__(self, url, read_only=False, storage_options=None):
        self.url = _url_text(url)
        #: Handles opened here can be reopened by another process (pickling): not in a
        #: memory:// store, which exists in this process only (whatever object named it).
        self.shareable = not self.url.startswith("memory://")
        #: Handles opened here can be opened again in this process (copy.copy): not an
        #: anonymous memory store, which only the handle that made it reaches.
        self.reopenable = True
        self.read_only = read_only
        self._store_options = translate_storage_options(storage_options)
        self._handle_options = {}      # options every handle opened here gets
        self._creation_defaults = {}   # keyword defaults of arrays created here

    def url_of(self, path):
        """The URL of the node at path below this store's root."""
        return join_url(self.url, path)

    def handle_options(self, options=None):
        """The library options of a handle opened here, with the caller's on top."""
        merged = dict(self._handle_options)
        if self._store_options:
            merged["store"] = dict(self._store_options)
        merged.update(options or {})
        return merged

    #: Keep one handle open while this object lives (or until close()): the library frees a
    #: memory store, and writes a zip archive, when the last handle on it closes.
    _keep_open = False

    def _track(self, node):
        """Called with each node opened through this store."""
        if self._keep_open and getattr(self, "_keeper", None) is None:
            self._keeper = node._reopen(keep_store=False)

    def close(self):
        """Release the handle kept open (ZipStore: close every handle, writing the archive)."""
        keeper, self._keeper = getattr(self, "_keeper", None), None
        if keeper is not None:
            keeper.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __eq__(self, other):
        return type(other) is type(self) and other.url == self.url

    def __hash__(self):
        return hash((type(self), self.url))

    def __repr__(self):
        return f"{type(self).__name__}({shown_url(self.url)!r})"

    def __str__(self):
        return self.url

    def __fspath__(self):
        return self.url


class DirectoryStore(Store):
    """A folder of the filesystem (zarr-python 2's DirectoryStore)."""

    def __init__(self, path, normalize_keys=False, dimension_separator=None, read_only=False):
        super().__init__(os.path.abspath(os.fspath(path)), read_only=read_only)
        if normalize_keys:
            raise NotImplementedError("normalize_keys: libzarr keeps keys as they are")
        if dimension_separator:
            self._creation_defaults["dimension_separator"] = dimension_separator

    @property
    def path(self):
        """The folder (zarr-python 2's DirectoryStore.path)."""
        return self.url

    @property
    def root(self):
        """The folder (zarr-python 3's LocalStore.root)."""
        return self.url


class LocalStore(DirectoryStore):
    """A folder of the filesystem (zarr-python 3's LocalStore)."""

    def __init__(self, root, read_only=False):
        super().__init__(root, read_only=read_only)


class NestedDirectoryStore(DirectoryStore):
    """A folder whose v2 chunk keys are nested ("0/1" rather than "0.1")."""

    def __init__(self, path, normalize_keys=False, dimension_separator="/"):
        super().__init__(path, normalize_keys, dimension_separator)


class MemoryStore(Store):
    """This process's memory (a ``memory://`` URL of its own).

    The library frees a memory store when its last handle closes; this object
    keeps one handle open so that what was written stays readable as long as the
    object lives, as zarr-python's MemoryStore does. Nodes in memory cannot be
    pickled: another process would not see them.
    """

    _keep_open = True

    def __init__(self, name=None, read_only=False):
        super().__init__(f"memory://{name or 'libzarr-' + uuid.uuid4().hex}", read_only=read_only)


class TempStore(DirectoryStore):
    """A new temporary folder, removed when the interpreter exits (zarr-python 2's TempStore)."""

    def __init__(self, suffix="", prefix="zarr", dir=None):  # noqa: A002  (zarr-python's name)
        folder = tempfile.mkdtemp(suffix=suffix, prefix=prefix, dir=dir)
        atexit.register(shutil.rmtree, folder, True)
        super().__init__(folder)


class ZipStore(Store):
    """A zip archive (``PATH|zip:``), as zarr-python's ZipStore.

    mode "w" starts a new archive (an existing file is removed); "r" reads;
    "a" (the default) opens what is there. The library writes the archive when
    its last handle closes: close() closes every handle opened through this
    store, so call it (or use ``with``) when done writing.
    """

    def __init__(self, path, compression=None, allowZip64=True, mode="a", dimension_separator=None):  # noqa: N803
        path = os.path.abspath(os.fspath(path))
        if mode not in ("r", "w", "a", "x"):
            raise ValueError(f"ZipStore mode must be 'r', 'w', 'a' or 'x', not {mode!r}")
        if mode == "w" and os.path.exists(path):
            os.remove(path)
        if mode == "x" and os.path.exists(path):
            raise FileExistsError(f"ZipStore: {path} exists")
        super().__init__(f"{path}|zip:", read_only=mode == "r")
        self.path = path
        self.mode = mode
        if compression is not None:
            self._store_options = {"compression": _zip_compression_name(compression)}
        if dimension_separator:
            self._creation_defaults["dimension_separator"] = dimension_separator
        self._nodes = HandleSet()

    _keep_open = True

    def _track(self, node):
        super()._track(node)
        self._nodes.add(node)

    def close(self):
        """Close every handle opened through this store: the archive is written now."""
        for node in list(self._nodes):
            node.close()
        self._nodes.clear()
        super().close()

    def flush(self):
        """zarr-python's flush: libzarr writes the archive at close()."""


class FSStore(Store):
    """A URL the library reads itself (file://, http(s)://, s3://), with fsspec-style options.

    storage_options as s3fs/fsspec spell them are translated to the library's
    store options (docs/store-s3.md): ``anon`` -> ``anonymous``, ``key`` /
    ``secret`` / ``token`` -> the credentials, ``endpoint_url`` and
    ``client_kwargs={"endpoint_url", "region_name"}`` -> ``endpoint`` and ``region``.
    """

    def __init__(self, url, mode="a", key_separator=None, dimension_separator=None,
                 read_only=False, **storage_options):
        super().__init__(url, read_only=read_only or mode == "r", storage_options=storage_options)
        separator = dimension_separator or key_separator
        if separator:
            self._creation_defaults["dimension_separator"] = separator


class FsspecStore(FSStore):
    """zarr-python 3's FsspecStore: ``FsspecStore.from_url(url, storage_options=...)``."""

    def __init__(self, url, read_only=False, **storage_options):
        super().__init__(url, read_only=read_only, **storage_options)

    @classmethod
    def from_url(cls, url, storage_options=None, read_only=False):
        return cls(url, read_only=read_only, **(storage_options or {}))


class LRUStoreCache(Store):
    """Another store with a cache of decoded chunks of at most max_size bytes per handle.

    libzarr caches decoded chunks, not stored bytes: this sets the handles'
    ``cache_pool`` option (docs/c-api.md). max_size None means no limit.
    """

    def __init__(self, store, max_size):
        inner = as_store(store)
        super().__init__(inner.url, read_only=inner.read_only)
        self._store_options = inner._store_options
        self._handle_options = dict(inner._handle_options)
        self._creation_defaults = dict(inner._creation_defaults)
        self._inner = inner
        limit = 2 ** 62 if max_size is None else int(max_size)
        self._handle_options["cache_pool"] = {"total_bytes_limit": limit}
        self.shareable, self.reopenable = inner.shareable, inner.reopenable

    def _track(self, node):
        self._inner._track(node)

    def close(self):
        self._inner.close()


class StorePath:
    """zarr-python 3's StorePath: a store and a path below its root."""

    def __init__(self, store, path=""):
        self.store = as_store(store)
        self.path = path.strip("/")

    def __truediv__(self, other):
        return StorePath(self.store, join_path(self.path, other))

    def __repr__(self):
        return f"StorePath({self.store!r}, {self.path!r})"


class HandleSet:
    """Open handles, held weakly and told apart by identity: a WeakSet compares its members
    with ==, and two handles on one node are equal (zarr-python's Array equality), so it
    kept one of them and closing "every handle" left the others open."""

    def __init__(self):
        self._members = weakref.WeakValueDictionary()

    def add(self, node):
        self._members[id(node)] = node

    def discard(self, node):
        if self._members.get(id(node)) is node:
            del self._members[id(node)]

    def clear(self):
        self._members.clear()

    def __iter__(self):
        return iter(list(self._members.values()))

    def __len__(self):
        return len(self._members)


def rmdir(store, path=""):
    """Erase the node at path in store and everything below it (zarr-python 2's rmdir)."""
    from ._api import erase  # here to keep the import graph one way
    erase(as_store(store).url_of(path))


# -- turning what users pass into stores ---------------------------------------

def is_store_like(value):
    """True for what names a store (a str, path, Store or StorePath), not a shape or data."""
    return isinstance(value, (str, bytes, os.PathLike, Store, StorePath)) or _is_fsspec_map(value)


def as_store(store, storage_options=None, mode=None):
    """A Store for what users pass as ``store``: None is a new MemoryStore."""
    if isinstance(store, Store):
        if storage_options:
            raise TypeError("storage_options apply to URLs, not to a Store object")
        return store
    if store is None:
        return MemoryStore()
    if _is_fsspec_map(store):
        return FSStore(store.fs.unstrip_protocol(store.root), **(storage_options or {}))
    if isinstance(store, dict):
        return _memory_store_for_dict(store)
    if not isinstance(store, (str, bytes, os.PathLike)):
        raise TypeError(f"not a store: {store!r} (give a path, a URL or a libzarr.storage store)")
    url = _url_text(store)
    if url.endswith(".zip") and "://" not in url:
        return ZipStore(url, mode={"r": "r", "w": "w"}.get(mode, "a"))
    read_only = url.startswith(("http://", "https://"))  # the library reads HTTP only
    if storage_options:
        return FSStore(url, read_only=read_only, **storage_options)
    return Store(url, read_only=read_only)


def _memory_store_for_dict(mapping):
    """zarr-python's dict store: an empty dict becomes a new MemoryStore (the library keeps the
    bytes, so the dict itself stays empty: keep the node, or use MemoryStore())."""
    if mapping:
        raise TypeError("a dict holding keys cannot be a libzarr store (the library keeps the bytes "
                        "itself): use libzarr.storage.MemoryStore() or a 'memory://name' URL")
    import warnings
    warnings.warn("libzarr keeps the data of a dict store in a memory store of its own, not in the "
                  "dict: keep the array or group (or use libzarr.storage.MemoryStore())", stacklevel=4)
    return MemoryStore()


def store_and_path(store, path=None, storage_options=None, mode=None):
    """(Store, path) of a store argument that may be a StorePath, plus a path argument."""
    if isinstance(store, StorePath):
        return store.store, join_path(store.path, path or "")
    return as_store(store, storage_options, mode), (path or "").strip("/")


def join_url(url, path):
    """url with the node path below it, taken literally, as the C library's path::join_url
    does: "a.zarr" + "b/c" is "a.zarr/b/c"; "x.zip|zip:" + "b" is "x.zip|zip:b". Where the
    URL's path is percent-decoded (file://, http://, https://) the path is percent-encoded,
    so that a name such as "%2e%2e" stays a name and never becomes ".."; an http(s) query
    stays at the end; a plain path onto which a '|' would go becomes a file:// URL."""
    path = (path or "").lstrip("/")
    if not path:
        return url

    def below(base, tail):
        return base + tail if base.endswith((":", "/")) else f"{base}/{tail}"

    scheme = url.partition("://")[0] if "://" in url else ""
    if "|zip:" in url:
        return below(url, path)
    if scheme == "file":
        return below(url, urllib.parse.quote(path, safe="/"))
    if scheme in ("http", "https"):
        cut = min((i for i in (url.find("?"), url.find("#")) if i >= 0), default=len(url))
        return below(url[:cut], urllib.parse.quote(path, safe="/")) + url[cut:]
    if not scheme and "|" in path:
        base = "file://" + urllib.parse.quote(os.path.abspath(url or "."), safe="/")
        return below(base, urllib.parse.quote(path, safe="/"))
    return below(url, path)


def shown_url(url):
    """url as libzarr shows URLs in messages and in zarr_info's "store": its userinfo as
    "***@", its query and fragment as "?..." and "#...", so that no password or token is
    printed (the C library's scrubbed_url). Text without "://" is returned as it is."""
    url = str(url)
    if "://" not in url:
        return url
    authority = url.find("://") + 3
    ends = [i for i in (url.find(c, authority) for c in "/?#") if i >= 0]
    authority_end = min(ends, default=len(url))
    at = url.rfind("@", authority, authority_end)
    head = url[:authority] + ("***@" if at >= 0 else "")
    rest = url[at + 1 if at >= 0 else authority:]
    cut = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=-1)
    return head + (rest if cut < 0 else rest[:cut] + rest[cut] + "...")


def join_path(parent, child):
    """Two node paths joined with "/" (either may be empty)."""
    return "/".join(part for part in (str(parent).strip("/"), str(child).strip("/")) if part)


def _url_text(value):
    value = os.fspath(value)
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _is_fsspec_map(value):
    """An fsspec FSMap (fsspec.get_mapper(url)): its filesystem and root name a URL."""
    return hasattr(value, "fs") and hasattr(value, "root") and hasattr(value.fs, "unstrip_protocol")


_FSSPEC_OPTION_NAMES = {"anon": "anonymous", "key": "access_key_id", "secret": "secret_access_key",
                        "token": "session_token", "endpoint_url": "endpoint", "region_name": "region"}


def translate_storage_options(options):
    """fsspec/s3fs storage_options as the library's store options (unknown names pass as they are,
    so that the library names any it does not know)."""
    translated = {}
    for name, value in (options or {}).items():
        if name == "client_kwargs":
            translated.update(translate_storage_options(value))
        else:
            translated[_FSSPEC_OPTION_NAMES.get(name, name)] = value
    return translated


def _zip_compression_name(compression):
    """zipfile's constants (ZIP_STORED 0, ZIP_DEFLATED 8) or a name, as the zip store's option."""
    names = {0: "stored", 8: "deflate"}
    return names.get(compression, compression)
