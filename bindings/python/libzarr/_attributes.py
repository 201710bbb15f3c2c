"""Attributes of an array or group as a mutable mapping."""
from collections.abc import MutableMapping


class Attributes(MutableMapping):
    """The user attributes of a node, read from and written to the store.

    Every read asks the library for the stored attributes, and every change
    writes the whole JSON object back, so what this mapping shows is what other
    handles and zarr-python see. Use ``update()`` to change several keys with
    one write. Values must be JSON serialisable (NumPy scalars and arrays are
    turned into numbers and lists).
    """

    def __init__(self, load, store):
        """load() returns the attributes as a dict; store(dict) replaces them."""
        self._load = load
        self._store = store

    def asdict(self):
        """A plain dict copy of the attributes."""
        return self._load()

    def __getitem__(self, key):
        return self._load()[key]

    def __setitem__(self, key, value):
        self.update({key: value})

    def __delitem__(self, key):
        attributes = self._load()
        del attributes[key]
        self._store(attributes)

    def __iter__(self):
        return iter(self._load())

    def __len__(self):
        return len(self._load())

    def put(self, attributes):
        """Replace every attribute with those of the dict given (zarr-python 2's put)."""
        self._store(dict(attributes))

    def refresh(self):
        """Nothing to do: every read asks the store (zarr-python 2's refresh)."""

    def update(self, *args, **kwargs):
        """Change several attributes with a single write."""
        attributes = self._load()
        attributes.update(*args, **kwargs)
        self._store(attributes)

    def __repr__(self):
        return f"Attributes({self._load()!r})"
