"""Errors: every ZARR_ERR_* code has its exception, carrying the code and the library's message."""
import json
import pathlib

import pytest

import libzarr
from libzarr import errors

HIERARCHY = [
    (libzarr.InvalidArgumentError, -1, "ZARR_ERR_INVALID_ARGUMENT", ValueError),
    (libzarr.NotFoundError, -2, "ZARR_ERR_NOT_FOUND", FileNotFoundError),
    (libzarr.NotFoundError, -2, "ZARR_ERR_NOT_FOUND", KeyError),
    (libzarr.ExistsError, -3, "ZARR_ERR_EXISTS", FileExistsError),
    (libzarr.ExistsError, -3, "ZARR_ERR_EXISTS", ValueError),  # zarr-python's ContainsArrayError is one
    (libzarr.InvalidMetadataError, -4, "ZARR_ERR_INVALID_METADATA", ValueError),
    (libzarr.UnsupportedError, -5, "ZARR_ERR_UNSUPPORTED", NotImplementedError),
    (libzarr.CodecError, -6, "ZARR_ERR_CODEC", libzarr.ZarrError),
    (libzarr.StoreError, -7, "ZARR_ERR_IO", OSError),
    (libzarr.OutOfBoundsError, -8, "ZARR_ERR_OUT_OF_BOUNDS", IndexError),
    (libzarr.ReadOnlyError, -9, "ZARR_ERR_READ_ONLY", PermissionError),
    (libzarr.NoMemoryError, -10, "ZARR_ERR_NO_MEMORY", MemoryError),
    (libzarr.BufferSizeError, -11, "ZARR_ERR_BUFFER_SIZE", ValueError),
    (libzarr.InternalError, -12, "ZARR_ERR_INTERNAL", libzarr.ZarrError),
    (libzarr.RangeError, -13, "ZARR_ERR_RANGE", OverflowError),
    (libzarr.RangeError, -13, "ZARR_ERR_RANGE", ValueError),
]


@pytest.mark.parametrize("cls, code, status, builtin", HIERARCHY, ids=lambda v: getattr(v, "__name__", v))
def test_each_code_has_its_class(cls, code, status, builtin):
    error = errors.error_for(code, "what went wrong", status)
    assert type(error) is cls and isinstance(error, builtin) and isinstance(error, libzarr.ZarrError)
    assert (error.code, error.status, error.message) == (code, status, "what went wrong")
    assert str(error) == f"what went wrong [{status}]"


def test_the_classes_match_the_header_codes():
    """The codes written into errors.py are zarr.h's (the library names each one)."""
    from libzarr._capi import lib
    for cls, code, status, _ in HIERARCHY:
        assert lib.zarr_status_name(code).decode() == status == cls(message="m").status


def test_a_code_newer_than_the_binding_still_raises():
    error = errors.error_for(-99, "future failure", "ZARR_ERR_FUTURE")
    assert type(error) is libzarr.ZarrError and error.code == -99 and error.status == "ZARR_ERR_FUTURE"


def test_not_found_names_the_location(tmp_path):
    with pytest.raises(FileNotFoundError) as caught:
        libzarr.open(str(tmp_path / "missing"), mode="r")
    error = caught.value
    assert error.code == -2 and "missing" in error.message
    assert "no array" in error.message and "no group" in error.message  # both kinds were tried


def test_exists(url):
    libzarr.create(url, {"shape": [1], "dtype": "<i4"})
    with pytest.raises(libzarr.ExistsError, match="node.zarr"):
        libzarr.create(url, {"shape": [1], "dtype": "<i4"})


def test_zarr_pythons_except_clauses_catch_libzarrs_errors(url):
    """Code written for zarr-python catches ValueError, or zarr.errors' names, around mode
    "w-" on an existing node and mode "r" on a missing one."""
    libzarr.create(url, shape=(1,))
    for caught in (ValueError, errors.ContainsArrayError, errors.ContainsGroupError, FileExistsError):
        with pytest.raises(caught):
            libzarr.open(url, mode="w-", shape=(1,))
    for caught in (errors.PathNotFoundError, errors.ArrayNotFoundError, errors.GroupNotFoundError):
        with pytest.raises(caught):
            libzarr.open(url + "-missing", mode="r")


@pytest.mark.parametrize("metadata, field", [
    ({"shape": [2], "chunks": [0], "dtype": "<i4"}, "chunks"),
    ({"shape": [2], "dtype": "<i3"}, "<i3"),
    ({"shape": "two", "dtype": "<i4"}, "shape"),
    ({"dtype": "<i4"}, "shape"),
])
def test_invalid_metadata_names_the_field(url, metadata, field):
    with pytest.raises(libzarr.InvalidMetadataError) as caught:
        libzarr.create(url, metadata)
    assert caught.value.code == -4 and field in caught.value.message


def test_unsupported_codec_and_url_scheme(url):
    with pytest.raises(libzarr.UnsupportedError, match="no-such-codec"):
        libzarr.create(url, {"shape": [1], "dtype": "<i4", "compressor": {"id": "no-such-codec"}})
    with pytest.raises(libzarr.ZarrError) as caught:
        libzarr.open("gopher://example.org/a")
    assert caught.value.code in (-1, -5) and "gopher://" in caught.value.message


