"""The life of a C handle shared by Array and Group: close once, refuse use after."""
from .errors import InvalidArgumentError


class Handle:
    """Owns a C handle; subclasses name their kind and the C close function."""

    _kind = "handle"  # "array" / "group", for messages

    @staticmethod
    def _close_handle(handle):
        raise NotImplementedError

    @property
    def _live(self):
        """The handle; InvalidArgumentError once closed."""
        if not self._handle:
            raise InvalidArgumentError(f"{self._kind} {self.url} is closed")
        return self._handle

    def close(self):
        """Close the handle. Further use raises InvalidArgumentError; closing twice is fine."""
        handle, self._handle = self._handle, None
        if handle:
            self._close_handle(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", None):
            self.close()
