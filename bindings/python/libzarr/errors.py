"""Exceptions raised by libzarr: one class per ZARR_ERR_* status code.

Every exception carries the C status code (``code``), its constant name
(``status``, e.g. ``"ZARR_ERR_NOT_FOUND"``) and the library's message
(``message``), which names the key, file or field at fault. Each class also
derives from the built-in exception a Python programmer would catch for that
kind of failure, so ``except FileNotFoundError`` or ``except KeyError`` works
as well as ``except libzarr.NotFoundError``.
"""

# The status codes of zarr.h. Their values never change once released.
ZARR_OK = 0
ZARR_ERR_INVALID_ARGUMENT = -1
ZARR_ERR_NOT_FOUND = -2
ZARR_ERR_EXISTS = -3
ZARR_ERR_INVALID_METADATA = -4
ZARR_ERR_UNSUPPORTED = -5
ZARR_ERR_CODEC = -6
ZARR_ERR_IO = -7
ZARR_ERR_OUT_OF_BOUNDS = -8
ZARR_ERR_READ_ONLY = -9
ZARR_ERR_NO_MEMORY = -10
ZARR_ERR_BUFFER_SIZE = -11
ZARR_ERR_INTERNAL = -12
ZARR_ERR_RANGE = -13


class ZarrError(Exception):
    """Base class of every libzarr failure.

    Attributes:
        code: the negative ZARR_ERR_* status code.
        status: the code's constant name, e.g. ``"ZARR_ERR_NOT_FOUND"``.
        message: what went wrong, as the library (or the binding) put it.
    """

    code = None  # set by each subclass to its ZARR_ERR_* value

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        self.status = status or _STATUS_NAMES.get(self.code, str(self.code))

    def __str__(self):
        # KeyError and OSError format their arguments their own way; keep one form.
        return f"{self.message} [{self.status}]"


class InvalidArgumentError(ZarrError, ValueError):
    """A bad argument: mode, URL, path, number of dimensions, option."""

    code = ZARR_ERR_INVALID_ARGUMENT


class InvalidSelectionError(InvalidArgumentError, IndexError):
    """An index the binding cannot use: a wrong type, too many indices, a bad mask."""


class NotFoundError(ZarrError, KeyError, FileNotFoundError):
    """No array or group at the URL or path (a missing key of a group, too)."""

    code = ZARR_ERR_NOT_FOUND


class ExistsError(ZarrError, FileExistsError, ValueError):
    """Creating a node where one already is (a ValueError too, as zarr-python's
    ContainsArrayError and ContainsGroupError are)."""

    code = ZARR_ERR_EXISTS


class InvalidMetadataError(ZarrError, ValueError):
    """Malformed metadata: bad JSON, wrong JSON types, bad values."""

    code = ZARR_ERR_INVALID_METADATA


class UnsupportedError(ZarrError, NotImplementedError):
    """A codec, data type, store or feature libzarr lacks (named in the message)."""

    code = ZARR_ERR_UNSUPPORTED


class CodecError(ZarrError):
    """A chunk failed to decode (corrupt, truncated) or to encode."""

    code = ZARR_ERR_CODEC


class StoreError(ZarrError, OSError):
    """The store failed to read or write (the file and the reason are named)."""

    code = ZARR_ERR_IO


class OutOfBoundsError(ZarrError, IndexError):
    """An index or region outside the array's shape."""

    code = ZARR_ERR_OUT_OF_BOUNDS


class ReadOnlyError(ZarrError, PermissionError):
    """Writing through an array or group opened read-only."""

    code = ZARR_ERR_READ_ONLY


class NoMemoryError(ZarrError, MemoryError):
    """The library failed to allocate memory."""

    code = ZARR_ERR_NO_MEMORY


class BufferSizeError(ZarrError, ValueError):
    """A buffer handed to the library has the wrong size."""

    code = ZARR_ERR_BUFFER_SIZE


class InternalError(ZarrError):
    """A bug in libzarr: please report it with the message."""

    code = ZARR_ERR_INTERNAL


class RangeError(ZarrError, OverflowError, ValueError):
    """A value does not fit the type it is converted to (300 into uint8, NaN into an integer),
    as NumPy's OverflowError for an out-of-bounds integer and ValueError for NaN."""

    code = ZARR_ERR_RANGE


class CopyError(ExistsError):
    """copy / copy_all met a node at the destination (if_exists="raise"), as zarr-python's CopyError."""


MetadataError = InvalidMetadataError  # zarr-python 2's name
# zarr-python's names in zarr.errors, so that their except clauses catch libzarr's errors.
ContainsArrayError = ContainsGroupError = ExistsError
PathNotFoundError = ArrayNotFoundError = GroupNotFoundError = NotFoundError


_CLASSES = [
    InvalidArgumentError, NotFoundError, ExistsError, InvalidMetadataError,
    UnsupportedError, CodecError, StoreError, OutOfBoundsError, ReadOnlyError,
    NoMemoryError, BufferSizeError, InternalError, RangeError,
]
_CLASS_BY_CODE = {cls.code: cls for cls in _CLASSES}
_STATUS_NAMES = {
    value: name for name, value in globals().items()
    if name.startswith("ZARR_ERR_") and isinstance(value, int)
}


def error_for(code, message, status=None):
    """The exception for a status code; codes newer than this binding give ZarrError."""
    cls = _CLASS_BY_CODE.get(code)
    if cls is None:
        error = ZarrError(message, status)
        error.code = code
        return error
    return cls(message, status)
