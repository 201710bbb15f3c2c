"""Attributes of an array or group as a mutable mapping."""
from collections.abc import MutableMapping


class Attributes(MutableMapping):
    """The user attributes of a node, as zarr-python's ``.attrs``.

    Reads show the attributes as this handle knows them: read from the store
    once (as zarr-python caches them), then as this handle's own changes left
    them. Changes go through the library's update call: it merges the keys
    changed into the attributes as stored, under the node's lock, so handles
    and threads (and, with ``process_lock_dir``, processes) changing
    different keys lose nothing of each other's, and the mapping then shows
    the stored attributes. Use ``update()`` to change several keys with one
    write. Values must be JSON serialisable (NumPy scalars and arrays are
    turned into numbers and lists). A value of None is stored as null, as
    zarr-python does; such a change replaces the whole document (the update
    call reads a null as "remove the key").
    """

    def __init__(self, load, store, get=None, merge=None):
        """load() returns the attributes as a dict; store(dict) replaces them;
        get(key) returns one attribute's value (KeyError when absent);
        merge(dict) merges keys into the stored attributes, None removing one."""
        self._load = load
        self._store = store
        self._get = get or (lambda key: self._load()[key])
        self._merge = merge

    def asdict(self):
        """A plain dict copy of the attributes."""
        return self._load()

    def __getitem__(self, key):
        if not isinstance(key, str):
            raise KeyError(key)
        return self._get(key)

    def __setitem__(self, key, value):
        self.update({key: value})

    def __delitem__(self, key):
        self[key]  # KeyError when absent, as a mapping must
        if self._merge is None:
            attributes = self._load()
            del attributes[key]
            self._store(attributes)
        else:
            self._merge({key: None})

    def __iter__(self):
        return iter(self._load())

    def __len__(self):
        return len(self._load())

    def put(self, attributes):
        """Replace every attribute with those of the dict given (zarr-python 2's put)."""
        self._store(dict(attributes))

    def refresh(self):
        """Nothing to do: changes already show what is stored (zarr-python 2's refresh)."""

    def update(self, *args, **kwargs):
        """Change several attributes with a single write."""
        changes = dict(*args, **kwargs)
        if self._merge is None or any(value is None for value in changes.values()):
            attributes = self._load()
            attributes.update(changes)
            self._store(attributes)
        else:
            self._merge(changes)

    def __repr__(self):
        return f"Attributes({self._load()!r})"
