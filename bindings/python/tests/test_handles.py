"""Handles never crash the interpreter: pickling and copying reopen, closed handles refuse use.

The risky operations run in a fresh interpreter (run_isolated), so that a crash
(a segmentation fault: a negative return code) fails the test instead of the run.
"""
import copy
import gc
import multiprocessing
import os
import pickle
import threading

import numpy as np
import pytest
from conftest import run_isolated

import libzarr


@pytest.fixture
def stored(tmp_path):
    array = libzarr.create(str(tmp_path / "a.zarr"), shape=(6, 4), chunks=(3, 2), dtype="i4", zarr_format=2)
    array[...] = np.arange(24).reshape(6, 4)
    return array


def test_pickle_is_the_url_mode_and_options_not_the_pointer(stored, tmp_path):
    opened = libzarr.open_array(stored.url, mode="r", write_empty_chunks=True,
                                cache_pool={"total_bytes_limit": 1 << 20})
    reducer, arguments = opened.__reduce__()
    assert arguments == ("array", stored.url, "", "r", {"write_empty_chunks": True,
                                                        "cache_pool": {"total_bytes_limit": 1 << 20}}, None)
    again = pickle.loads(pickle.dumps(opened))
    assert again.mode == "r" and again.url == stored.url and again._location.options == opened._location.options
    assert np.array_equal(again[...], np.arange(24).reshape(6, 4))


def test_unpickling_after_the_original_is_gone_reopens(tmp_path):
    printed = run_isolated("""
        import gc, pickle, libzarr
        a = libzarr.open("p.zarr", mode="w", shape=(4,), chunks=(2,), dtype="i2")
        a[...] = [1, 2, 3, 4]
        g = libzarr.open_group("g.zarr", mode="w")
        g.create_array("x", shape=(2,), dtype="u1")[...] = [7, 8]
        data = pickle.dumps((a, g, g["x"]))
        a.close(); g.close()
        del a, g
        gc.collect()
        a, g, x = pickle.loads(data)
        print(a[...].tolist(), list(g), x[...].tolist(), a.mode, g.mode)
        """, tmp_path)
    assert printed.split() == ["[1,", "2,", "3,", "4]", "['x']", "[7,", "8]", "r+", "r+"]


def test_copy_and_deepcopy_reopen_and_outlive_the_original(tmp_path):
    printed = run_isolated("""
        import copy, gc, libzarr
        a = libzarr.open("c.zarr", mode="w", shape=(3,), dtype="f8")
        a[...] = 1.5
        shallow, deep = copy.copy(a), copy.deepcopy(a)
        assert shallow._handle.value != a._handle.value  # a handle of its own
        del a
        gc.collect()
        print(shallow[...].sum(), deep[...].sum())
        """, tmp_path)
    assert printed.split() == ["4.5", "4.5"]


def test_memory_nodes_refuse_pickling_with_a_type_error_but_copy():
    array = libzarr.zeros((4,), dtype="i4")
    assert array.url.startswith("memory://")
    with pytest.raises(TypeError, match="memory:// store exists in this process only"):
        pickle.dumps(array)
    with pytest.raises(TypeError, match="cannot pickle libzarr.Group"):
        pickle.dumps(libzarr.group())
    twin = copy.copy(array)  # in this process a memory store can be reopened: the same data
    array[...] = 5
    assert twin[...].tolist() == [5] * 4


def _memory_nodes():
    """Nodes of memory stores reached every way a user can name one."""
    url = libzarr.open("memory://pickle-by-url", mode="w", shape=(4,), dtype="i4")
    group = libzarr.open_group("memory://pickle-group", mode="w")
    child = group.create_array("x", shape=(2,), dtype="i1")
    cached = libzarr.open_array(libzarr.storage.LRUStoreCache("memory://pickle-by-url", 1 << 20), mode="r")
    spec = libzarr.open_spec({"driver": "zarr", "kvstore": {"driver": "memory", "path": "pickle-spec/"},
                              "metadata": {"shape": [2], "dtype": "<i2"}, "create": True})
    by_object = libzarr.zeros((2,), store=libzarr.storage.MemoryStore())
    return {"url": url, "group": group, "child": child, "cached": cached, "spec": spec, "MemoryStore": by_object}


@pytest.mark.parametrize("name", ["url", "group", "child", "cached", "spec", "MemoryStore"])
def test_every_memory_node_refuses_pickle_and_deepcopy_and_copy_shares(name):
    """A memory:// URL (not a MemoryStore object) pickled as its URL: another process
    found nothing there, or an empty store of its own (audit of issue 23, point 2)."""
    node = _memory_nodes()[name]
    kind = type(node).__name__
    with pytest.raises(TypeError, match=f"cannot pickle libzarr.{kind} 'memory://.*this process only"):
        pickle.dumps(node)
    with pytest.raises(TypeError, match=f"cannot deep-copy libzarr.{kind} 'memory://.*copy.copy"):
        copy.deepcopy(node)
    shallow = copy.copy(node)
    assert shallow.url == node.url and shallow._handle.value != node._handle.value
    if kind == "Array":
        assert np.array_equal(shallow[...], node[...])


