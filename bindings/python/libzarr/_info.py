"""``info``: what zarr_info reports, as a mapping that prints as zarr-python's table."""
from collections.abc import Mapping

from .storage import shown_url


class Info(Mapping):
    """A read-only mapping of facts about a node; ``print(info)`` shows them as a table.

    The mapping holds what the library reports (zarr_info for arrays: shape,
    chunks, codecs, nbytes, nbytes_stored, chunks_initialized...); the table
    has the rows zarr-python prints.
    """

    def __init__(self, facts, rows):
        self._facts = dict(facts)
        self._rows = rows

    def __getitem__(self, key):
        return self._facts[key]

    def __iter__(self):
        return iter(self._facts)

    def __len__(self):
        return len(self._facts)

    def items_table(self):
        """The table's rows as (name, value) pairs (zarr-python 2's info_items())."""
        return [(name, str(value)) for name, value in self._rows]

    def __repr__(self):
        width = max(len(name) for name, _ in self._rows)
        return "\n".join(f"{name:<{width}} : {value}" for name, value in self._rows)

    __str__ = __repr__

    def _repr_html_(self):
        cells = "".join(f"<tr><th style='text-align: left'>{name}</th><td style='text-align: left'>"
                        f"{value}</td></tr>" for name, value in self._rows)
        return f"<table>{cells}</table>"


def human_size(n):
    """Bytes as zarr-python prints them: 3379344 -> "3379344 (3.2M)"."""
    if n is None:
        return "unknown"
    for scale, suffix in ((2 ** 50, "P"), (2 ** 40, "T"), (2 ** 30, "G"), (2 ** 20, "M"), (2 ** 10, "K")):
        if n >= scale:
            return f"{n} ({n / scale:.1f}{suffix})"
    return str(n)


def array_info(array):
    """The Info of an Array."""
    facts = array._info_facts()
    rows = [("Name", array.name), ("Type", "libzarr.Array"), ("Zarr format", facts["zarr_format"]),
            ("Data type", array.dtype if not array._vlen_kind else f"{array._vlen_kind} (object)"),
            ("Shape", tuple(facts["shape"])), ("Chunk shape", array.chunks)]
    if array.shards is not None:
        rows.append(("Shard shape", array.shards))
    rows += [("Order", array.order), ("Read-only", array.read_only), ("Store type", store_type(array.store)),
             ("Store", shown_url(array.store))]
    if array.chunk_store is not None:
        rows.append(("Chunk store", shown_url(array.chunk_store)))
    if array.zarr_format == 3:
        rows += [("Filters", array.filters), ("Serializer", array.serializer),
                 ("Compressors", array.compressors)]
    else:
        rows += [("Filters", array.filters), ("Compressor", array.compressor)]
    nbytes, stored = facts.get("nbytes"), facts.get("nbytes_stored")
    rows += [("No. bytes", human_size(nbytes)), ("No. bytes stored", human_size(stored))]
    if nbytes and stored:
        rows.append(("Storage ratio", f"{nbytes / stored:.1f}"))
    if facts.get("chunks_initialized") is not None:  # the library counts stored keys: shards when sharded
        label = "Shards initialized" if array.shards is not None else "Chunks initialized"
        rows.append((label, f"{facts['chunks_initialized']}/{facts['chunks_total']}"))
    return Info(facts, rows)


def store_type(store):
    """The store's class as zarr-python's "Store type" row names it (module.Class)."""
    cls = type(store)
    module = "libzarr.storage" if cls.__module__.startswith("libzarr.") else cls.__module__
    return f"{module}.{cls.__name__}"


def group_info(group):
    """The Info of a Group: zarr-python's rows (Name, Type, Zarr format, Read-only, Store
    type, No. members, No. arrays, Arrays, No. groups, Groups) and the store's URL."""
    listing = group._listing()
    array_names = sorted(child["name"] for child in listing if child["kind"] == "array")
    group_names = sorted(child["name"] for child in listing if child["kind"] != "array")
    facts = {"node_type": "group", "zarr_format": group.zarr_format, "name": group.name,
             "store": shown_url(group.store), "path": group.path, "members": len(listing),
             "arrays": len(array_names), "groups": len(group_names), "attributes": dict(group.attrs)}
    rows = [("Name", group.name), ("Type", "libzarr.Group"), ("Zarr format", group.zarr_format),
            ("Read-only", group.read_only), ("Store type", store_type(group.store)),
            ("Store", shown_url(group.store)), ("No. members", len(listing)), ("No. arrays", len(array_names))]
    if array_names:
        rows.append(("Arrays", ", ".join(array_names)))
    rows.append(("No. groups", len(group_names)))
    if group_names:
        rows.append(("Groups", ", ".join(group_names)))
    return Info(facts, rows)
