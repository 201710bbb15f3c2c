"""The life of a C handle shared by Array and Group.

No Python-level operation may crash the interpreter, so:

- every call into the library goes through ``_using()``, which hands out the
  handle only while it is open and counts the calls in flight; ``close()``
  refuses new calls, waits for those in flight, then closes the handle once.
  A closed handle raises InvalidArgumentError, whatever thread uses it;
- a handle pickles as what reopens it (its Location: URL, mode, options),
  never as the C pointer; copy.copy and copy.deepcopy reopen it. A node in a
  ``memory://`` store (however it was named: MemoryStore, a "memory://" URL, a
  spec) exists in this process only: pickling it is a TypeError, and so is a
  deep copy (a reopened handle would share its data, not copy it); copy.copy
  gives another handle on the same data.
"""
import atexit
import sys
import threading
from contextlib import contextmanager

from .errors import InvalidArgumentError
from .storage import HandleSet, Store, join_path, shown_url


class Location:
    """Where a node is and how it was opened: enough to open it again.

    Attributes:
        store: the Store the node was reached through.
        path: the node's path below the store's root ("" for the root).
        mode: "r" or "r+", what the handle may do.
        options: the library options the handle was opened with (a dict).
        spec: the TensorStore spec, for arrays opened by libzarr.open_spec().
    """

    def __init__(self, store, path="", mode="r", options=None, spec=None):
        self.store = store
        self.path = path.strip("/")
        self.mode = mode
        self.options = dict(options or {})
        self.spec = spec

    @property
    def url(self):
        return self.store.url_of(self.path)

    def child(self, path, mode=None, options=None):
        """The Location of a node below this one."""
        return Location(self.store, join_path(self.path, path), mode or self.mode,
                        self.options if options is None else options)

    def reopen_arguments(self, kind):
        """What _reopen takes to open this node again elsewhere; TypeError when it cannot."""
        if not self.store.shareable:
            raise TypeError(
                f"cannot pickle libzarr.{kind.capitalize()} {shown_url(self.url)!r}: a memory:// store exists "
                "in this process only. Write it to a file, zip or S3 store (or read it into "
                "NumPy) to hand it to another process")
        if "|zip:" in self.store.url and self.mode != "r":
            raise TypeError(
                f"cannot pickle libzarr.{kind.capitalize()} {shown_url(self.url)!r} opened for writing: a zip "
                "archive is written by the one process that holds it, when its last handle closes (another "
                "process would find it missing or stale, and its writes would replace this one's). Write "
                "it with a folder store, or close the archive and hand over a read-only handle (mode='r')")
        return (kind, self.store.url, self.path, self.mode, self.options, self.spec)

    def check_reopenable(self, kind):
        """TypeError for a node no other handle can reach (an anonymous memory store)."""
        if not self.store.reopenable:
            raise TypeError(f"cannot copy libzarr.{kind.capitalize()} {shown_url(self.url)!r}: its anonymous "
                            "memory store is reached by this handle only (give the memory kvstore a path "
                            "to name it)")

    def check_deep_copyable(self, kind):
        """TypeError for a node of a memory:// store: its deep copy would need the store's
        bytes duplicated, and a handle reopened on the same store would share them."""
        if not self.store.shareable:
            raise TypeError(
                f"cannot deep-copy libzarr.{kind.capitalize()} {shown_url(self.url)!r}: it lives in a "
                "memory:// store, whose data a new handle would share, not copy. Use copy.copy() for "
                "another handle on the same data, or libzarr.copy_store / copy_all to duplicate it")


def _reopen(kind, store_url, path, mode, options, spec):
    """Open a node from what Handle.__reduce__ recorded (unpickling)."""
    return reopen_location(kind, Location(Store(store_url), path, mode, options, spec))


def reopen_location(kind, location):
    """A new handle on the node at location (import here: _api builds on this module)."""
    from . import _api
    return _api.open_location(kind, location)


# The addresses of the C handles a Handle owns: one owner each.
_owned = set()
_owned_lock = threading.Lock()

# Every handle still open: closed at interpreter exit (close_all_at_exit).
_open_handles = HandleSet()


def close_all_at_exit():
    """Close every handle still open, so that what they wrote is flushed (a zip archive is
    written when its last handle closes) while the interpreter and the library are whole.

    Garbage collection at exit does not close them all: a handle a daemon thread holds,
    or one found after the modules' globals are cleared, was never closed and its zip
    archive never written. Non-daemon threads have ended when atexit runs; a daemon
    thread in a call is waited for, and its next call raises "closed". A failure (a zip
    archive that cannot be written) is reported on stderr, not raised.
    """
    for handle in list(_open_handles):
        try:
            handle.close()
        except Exception as error:  # noqa: BLE001  (report every failure, close the others)
            print(f"libzarr: closing {handle!r} at exit failed: {error}", file=sys.stderr)


