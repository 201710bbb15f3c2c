"""Codecs by the names zarr-python 2 (numcodecs) and zarr-python 3 give them.

A codec here is its configuration; the library does the work. Each one has
both forms: ``get_config()`` gives numcodecs' v2 form (``{"id": "zstd",
"level": 3}``) and ``to_dict()`` the v3 form (``{"name": "zstd",
"configuration": {"level": 3, "checksum": False}}``), so either may be given
to an array of either format. ``encode()`` and ``decode()`` run the codec on a
buffer through zarr_codec_encode / zarr_codec_decode, as numcodecs does.

Wherever an array takes a codec, a numcodecs object, a zarr-python 3 codec,
one of these, or a dict in either form will do.
"""
import ctypes as _ctypes
import threading as _threading

from . import _capi

__all__ = [
    "Codec", "get_codec",
    # numcodecs' names (zarr-python 2 re-exports them as zarr.Blosc...)
    "Blosc", "Zstd", "Zlib", "GZip", "BZ2", "LZMA", "LZ4", "Delta", "FixedScaleOffset", "Quantize",
    "BitRound", "AsType", "PackBits", "Categorize", "Shuffle", "CRC32", "CRC32C", "Adler32",
    "Fletcher32", "VLenUTF8", "VLenBytes", "JSON", "ZFPY",
    # zarr-python 3's names
    "BloscCodec", "BloscShuffle", "BloscCname", "ZstdCodec", "GzipCodec", "BytesCodec", "Endian",
    "TransposeCodec", "Crc32cCodec", "ShardingCodec", "ShardingCodecIndexLocation",
    "VLenUTF8Codec", "VLenBytesCodec",
]

_CODEC_LOCK = _threading.Lock()
# v2 ids whose v3 form is a core codec rather than "numcodecs.<id>".
_CORE_V3 = {"blosc", "gzip", "zstd", "crc32c", "vlen-utf8", "vlen-bytes"}
# v3 codecs with no v2 form (they are what v2 metadata spells as dtype, order, chunks).
_V3_ONLY = {"bytes", "transpose", "sharding_indexed"}
_BLOSC_SHUFFLE_NAMES = {0: "noshuffle", 1: "shuffle", 2: "bitshuffle"}


