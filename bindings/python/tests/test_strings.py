"""Strings and bytes: variable-length elements as object arrays, fixed-width as U/S arrays."""
import numpy as np
import pytest

import libzarr

WORDS = ["", "a", "héllo wörld", "日本語", "x" * 1000, "tab\tand\nnewline"]

VLEN_STRING_ARRAYS = {
    "v2 vlen-utf8": {"dtype": "|O", "filters": [{"id": "vlen-utf8"}], "fill_value": None},
    "v2 json2": {"dtype": "|O", "filters": [{"id": "json2"}], "fill_value": None},
    "v3 string": {"data_type": "string"},
}
VLEN_BYTES_ARRAYS = {
    "v2 vlen-bytes": {"dtype": "|O", "filters": [{"id": "vlen-bytes"}], "fill_value": None},
    "v3 bytes": {"data_type": "variable_length_bytes"},
}


def chunked(metadata, shape, chunks):
    """metadata with a shape and chunk shape in its format's spelling."""
    if "data_type" in metadata:
        grid = {"name": "regular", "configuration": {"chunk_shape": list(chunks)}}
        return {**metadata, "shape": list(shape), "chunk_grid": grid}
    return {**metadata, "shape": list(shape), "chunks": list(chunks)}


@pytest.mark.parametrize("metadata", VLEN_STRING_ARRAYS.values(), ids=VLEN_STRING_ARRAYS)
def test_strings_round_trip_as_object_arrays_of_str(url, metadata):
    array = libzarr.create(url, chunked(metadata, (2, 6), (1, 4)))
    assert array.dtype == np.dtype(object) and array.itemsize == 0
    values = np.array([WORDS, WORDS[::-1]], dtype=object)
    array[...] = values
    read = libzarr.open(url)[...]
    assert read.dtype == object and read.tolist() == values.tolist()
    assert all(type(item) is str for item in read.ravel())


@pytest.mark.parametrize("metadata", VLEN_BYTES_ARRAYS.values(), ids=VLEN_BYTES_ARRAYS)
def test_bytes_round_trip_as_object_arrays_of_bytes(url, metadata):
    array = libzarr.create(url, chunked(metadata, (5,), (2,)))
    values = [b"", b"\x00\x01\x02", bytes(range(256)), b"abc", bytearray(b"z")]
    array[...] = np.array(values + [], dtype=object)
    read = libzarr.open(url)[...]
    assert read.tolist() == [bytes(v) for v in values]
    assert all(type(item) is bytes for item in read)


def test_string_indexing_and_broadcast(url):
    array = libzarr.create(url, chunked(VLEN_STRING_ARRAYS["v3 string"], (4, 5), (3, 2)))
    reference = np.full((4, 5), "", dtype=object)
    for key, value in [(np.s_[...], "fill"), (np.s_[1:3, ::2], "step"), (np.s_[[3, 0], -1], ["p", "q"]),
                       (np.s_[2, 4], "é")]:
        array[key] = value
        reference[key] = value
    assert array[...].tolist() == reference.tolist()
    assert array[2, 4] == "é" and array[::-2, [4, 1]].tolist() == reference[::-2, [4, 1]].tolist()
    out = np.empty((5,), dtype=object)
    assert array.read(np.s_[1], out=out) is out and out.tolist() == reference[1].tolist()


def test_unwritten_strings_read_as_fill_value(url, tmp_path):
    v3 = libzarr.create(url, {"shape": [3], "data_type": "string", "fill_value": "zz"})
    assert v3[...].tolist() == ["zz"] * 3
    v2 = libzarr.create(str(tmp_path / "v2"), chunked(VLEN_STRING_ARRAYS["v2 vlen-utf8"], (2,), (1,)))
    assert v2[...].tolist() == ["", ""]


def test_append_strings(url):
    array = libzarr.create(url, chunked(VLEN_STRING_ARRAYS["v3 string"], (2,), (2,)))
    array[...] = ["a", "b"]
    assert array.append(["c", "dé", "e"]) == (5,)
    assert array[...].tolist() == ["a", "b", "c", "dé", "e"]
    with pytest.raises(libzarr.InvalidArgumentError, match="every axis but 0"):
        array.append([["f"]])
    assert array.shape == (5,)  # refused before growing


@pytest.mark.parametrize("metadata, bad, message", [
    (VLEN_STRING_ARRAYS["v3 string"], b"bytes", "must be str"),
    (VLEN_STRING_ARRAYS["v3 string"], 5, "must be str"),
    (VLEN_BYTES_ARRAYS["v3 bytes"], "text", "must be bytes"),
], ids=["bytes in strings", "int in strings", "str in bytes"])
def test_wrong_element_type_is_refused(url, metadata, bad, message):
    array = libzarr.create(url, chunked(metadata, (2,), (2,)))
    with pytest.raises(libzarr.InvalidArgumentError, match=message):
        array[0] = bad
    assert array[0] in ("", b"")  # nothing written


def test_fixed_width_unicode_and_bytes(url, tmp_path):
    text = libzarr.create(url, {"shape": [3], "dtype": "<U4", "fill_value": ""})
    text[...] = ["ab", "日本", "wxyz"]
    assert text.dtype == np.dtype("<U4") and text[...].tolist() == ["ab", "日本", "wxyz"]
    raw = libzarr.create(str(tmp_path / "s"), {"shape": [2], "dtype": "|S3", "fill_value": ""})
    raw[1] = b"\x00ab"
    assert raw.dtype == np.dtype("S3") and raw[...].tolist() == [b"", b"\x00ab"]
