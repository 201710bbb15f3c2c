"""An xarray backend: ``xr.open_dataset(path, engine="libzarr")``.

Registered as the entry point ``libzarr`` of the group ``xarray.backends``
(pyproject.toml), so it resolves once the package is installed. It reads Zarr
v2 and v3 groups, consolidated or not, through the library: each array becomes
a variable whose dimension names are v2's ``_ARRAY_DIMENSIONS`` attribute (as
xarray writes it) or v3's ``dimension_names``. Data stay in the store until
indexed: a lazily indexed BackendArray hands xarray's basic, outer and
vectorized indexers to ``Array.__getitem__``, ``oindex`` and ``vindex``.
CF decoding (fill values, scale and offset, times) is xarray's own, as for
engine="zarr"; so is Dask chunking (``chunks={}`` gives one Dask chunk per
Zarr chunk).
"""
import os

import numpy as np
from xarray.backends import BackendArray, BackendEntrypoint
from xarray.backends.common import AbstractDataStore
from xarray.backends.store import StoreBackendEntrypoint
from xarray.core import indexing
from xarray.core.utils import FrozenDict
from xarray.core.variable import Variable

from . import _api
from ._group import Group

DIMENSION_KEY = "_ARRAY_DIMENSIONS"


class LibzarrArrayWrapper(BackendArray):
    """A libzarr Array as xarray's lazily indexed backend array (picklable: the Array
    pickles as its URL, so Dask's process and distributed schedulers can use it)."""

    __slots__ = ("array", "dtype", "shape")

    def __init__(self, array):
        self.array = array
        self.shape = array.shape
        self.dtype = array.dtype

    def __getitem__(self, key):
        if isinstance(key, indexing.BasicIndexer):
            result = self.array[key.tuple]
        elif isinstance(key, indexing.VectorizedIndexer):
            result = self.array.vindex[indexing._arrayize_vectorized_indexer(key, self.shape).tuple]
        else:
            result = self.array.oindex[key.tuple]
        return np.asarray(result)


class LibzarrDataStore(AbstractDataStore):
    """The arrays and attributes of one group, for xarray's StoreBackendEntrypoint."""

    def __init__(self, group):
        self.group = group
        self._arrays = []

    def get_variables(self):
        variables = {}
        for name, array in self.group.arrays():
            self._arrays.append(array)
            variables[name] = _variable(name, array)
        return FrozenDict(variables)

    def get_attrs(self):
        return FrozenDict(self.group.attrs.asdict())

    def get_dimensions(self):
        sizes = {}
        for _, variable in self.get_variables().items():
            sizes.update(zip(variable.dims, variable.shape))
        return FrozenDict(sizes)

    def get_encoding(self):
        return {}

    def close(self):
        for array in self._arrays:
            array.close()
        self.group.close()


def _preferred_chunks(array):
    """Per axis the chunk extent, or for a rectilinear grid its chunks' sizes in order
    (xarray and Dask then cut along the stored chunks)."""
    if not array.is_rectilinear or array.shards is not None:
        return array.chunks
    sizes = []
    for axis in range(array.ndim):
        bounds = array.chunk_boundaries(axis)
        sizes.append(tuple(end - begin for begin, end in zip(bounds, bounds[1:])))
    return sizes


def _variable(name, array):
    """An xarray Variable reading array lazily, with its dimension names and attributes."""
    attributes = array.attrs.asdict()
    dimensions = _dimensions_of(name, array, attributes)
    for hidden in [DIMENSION_KEY] + [key for key in attributes if key.startswith("_NC")]:
        attributes.pop(hidden, None)
    encoding = {"chunks": array.chunks, "preferred_chunks": dict(zip(dimensions, _preferred_chunks(array)))}
    if array.zarr_format == 3:
        encoding["compressors"] = array.compressors
    else:
        encoding["compressor"] = array.compressor
        encoding["filters"] = array.filters or None
        # v2's fill value is the CF _FillValue, as engine="zarr" takes it; in v3 the fill
        # value is only what unwritten chunks hold, and xarray keeps _FillValue in attributes.
        fill_value = array.fill_value
        if fill_value is not None:
            attributes["_FillValue"] = fill_value
    data = indexing.LazilyIndexedArray(LibzarrArrayWrapper(array))
    return Variable(dimensions, data, attributes, encoding)


