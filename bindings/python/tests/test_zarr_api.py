"""zarr-python's module functions, modes and creation keywords, and what they write."""
import json
import os

import numpy as np
import pytest

import libzarr as zarr

numcodecs = pytest.importorskip("numcodecs", reason="Debian's python3-numcodecs is not installed")


@pytest.fixture(autouse=True)
def in_a_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def document(path):
    """The metadata document at path (zarr.json or .zarray), as stored."""
    for name in ("zarr.json", ".zarray"):
        if os.path.exists(os.path.join(path, name)):
            with open(os.path.join(path, name), encoding="utf-8") as f:
                return json.load(f)
    raise AssertionError(f"no metadata at {path}")


# -- modes --------------------------------------------------------------------------------

def test_mode_r_and_r_plus_open_what_exists():
    with pytest.raises(zarr.NotFoundError):
        zarr.open("a.zarr", mode="r")
    with pytest.raises(FileNotFoundError):
        zarr.open_array("a.zarr", mode="r+")
    zarr.create(shape=(3,), store="a.zarr")[...] = 1
    assert zarr.open("a.zarr", mode="r").read_only and not zarr.open("a.zarr", mode="r+").read_only
    with pytest.raises(zarr.ReadOnlyError):
        zarr.open("a.zarr", mode="r")[0] = 2


def test_mode_a_opens_or_creates():
    created = zarr.open("a.zarr", mode="a", shape=(4,), dtype="i2")
    created[...] = 7
    again = zarr.open("a.zarr", mode="a", shape=(99,), dtype="f8")  # existing: creation keywords ignored
    assert again.shape == (4,) and again.dtype == np.int16 and again[0] == 7
    assert isinstance(zarr.open("g.zarr"), zarr.Group)  # the default mode "a" makes a group
    with pytest.raises(zarr.NotFoundError):
        zarr.open_array("nothing.zarr", mode="a")  # no shape: nothing to create


def test_mode_w_replaces_and_w_minus_refuses():
    zarr.open("a.zarr", mode="w", shape=(4,), dtype="i2")[...] = 7
    replaced = zarr.open("a.zarr", mode="w", shape=(2, 2), dtype="f4")
    assert replaced.shape == (2, 2) and replaced[0, 0] == 0
    with pytest.raises(zarr.ExistsError):
        zarr.open("a.zarr", mode="w-", shape=(2,))
    assert zarr.open_array("b.zarr", mode="x", shape=(2,)).shape == (2,)
    group = zarr.open_group("a.zarr", mode="w")  # an array is replaced by a group
    assert isinstance(zarr.open("a.zarr", mode="r"), zarr.Group) and list(group) == []
    with pytest.raises(zarr.InvalidArgumentError, match="mode must be one of"):
        zarr.open("a.zarr", mode="rw")


@pytest.mark.parametrize("mode", ["w-", "x"])
def test_mode_w_minus_without_shape_fails_on_any_node_and_creates_a_group(mode):
    """open(mode="w-") without a shape was a TypeError from the array builder whether or
    not a node was there; zarr-python creates a group, and refuses any existing node
    (ContainsArrayError / ContainsGroupError, here ExistsError: a FileExistsError)."""
    zarr.open("arr.zarr", mode="w", shape=(2,), dtype="i1")[...] = 5
    zarr.open_group("grp.zarr", mode="w").create_array("x", shape=(2,), dtype="i1")
    for url, message in (("arr.zarr", "an array is already there"), ("grp.zarr", "a group is already there")):
        for call in (lambda: zarr.open(url, mode=mode), lambda: zarr.open(url, mode=mode, shape=(3,)),
                     lambda: zarr.open_group(url, mode=mode), lambda: zarr.open_array(url, mode=mode, shape=(3,))):
            with pytest.raises(zarr.errors.ContainsArrayError, match=message) as caught:
                call()
            assert isinstance(caught.value, FileExistsError) and isinstance(caught.value, zarr.errors.ContainsGroupError)
    with pytest.raises(FileExistsError, match="an array is already there"):
        zarr.open("grp.zarr", path="x", mode=mode, shape=(2,))
    assert zarr.open("arr.zarr", mode="r")[...].tolist() == [5, 5]  # untouched
    assert list(zarr.open("grp.zarr", mode="r")) == ["x"]
    created = zarr.open("new.zarr", mode=mode)
    assert isinstance(created, zarr.Group) and created.mode == "r+"
    assert isinstance(zarr.open("new.zarr", mode="r"), zarr.Group)
    assert zarr.open("new-array.zarr", mode=mode, shape=(2,)).shape == (2,)