def test_an_anonymous_memory_spec_array_refuses_even_copy():
    """A memory kvstore without a path is the handle's own store: a copy reopened the spec
    onto another, empty store (NotFoundError); now a TypeError that says why."""
    array = libzarr.open_spec({"driver": "zarr", "kvstore": {"driver": "memory"},
                               "metadata": {"shape": [2], "dtype": "<i2"}, "create": True})
    for operation in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="cannot (copy|pickle)"):
            operation(array)


def test_a_closed_handle_refuses_every_call(stored):
    group = libzarr.open_group(os.path.dirname(stored.url), mode="a")
    stored.close()
    stored.close()  # twice is fine
    group.close()
    calls = [lambda: stored.shape, lambda: stored[0], lambda: stored.__setitem__(0, 1), lambda: stored.attrs["a"],
             lambda: stored.metadata, lambda: stored.info, lambda: stored.oindex[[0], :], lambda: stored.vindex[[0], [0]],
             lambda: stored.resize(2, 2), lambda: stored.append(np.zeros((1, 4), "i4")), lambda: stored.fill_value,
             lambda: stored.nchunks_initialized, lambda: libzarr.create_like("x", stored),
             lambda: list(group), lambda: group["a.zarr"], lambda: group.attrs.asdict(),
             lambda: group.create_group("g"), lambda: group.tree()]
    for call in calls:
        with pytest.raises(libzarr.InvalidArgumentError, match="is closed"):
            call()
    assert "closed" in repr(stored) and "closed" in repr(group)


def test_closing_while_other_threads_read_waits_for_them(tmp_path):
    printed = run_isolated("""
        import threading, libzarr, numpy as np
        a = libzarr.open("t.zarr", mode="w", shape=(512, 512), chunks=(64, 64), dtype="f8")
        a[...] = 1.0
        outcomes = []
        def reader():
            while True:
                try:
                    assert a[...].sum() == 512 * 512
                except libzarr.InvalidArgumentError as error:
                    outcomes.append("closed" in str(error))
                    return
        threads = [threading.Thread(target=reader) for _ in range(4)]
        for t in threads: t.start()
        a.close()
        for t in threads: t.join()
        print(outcomes)
        """, tmp_path)
    assert printed.strip() == "[True, True, True, True]"


def test_children_outlive_their_group(tmp_path):
    root = libzarr.group(str(tmp_path / "g.zarr"))
    child = root.create_array("a/b", shape=(3,), dtype="i1")
    root.close()
    child[...] = [1, 2, 3]
    assert child[...].tolist() == [1, 2, 3]


def test_a_spec_opened_array_pickles_as_its_spec_without_create(tmp_path):
    spec = {"driver": "zarr3", "kvstore": {"driver": "file", "path": str(tmp_path / "s.zarr")},
            "metadata": {"shape": [4], "data_type": "int16"}, "create": True}
    array = libzarr.open_spec(spec)
    array[...] = [4, 3, 2, 1]
    again = pickle.loads(pickle.dumps(array))
    assert again[...].tolist() == [4, 3, 2, 1] and "create" not in again._location.spec


def test_a_closed_handle_still_pickles_as_its_url(stored):
    stored.close()
    assert pickle.loads(pickle.dumps(stored))[0, :].tolist() == [0, 1, 2, 3]


def _row_sum(array_and_row):
    array, row = array_and_row
    return int(array[row].sum())


def test_multiprocessing_with_spawn_reads_through_pickled_handles(stored):
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        sums = pool.map_async(_row_sum, [(stored, row) for row in range(6)]).get(timeout=120)
    assert sums == [int(r.sum()) for r in np.arange(24).reshape(6, 4)]


def test_garbage_collection_closes_the_handle(tmp_path):
    array = libzarr.zeros(str(tmp_path / "z.zarr"), (2,))
    handle = array._handle
    del array
    gc.collect()
    assert handle.value  # the ctypes object itself is untouched; the C handle was closed once


def test_threads_share_one_handle(stored):
    errors = []

    def write(row):
        try:
            for _ in range(20):
                stored[row] = row
        except Exception as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=write, args=(row,)) for row in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and stored[:, 0].tolist() == list(range(6))


def test_repr_info_and_messages_show_no_url_secret(tmp_path):
    """repr() of arrays, groups and stores, the Store row of .info and the binding's own
    messages show the URL as libzarr does: no userinfo, no query (they printed both:
    audit of issue 20, finding 8)."""
    import functools
    import http.server
    libzarr.create(str(tmp_path / "arr.zarr"), {"shape": [4], "chunks": [2], "dtype": "<i4"})
    libzarr.group(str(tmp_path / "g.zarr"))
    libzarr.consolidate_metadata(str(tmp_path / "g.zarr"))  # HTTP has no listing: .info reads it

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://alice:S3cretPassw0rd@127.0.0.1:{server.server_address[1]}"
        array = libzarr.open(base + "/arr.zarr?token=QUERYTOKEN123", mode="r")
        group = libzarr.open_group(base + "/g.zarr?token=QUERYTOKEN123", mode="r")
        shown = [repr(array), str(array.info), repr(group), str(group.info), repr(array.store)]
        with pytest.raises(libzarr.ReadOnlyError) as read_only:
            group.create_group("x")
        array.close()
        shown += [repr(array), str(read_only.value)]
        with pytest.raises(libzarr.InvalidArgumentError) as closed:
            array[0]
        shown.append(str(closed.value))
        for text in shown:
            assert "S3cretPassw0rd" not in text and "QUERYTOKEN123" not in text, text
        assert f"http://***@127.0.0.1:{server.server_address[1]}/arr.zarr?..." in shown[0]
    finally:
        server.shutdown()
        server.server_close()