atexit.register(close_all_at_exit)


class Handle:
    """Owns a C handle; subclasses name their kind and the C close function."""

    _kind = "handle"  # "array" / "group", for messages

    @staticmethod
    def _close_handle(handle):
        raise NotImplementedError

    _handle_type = None  # the ctypes type of the C handle: ArrayHandle / GroupHandle

    def _adopt(self, handle, location):
        """Take ownership of an open C handle reached at location.

        Only a handle of the C API's own type, opened (not null), is taken: a number or
        None given to Array(...) or Group(...) reached the library as a pointer and
        crashed the interpreter.
        """
        if not isinstance(handle, self._handle_type) or not handle.value:
            raise TypeError(f"libzarr.{self._kind.capitalize()}() wraps an open {self._handle_type.__name__} of "
                            f"the C API, not {handle!r}: open nodes with libzarr.open(), open_array(), "
                            "open_group() or create them with create(), group()...")
        with _owned_lock:
            if handle.value in _owned:  # a second owner would close it twice: a double free
                raise TypeError(f"libzarr.{self._kind.capitalize()}(): {handle!r} belongs to another "
                                f"{self._kind} already (copy.copy() gives another handle)")
            if isinstance(location, Location):
                _owned.add(handle.value)
        if not isinstance(location, Location):
            raise TypeError(f"libzarr.{self._kind.capitalize()}(): location must be a Location, "
                            f"not {type(location).__name__}")
        self._handle = handle
        self._location = location
        self._calls_in_flight = 0
        self._idle = threading.Condition(threading.Lock())
        self._closing = False
        _open_handles.add(self)
        location.store._track(self)

    @property
    def url(self):
        """The URL the node was opened at."""
        return self._location.url

    @property
    def mode(self):
        """"r" (read only) or "r+" (read and write)."""
        return self._location.mode

    @property
    def read_only(self):
        """True when the node was opened in mode "r"."""
        return self._location.mode == "r"

    @contextmanager
    def _using(self):
        """The open C handle, for the duration of one or more C calls."""
        with self._idle:
            if self._closing or not self._handle:
                raise InvalidArgumentError(f"{self._kind} {shown_url(self.url)} is closed")
            self._calls_in_flight += 1
        try:
            yield self._handle
        finally:
            with self._idle:
                self._calls_in_flight -= 1
                if self._calls_in_flight == 0:
                    self._idle.notify_all()

    def _call(self, function, *arguments):
        """function(handle, *arguments) with the handle checked to be open."""
        with self._using() as handle:
            return function(handle, *arguments)

    def _json(self, function, *arguments):
        """The parsed JSON that function(handle, *arguments, &json_out) gives (the string freed)."""
        from ._capi import take_json
        with self._using() as handle:
            return take_json(function, handle, *arguments)

    @property
    def closed(self):
        """True once close() was called."""
        return getattr(self, "_closing", True) or not self._handle

    def close(self):
        """Close the handle, after any call other threads are making through it.

        Further use raises InvalidArgumentError; closing twice is fine. A zip
        archive is written when its last handle closes: a failure then raises
        StoreError here.
        """
        idle = getattr(self, "_idle", None)
        if idle is None:
            return  # __init__ failed before the handle was adopted
        with idle:
            if self._closing:
                return
            self._closing = True
            while self._calls_in_flight:
                idle.wait()
            handle, self._handle = self._handle, None
        _open_handles.discard(self)
        if handle:
            with _owned_lock:
                _owned.discard(handle.value)
            self._close_handle(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001  (interpreter shutdown, a failed zip write)
            pass

    # -- pickling and copying: reopen, never copy the C pointer ---------------------

    def _reopen(self, keep_store=True):
        """A new handle on the same node, with the same mode and options."""
        location = self._location
        if not keep_store:  # a plain URL store: no reference back to the store object
            location = Location(Store(location.store.url), location.path, location.mode,
                                location.options, location.spec)
        return reopen_location(self._kind, location)

    def __reduce__(self):
        return (_reopen, self._location.reopen_arguments(self._kind))

    def __copy__(self):
        self._location.check_reopenable(self._kind)
        return self._reopen()

    def __deepcopy__(self, memo):
        self._location.check_reopenable(self._kind)
        self._location.check_deep_copyable(self._kind)
        return self._reopen()
