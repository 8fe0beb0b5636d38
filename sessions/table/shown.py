"""What a live region shows, in plain values: below everything that reads or renders it."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.engine import Standing
from sessions.models import Seat


@dataclass(frozen=True)
class Shown:
    """What a live region shows the version of: a session (none for a phone that waits for
    one) of a night, at its version and the night's revision."""

    session_id: int | None
    night_id: int
    session_version: int
    revision: int

    @property
    def version(self) -> str:
        return region_version(self.session_version, self.revision)


def region_version(version: int, revision: int) -> str:
    """What a device compares to know whether its region is current: the session's version,
    then the night's revision (join codes and the phones' seats, which are not events).
    static/js/app.js reads the part before the dot as the session's version."""
    return f"{version}.{revision}"


@dataclass(frozen=True)
class Row:
    """A seat of a session and its standing so far (none before anything is scored)."""

    seat: Seat
    standing: Standing | None