def test_modes_r_plus_and_a_on_the_other_kind_of_node():
    """r+ never creates; a opens what is there (an array asked for where a group is: the
    group stays and the error says what is there)."""
    zarr.open_group("grp.zarr", mode="w")
    with pytest.raises(FileNotFoundError):
        zarr.open("missing.zarr", mode="r+")
    assert not os.path.exists("missing.zarr")
    assert isinstance(zarr.open("grp.zarr", mode="r+"), zarr.Group)
    with pytest.raises(FileExistsError, match="a group is already there"):
        zarr.open_array("grp.zarr", mode="a", shape=(2,))
    assert isinstance(zarr.open("grp.zarr", mode="a"), zarr.Group)
    replaced = zarr.open("grp.zarr", mode="w", shape=(2,), dtype="i1")
    assert isinstance(replaced, zarr.Array) and isinstance(zarr.open("grp.zarr", mode="r"), zarr.Array)


def test_overwrite_and_the_issue_example():
    z = zarr.create("t.zarr", shape=(1000, 1000), chunks=(100, 100), dtype="i4")
    assert z.shape == (1000, 1000) and z.chunks == (100, 100) and z.zarr_format == 3
    with pytest.raises(zarr.ExistsError):
        zarr.create("t.zarr", shape=(10,))
    assert zarr.create("t.zarr", shape=(10,), overwrite=True).shape == (10,)
    assert zarr.zeros((10, 10), chunks=(5, 5)).url.startswith("memory://")


# -- creation keywords ----------------------------------------------------------------------

@pytest.mark.parametrize("spelling, expected", [
    ("float32", "float32"), (np.float32, "float32"), ("f4", "float32"), ("<f4", "float32"), (">i8", "int64"),
    ("i4", "int32"), (int, "int64"), (float, "float64"), (bool, "bool"), ("uint8", "uint8"),
    (np.dtype("complex64"), "complex64"), (str, "string"), ("str", "string"), (bytes, "variable_length_bytes"),
    ("M8[ns]", {"name": "numpy.datetime64", "configuration": {"unit": "ns", "scale_factor": 1}}),
    ("<U5", {"name": "fixed_length_utf32", "configuration": {"length_bytes": 20}}),
])
def test_dtype_in_any_numpy_spelling(spelling, expected):
    v3 = zarr.create(shape=(2,), dtype=spelling, store="v3.zarr")
    assert document("v3.zarr")["data_type"] == expected
    v2 = zarr.create(shape=(2,), dtype=spelling, store="v2.zarr", zarr_format=2)
    stored = document("v2.zarr")
    if spelling in (str, "str", bytes):
        assert stored["dtype"] == "|O" and stored["filters"][0]["id"] in ("vlen-utf8", "vlen-bytes")
        assert v2.dtype == v3.dtype == object
    else:
        assert np.dtype(stored["dtype"]) == np.dtype(spelling) and v2.dtype == v3.dtype