def test_shown_url_hides_userinfo_query_and_fragment():
    from libzarr.storage import shown_url
    assert shown_url("http://a:b'c@h:1/x?t=1") == "http://***@h:1/x?..."
    assert shown_url("s3://KEY:SECRET@bucket/p#frag") == "s3://***@bucket/p#..."
    assert shown_url("https://h/a@b/c") == "https://h/a@b/c"
    assert shown_url("/plain/path?x") == "/plain/path?x"


def _zip_names(path):
    import zipfile
    with zipfile.ZipFile(path) as archive:
        return sorted(archive.namelist())


@pytest.mark.parametrize("holder", ["daemon thread", "twin handles", "cycle", "builtins"])
def test_zip_handles_open_at_exit_are_written(tmp_path, holder):
    """Handles still open when the interpreter exits are closed by libzarr's atexit hook,
    so the archive is written, and nothing is printed. A daemon thread's handle, or a
    second handle on the same node, was never closed: no archive at all (audit of issue
    23, point 4)."""
    printed = run_isolated(f"""
        import builtins, threading, time, numpy as np, libzarr
        holder = {holder!r}
        a = libzarr.open("out.zip", mode="w", shape=(10,), chunks=(5,), dtype="i4", zarr_format=2)
        a[...] = np.arange(10)
        if holder == "daemon thread":
            started = threading.Event()
            def hold(array):
                started.set()
                try:
                    while True:
                        array[0]
                        time.sleep(0.005)
                except libzarr.InvalidArgumentError:
                    pass  # closed at exit
            threading.Thread(target=hold, args=(a,), daemon=True).start()
            started.wait()
            del a
        elif holder == "twin handles":
            twin = libzarr.open_array("out.zip", mode="r+")
            twin[9] = 99
        elif holder == "cycle":
            a.me = a
        elif holder == "builtins":
            builtins.kept = a
        print("end")
        """, tmp_path)
    assert printed == "end\n"
    assert _zip_names(tmp_path / "out.zip") == [".zarray", "0", "1"]
    values = libzarr.open_array(str(tmp_path / "out.zip"), mode="r")[...].tolist()
    assert values == list(range(9)) + [99 if holder == "twin handles" else 9]


def test_zip_store_close_closes_twin_handles(tmp_path):
    """ZipStore.close() closes every handle opened through it, also two on one node (a
    WeakSet kept only one of two equal handles, so the archive stayed unwritten)."""
    store = libzarr.ZipStore(str(tmp_path / "t.zip"), mode="w")
    first = libzarr.zeros((4,), chunks=(2,), dtype="i2", store=store, zarr_format=2)
    second = libzarr.open_array(store, mode="r+")
    assert first == second and first is not second
    second[...] = 7
    store.close()
    assert first.closed and second.closed
    assert _zip_names(tmp_path / "t.zip") == [".zarray", "0", "1"]


def test_constructing_a_node_from_anything_but_an_open_handle_is_a_type_error(tmp_path):
    """Array(12345, location) or Group(12345, location) handed 12345 to the library as a
    pointer, and a second Array on another's handle closed it twice: segmentation faults
    (run isolated so that the old code fails the test)."""
    printed = run_isolated("""
        import libzarr
        from libzarr._capi import ArrayHandle, GroupHandle
        from libzarr._handle import Location
        here = Location(libzarr.storage.Store("x.zarr"))
        for make in (lambda: libzarr.Array(12345, here), lambda: libzarr.Group(12345, here),
                     lambda: libzarr.Array(None, here), lambda: libzarr.Array(ArrayHandle(), here),
                     lambda: libzarr.Group(GroupHandle(), here), lambda: libzarr.Array(GroupHandle(1), here),
                     lambda: libzarr.zeros(2).__class__(libzarr.zeros(2)._handle, "not a location"),
                     lambda: (lambda a: libzarr.Array(a._handle, a._location))(libzarr.zeros(2))):
            try:
                node = make()
                print("made", node.attrs.asdict())
            except TypeError as error:
                print(str(error).split(",")[0].split(":")[0])
        """, tmp_path)
    assert printed.splitlines() == ["libzarr.Array() wraps an open ArrayHandle of the C API",
                                    "libzarr.Group() wraps an open GroupHandle of the C API"] + \
        ["libzarr.Array() wraps an open ArrayHandle of the C API"] * 2 + \
        ["libzarr.Group() wraps an open GroupHandle of the C API",
         "libzarr.Array() wraps an open ArrayHandle of the C API", "libzarr.Array()", "libzarr.Array()"]
