"""zarr-python's conveniences built on the rest: tree, copy, copy_all, save, load, move."""
import json
import os
import shutil
from collections.abc import Mapping

from . import _api, _capi
from ._capi import lib
from ._array import Array
from ._group import Group
from .errors import CopyError, NotFoundError

# -- tree --------------------------------------------------------------------------------

class Tree:
    """A hierarchy (libzarr's, zarr-python's or h5py's) printed as zarr-python prints
    ``group.tree()``::

        /
         └── foo
             ├── bar (10, 10) int32
             └── baz
    """

    def __init__(self, group, level=None):
        root = (getattr(group, "name", None) or "/").rstrip("/").split("/")[-1] or "/"
        self._lines = [_terminal_safe(root)]
        self._walk(group, " ", level)

    def _walk(self, group, prefix, level):
        names = sorted(group.keys())
        for number, name in enumerate(names):
            last = number == len(names) - 1
            node = group[name]
            shown = _terminal_safe(name)
            label = shown if _is_group(node) else f"{shown} {tuple(node.shape)} {node.dtype}"
            self._lines.append(f"{prefix}{'└── ' if last else '├── '}{label}")
            if _is_group(node) and (level is None or level > 1):
                self._walk(node, prefix + ("    " if last else "│   "), None if level is None else level - 1)
            _close(node)

    def __repr__(self):
        return "\n".join(self._lines)

    __str__ = __repr__


# Bidirectional controls reorder what follows them on screen ("exe.jpg" shown as "gpj.exe").
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _terminal_safe(name):
    """A node name as zarrtool prints it: C0 controls and DEL as \\xNN, C1 controls (U+009B
    starts a terminal escape sequence) and bidirectional controls as \\uNNNN."""
    out = []
    for ch in name:
        code = ord(ch)
        if code < 0x20 or code == 0x7f:
            out.append(f"\\x{code:02x}")
        elif 0x80 <= code <= 0x9f or ch in _BIDI_CONTROLS:
            out.append(f"\\u{code:04X}")
        else:
            out.append(ch)
    return "".join(out)


def tree(grp, expand=False, level=None):
    """The hierarchy below a group (libzarr's, zarr-python's or h5py's) as text."""
    return Tree(grp, level)


def _close(node):
    close = getattr(node, "close", None)
    if isinstance(node, (Array, Group)) and close:
        close()


# -- save and load ---------------------------------------------------------------------------

def save_array(store, arr, *, zarr_format=None, path=None, storage_options=None, **kwargs):
    """Write a NumPy array to store as a new array (what was there is replaced)."""
    _api.array(arr, store=store, path=path, overwrite=True, zarr_format=zarr_format,
               storage_options=storage_options, **kwargs).close()


def save_group(store, *args, zarr_format=None, path=None, storage_options=None, **kwargs):
    """Write NumPy arrays to a new group at store: positional ones as arr_0, arr_1, ...,
    keyword ones by their names."""
    if not args and not kwargs:
        raise ValueError("save_group: at least one array is required")
    root = _api.group(store, overwrite=True, path=path, zarr_format=zarr_format, storage_options=storage_options)
    arrays = {f"arr_{i}": value for i, value in enumerate(args)}
    arrays.update(kwargs)
    for name, value in arrays.items():
        root.create_array(name, data=value).close()
    root.close()


def save(store, *args, zarr_format=None, path=None, **kwargs):
    """save_array for one positional array and nothing else, else save_group."""
    if len(args) == 1 and not kwargs:
        save_array(store, args[0], zarr_format=zarr_format, path=path)
    else:
        save_group(store, *args, zarr_format=zarr_format, path=path, **kwargs)


class LazyLoader(Mapping):
    """The arrays of a group, each read into NumPy when first asked for (what load() gives)."""

    def __init__(self, group):
        self._group = group
        self._cache = {}

    def __getitem__(self, name):
        if name not in self._cache:
            self._cache[name] = self._group[name][...]
        return self._cache[name]

    def __iter__(self):
        return iter(self._group.array_keys())

    def __len__(self):
        return len(self._group.array_keys())

    def __repr__(self):
        return f"<LazyLoader: {', '.join(self)}>"


def load(store, *, zarr_format=None, path=None):
    """A NumPy array for an array at store; a mapping of its arrays (read when asked for)
    for a group."""
    node = _api.open(store, mode="r", path=path, zarr_format=zarr_format)
    if isinstance(node, Array):
        try:
            return node[...]
        finally:
            node.close()
    return LazyLoader(node)


# -- copy ---------------------------------------------------------------------------------------

class _Log:
    """copy's log: None, a callable, a file name or an open file."""

    def __init__(self, log):
        self._file = None
        if log is None:
            self._write = lambda message: None
        elif callable(log):
            self._write = log
        elif isinstance(log, (str, os.PathLike)):
            self._file = open(log, "w", encoding="utf-8")  # noqa: SIM115  (closed in close())
            self._write = lambda message: print(message, file=self._file)
        else:
            self._write = lambda message: print(message, file=log)

    def __call__(self, message):
        self._write(message)

    def close(self):
        if self._file:
            self._file.close()