def test_v2_keywords_reach_the_zarray():
    zarr.create(shape=(20, 30), chunks=(10, 7), dtype="<i2", compressor=numcodecs.Zstd(level=5),
                filters=[numcodecs.Delta(dtype="<i2")], fill_value=-1, order="F", dimension_separator="/",
                store="a.zarr", zarr_format=2, attributes={"units": "m"}, dimension_names=["y", "x"])
    stored = document("a.zarr")
    assert stored["chunks"] == [10, 7] and stored["compressor"] == {"id": "zstd", "level": 5}
    assert stored["filters"] == [{"id": "delta", "dtype": "<i2", "astype": "<i2"}]
    assert stored["fill_value"] == -1 and stored["order"] == "F" and stored["dimension_separator"] == "/"
    array = zarr.open("a.zarr", mode="r")
    assert array.attrs["units"] == "m" and array.attrs["_ARRAY_DIMENSIONS"] == ["y", "x"]
    assert array.dimension_names == ("y", "x") and array.order == "F"
    assert array.compressor == numcodecs.Zstd(level=5) and array.filters == (numcodecs.Delta(dtype="<i2"),)


def test_v3_keywords_as_create_array_takes_them():
    array = zarr.create_array("a.zarr", shape=(16, 9), chunks=(4, 3), shards=(8, 9), dtype="uint16",
                              compressors=[zarr.codecs.BloscCodec(cname="lz4", clevel=3)],
                              filters=[numcodecs.Delta(dtype="<u2")], serializer=zarr.codecs.BytesCodec("big"),
                              fill_value=3, dimension_names=["t", None], attributes={"a": 1},
                              chunk_key_encoding={"name": "default", "separator": "."})
    stored = document("a.zarr")
    assert stored["chunk_grid"]["configuration"]["chunk_shape"] == [8, 9]
    sharding = stored["codecs"][0]
    assert sharding["name"] == "sharding_indexed" and sharding["configuration"]["chunk_shape"] == [4, 3]
    inner = [c["name"] for c in sharding["configuration"]["codecs"]]
    assert inner == ["numcodecs.delta", "bytes", "blosc"]
    blosc = sharding["configuration"]["codecs"][2]["configuration"]
    assert blosc["typesize"] == 2 and blosc["shuffle"] == "shuffle" and blosc["cname"] == "lz4"
    assert stored["fill_value"] == 3 and stored["dimension_names"] == ["t", None]
    assert stored["attributes"] == {"a": 1} and stored["chunk_key_encoding"]["configuration"]["separator"] == "."
    assert array.chunks == (4, 3) and array.shards == (8, 9) and array.cdata_shape == (4, 3)
    assert "Shard shape        : (8, 9)" in str(array.info) and "Shards initialized : 0/2" in str(array.info)
    assert array.serializer == zarr.codecs.BytesCodec("big") and array.filters[0].to_dict()["name"] == "numcodecs.delta"
    array[...] = np.arange(16 * 9).reshape(16, 9)
    assert np.array_equal(zarr.open("a.zarr", mode="r")[...], np.arange(16 * 9).reshape(16, 9))


def test_v3_defaults_are_zarr_python_3s():
    zarr.create(shape=(5,), store="a.zarr")
    stored = document("a.zarr")
    assert stored["data_type"] == "float64" and stored["fill_value"] == 0.0
    assert stored["codecs"] == [{"name": "bytes", "configuration": {"endian": "little"}},
                                {"name": "zstd", "configuration": {"level": 0, "checksum": False}}]
    zarr.create(shape=(5,), dtype=str, store="s.zarr")
    assert document("s.zarr")["codecs"][0]["name"] == "vlen-utf8"


def test_a_new_node_takes_its_hierarchys_format():
    zarr.group("v2.zarr", zarr_format=2)
    assert zarr.create(shape=(2,), store="v2.zarr/sub/a").zarr_format == 2  # found by walking up
    assert zarr.open_group("v2.zarr/g", mode="w").zarr_format == 2
    assert zarr.group("v2.zarr").create_array("b", shape=(2,)).zarr_format == 2
    assert zarr.create(shape=(2,), store="fresh.zarr").zarr_format == 3
    assert zarr.group("fresh_group.zarr").zarr_format == 3