class Codec:
    """A codec configuration, in the v2 (numcodecs) form and the v3 form."""

    codec_id = None

    def __init__(self, config):
        """config: ``{"id": ...}`` (v2) or ``{"name": ..., "configuration": {...}}`` (v3)."""
        self._v2, self._v3 = _both_forms(dict(config))
        self._form = "v2" if "id" in config else "v3"  # the form repr() shows
        self.codec_id = self._v2["id"] if self._v2 else self._v3["name"]
        self._handle = None

    def get_config(self):
        """numcodecs' form, e.g. ``{"id": "blosc", "cname": "lz4", ...}``."""
        if self._v2 is None:
            raise ValueError(f"codec {self._v3['name']!r} has no Zarr v2 form")
        return dict(self._v2)

    def to_dict(self):
        """The v3 form, e.g. ``{"name": "zstd", "configuration": {"level": 0, "checksum": False}}``."""
        return {"name": self._v3["name"], "configuration": dict(self._v3.get("configuration", {}))}

    @classmethod
    def from_config(cls, config):
        """numcodecs' classmethod: a codec from either form."""
        return get_codec(config)

    # -- running it on buffers ----------------------------------------------

    def _codec(self):
        """The C codec, made on first use (once, whatever threads ask at the same time)."""
        with _CODEC_LOCK:
            if self._handle is None:
                handle = _capi.CodecHandle()
                config = self._v2 if self._v2 is not None else self.to_dict()
                _capi.lib.zarr_codec_create(_ctypes.byref(handle), _capi.to_json(config))
                self._handle = handle
            return self._handle

    def encode(self, buf):
        """The encoded bytes of buf (any object with the buffer protocol)."""
        return self._run(_capi.lib.zarr_codec_encode, buf)

    def decode(self, buf, out=None):
        """The decoded bytes of buf; copied into out (a writable buffer) when given."""
        decoded = self._run(_capi.lib.zarr_codec_decode, buf)
        if out is None:
            return decoded
        view = memoryview(out).cast("B")
        if view.nbytes != len(decoded):
            raise ValueError(f"out holds {view.nbytes} bytes, the decoded data {len(decoded)}")
        view[:] = decoded
        return out

    def _run(self, function, buf):
        data = bytes(memoryview(buf).cast("B"))
        result = _ctypes.c_void_p()
        size = _ctypes.c_size_t()
        function(self._codec(), data, len(data), _ctypes.byref(result), _ctypes.byref(size))
        try:
            return _ctypes.string_at(result, size.value) if size.value else b""
        finally:
            _capi.lib.zarr_free(result)

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            try:
                _capi.lib.zarr_codec_free(handle)
            except Exception:  # noqa: BLE001  (interpreter shutdown)
                pass

    def __reduce__(self):
        return (get_codec, (self._v2 if self._v2 is not None else self.to_dict(),))

    # -- comparing and printing ------------------------------------------------

    def __eq__(self, other):
        try:
            other = as_codec(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._v2 is not None and other._v2 is not None:
            return self._v2 == other._v2  # v3 members the v2 form lacks (blosc's typesize) do not count
        return self._v3 == other._v3

    def __hash__(self):
        import json
        return hash(json.dumps(self._v2 if self._v2 is not None else self._v3, sort_keys=True, default=str))

    def __repr__(self):
        if self._form == "v2":
            name = _CLASS_NAMES.get(self._v2["id"], self._v2["id"])
            parameters = {k: v for k, v in self._v2.items() if k != "id"}
            if name == "Blosc" and isinstance(parameters.get("shuffle"), int):
                shuffle = {0: "NOSHUFFLE", 1: "SHUFFLE", 2: "BITSHUFFLE", -1: "AUTOSHUFFLE"}
                parameters["shuffle"] = _Raw(shuffle.get(parameters["shuffle"], parameters["shuffle"]))
        else:
            name = _V3_CLASS_NAMES.get(self._v3["name"], self._v3["name"])
            parameters = self._v3.get("configuration", {})
        order = _parameter_order(_CLASSES.get(self._v2["id"]) if self._form == "v2" else
                                 _V3_CLASSES.get(self._v3["name"]))
        keys = sorted(parameters, key=lambda k: order.index(k) if k in order else len(order))
        return f"{name}({', '.join(f'{k}={parameters[k]!r}' for k in keys)})"


def _parameter_order(cls):
    """The parameters of a codec class's constructor, in order (numcodecs' repr order)."""
    if cls is None:
        return []
    import inspect
    return [p for p in inspect.signature(cls.__init__).parameters if p != "self"]


class _Raw(str):
    """A name printed without quotes (Blosc's SHUFFLE)."""

    def __repr__(self):
        return str(self)


def _both_forms(config):
    """(v2 form or None, v3 form) of a configuration given in either."""
    if "id" in config:
        return config, _v3_of(config)
    if "name" in config:
        return _v2_of(config), {"name": config["name"], "configuration": dict(config.get("configuration") or {})}
    raise ValueError(f"not a codec configuration (no 'id' or 'name'): {config!r}")


def _v3_of(v2):
    """The v3 form of a numcodecs configuration."""
    codec_id = v2["id"]
    parameters = {k: v for k, v in v2.items() if k != "id"}
    if codec_id not in _CORE_V3:
        return {"name": f"numcodecs.{codec_id}", "configuration": parameters}
    if codec_id == "blosc":
        shuffle = parameters.get("shuffle", 1)
        parameters = {"cname": parameters.get("cname", "lz4"), "clevel": parameters.get("clevel", 5),
                      "shuffle": _BLOSC_SHUFFLE_NAMES.get(shuffle, shuffle),
                      "blocksize": parameters.get("blocksize", 0)}
    elif codec_id == "zstd":
        parameters = {"level": parameters.get("level", 1), "checksum": parameters.get("checksum", False)}
    elif codec_id == "gzip":
        parameters = {"level": parameters.get("level", 1)}
    elif codec_id == "crc32c":
        parameters = {}
    return {"name": codec_id, "configuration": parameters}


def _v2_of(v3):
    """The numcodecs form of a v3 configuration, or None for the v3-only codecs."""
    name = v3["name"]
    parameters = dict(v3.get("configuration") or {})
    if name.startswith("numcodecs."):
        return {"id": name[len("numcodecs."):], **parameters}
    if name in _V3_ONLY:
        return None
    if name == "blosc":
        shuffle = {v: k for k, v in _BLOSC_SHUFFLE_NAMES.items()}.get(parameters.get("shuffle"), 1)
        return {"id": "blosc", "cname": parameters.get("cname", "zstd"), "clevel": parameters.get("clevel", 5),
                "shuffle": shuffle, "blocksize": parameters.get("blocksize", 0)}
    if name == "zstd":
        config = {"id": "zstd", "level": parameters.get("level", 0)}
        if parameters.get("checksum"):
            config["checksum"] = True
        return config
    return {"id": name, **parameters}


def get_codec(config):
    """A Codec from a configuration in either form (numcodecs' get_codec)."""
    config = dict(config)
    cls = _CLASSES.get(config.get("id")) or _V3_CLASSES.get(config.get("name"), Codec)
    codec = Codec.__new__(cls)
    Codec.__init__(codec, config)
    return codec


def as_codec(value):
    """A Codec for what users pass: a Codec, a numcodecs or zarr-python 3 codec, or a dict."""
    if isinstance(value, Codec):
        return value
    if isinstance(value, dict):
        return get_codec(value)
    if hasattr(value, "get_config"):   # numcodecs
        return get_codec(value.get_config())
    if hasattr(value, "to_dict"):      # zarr-python 3
        return get_codec(value.to_dict())
    raise TypeError(f"not a codec: {value!r} (give a numcodecs or libzarr.codecs codec, or a dict)")


# -- numcodecs' names ------------------------------------------------------------

def _v2_codec(codec_id, **parameters):
    return {"id": codec_id, **{k: v for k, v in parameters.items() if v is not _OMIT}}


_OMIT = object()


class Blosc(Codec):
    """numcodecs.Blosc: cname "lz4", "zstd", "blosclz", "lz4hc", "zlib", "snappy"."""

    NOSHUFFLE, SHUFFLE, BITSHUFFLE, AUTOSHUFFLE = 0, 1, 2, -1

    def __init__(self, cname="lz4", clevel=5, shuffle=SHUFFLE, blocksize=0):
        super().__init__(_v2_codec("blosc", cname=cname, clevel=clevel, shuffle=shuffle, blocksize=blocksize))


class Zstd(Codec):
    def __init__(self, level=1, checksum=False):
        super().__init__(_v2_codec("zstd", level=level, checksum=checksum or _OMIT))


class Zlib(Codec):
    def __init__(self, level=1):
        super().__init__(_v2_codec("zlib", level=level))


class GZip(Codec):
    def __init__(self, level=1):
        super().__init__(_v2_codec("gzip", level=level))


class BZ2(Codec):
    def __init__(self, level=1):
        super().__init__(_v2_codec("bz2", level=level))


class LZMA(Codec):
    def __init__(self, format=1, check=-1, preset=None, filters=None):  # noqa: A002  (numcodecs' name)
        super().__init__(_v2_codec("lzma", format=format, check=check, preset=preset, filters=filters))


class LZ4(Codec):
    def __init__(self, acceleration=1):
        super().__init__(_v2_codec("lz4", acceleration=acceleration))


class ZFPY(Codec):
    """numcodecs.ZFPY: mode 2 (fixed rate), 3 (fixed precision) or 4 (fixed accuracy,
    the default), with its parameter; written as numcodecs 0.11 writes it."""

    def __init__(self, mode=4, tolerance=-1, rate=-1, precision=-1):
        parameter = {2: {"rate": rate}, 3: {"precision": precision}, 4: {"tolerance": tolerance}}.get(mode, {})
        super().__init__(_v2_codec("zfpy", mode=mode, compression_kwargs=parameter, tolerance=tolerance, rate=rate,
                                   precision=precision))


class Delta(Codec):
    def __init__(self, dtype, astype=None):
        super().__init__(_v2_codec("delta", dtype=_typestr(dtype), astype=_typestr(astype or dtype)))


class FixedScaleOffset(Codec):
    def __init__(self, offset, scale, dtype, astype=None):
        super().__init__(_v2_codec("fixedscaleoffset", offset=offset, scale=scale, dtype=_typestr(dtype),
                                   astype=_typestr(astype or dtype)))


class Quantize(Codec):
    def __init__(self, digits, dtype, astype=None):
        super().__init__(_v2_codec("quantize", digits=digits, dtype=_typestr(dtype),
                                   astype=_typestr(astype or dtype)))


class BitRound(Codec):
    def __init__(self, keepbits):
        super().__init__(_v2_codec("bitround", keepbits=keepbits))


class AsType(Codec):
    def __init__(self, encode_dtype, decode_dtype):
        super().__init__(_v2_codec("astype", encode_dtype=_typestr(encode_dtype),
                                   decode_dtype=_typestr(decode_dtype)))


class PackBits(Codec):
    def __init__(self):
        super().__init__({"id": "packbits"})


class Categorize(Codec):
    def __init__(self, labels, dtype, astype="u1"):
        super().__init__(_v2_codec("categorize", labels=list(labels), dtype=_typestr(dtype),
                                   astype=_typestr(astype)))


class Shuffle(Codec):
    def __init__(self, elementsize=4):
        super().__init__(_v2_codec("shuffle", elementsize=elementsize))


class CRC32(Codec):
    def __init__(self):
        super().__init__({"id": "crc32"})


class CRC32C(Codec):
    def __init__(self):
        super().__init__({"id": "crc32c"})


class Adler32(Codec):
    def __init__(self):
        super().__init__({"id": "adler32"})


class Fletcher32(Codec):
    def __init__(self):
        super().__init__({"id": "fletcher32"})


class VLenUTF8(Codec):
    """The object codec of string arrays (zarr-python 2's ``object_codec``)."""

    def __init__(self):
        super().__init__({"id": "vlen-utf8"})


class VLenBytes(Codec):
    """The object codec of bytes arrays."""

    def __init__(self):
        super().__init__({"id": "vlen-bytes"})


class JSON(Codec):
    """numcodecs.JSON (id "json2"): libzarr stores strings with it (docs/dtypes.md)."""

    def __init__(self, encoding="utf-8", skipkeys=False, ensure_ascii=True, check_circular=True,
                 allow_nan=True, sort_keys=True, indent=None, separators=None, strict=True):
        separators = separators or ((",", ":") if indent is None else (",", ": "))
        super().__init__({"id": "json2", "encoding": encoding, "skipkeys": skipkeys,
                          "ensure_ascii": ensure_ascii, "check_circular": check_circular,
                          "allow_nan": allow_nan, "sort_keys": sort_keys, "indent": indent,
                          "separators": list(separators), "strict": strict})


def _typestr(dtype):
    import numpy  # here: the module's namespace keeps no NumPy name
    return None if dtype is None else numpy.dtype(dtype).str


# -- zarr-python 3's names --------------------------------------------------------

class _Names:
    """Enum-like constants whose members are their own names (BloscShuffle.shuffle == "shuffle")."""

    def __init_subclass__(cls):
        for name in cls._members:
            setattr(cls, name, name)


class BloscShuffle(_Names):
    _members = ("noshuffle", "shuffle", "bitshuffle")


class BloscCname(_Names):
    _members = ("lz4", "lz4hc", "blosclz", "zstd", "snappy", "zlib")


class Endian(_Names):
    _members = ("little", "big")


class ShardingCodecIndexLocation(_Names):
    _members = ("start", "end")


def _v3_codec(name, **configuration):
    return {"name": name, "configuration": {k: v for k, v in configuration.items() if v is not None}}


class BloscCodec(Codec):
    """zarr-python 3's BloscCodec; typesize and shuffle left out are set from the array's data type."""

    def __init__(self, typesize=None, cname="zstd", clevel=5, shuffle=None, blocksize=0):
        super().__init__(_v3_codec("blosc", typesize=typesize, cname=str(cname), clevel=clevel,
                                   shuffle=None if shuffle is None else str(shuffle), blocksize=blocksize))


class ZstdCodec(Codec):
    def __init__(self, level=0, checksum=False):
        super().__init__(_v3_codec("zstd", level=level, checksum=checksum))


class GzipCodec(Codec):
    def __init__(self, level=5):
        super().__init__(_v3_codec("gzip", level=level))


class BytesCodec(Codec):
    """The v3 serializer of fixed-size elements; endian None for one-byte types."""

    def __init__(self, endian="little"):
        super().__init__(_v3_codec("bytes", endian=None if endian is None else str(endian)))


class TransposeCodec(Codec):
    def __init__(self, order):
        super().__init__(_v3_codec("transpose", order=list(order)))


class Crc32cCodec(Codec):
    def __init__(self):
        super().__init__({"name": "crc32c", "configuration": {}})


class VLenUTF8Codec(Codec):
    def __init__(self):
        super().__init__({"name": "vlen-utf8", "configuration": {}})


class VLenBytesCodec(Codec):
    def __init__(self):
        super().__init__({"name": "vlen-bytes", "configuration": {}})


class ShardingCodec(Codec):
    """Chunks of chunk_shape stored together in shards (zarr-python 3's ShardingCodec)."""

    def __init__(self, chunk_shape, codecs=None, index_codecs=None, index_location="end"):
        codecs = [BytesCodec()] if codecs is None else codecs
        index_codecs = [BytesCodec(), Crc32cCodec()] if index_codecs is None else index_codecs
        super().__init__(_v3_codec(
            "sharding_indexed", chunk_shape=list(chunk_shape),
            codecs=[as_codec(c).to_dict() for c in codecs],
            index_codecs=[as_codec(c).to_dict() for c in index_codecs], index_location=str(index_location)))


_CLASSES = {"blosc": Blosc, "zstd": Zstd, "zlib": Zlib, "gzip": GZip, "bz2": BZ2, "lzma": LZMA,
            "lz4": LZ4, "delta": Delta, "fixedscaleoffset": FixedScaleOffset, "quantize": Quantize,
            "bitround": BitRound, "astype": AsType, "packbits": PackBits, "categorize": Categorize,
            "shuffle": Shuffle, "crc32": CRC32, "crc32c": CRC32C, "adler32": Adler32,
            "fletcher32": Fletcher32, "vlen-utf8": VLenUTF8, "vlen-bytes": VLenBytes, "json2": JSON,
            "zfpy": ZFPY}
_CLASS_NAMES = {codec_id: cls.__name__ for codec_id, cls in _CLASSES.items()}
_V3_CLASSES = {"bytes": BytesCodec, "transpose": TransposeCodec, "sharding_indexed": ShardingCodec}
_V3_CLASS_NAMES = {"bytes": "BytesCodec", "transpose": "TransposeCodec",
                   "sharding_indexed": "ShardingCodec", "blosc": "BloscCodec", "zstd": "ZstdCodec",
                   "gzip": "GzipCodec", "crc32c": "Crc32cCodec", "vlen-utf8": "VLenUTF8Codec",
                   "vlen-bytes": "VLenBytesCodec"}
