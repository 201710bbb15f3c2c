"""zarr-python 2's synchronizers, as libzarr's options.

Within one process the library serialises each chunk's read-modify-write
itself, so ThreadSynchronizer has nothing to do. Across processes,
ProcessSynchronizer(path) becomes the ``process_lock_dir`` option: each chunk
write holds an flock(2) on a file under path (docs/scaling.md).
"""

__all__ = ["ThreadSynchronizer", "ProcessSynchronizer"]


class ThreadSynchronizer:
    """Nothing to do: one handle may be written from many threads (each chunk is locked)."""

    def handle_options(self):
        return {}


class ProcessSynchronizer:
    """Chunk writes of several processes on one filesystem, locked through files under path."""

    def __init__(self, path):
        import os
        self.path = os.path.abspath(os.fspath(path))

    def handle_options(self):
        return {"process_lock_dir": self.path}
