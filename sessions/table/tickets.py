"""Tickets: a live fetch's shortcut past the full check of who asks.

A fetch checked in full reads the Django session, the member or the phone's device and its
night (a dozen milliseconds of ORM on every fetch of every device). Its answer carries a
**ticket**: what that check found, signed, bound to the browser's session cookie, for one
path and for TICKET_SECONDS. A fetch that sends it back while the night's revision is the
one it names (no seat, code or session of the night changed meanwhile) reads the versions
from the cache (one small query when the cache lost them): the ticket gives the ETag's other
parts, so a 304 or a kept render is answered without the session, the user or the device.
A phone's ticket also names its device, so that a new version is rendered for it without
the Django session and the search of the night's devices that found it. Anything else (no
ticket, another cookie or path, an old ticket, a changed night) goes the full way and gets a
new one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import connection
from django.http import HttpRequest
from django.utils.translation import get_language

from sessions.models import GameNight, GameSession
from sessions.table import keys
from sessions.table.shown import Shown, region_version


@dataclass(frozen=True)
class Ticket:
    """A ticket a fetch sent back that still holds: what the full check found then, and the
    versions now."""

    sent: str
    shown: Shown
    rest: list[str]
    device_id: int | None  # a phone's device, else None

    @property
    def hints(self) -> bool:
        """Whether the view had the hints on when the ticket was given (a part of its ETag;
        switching them answers the region without a ticket, so the next fetch gets a new one)."""
        return "hints=True" in self.rest


def held_ticket(request: HttpRequest) -> Ticket | None:
    """The fetch's ticket, if it still holds (this browser, this path, within TICKET_SECONDS,
    the night's revision unchanged), else None: the fetch is then checked in full."""
    sent = request.headers.get(TICKET_HEADER, "")
    cookie = _cookie_of(request)
    if not sent or cookie is None:
        return None
    try:
        ticket = _signer().unsign_object(sent, max_age=TICKET_SECONDS)
    except signing.BadSignature:  # tampered with, or older than TICKET_SECONDS
        return None
    rest = ticket["rest"]
    asked = (request.path, cookie, [get_language(), request.GET.urlencode()])
    if (ticket["path"], ticket["cookie"], rest[:2]) != asked:
        return None
    ahead = _read_ahead(request, ticket)
    shown = _shown_now(ticket["session"], ticket["night"], ahead)
    if shown is None or shown.revision != ticket["revision"]:  # a seat, a code or a session changed
        return None
    return Ticket(sent=sent, shown=shown, rest=rest, device_id=ticket.get("device"))


# A ticket is only a shortcut past checks that a change of the night's seats, codes or sessions
# makes again at once; what the revision does not follow (a member leaving the group, a code
# expiring hours after the night's last game) takes effect within this many seconds.
TICKET_SECONDS = 60
TICKET_HEADER = "Babel-Live-Ticket"


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt="sessions.table.live.ticket")


def _cookie_of(request: HttpRequest) -> str | None:
    """The browser's session cookie, hashed (a ticket never carries the cookie itself)."""
    cookie = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    return hashlib.sha256(cookie.encode()).hexdigest()[:32] if cookie else None


def ticket_for(request: HttpRequest, shown: Shown, rest: list[str], device_id: int | None) -> str | None:
    """A ticket for the fetch that asked: what its full check found (``shown``, the ETag's other
    parts ``rest``, a phone's ``device_id``), bound to its browser and path; None for a browser
    whose session this very request began (its next fetch gets one)."""
    cookie = _cookie_of(request)
    if cookie is None:
        return None
    ticket = {
        "path": request.path,
        "cookie": cookie,
        "session": shown.session_id,
        "night": shown.night_id,
        "revision": shown.revision,
        "rest": rest,
        "device": device_id,
    }
    return _signer().sign_object(ticket, compress=True)


def _shown_now(session_id: int | None, night_id: int, ahead: list[str]) -> Shown | None:
    """The versions as they are now: from the cache, which ``services`` writes them to (and
    ``ahead`` in the same round trip), else in one small query."""
    if session_id is None:  # a phone waiting for a game: only the night's revision
        return shown_in_database(None, night_id)
    cached = keys.versions_now(session_id, ahead=ahead)
    if cached is not None:
        return Shown(session_id, night_id, *cached)
    shown = shown_in_database(session_id, night_id)
    if shown is not None:
        keys.keep_versions(session_id, shown.session_version, shown.revision)
    return shown


def _read_ahead(request: HttpRequest, ticket: dict[str, Any]) -> list[str]:
    """What a fetch on ``ticket`` will read of the version after the one its device shows (the
    one a push just told of), if it must render it: the keys of its render, of the session at
    that version and of the log told up to it; a members' region, its night's phones; a phone,
    its device, the night's seats on phones, the last move and the board of its view."""
    shows = _version_shown(request)
    session_id = ticket["session"]
    if shows is None or session_id is None:
        return []
    version, night_id, revision, rest = shows + 1, ticket["night"], ticket["revision"], ticket["rest"]
    language, varies = rest[0], dict(part.split("=", 1) for part in rest[2:])
    ahead = [
        keys.moved_session(session_id, version),
        keys.shown_session(session_id, version),
        keys.shown_session(session_id, version - 1),
        keys.recorded_event(session_id, version),
        keys.told_log(session_id, version - 1, language),
    ]
    if shared(rest):
        etag = etag_of(region_version(version, revision), rest)
        ahead.append(keys.render(request.get_host(), request.path, etag))
    if varies.get("viewer") == "member":
        return [*ahead, keys.told_log(session_id, version, language), keys.host_phones(session_id, revision)]
    if ticket.get("device") is not None:
        ahead.append(keys.ticket_device(ticket["device"], night_id, revision))
    board = keys.board(
        session_id,
        version,
        language,
        viewer=varies.get("viewer", ""),
        code=varies.get("code", ""),
        hints=varies.get("hints") == "True",
        variant="",
    )
    return [*ahead, keys.night_phones(night_id, revision), keys.last_move(session_id, version, language), board]


def _version_shown(request: HttpRequest) -> int | None:
    """The session's version in the ETag the fetch sent (its device shows it), if any."""
    sent = request.headers.get("If-None-Match", "").split(",")[0].strip().removeprefix("W/").strip('"')
    version = sent.split(".", 1)[0]
    return int(version) if version.isdigit() else None


def shared(rest: list[str]) -> bool:
    """Whether other devices may get a render with these ETag parts: not when it names a
    device (a seated phone's region shows its seat's secrets)."""
    return not any(part.startswith("device=") and part != "device=" for part in rest)


def etag_of(version: str, rest: list[str]) -> str:
    """The ETag of a region at ``version`` (``Shown.version``) with its other parts ``rest``."""
    return '"' + "-".join([version, *rest]).replace('"', "") + '"'


def shown_in_database(session_id: int | None, night_id: int) -> Shown | None:
    """What a region of the session (none: a phone waiting for a game) of the night shows now,
    or None when it is gone. One small query, written out: building it with the ORM took
    longer than running it."""
    night, session = GameNight._meta.db_table, GameSession._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT n.live_revision, s.version FROM {night} n "  # the models' own table names
            f"LEFT JOIN {session} s ON s.id = %s AND s.night_id = n.id WHERE n.id = %s",
            [session_id, night_id],
        )
        found = cursor.fetchone()
    if found is None or (session_id is not None and found[1] is None):  # gone since
        return None
    revision, version = found
    return Shown(session_id, night_id, version or 0, revision)
