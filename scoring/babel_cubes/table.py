"""The solved game on disk: every position reachable from the opening with its exact value,
written once per machine and read by every process through a memory map, so no server
process solves the game again (about 0.7 s and 10 MB each) and the pages are shared.

The file: ``MAGIC``, the entry count (8 bytes), the sorted keys (8 bytes each, the solver's
memo keys), then one byte per key (its value + 1). Native byte order: the file is built on
the machine that reads it, and ``MAGIC`` holds a known number to refuse one that was not.
"""

from __future__ import annotations

import mmap
import os
import struct
import tempfile
from array import array
from bisect import bisect_left
from collections.abc import Mapping
from pathlib import Path

MAGIC = b"BCT1" + struct.pack("=I", 0x01020304)
HEAD = struct.Struct("=8sQ")


class UnreadableTable(Exception):
    """Not a table of this format and byte order (a partial or foreign file)."""


def write_table(path: Path, memo: Mapping[int, int]) -> None:
    """The memo as a table file, written whole beside ``path`` and then renamed onto it, so a
    reader never sees half a file and two processes writing at once leave one whole file."""
    keys = array("Q", sorted(memo))
    values = bytes(memo[key] + 1 for key in keys)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(HEAD.pack(MAGIC, len(keys)))
            out.write(keys.tobytes())
            out.write(values)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class SolvedTable:
    """Lookups in a table file, memory-mapped read-only (the OS shares its pages)."""

    def __init__(self, path: Path) -> None:
        with path.open("rb") as source:
            self._map = mmap.mmap(source.fileno(), 0, access=mmap.ACCESS_READ)
        if len(self._map) < HEAD.size:
            raise UnreadableTable(path)
        magic, count = HEAD.unpack_from(self._map)
        if magic != MAGIC or len(self._map) != HEAD.size + 9 * count:
            raise UnreadableTable(path)
        view = memoryview(self._map)
        self._keys = view[HEAD.size : HEAD.size + 8 * count].cast("Q")
        self._values = view[HEAD.size + 8 * count :]
        self.count = count

    def get(self, key: int) -> int | None:
        """The value stored for ``key`` (-1, 0 or 1), or None."""
        index = bisect_left(self._keys, key)  # a memoryview of "Q" is a sequence of ints
        if index < self.count and self._keys[index] == key:
            return int(self._values[index]) - 1
        return None