def test_zeros_ones_full_empty_and_their_likes():
    assert zarr.zeros(4)[...].tolist() == [0.0] * 4 and zarr.ones((2,), dtype="i1")[...].tolist() == [1, 1]
    assert zarr.full((3,), 2.5)[...].tolist() == [2.5] * 3 and zarr.full(2, fill_value=7, dtype="u2")[1] == 7
    assert zarr.empty((2,), dtype="f4").fill_value in (None, 0)
    source = zarr.array(np.arange(12).reshape(3, 4), chunks=(2, 2), store="src.zarr",
                        compressor=numcodecs.Zlib(level=2), zarr_format=2)
    for function, value in [(zarr.zeros_like, 0), (zarr.ones_like, 1)]:
        like = function(source)
        assert like.shape == (3, 4) and like.chunks == (2, 2) and like.compressor == source.compressor
        assert np.all(like[...] == value)
    assert np.all(zarr.full_like(source, 9)[...] == 9)
    assert zarr.empty_like(np.zeros((2, 5), "i2")).shape == (2, 5)
    assert zarr.zeros_like(source, store="z.zarr").url == "z.zarr"
    assert zarr.open_like(source, "like.zarr").chunks == (2, 2)


# zeros() passes fill_value 0, which the metadata of strings, bytes and complex numbers
# refused ("fill_value 0 is not valid for dtype <U5"); zarr-python 2.13 stores their zero.
@pytest.mark.parametrize("zarr_format", [2, 3])
@pytest.mark.parametrize("dtype", ["<U5", "S3", "complex128", "c8", str, bytes])
def test_zeros_and_ones_of_types_that_hold_no_numbers(zarr_format, dtype):
    zeros = zarr.zeros((4,), chunks=(2,), dtype=dtype, zarr_format=zarr_format)
    expected = np.zeros(4, dtype=dtype if dtype not in (str, bytes) else object)
    if dtype in (str, bytes):
        expected[:] = dtype()
    assert zeros[...].tolist() == expected.tolist()
    if np.dtype(dtype).kind == "c":
        assert zarr.ones((2,), dtype=dtype, zarr_format=zarr_format)[...].tolist() == [1 + 0j] * 2
        assert zarr.full((2,), 2.5, dtype=dtype, zarr_format=zarr_format)[...].tolist() == [2.5 + 0j] * 2
    zarr_python = pytest.importorskip("zarr")
    if dtype not in (str, bytes) and zarr_format == 2:
        assert zarr_python.zeros((4,), chunks=(2,), dtype=dtype)[...].tolist() == expected.tolist()


def test_the_module_default_compressor_is_taken_by_arrays_that_name_none(monkeypatch):
    """zarr-python 2's tutorial sets zarr.storage.default_compressor; it was ignored."""
    monkeypatch.setattr(zarr.storage, "default_compressor", numcodecs.Zstd(level=1))
    assert zarr.zeros(100, chunks=10).compressor == numcodecs.Zstd(level=1)
    assert document(zarr.zeros(10, store="v2.zarr", zarr_format=2).url)["compressor"] == {"id": "zstd", "level": 1}
    assert zarr.zeros(10, compressor=None).compressor is None
    assert zarr.zeros(10, compressors=[numcodecs.Zlib(level=2)]).compressor == numcodecs.Zlib(level=2)
    monkeypatch.setattr(zarr.storage, "default_compressor", None)  # each format's own default
    assert zarr.zeros(10).compressor == numcodecs.Zstd(level=0)


