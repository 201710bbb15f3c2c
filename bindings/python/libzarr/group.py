"""Group: a Zarr group behind a zarr_group handle, mapping names to its children."""
import ctypes

from . import _capi
from ._capi import ArrayHandle, GroupHandle, lib
from .array import Array
from ._handle import Handle
from .attributes import Attributes
from .errors import NotFoundError


class Group(Handle):
    """A Zarr group (v2 or v3) opened through libzarr.

    ``g["name"]`` or ``g["sub/name"]`` opens the array or group at a path below
    it (NotFoundError, a KeyError, when nothing is there); ``list(g)`` gives the
    names of its direct children; ``arrays()`` and ``groups()`` open them by kind.
    Children opened from a group share its mode.
    """

    def __init__(self, handle, url, mode):
        """Wrap an open zarr_group handle (use libzarr.open / libzarr.group)."""
        self._handle = handle
        self.url = url
        self.mode = mode

    _kind = "group"
    _close_handle = staticmethod(lambda handle: lib.zarr_group_close(handle))

    def __repr__(self):
        return f"<libzarr.Group {self.url!r}{'' if self._handle else ' (closed)'}>"

    # -- children --------------------------------------------------------------

    def _listing(self):
        """The direct children as the library lists them: [{"name", "kind"}], sorted by name."""
        return _capi.take_json(lib.zarr_group_list, self._live)

    def keys(self):
        """Names of the direct children, sorted."""
        return [child["name"] for child in self._listing()]

    def __iter__(self):
        return iter(self.keys())

    def __len__(self):
        return len(self._listing())

    def __contains__(self, path):
        try:
            self[path].close()
        except NotFoundError:
            return False
        return True

    def __getitem__(self, path):
        """The array or group at a path below this group."""
        return open_node(lambda: self.open_array(path), lambda: self.open_group(path))

    def open_array(self, path, mode=None):
        """The array at a path below this group (mode defaults to the group's)."""
        handle = ArrayHandle()
        mode = mode or self.mode
        lib.zarr_group_open_array(ctypes.byref(handle), self._live, _capi.text(path), _capi.text(mode))
        return Array(handle, self._child_url(path), mode)

    def open_group(self, path):
        """The group at a path below this group, in this group's mode."""
        handle = GroupHandle()
        lib.zarr_group_open_group(ctypes.byref(handle), self._live, _capi.text(path))
        return Group(handle, self._child_url(path), self.mode)

    def _children_of_kind(self, kind):
        return [(child["name"], self[child["name"]]) for child in self._listing()
                if child["kind"] == kind]

    def arrays(self):
        """(name, Array) of the direct children that are arrays."""
        return self._children_of_kind("array")

    def groups(self):
        """(name, Group) of the direct children that are groups."""
        return self._children_of_kind("group")

    def create_array(self, path, metadata):
        """Create an array at a path below this group (a v2 or v3 metadata dict, as libzarr.create)."""
        handle = ArrayHandle()
        lib.zarr_group_create_array(ctypes.byref(handle), self._live, _capi.text(path),
                                    _capi.to_json(metadata))
        return Array(handle, self._child_url(path), "r+")

    def create_group(self, path, attributes=None):
        """Create a group at a path below this group, with parent groups as needed."""
        handle = GroupHandle()
        lib.zarr_group_create_group(ctypes.byref(handle), self._live, _capi.text(path),
                                    None if attributes is None else _capi.to_json(attributes))
        return Group(handle, self._child_url(path), "r+")

    def _child_url(self, path):
        return f"{str(self.url).rstrip('/')}/{path}"

    @property
    def attrs(self):
        """User attributes as a mutable mapping (each change is written at once)."""
        return Attributes(lambda: _capi.take_json(lib.zarr_group_get_attributes, self._live),
                          lambda values: lib.zarr_group_set_attributes(self._live, _capi.to_json(values)))


def open_node(open_array, open_group):
    """The array open_array() opens or, when there is none, the group open_group() opens.

    When neither exists, the NotFoundError carries both of the library's messages.
    """
    try:
        return open_array()
    except NotFoundError as no_array:
        try:
            return open_group()
        except NotFoundError as no_group:
            raise NotFoundError(f"{no_array.message}; {no_group.message}") from None