def test_corrupt_chunk_is_a_codec_error_naming_the_key(url):
    array = libzarr.create(url, {"shape": [4], "dtype": "<i4", "compressor": {"id": "zlib", "level": 1}})
    array[...] = [1, 2, 3, 4]
    (pathlib.Path(url) / "0").write_bytes(b"not zlib at all")
    with pytest.raises(libzarr.CodecError) as caught:
        libzarr.open(url)[...]
    assert caught.value.code == -6 and "0" in caught.value.message


def test_store_failure_is_a_store_error(url):
    array = libzarr.create(url, {"shape": [4], "chunks": [4], "dtype": "<i4", "compressor": None})
    (pathlib.Path(url) / "0").mkdir()  # a folder where the chunk file goes
    with pytest.raises(libzarr.StoreError) as caught:
        array[...] = 1
    assert caught.value.code == -7 and isinstance(caught.value, OSError) and "'0'" in caught.value.message


def test_bad_mode_and_unknown_option(url):
    libzarr.create(url, {"shape": [1], "dtype": "<i4"})
    with pytest.raises(libzarr.InvalidArgumentError, match="mode must be one of"):
        libzarr.open_array(url, "q")
    with pytest.raises(TypeError, match="unexpected keyword argument 'no_such_option'"):
        libzarr.open(url, no_such_option=True)
    with pytest.raises(libzarr.InvalidArgumentError, match="no_such_option"):  # the library's check
        libzarr.open(url, storage_options={"no_such_option": 1})


def test_write_through_read_only_handle(url):
    libzarr.create(url, {"shape": [2], "dtype": "<i4"})
    array = libzarr.open(url, mode="r")
    for change in (lambda: array.__setitem__(0, 1), lambda: array.resize(3),
                   lambda: array.attrs.update(a=1), lambda: array.append([1])):
        with pytest.raises(libzarr.ReadOnlyError) as caught:
            change()
        assert caught.value.code == -9 and caught.value.message


def test_message_is_read_on_the_failing_thread(tmp_path):
    """zarr_last_error is per thread: each thread sees its own failure's message."""
    import threading
    messages = {}

    def fail(name):
        try:
            libzarr.open(str(tmp_path / name), mode="r")
        except libzarr.NotFoundError as error:
            messages[name] = error.message

    threads = [threading.Thread(target=fail, args=(f"missing-{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(f"missing-{i}" in messages[f"missing-{i}"] for i in range(8))


def test_metadata_json_of_the_library_is_parsed_not_rebuilt(url):
    array = libzarr.create(url, {"shape": [1], "dtype": "<i4"})
    assert array.metadata == json.loads((pathlib.Path(url) / ".zarray").read_text())


def test_an_embedded_nul_is_refused_before_the_library_sees_it(tmp_path):
    """C would read "h.zarr\\0/sub" as "h.zarr": erase must not remove the whole hierarchy."""
    root = tmp_path / "h.zarr"
    group = libzarr.group(str(root), zarr_format=2)
    group.create_group("sub")
    with pytest.raises(ValueError, match="embedded NUL"):
        libzarr.erase(str(root) + "\0/sub")
    with pytest.raises(ValueError, match="embedded NUL"):
        libzarr.erase((str(root) + "\0/sub").encode())
    assert (root / "sub").is_dir() and (root / ".zgroup").is_file()
    with pytest.raises(ValueError, match="embedded NUL"):
        libzarr.open(str(root) + "\0x")
    with pytest.raises(ValueError, match="embedded NUL"):
        group.create_group("a\0b")
    with pytest.raises(ValueError, match="embedded NUL"):
        libzarr.zeros(str(tmp_path / "z.zarr\0x"), (4,), dtype="<i4")
    assert list(tmp_path.iterdir()) == [root]


def test_a_nul_inside_json_text_is_escaped_and_kept(tmp_path):
    """Attributes are JSON: a NUL in a value travels as \\u0000 and comes back whole."""
    group = libzarr.group(str(tmp_path / "g.zarr"))
    group.attrs["k"] = "a\0b"
    assert libzarr.open_group(str(tmp_path / "g.zarr")).attrs["k"] == "a\0b"


@pytest.mark.parametrize("option", ["chunk_store", "process_lock_dir"])
def test_a_nul_in_a_path_option_is_refused_not_truncated(tmp_path, option):
    """A NUL inside an option that names a path is refused naming the option; the
    library read such a string up to the NUL (audit of issue 20, findings 3 and 9)."""
    target = str(tmp_path / "elsewhere")
    with pytest.raises(libzarr.InvalidArgumentError, match=f"'{option}' holds a NUL byte"):
        array = libzarr.open(str(tmp_path / "a.zarr"), mode="w", shape=(4,), chunks=(2,), dtype="u1",
                             **{option: target + "\0-suffix"})
        array[:] = 1
    assert not (tmp_path / "elsewhere").exists()
