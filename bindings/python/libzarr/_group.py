"""Group: a Zarr group behind a zarr_group handle, with zarr-python's interface."""
import ctypes
from collections.abc import MutableMapping

from . import _api, _capi, _info
from ._attributes import Attributes
from ._capi import ArrayHandle, GroupHandle, lib
from ._handle import Handle
from .errors import ExistsError, InvalidArgumentError, NotFoundError, ReadOnlyError
from .storage import shown_url


class Group(Handle, MutableMapping):
    """A Zarr group (v2 or v3) opened through libzarr.

    ``g["name"]`` or ``g["sub/name"]`` opens the array or group at a path below
    it (NotFoundError, a KeyError, when nothing is there); ``list(g)`` gives the
    names of its direct children. zarr-python's methods create and walk the
    hierarchy: create_group, require_group, create_array / create_dataset,
    require_dataset, zeros, ones, full, empty, array, ``g[name] = data``,
    ``del g[name]``, move, tree(), visit, visititems, array_keys, group_keys,
    arrays, groups, members, info. Children opened from a group share its mode.
    """

    def __init__(self, handle, location):
        """Wrap an open zarr_group handle (use libzarr.open_group / libzarr.group)."""
        self._adopt(handle, location)

    _kind = "group"
    _handle_type = GroupHandle
    _close_handle = staticmethod(lambda handle: lib.zarr_group_close(handle))

    def __repr__(self):
        return f"<libzarr.Group {shown_url(self.url)!r}{' (closed)' if self.closed else ''}>"

    def __eq__(self, other):
        return isinstance(other, Group) and other.url == self.url

    def __hash__(self):
        return hash(("group", self.url))

    # -- description ------------------------------------------------------------

    @property
    def zarr_format(self):
        """Zarr format of the group's metadata: 2 or 3."""
        return self._call(lib.zarr_group_format)

    @property
    def metadata(self):
        """The group's metadata as zarr-python 3 shows it: format, node type, attributes."""
        return {"zarr_format": self.zarr_format, "node_type": "group", "attributes": dict(self.attrs)}

    @property
    def store(self):
        """The store the group was reached through (a libzarr.storage.Store)."""
        return self._location.store

    @property
    def path(self):
        """Path of the group below its store's root ("" at the root)."""
        return self._location.path

    @property
    def name(self):
        """"/" and the path, as h5py and zarr-python name nodes."""
        return "/" + self.path

    @property
    def basename(self):
        """The last part of the name."""
        return self.name.split("/")[-1]

    @property
    def store_path(self):
        """zarr-python 3's StorePath: the store and the path below its root."""
        from .storage import StorePath
        return StorePath(self.store, self.path)

    chunk_store = None
    synchronizer = None

    @classmethod
    def open(cls, store, **kwargs):
        """zarr-python 3's Group.open: the group at store."""
        return _api.open_group(store, **kwargs)

    @classmethod
    def from_store(cls, store, *, attributes=None, zarr_format=3, overwrite=False):
        """zarr-python 3's Group.from_store: a new group at store."""
        return _api.create_group(store, attributes=attributes, zarr_format=zarr_format, overwrite=overwrite)

    @property
    def attrs(self):
        """User attributes as a mutable mapping (each change is written at once)."""
        return Attributes(lambda: self._json(lib.zarr_group_get_attributes),
                          lambda values: self._call(lib.zarr_group_set_attributes, _capi.to_json(values)),
                          lambda key: self._json(lib.zarr_group_get_attribute, _capi.text(key)),
                          lambda changes: self._call(lib.zarr_group_update_attributes, _capi.to_json(changes)))

    def update_attributes(self, new_attributes):
        """Merge new_attributes into the attributes (zarr-python 3); returns self."""
        self.attrs.update(new_attributes)
        return self

    @property
    def info(self):
        """Facts about the group as a mapping, printed as zarr-python's table."""
        return _info.group_info(self)

    def info_items(self):
        """The rows of ``info`` as (name, value) pairs (zarr-python 2)."""
        return self.info.items_table()

    def info_complete(self):
        return self.info

    # -- children --------------------------------------------------------------

    def _listing(self):
        """The direct children as the library lists them: [{"name", "kind"}], sorted by name."""
        return self._json(lib.zarr_group_list)

    def keys(self):
        """Names of the direct children, sorted."""
        return [child["name"] for child in self._listing()]

    def __iter__(self):
        return iter(self.keys())

    def __len__(self):
        return len(self._listing())

    def nmembers(self, max_depth=0):
        """Number of members down to max_depth levels below (None: all)."""
        return sum(1 for _ in self.members(max_depth))

    def __contains__(self, path):
        try:
            self[path].close()
        except NotFoundError:
            return False
        return True

    def __getitem__(self, path):
        """The array or group at a path below this group."""
        try:
            return self.open_array(path)
        except NotFoundError as no_array:
            try:
                return self.open_group(path)
            except NotFoundError as no_group:
                raise NotFoundError(f"{no_array.message}; {no_group.message}") from None

    def __getattr__(self, name):
        """zarr-python 2's attribute access to children: ``root.foo`` is ``root["foo"]``."""
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except (NotFoundError, InvalidArgumentError):
            raise AttributeError(f"{type(self).__name__} has no attribute or child {name!r}") from None

    def get(self, path, default=None):
        try:
            return self[path]
        except NotFoundError:
            return default

    def open_array(self, path, mode=None):
        """The array at a path below this group (mode defaults to the group's)."""
        location = self._child(path, mode)
        if set(location.options) - {"store"}:  # options only an open by URL can carry
            return _api.open_array_at(location)
        handle = ArrayHandle()
        with self._using() as group:
            lib.zarr_group_open_array(ctypes.byref(handle), group, _capi.text(path), _capi.text(location.mode))
        from ._array import Array
        return Array(handle, location)

    def open_group(self, path):
        """The group at a path below this group, in this group's mode."""
        handle = GroupHandle()
        with self._using() as group:
            lib.zarr_group_open_group(ctypes.byref(handle), group, _capi.text(path))
        return Group(handle, self._child(path, options=_api._store_only(self._location.options)))

    def _child(self, path, mode=None, options=None):
        if options is None:
            options = {k: v for k, v in self.store.handle_options().items() if k in _api.ARRAY_OPTIONS}
        return self._location.child(path, mode or self.mode, options)

    def _relative(self, path):
        """A path below the store's root as a path below this group."""
        return path[len(self.path):].strip("/") if self.path else path

    def values(self):
        return [node for _, node in self.items()]

    def items(self):
        return [(child["name"], self[child["name"]]) for child in self._listing()]

    def _children_of_kind(self, kind):
        return [(child["name"], self[child["name"]]) for child in self._listing() if child["kind"] == kind]

    def arrays(self, recurse=False):
        """(name, Array) of the children that are arrays (recurse: of every group below, with paths)."""
        if recurse:
            return [(name, node) for name, node in self.members(None) if node._kind == "array"]
        return self._children_of_kind("array")

    def groups(self):
        """(name, Group) of the direct children that are groups."""
        return self._children_of_kind("group")

    def array_keys(self, recurse=False):
        """Names of the children that are arrays."""
        if recurse:
            return [name for name, _ in self.arrays(recurse=True)]
        return [child["name"] for child in self._listing() if child["kind"] == "array"]

    def group_keys(self):
        """Names of the direct children that are groups."""
        return [child["name"] for child in self._listing() if child["kind"] == "group"]

    def array_values(self):
        return [node for _, node in self.arrays()]

    def group_values(self):
        return [node for _, node in self.groups()]

    def members(self, max_depth=0):
        """(path, node) of the members, depth first, down to max_depth levels below the
        children (0: the children only; None: every level), as zarr-python 3's members."""
        for child in self._listing():
            node = self[child["name"]]
            yield child["name"], node
            if child["kind"] == "group" and (max_depth is None or max_depth > 0):
                for path, below in node.members(None if max_depth is None else max_depth - 1):
                    yield f"{child['name']}/{path}", below

    # -- walking -----------------------------------------------------------------

    def visitvalues(self, func):
        """func(node) for every node below, depth first; stops at the first non-None result."""
        return self.visititems(lambda _, node: func(node))

    def visit(self, func):
        """func(path) for every path below, depth first; stops at the first non-None result."""
        return self.visititems(lambda path, _: func(path))

    visitkeys = visit

    def visititems(self, func):
        """func(path, node) for every node below, depth first; stops at the first non-None result."""
        for path, node in self.members(None):
            result = func(path, node)
            if result is not None:
                return result
        return None

    def tree(self, expand=False, level=None):
        """The hierarchy below as text, printed as zarr-python prints it."""
        from ._convenience import tree
        return tree(self, expand, level)

    # -- creating ------------------------------------------------------------------

    def _check_writable(self, what):
        if self.read_only:
            raise ReadOnlyError(f"{what}: group {shown_url(self.url)} is opened read-only")

    def create_group(self, name, overwrite=False, attributes=None):
        """A new group at a path below this one (parents created as needed); ExistsError when
        something is there, unless overwrite."""
        if isinstance(overwrite, dict):  # libzarr's create_group(path, attributes)
            attributes, overwrite = overwrite, False
        location = self._child(name, "r+", _api._store_only(self._location.options))
        if overwrite:
            self._check_writable(f"create_group {name!r}")
            _api._erase_if_present(location)
        return _api.create_group_at(location, attributes, parent=self)

    def require_group(self, name, overwrite=False):
        """The group at name, created when nothing is there."""
        if not overwrite:
            try:
                return self.open_group(name)
            except NotFoundError:
                pass
        return self.create_group(name, overwrite=overwrite)

    def require_groups(self, *names):
        return tuple(self.require_group(name) for name in names)

    def create_groups(self, *names, **kwargs):
        """zarr-python 2's create_groups: create_group for each name."""
        return tuple(self.create_group(name, **kwargs) for name in names)

    def create_array(self, name, metadata=None, *, overwrite=False, data=None, **kwargs):
        """A new array at a path below this group: from zarr-python's keywords (shape, dtype,
        chunks, compressors, shards, ...; data= to create from data and write it), or
        libzarr's create_array(path, metadata) with a v2 or v3 metadata document."""
        if metadata is not None:
            handle = ArrayHandle()
            with self._using() as group:
                lib.zarr_group_create_array(ctypes.byref(handle), group, _capi.text(name), _capi.to_json(metadata))
            from ._array import Array
            return Array(handle, self._child(name, "r+"))
        if data is not None:
            data = _api._as_numpy(data)
            kwargs.setdefault("shape", data.shape)
            kwargs["dtype"] = _api.data_dtype(data, kwargs.get("dtype"), kwargs.get("object_codec"))
        creation, options = _api.split_keywords(kwargs, function="create_array")
        location = self._child(name, "r+")
        location.options.update(options)
        if overwrite:
            self._check_writable(f"create_array {name!r}")
        array = _api._create(location, creation.pop("zarr_format", None), creation, overwrite,
                             parent=None if options else self)
        if data is not None:
            array[...] = data
        return array

    def create_dataset(self, name, **kwargs):
        """zarr-python 2 and h5py's create_dataset: shape= and dtype=, or data=."""
        return self.create_array(name, **kwargs)

    def create(self, name, **kwargs):
        """zarr-python 2's Group.create: an array (create_array's keywords)."""
        return self.create_array(name, **kwargs)

    def require_dataset(self, name, shape, dtype=None, exact=False, **kwargs):
        """The array at name when its shape (and dtype: equal with exact, castable without)
        agree, created when nothing is there; TypeError when they disagree."""
        try:
            existing = self.open_array(name)
        except NotFoundError:
            return self.create_array(name, shape=shape, dtype=dtype, **kwargs)
        import numpy
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        wanted = numpy.dtype(dtype) if dtype is not None else existing.dtype
        if existing.shape != shape:
            raise TypeError(f"shapes do not match: existing {existing.shape}, requested {shape}")
        if (exact and wanted != existing.dtype) or not numpy.can_cast(wanted, existing.dtype):
            raise TypeError(f"dtypes do not match: existing {existing.dtype}, requested {wanted}")
        return existing

    def require_array(self, name, *, shape, dtype=None, exact=False, **kwargs):
        """zarr-python 3's require_array (as require_dataset)."""
        return self.require_dataset(name, shape, dtype, exact, **kwargs)

    def _filled(self, name, fill_value, shape, kwargs):
        return self.create_array(name, shape=shape, fill_value=fill_value, **kwargs)

    def zeros(self, name, shape=None, **kwargs):
        return self._filled(name, 0, kwargs.pop("shape", shape), kwargs)

    def ones(self, name, shape=None, **kwargs):
        return self._filled(name, 1, kwargs.pop("shape", shape), kwargs)

    def empty(self, name, shape=None, **kwargs):
        return self._filled(name, None, kwargs.pop("shape", shape), kwargs)

    def full(self, name, fill_value, shape=None, **kwargs):
        return self._filled(name, fill_value, kwargs.pop("shape", shape), kwargs)

    def array(self, name, data, **kwargs):
        """A new array at name holding data."""
        return self.create_array(name, data=data, **kwargs)

    def _like(self, name, data, fill_value, kwargs):
        keywords = _api.like_keywords(data)
        if fill_value is not _KEEP:
            keywords["fill_value"] = fill_value
        keywords.update(kwargs)
        return self.create_array(name, **keywords)

    def empty_like(self, name, data, **kwargs):
        return self._like(name, data, _KEEP, kwargs)

    def zeros_like(self, name, data, **kwargs):
        return self._like(name, data, 0, kwargs)

    def ones_like(self, name, data, **kwargs):
        return self._like(name, data, 1, kwargs)

    def full_like(self, name, data, fill_value, **kwargs):
        return self._like(name, data, fill_value, kwargs)

    def __setitem__(self, name, value):
        """``g[name] = data``: a new array holding data, replacing what was at name."""
        self.create_array(name, data=value, overwrite=True)

    def __delitem__(self, name):
        """``del g[name]``: erase the node at name and everything below it."""
        self._check_writable(f"del {name!r}")
        location = self._child(name)
        try:
            lib.zarr_erase(_capi.text(location.url), _capi.options_json(_api._store_only(location.options)))
        except NotFoundError:
            raise NotFoundError(f"no array or group {name!r} in group {shown_url(self.url)}") from None

    def move(self, source, dest):
        """Move the node at source to dest (both below this group); ExistsError when dest is taken.

        A folder of the filesystem is renamed; elsewhere the node is copied, then erased.
        """
        self._check_writable(f"move {source!r}")
        if dest in self:
            raise ExistsError(f"move: {dest!r} already exists in group {shown_url(self.url)}")
        node = self[source]
        node_url, dest_url = node.url, self._child(dest).url
        node.close()
        parent = dest.rsplit("/", 1)[0] if "/" in dest.strip("/") else ""
        if parent:
            self.require_group(parent)
        from ._convenience import move_node
        move_node(self, source, dest, node_url, dest_url)


_KEEP = object()