def test_array_from_array_and_group_functions():
    data = np.arange(20, dtype="i8").reshape(4, 5)
    assert np.array_equal(zarr.array(data, chunks=(2, 5))[...], data)
    copied = zarr.from_array("copy.zarr", data=zarr.array(data, chunks=(2, 2)))
    assert copied.chunks == (2, 2) and np.array_equal(copied[...], data)
    root = zarr.create_group("g.zarr", attributes={"title": "t"})
    assert root.attrs["title"] == "t"
    with pytest.raises(zarr.ExistsError):
        zarr.create_group("g.zarr")
    assert zarr.group("g.zarr", overwrite=True).attrs.asdict() == {}


def test_save_load_tree_consolidate_migrate():
    zarr.save("one.zarr", np.arange(3))
    assert zarr.load("one.zarr").tolist() == [0, 1, 2]
    zarr.save("many.zarr", np.arange(2), named=np.ones(2))
    loaded = zarr.load("many.zarr")
    assert sorted(loaded) == ["arr_0", "named"] and loaded["named"].tolist() == [1.0, 1.0]
    assert repr(zarr.tree(zarr.open_group("many.zarr", mode="r"))) == \
        "/\n ├── arr_0 (2,) int64\n └── named (2,) float64"
    consolidated = zarr.consolidate_metadata("many.zarr")
    assert consolidated.read_only and sorted(consolidated) == ["arr_0", "named"]
    legacy = zarr.group("legacy.zarr", zarr_format=2)
    legacy.create_array("a", shape=(3,), dtype="i4")[...] = [1, 2, 3]
    zarr.migrate("legacy.zarr")
    assert zarr.open("legacy.zarr", mode="r").zarr_format == 3
    assert zarr.open("legacy.zarr/a", mode="r")[...].tolist() == [1, 2, 3]


def test_stores_by_zarr_pythons_names():
    with zarr.ZipStore("a.zip", mode="w") as store:
        zarr.array(np.arange(4), store=store, path="x")
    assert zarr.open("a.zip", mode="r", path="x")[...].tolist() == [0, 1, 2, 3]  # a .zip path is an archive
    memory = zarr.storage.MemoryStore()
    zarr.zeros(3, store=memory)  # the array is dropped at once; the store keeps its data
    assert zarr.open(memory, mode="r")[...].tolist() == [0.0] * 3
    local = zarr.storage.LocalStore("local.zarr")
    assert zarr.open_group(local, mode="w").store is local
    assert zarr.storage.StorePath(local, "a") .path == "a"
    with pytest.warns(UserWarning, match="memory store"):
        assert zarr.zeros(2, store={}).url.startswith("memory://")
    with pytest.raises(TypeError, match="dict holding keys"):
        zarr.zeros(2, store={"x": b""})
    fsspec = pytest.importorskip("fsspec")
    mapper = fsspec.get_mapper("file://" + os.path.abspath("mapped.zarr"))
    zarr.zeros(2, store=mapper, zarr_format=2)
    assert os.path.isfile("mapped.zarr/.zarray")


def test_storage_options_are_translated_for_the_library():
    from libzarr.storage import translate_storage_options
    assert translate_storage_options({"anon": True, "client_kwargs": {"endpoint_url": "http://127.0.0.1:9",
                                                                      "region_name": "eu"}}) == \
        {"anonymous": True, "endpoint": "http://127.0.0.1:9", "region": "eu"}
    with pytest.raises(zarr.InvalidArgumentError, match="bogus"):
        zarr.open("s3://bucket/a.zarr", mode="r", storage_options={"bogus": 1})


def test_unknown_keywords_are_type_errors():
    with pytest.raises(TypeError, match="unexpected keyword argument 'chunk_size'"):
        zarr.create(shape=(2,), chunk_size=3)
    # zarr-python keywords with nothing to do in libzarr are accepted
    zarr.create(shape=(2,), cache_metadata=False, cache_attrs=False, synchronizer=None)