def copy(source, dest, name=None, shallow=False, without_attrs=False, log=None, if_exists="raise",
         dry_run=False, **create_kws):
    """Copy an array or group (libzarr's, zarr-python's or h5py's) into the group dest
    (libzarr's, or h5py's).

    if_exists: "raise" (CopyError), "replace", "skip" or "skip_initialized"
    (skip arrays that exist with the same shape and dtype). log: a callable, a
    file name or an open file, given a line per node as zarr-python writes it.
    Returns (copied, skipped, bytes copied) as zarr-python does.
    """
    name = name or _basename(source)
    if not name:
        raise TypeError("copy: source has no name; give name=")
    with _Copier(log, if_exists, dry_run, not shallow, without_attrs, create_kws) as copier:
        copier.copy(source, dest, name)
    return copier.counts


def copy_all(source, dest, shallow=False, without_attrs=False, log=None, if_exists="raise", dry_run=False,
             **create_kws):
    """Copy every child of the group source into the group dest (and source's attributes)."""
    with _Copier(log, if_exists, dry_run, not shallow, without_attrs, create_kws) as copier:
        for key in sorted(source.keys()):
            copier.copy(source[key], dest, key)
        if not without_attrs and not dry_run:
            dest.attrs.update(dict(source.attrs))
    return copier.counts


def copy_store(source, dest, source_path="", dest_path="", excludes=None, includes=None, flags=0,
               if_exists="raise", dry_run=False, log=None):
    """Copy the hierarchy at source_path in store source to dest_path in store dest.

    libzarr has no access to raw keys, so this copies node by node (metadata,
    attributes and data, with the same codecs and chunks) rather than key by
    key, and counts nodes; excludes / includes are regular expressions matched
    against the paths of the children. Returns (copied, skipped, bytes copied).
    """
    import re
    excluded = [re.compile(e, flags or 0) for e in ([excludes] if isinstance(excludes, str) else excludes or [])]
    included = [re.compile(i, flags or 0) for i in ([includes] if isinstance(includes, str) else includes or [])]
    node = _api.open(source, mode="r", path=source_path or None)
    parent_path, _, last = dest_path.strip("/").rpartition("/")
    with _Copier(log, if_exists, dry_run, True, False, {}) as copier:
        if isinstance(node, Array):
            copier.copy(node, _api.group(dest, path=parent_path or None), last or _basename(node))
        else:
            target = _api.group(dest, path=dest_path or None, zarr_format=node.zarr_format)
            for key in sorted(node.keys()):
                if not any(e.search(key) for e in excluded) or any(i.search(key) for i in included):
                    copier.copy(node[key], target, key)
            if not dry_run:
                target.attrs.update(dict(node.attrs))
    return copier.counts


class _Copier:
    """One copy: its settings, its log and its counts (copied, skipped, bytes)."""

    def __init__(self, log, if_exists, dry_run, deep, without_attrs, create_kws):
        if if_exists not in ("raise", "replace", "skip", "skip_initialized"):
            raise ValueError(f"if_exists must be 'raise', 'replace', 'skip' or 'skip_initialized', "
                             f"not {if_exists!r}")
        self.log = _Log(log)
        self.if_exists, self.dry_run, self.deep = if_exists, dry_run, deep
        self.without_attrs, self.create_kws = without_attrs, create_kws
        self.totals = [0, 0, 0]

    @property
    def counts(self):
        return tuple(self.totals)

    def __enter__(self):
        return self

    def __exit__(self, kind, *_):
        if kind is None:
            copied, skipped, nbytes = self.totals
            self.log(f"dry run: {copied:,} copied, {skipped:,} skipped" if self.dry_run else
                     f"all done: {copied:,} copied, {skipped:,} skipped, {nbytes:,} bytes copied")
        self.log.close()

    def copy(self, source, dest, name):
        """Copy source to dest[name]; dest None is a group a dry run did not create."""
        exists = dest is not None and name in dest
        existing_is_group = exists and _is_group(dest[name])
        if _is_group(source):
            if exists and not existing_is_group and self._skip_or_raise(source, dest, name):
                return
            self.log(f"copy {_path_of(source)}")
            self.totals[0] += 1
            target = None if self.dry_run else _require_group_in(dest, name, exists and not existing_is_group)
            if self.dry_run and existing_is_group:
                target = dest[name]  # nothing is made, but what exists below is checked
            if target is not None and not self.dry_run and not self.without_attrs:
                target.attrs.update(dict(source.attrs))
            if self.deep:
                for key in sorted(source.keys()):
                    self.copy(source[key], target, key)
            return
        if exists and self._skip_or_raise(source, dest, name):
            return
        self.log(f"copy {_path_of(source)} {tuple(source.shape)} {source.dtype}")
        self.totals[0] += 1
        if not self.dry_run:
            self.totals[2] += self._copy_array(source, dest, name, exists)

    def _skip_or_raise(self, source, dest, name):
        """True when an existing dest[name] is to be skipped; CopyError when it may not be replaced."""
        if self.if_exists == "raise":
            raise CopyError(f"an object {name!r} already exists in destination {dest.name!r}")
        if self.if_exists == "skip" or (self.if_exists == "skip_initialized" and _same_layout(dest[name], source)):
            shape = "" if _is_group(source) else f" {tuple(source.shape)} {source.dtype}"
            self.log(f"skip {_path_of(source)}{shape}")
            self.totals[1] += 1
            return True
        return False

    def _copy_array(self, source, dest, name, exists):
        keywords = _api.like_keywords(source)
        if not isinstance(source, Array):
            keywords["fill_value"] = getattr(source, "fill_value", getattr(source, "fillvalue", None))
            keywords = {k: v for k, v in keywords.items() if v is not None}
        keywords.update(self.create_kws)
        target = _create_in(dest, name, exists, keywords)
        copied = _copy_data(source, target)
        if not self.without_attrs:
            target.attrs.update(dict(source.attrs))
        _close(target)
        return copied


