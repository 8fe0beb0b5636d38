"""Every key the live table keeps in the cache, with its lifetime, and the named operations
that read and write them: a write calls ``session_moved`` or ``night_changed``, a read
``kept``, never the cache itself.

A key is only a shortcut: each value can be read again from the database, and a cache that
does not answer costs a recomputation, never a wrong page (``sessions.caching``). A key names
everything its value depends on (a version, a night's revision, a language), so a value is
never stale: a new version or revision is read under a new key, and the old ones expire.

Two kinds of key, then. The versions (a session's, its night's revision) change in place, and
every fetch reads them from Redis. Every other value never changes under its key, so:

- each process keeps what it read or wrote of them in its own memory (the "here" cache) for
  the value's lifetime, and reads Redis only for what it does not have;
- a fetch reads, in the one round trip that reads the versions, what it will need of the
  version after the one its device shows (``versions_now``'s ``ahead``): after a move, the
  version it was told of;
- what a request keeps is written in one round trip as it ends (``one_request``).

A move is then two round trips to Redis (its version before its commit, what it changed after),
and a device's fetch of it one, or two for the first device of a view, which renders it and
keeps the render (``bench/redis_round_trips.py``).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache import caches

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
# as it is kept; it is kept for a ticket's lifetime (``sessions.table.tickets.TICKET_SECONDS``).
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


def board(session_id: int, version: int, language: str, *, viewer: str, code: str, hints: bool, variant: str) -> str:
    """A board's render, shared by the phones (or the table displays) of one view: a session's
    board template is its game's, and its game never changes."""
    view = [session_id, version, language, viewer, code, hints, variant]
    return "live-board:" + hashlib.sha256(repr(view).encode()).hexdigest()


def version_written(session_id: int, version: int) -> None:
    """A move's new version, written before its commit, under the session's row lock."""
    caching.set_value(session_version(session_id), version, timeout=VERSION_SECONDS)


def session_moved(session_id: int, version: int, *, moved: dict[str, Any], recorded: Any) -> None:
    """Once a move is committed: what it changed of the session and its event, for the first
    screen of the version: written at once (one round trip), not as the request ends, since the
    news that follows sends every device of the table to read them."""
    keep_many({moved_session(session_id, version): moved, recorded_event(session_id, version): recorded}, at_once=True)


def night_changed(session_ids: list[int]) -> None:
    """Something the night's live regions show changed (a code, a seat, a game): the cached
    revisions of its sessions are dropped (a cache that is down: they expire)."""
    caching.delete_many(night_revision(pk) for pk in session_ids)


def night_revision_now(session_id: int) -> int | None:
    """The revision of the session's night from the cache; None when it has lost it (or does
    not answer): read it again."""
    found = caching.get(night_revision(session_id))
    return None if found is None else int(found)


def keep_night_revision(session_id: int, revision: int) -> None:
    """The revision of the session's night just read from the database; ``add``, not set: a
    change that dropped the key meanwhile must win over this older read."""
    caching.add(night_revision(session_id), revision, timeout=REVISION_SECONDS)


def keep_versions(session_id: int, version: int, revision: int) -> None:
    """The versions just read from the database (``add``: a write meanwhile wins)."""
    caching.add(session_version(session_id), version, timeout=VERSION_SECONDS)
    keep_night_revision(session_id, revision)


def versions_now(session_id: int, *, ahead: Iterable[str] = ()) -> tuple[int, int] | None:
    """(the session's version, its night's revision) from the cache, None when it has lost
    either; in the same round trip, the kept values of ``ahead`` that this process does not
    have (``tickets._read_ahead``)."""
    version_key, revision_key = session_version(session_id), night_revision(session_id)
    asked = [key for key in ahead if not _known(key)]
    cached = caching.get_many([version_key, revision_key, *asked])
    _found(asked, cached)
    if version_key not in cached or revision_key not in cached:
        return None
    return cached[version_key], cached[revision_key]


# --- the kept values: what never changes under its key ----------------------------------------

_LIFETIMES = {
    "moved-session": VERSION_SECONDS,
    "recorded-event": VERSION_SECONDS,
    "shown-session": SHOWN_SESSION_SECONDS,
    "told-log": SENTENCES_SECONDS,
    "last-move": SENTENCES_SECONDS,
    "ticket-device": NIGHT_REVISION_SECONDS,
    "night-phones": NIGHT_REVISION_SECONDS,
    "host-phones": NIGHT_REVISION_SECONDS,
    "live-render": RENDER_SECONDS,
    "live-board": RENDER_SECONDS,
}


def lifetime(key: str) -> int:
    return _LIFETIMES[key.split(":", 1)[0]]


def _here() -> Any:
    """This process's memory of kept values (Django's local-memory cache: thread-safe, each read
    a copy of its own)."""
    return caches["here"]


class _Request(threading.local):
    """What the request of this thread read of Redis (None: not read ahead, or missing) and
    will write as it ends; both None outside a request (a task, a shell)."""

    found: dict[str, Any] | None = None
    writes: dict[str, tuple[Any, int]] | None = None


_request = _Request()


def one_request_middleware(get_response: Any) -> Any:
    """Every request of the site in ``one_request`` (settings.MIDDLEWARE)."""

    def middleware(request: Any) -> Any:
        with one_request():
            return get_response(request)

    return middleware


@contextmanager
def one_request() -> Iterator[None]:
    """A request's reads ahead, and its writes in one round trip as it ends."""
    _request.found, _request.writes = {}, {}
    try:
        yield
    finally:
        writes, _request.found, _request.writes = _request.writes, None, None
        if writes:
            caching.write_each(writes)


def _known(key: str) -> bool:
    """Whether reading ``key`` needs no round trip: this request read it, or this process has it."""
    return (_request.found is not None and key in _request.found) or _here().has_key(key)


def _found(asked: list[str], cached: dict[str, Any]) -> None:
    """What a round trip found of ``asked``, kept here; and, in a request, what it did not find,
    so that it is not asked again."""
    for key in asked:
        value = cached.get(key)
        if value is not None:
            _here().set(key, value, timeout=lifetime(key))
        if _request.found is not None:
            _request.found[key] = value


def kept(key: str) -> Any:
    """The value kept under ``key``, or None."""
    return kept_many([key]).get(key)


def kept_many(asked: Iterable[str]) -> dict[str, Any]:
    """The values kept under ``asked`` (those there are): this process's, then Redis's (one
    round trip for those this request has not read ahead)."""
    found: dict[str, Any] = {}
    missing = []
    for key in asked:
        if _request.found is not None and key in _request.found:
            value = _request.found[key]
        else:
            value = _here().get(key)
            if value is None:
                missing.append(key)
        if value is not None:
            found[key] = value
    if missing:
        cached = caching.get_many(missing)
        _found(missing, cached)
        found.update(cached)
    return found


def keep(key: str, value: Any) -> None:
    """``value`` kept under ``key`` for its lifetime: here at once, in Redis as the request
    ends (at once outside a request)."""
    keep_many({key: value})


def keep_many(values: dict[str, Any], *, at_once: bool = False) -> None:
    """``values`` kept under their keys for their lifetimes: here at once, in Redis as the
    request ends, or at once (``at_once``, or outside a request) in one round trip."""
    entries = {key: (value, lifetime(key)) for key, value in values.items()}
    for key, (value, seconds) in entries.items():
        _here().set(key, value, timeout=seconds)
        if _request.found is not None:
            _request.found[key] = value
    if _request.writes is not None and not at_once:
        _request.writes.update(entries)
    else:
        caching.write_each(entries)
