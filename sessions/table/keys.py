"""Every key the live table keeps in the cache, with its lifetime, and the named operations a
write calls instead of setting keys itself (``version_written``, ``session_moved``,
``night_changed``).

A key is only a shortcut: each value can be read again from the database, and a cache that
does not answer costs a recomputation, never a wrong page (``sessions.caching``). A key names
everything its value depends on (a version, a night's revision, a language), so a value is
never stale: a new version or revision is read under a new key, and the old ones expire.
"""

from __future__ import annotations

import hashlib
from typing import Any

from sessions import caching

# The session's version and its night's revision, which a fetch's ticket is checked against.
# The version is written under the session's row lock before each commit, so a later write
# always overwrites an earlier one and a read of the database that lost a race (``add``) never
# replaces it; a write the cache did not take is outdated at most this long.
VERSION_SECONDS = 15
REVISION_SECONDS = 10


def session_version(session_id: int) -> str:
    return f"session-version:{session_id}"


def night_revision(session_id: int) -> str:
    """The revision of the session's night (join codes, the phones' seats, the night's games)."""
    return f"night-revision-of-session:{session_id}"


# What each version of a session shows, read by every screen of its table after a move.
SHOWN_SESSION_SECONDS = 30
# A version's sentences never change; kept long enough for every device of a table to read
# them after a move, and for the next move to start from them.
SENTENCES_SECONDS = 300


def moved_session(session_id: int, version: int) -> str:
    """What a move changed of the session (``selectors.MOVED_FIELDS``)."""
    return f"moved-session:{session_id}:{version}"


def shown_session(session_id: int, version: int | None) -> str:
    # Not "live-session:", whose value was the session alone: an old server must not read a new one's.
    return f"shown-session:{session_id}:{version}"


def recorded_event(session_id: int, seq: int) -> str:
    return f"recorded-event:{session_id}:{seq}"


def told_log(session_id: int, version: int, language: str) -> str:
    # Not "event-words:", the key of a release whose Told had no log lines: an old server's
    # Told must not be read by a new one during a deployment.
    return f"told-log:{session_id}:{version}:{language}"


def last_move(session_id: int, version: int, language: str) -> str:
    return f"last-move:{session_id}:{version}:{language}"


# What is kept per night revision (a device, the night's seats on phones) is right for as long
# as it is kept; it is kept for a ticket's lifetime (``sessions.table.live.TICKET_SECONDS``).
NIGHT_REVISION_SECONDS = 60


def ticket_device(device_id: int, night_id: int, revision: int) -> str:
    return f"ticket-device:{device_id}:{night_id}:{revision}"


def night_phones(night_id: int, revision: int) -> str:
    return f"night-phones:{night_id}:{revision}"


def host_phones(session_id: int, revision: int) -> str:
    return f"host-phones:{session_id}:{revision}"


# Every device of a table fetches a version within a second or two of its push; a version is
# never rendered differently later, so keeping it costs only the cache's memory: compressed,
# about 3 kB a render (a host region of 14 kB), at most RENDER_SECONDS of renders.
RENDER_SECONDS = 30


def render(host: str, path: str, etag: str) -> str:
    """A live region's render, shared by the devices that send the same ETag."""
    return "live-render:" + hashlib.sha256(f"{host} {path} {etag}".encode()).hexdigest()


def board(view: list[Any]) -> str:
    """A board's render, shared by the phones (or the table displays) of one view."""
    return "live-board:" + hashlib.sha256(repr(view).encode()).hexdigest()


def version_written(session_id: int, version: int) -> None:
    """A move's new version, written before its commit, under the session's row lock."""
    caching.set_value(session_version(session_id), version, timeout=VERSION_SECONDS)


def session_moved(session_id: int, version: int, *, moved: dict[str, Any], recorded: Any) -> None:
    """Once a move is committed: what it changed of the session and its event, for the first
    screen of the version (one round trip)."""
    kept = {moved_session(session_id, version): moved, recorded_event(session_id, version): recorded}
    caching.set_many(kept, timeout=VERSION_SECONDS)


def night_changed(session_ids: list[int]) -> None:
    """Something the night's live regions show changed (a code, a seat, a game): the cached
    revisions of its sessions are dropped (a cache that is down: they expire)."""
    caching.delete_many(night_revision(pk) for pk in session_ids)


def keep_night_revision(session_id: int, revision: int) -> None:
    """The revision of the session's night just read from the database; ``add``, not set: a
    change that dropped the key meanwhile must win over this older read."""
    caching.add(night_revision(session_id), revision, timeout=REVISION_SECONDS)


def keep_versions(session_id: int, version: int, revision: int) -> None:
    """The versions just read from the database (``add``: a write meanwhile wins)."""
    caching.add(session_version(session_id), version, timeout=VERSION_SECONDS)
    keep_night_revision(session_id, revision)


def versions_now(session_id: int) -> tuple[int, int] | None:
    """(the session's version, its night's revision) from the cache, in one round trip; None
    when it has lost either."""
    version_key, revision_key = session_version(session_id), night_revision(session_id)
    cached = caching.get_many([version_key, revision_key])
    if len(cached) != 2:
        return None
    return cached[version_key], cached[revision_key]
