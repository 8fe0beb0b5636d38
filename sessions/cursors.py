"""What the cursor pages share, below the API and the pages: the hash that binds a cursor to
the filters of the list that gave it (issue 42, C), so that a cursor sent with other filters
is refused rather than walking another list from the middle."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core import signing


def filters_hash(filters: dict[str, Any]) -> str:
    """A short hash of the filters a list was read with ("" for none, as cursors had before)."""
    if not filters:
        return ""
    canonical = json.dumps(filters, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


class CursorRefused(ValueError):
    """A cursor this list did not give (``changed``), or gave with other filters (``other_filters``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


CHANGED, OTHER_FILTERS = "changed", "other_filters"


def signed_cursor(position: dict[str, Any], *, filters: dict[str, Any], salt: str) -> str:
    """A page's position as a cursor for a page's address: signed, so that a cursor typed or
    changed by hand is refused by name rather than read as some other position, and bound to
    ``filters``."""
    return signing.dumps({"at": position, "f": filters_hash(filters)}, salt=salt, compress=True)


def read_signed_cursor(cursor: str, *, filters: dict[str, Any], salt: str) -> dict[str, Any]:
    """The position a ``signed_cursor`` holds, or ``CursorRefused``."""
    try:
        found = signing.loads(cursor, salt=salt)
    except (signing.BadSignature, ValueError, UnicodeError):
        raise CursorRefused(CHANGED) from None
    if not isinstance(found, dict) or not isinstance(found.get("at"), dict):
        raise CursorRefused(CHANGED)
    if found.get("f") != filters_hash(filters):
        raise CursorRefused(OTHER_FILTERS)
    position: dict[str, Any] = found["at"]
    return position
