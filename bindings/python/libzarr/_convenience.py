"""zarr-python's conveniences built on the rest: tree, copy, copy_all, save, load, move."""
import os
import shutil
from collections.abc import Mapping

from . import _api
from ._array import Array
from ._group import Group
from .errors import CopyError, NotFoundError

# -- tree --------------------------------------------------------------------------------

class Tree:
    """A hierarchy printed as zarr-python prints ``group.tree()``::

        /
         └── foo
             ├── bar (10, 10) int32
             └── baz
    """

    def __init__(self, group, level=None):
        self._lines = [group.name if group.path else "/"]
        self._walk(group, " ", level)

    def _walk(self, group, prefix, level):
        children = group._listing()
        for number, child in enumerate(children):
            last = number == len(children) - 1
            node = group[child["name"]]
            label = child["name"]
            if child["kind"] == "array":
                label += f" {node.shape} {node.dtype}"
            self._lines.append(f"{prefix}{'└── ' if last else '├── '}{label}")
            if child["kind"] == "group" and (level is None or level > 1):
                self._walk(node, prefix + ("    " if last else "│   "), None if level is None else level - 1)
            node.close()

    def __repr__(self):
        return "\n".join(self._lines)

    __str__ = __repr__


def tree(grp, expand=False, level=None):
    """grp.tree(): the hierarchy below a group as text."""
    return grp.tree(expand=expand, level=level)


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
    """Copy an array or group (libzarr's, zarr-python's or h5py's) into the group dest.

    if_exists: "raise" (CopyError), "replace", "skip" or "skip_initialized"
    (skip arrays that exist with the same shape and dtype). Returns
    (copied, skipped, bytes copied) as zarr-python does.
    """
    if if_exists not in ("raise", "replace", "skip", "skip_initialized"):
        raise ValueError(f"if_exists must be 'raise', 'replace', 'skip' or 'skip_initialized', "
                         f"not {if_exists!r}")
    name = name or _basename(source)
    if not name:
        raise TypeError("copy: source has no name; give name=")
    writer = _Log(log)
    try:
        counts = _copy(source, dest, name, not shallow, without_attrs, writer, if_exists, dry_run, create_kws)
    finally:
        writer.close()
    writer(f"all done: {counts[0]:,} copied, {counts[1]:,} skipped, {counts[2]:,} bytes copied")
    return counts


def copy_all(source, dest, shallow=False, without_attrs=False, log=None, if_exists="raise", dry_run=False,
             **create_kws):
    """Copy every child of the group source into the group dest (and its attributes)."""
    totals = [0, 0, 0]
    writer = _Log(log)
    try:
        for key in list(source.keys()):
            counts = _copy(source[key], dest, key, not shallow, without_attrs, writer, if_exists, dry_run,
                           create_kws)
            totals = [a + b for a, b in zip(totals, counts)]
        if not without_attrs and not dry_run:
            dest.attrs.update(dict(source.attrs))
    finally:
        writer.close()
    return tuple(totals)


def _basename(node):
    name = getattr(node, "name", None) or ""
    return name.rstrip("/").split("/")[-1]


def _is_group(node):
    return isinstance(node, Group) or (hasattr(node, "keys") and not hasattr(node, "shape"))


def _copy(source, dest, name, deep, without_attrs, log, if_exists, dry_run, create_kws):
    exists = name in dest
    if _is_group(source):
        return _copy_group(source, dest, name, deep, without_attrs, log, if_exists, dry_run, create_kws, exists)
    if exists:
        if if_exists == "raise":
            raise CopyError(f"an object {name!r} already exists in destination {dest.name!r}")
        if if_exists == "skip" or (if_exists == "skip_initialized" and _same_layout(dest[name], source)):
            log(f"skip {_path_of(source)} -> {dest.name.rstrip('/')}/{name}")
            return (0, 1, 0)
    log(f"copy {_path_of(source)} -> {dest.name.rstrip('/')}/{name}")
    if dry_run:
        return (1, 0, 0)
    keywords = _api.like_keywords(source)
    if not isinstance(source, Array):
        keywords["fill_value"] = getattr(source, "fill_value", getattr(source, "fillvalue", None))
        keywords = {k: v for k, v in keywords.items() if v is not None}
    keywords.update(create_kws)
    target = dest.create_array(name, overwrite=exists, **keywords)
    copied = _copy_data(source, target)
    if not without_attrs:
        target.attrs.update(dict(source.attrs))
    target.close()
    return (1, 0, copied)


def _copy_group(source, dest, name, deep, without_attrs, log, if_exists, dry_run, create_kws, exists):
    if exists and not _is_group(dest[name]):
        if if_exists == "raise":
            raise CopyError(f"an array {name!r} already exists in destination {dest.name!r}")
        if if_exists in ("skip", "skip_initialized"):
            return (0, 1, 0)
    log(f"copy {_path_of(source)} -> {dest.name.rstrip('/')}/{name}")
    totals = [1, 0, 0]
    if dry_run:
        target = None
    else:
        target = dest.require_group(name, overwrite=exists and not _is_group(dest[name]))
        if not without_attrs:
            target.attrs.update(dict(source.attrs))
    if deep:
        for key in list(source.keys()):
            if target is None:
                counts = _copy_dry(source[key], log)
            else:
                counts = _copy(source[key], target, key, deep, without_attrs, log, if_exists, dry_run, create_kws)
            totals = [a + b for a, b in zip(totals, counts)]
    return tuple(totals)


def _copy_dry(node, log):
    log(f"copy {_path_of(node)}")
    if _is_group(node):
        totals = [1, 0, 0]
        for key in list(node.keys()):
            totals = [a + b for a, b in zip(totals, _copy_dry(node[key], log))]
        return tuple(totals)
    return (1, 0, 0)


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
    step = target.chunks[0] or 1
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
        return
    node = group[source]
    try:
        target_group = group.require_group(dest.rsplit("/", 1)[0]) if "/" in dest else group
        _copy(node, target_group, dest.rsplit("/", 1)[-1], True, False, _Log(None), "raise", False, {})
    finally:
        node.close()
    try:
        del group[source]
    except NotFoundError:
        pass


__all__ = ["tree", "save", "save_array", "save_group", "load", "copy", "copy_all", "Tree", "LazyLoader"]