def _dimensions_of(name, array, attributes):
    """v3's dimension_names, else the _ARRAY_DIMENSIONS attribute: v2's, and that of a v3
    array migrated from v2 (which keeps its attributes and has no dimension_names)."""
    names = array.dimension_names if array.zarr_format == 3 else None
    if names is None:
        names = attributes.get(DIMENSION_KEY)
    if names is None or any(n is None for n in names):
        field = "dimension_names" if array.zarr_format == 3 else f"the attribute `{DIMENSION_KEY}`"
        raise KeyError(f"Zarr array {name!r} is missing {field}, which xarray needs to name its "
                       "dimensions (create arrays with dimension_names=...)")
    if len(names) != array.ndim:
        raise ValueError(f"Zarr array {name!r} has {array.ndim} dimensions but {len(names)} names: {names}")
    return tuple(names)


class LibzarrBackendEntrypoint(BackendEntrypoint):
    """Open Zarr v2 and v3 stores with libzarr: ``xr.open_dataset(path, engine="libzarr")``."""

    description = "Open Zarr v2 and v3 stores with libzarr's C library"
    url = "https://github.com/libzarr/libzarr/blob/main/docs/bindings-python.md#xarray"
    open_dataset_parameters = ("filename_or_obj", "mask_and_scale", "decode_times", "concat_characters",
                               "decode_coords", "drop_variables", "use_cftime", "decode_timedelta", "group",
                               "consolidated", "storage_options", "zarr_format")

    def guess_can_open(self, filename_or_obj):
        """Zarr v3 folders (a zarr.json at the root), which xarray's own zarr engine on
        zarr-python 2 cannot read; v2 stores are left to it unless engine="libzarr"."""
        try:
            return os.path.isfile(os.path.join(os.fspath(filename_or_obj), "zarr.json"))
        except TypeError:
            return False

    def open_dataset(self, filename_or_obj, *, mask_and_scale=True, decode_times=True, concat_characters=True,
                     decode_coords=True, drop_variables=None, use_cftime=None, decode_timedelta=None, group=None,
                     consolidated=None, storage_options=None, zarr_format=None):
        store = LibzarrDataStore(_open_root(filename_or_obj, group, consolidated, storage_options, zarr_format))
        return StoreBackendEntrypoint().open_dataset(
            store, mask_and_scale=mask_and_scale, decode_times=decode_times, concat_characters=concat_characters,
            decode_coords=decode_coords, drop_variables=drop_variables, use_cftime=use_cftime,
            decode_timedelta=decode_timedelta)

    def open_groups_as_dict(self, filename_or_obj, *, group=None, consolidated=None, storage_options=None,
                            zarr_format=None, **decoding):
        """Every group below (and including) group as a Dataset, by path ("/", "/a", "/a/b")."""
        root = _open_root(filename_or_obj, group, consolidated, storage_options, zarr_format)
        groups = {"/": root}
        groups.update(("/" + path, node) for path, node in root.members(None) if isinstance(node, Group))
        return {path: StoreBackendEntrypoint().open_dataset(LibzarrDataStore(node), **decoding)
                for path, node in groups.items()}

    def open_datatree(self, filename_or_obj, **kwargs):
        """The hierarchy as an xarray DataTree (for xarray versions that have one)."""
        from xarray import DataTree
        return DataTree.from_dict(self.open_groups_as_dict(filename_or_obj, **kwargs))


def _open_root(filename_or_obj, group, consolidated, storage_options, zarr_format):
    if isinstance(filename_or_obj, Group):
        return filename_or_obj[group] if group else filename_or_obj
    return _api.open_group(filename_or_obj, mode="r", path=group, use_consolidated=consolidated,
                           storage_options=storage_options, zarr_format=zarr_format)