def test_codecs_have_both_forms_and_run():
    blosc = zarr.Blosc(cname="zstd", clevel=3, shuffle=zarr.Blosc.BITSHUFFLE)
    assert blosc.get_config() == numcodecs.Blosc(cname="zstd", clevel=3, shuffle=2).get_config()
    assert blosc.to_dict() == {"name": "blosc", "configuration": {"cname": "zstd", "clevel": 3,
                                                                   "shuffle": "bitshuffle", "blocksize": 0}}
    assert repr(blosc) == "Blosc(cname='zstd', clevel=3, shuffle=BITSHUFFLE, blocksize=0)"
    data = np.arange(1000, dtype="i4").tobytes()
    assert numcodecs.Zstd(level=1).decode(zarr.Zstd(level=1).encode(data)) == data  # the same bytes as numcodecs
    assert zarr.codecs.get_codec({"id": "zlib", "level": 1}).decode(numcodecs.Zlib(1).encode(data)) == data
    assert zarr.codecs.ZstdCodec() == zarr.codecs.get_codec({"name": "zstd", "configuration": {"level": 0,
                                                                                              "checksum": False}})


def test_the_module_namespace_holds_no_implementation_names():
    for name in ("ctypes", "np", "numpy", "lib", "json", "os"):
        assert not hasattr(zarr, name), name
    assert set(zarr.__all__) <= set(dir(zarr))


@pytest.mark.parametrize("shards, location", [((10, 10), "end"), ([10, 10], "end"), ({"shape": (10, 10)}, "end"),
                                              ({"shape": (10, 10), "index_location": "start"}, "start")],
                         ids=["tuple", "list", "dict", "dict start"])
def test_shards_in_zarr_python_3_forms_with_chunks_inside(shards, location):
    """create_array(shards=...) as zarr-python 3 takes it, chunks= the inner chunks (a dict
    was a ValueError from int("shape"); audit of issue 23, point 6)."""
    array = zarr.create_array("s.zarr", shape=(40, 30), chunks=(5, 5), shards=shards, dtype="i4")
    array[...] = np.arange(1200).reshape(40, 30)
    assert array.chunks == (5, 5) and array.shards == (10, 10)
    sharding = document("s.zarr")["codecs"][0]
    assert sharding["name"] == "sharding_indexed" and sharding["configuration"]["chunk_shape"] == [5, 5]
    assert sharding["configuration"]["index_location"] == location
    assert document("s.zarr")["chunk_grid"]["configuration"]["chunk_shape"] == [10, 10]
    assert np.array_equal(zarr.open("s.zarr", mode="r")[...], np.arange(1200).reshape(40, 30))


def test_shards_auto_holds_whole_chunks_within_the_array():
    array = zarr.create_array("s.zarr", shape=(100, 100), chunks=(5, 5), shards="auto", dtype="i4")
    assert array.chunks == (5, 5)
    assert all(s % c == 0 and c <= s <= 100 for s, c in zip(array.shards, array.chunks)) and array.shards != (5, 5)
    array[...] = 3
    assert array[...].sum() == 30000
    small = zarr.create_array("t.zarr", shape=(7,), shards="auto", dtype="u1")
    assert small.shards[0] % small.chunks[0] == 0


@pytest.mark.parametrize("shards, error, message", [
    ("big", zarr.InvalidArgumentError, "shards must be a tuple, a dict with 'shape' or 'auto', not 'big'"),
    ({"size": (2,)}, zarr.InvalidArgumentError, "a dict takes 'shape'"),
    ({"shape": (10,), "index_location": "middle"}, zarr.InvalidArgumentError, "index_location must be"),
    ((10, 10), zarr.InvalidArgumentError, "one entry per dimension"),
    (object(), TypeError, "shards must be a tuple of integers")], ids=["text", "key", "location", "rank", "object"])
def test_bad_shards_name_the_argument(shards, error, message):
    with pytest.raises(error, match=message):
        zarr.create_array("s.zarr", shape=(40,), chunks=(5,), shards=shards, dtype="i4")