def _basename(node):
    name = getattr(node, "name", None) or ""
    return name.rstrip("/").split("/")[-1]


def _is_group(node):
    return isinstance(node, Group) or (not isinstance(node, Array) and hasattr(node, "keys")
                                        and not hasattr(node, "shape"))


def _create_in(dest, name, exists, keywords):
    """A new array in dest: a libzarr group, or an h5py-like one (create_dataset)."""
    if isinstance(dest, Group):
        return dest.create_array(name, overwrite=exists, **keywords)
    if exists:
        del dest[name]
    keywords = {k: v for k, v in keywords.items() if k in ("shape", "dtype", "chunks", "fill_value")}
    if "fill_value" in keywords:
        keywords["fillvalue"] = keywords.pop("fill_value")
    return dest.create_dataset(name, **keywords)


def _require_group_in(dest, name, replace):
    if replace:
        del dest[name]
    return dest.require_group(name)


def _path_of(node):
    return getattr(node, "name", None) or "?"


def _same_layout(existing, source):
    return existing.shape == source.shape and existing.dtype == source.dtype


def _copy_data(source, target):
    """Copy source into target one target chunk row (or group of rows) at a time; the bytes."""
    if target.ndim == 0:
        target[...] = source[...]
        return target.nbytes
    copied = 0
    step = (getattr(target, "chunks", None) or target.shape)[0] or 1
    for start in range(0, target.shape[0], step):
        block = source[start:start + step]
        target[start:start + step] = block
        copied += getattr(block, "nbytes", 0)
    return copied


# -- move --------------------------------------------------------------------------------------

def move_node(group, source, dest, node_url, dest_url):
    """Move a node: a rename for a folder of the filesystem, else copy and erase."""
    if "://" not in node_url and "|" not in node_url and os.path.isdir(node_url):
        shutil.move(node_url, dest_url)
        _consolidate_again_above({os.path.dirname(os.path.normpath(url)) for url in (node_url, dest_url)})
        return
    node = group[source]
    try:
        target_group = group.require_group(dest.rsplit("/", 1)[0]) if "/" in dest else group
        with _Copier(None, "raise", False, True, False, {}) as copier:
            copier.copy(node, target_group, dest.rsplit("/", 1)[-1])
    finally:
        node.close()
    try:
        del group[source]
    except NotFoundError:
        pass


def _consolidate_again_above(folders):
    """A rename passes by the C API, which keeps consolidated metadata in step: the
    group folders at and above each of `folders` that hold consolidated metadata (v2
    .zmetadata, a v3 zarr.json with "consolidated_metadata") are consolidated again,
    so that they name the node where it is now and no longer where it was."""
    done = set()
    for folder in folders:
        while folder not in done:
            done.add(folder)
            v3_metadata = os.path.join(folder, "zarr.json")
            if os.path.isfile(os.path.join(folder, ".zmetadata")) or _has_consolidated_member(v3_metadata):
                lib.zarr_consolidate_metadata(_capi.text(folder))
            parent = os.path.dirname(folder)
            if parent == folder or not (os.path.isfile(os.path.join(folder, ".zgroup")) or os.path.isfile(v3_metadata)):
                break
            folder = parent


def _has_consolidated_member(zarr_json):
    try:
        with open(zarr_json, "rb") as f:
            return json.load(f).get("consolidated_metadata") is not None
    except (OSError, ValueError, AttributeError):
        return False


__all__ = ["tree", "save", "save_array", "save_group", "load", "copy", "copy_all", "copy_store", "Tree",
           "LazyLoader"]
