"""The live regions that devices fetch again and again: cheap when nothing changed.

The ETag is the session's version (plus what changes the rendering: language, viewer,
the page's own query), so a fetch that finds nothing new costs one small query and answers
304 with no body; only a changed session is loaded in full and rendered, and that render is
kept in the cache under the ETag for the next device that shows the same thing (a second
member's screen, a phone that watches without a seat, a device fetching again): every device
of a view, after a change, costs one render, not one each. What each device must have of its
own, its CSRF token and its forms' idempotency keys, is put in as the body is served. A phone
that holds a seat (whose region shows that seat's secrets) has its device in the ETag, so its
render is never another device's.
"""

from __future__ import annotations

import hashlib
import re
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from scoring import session as core
from scoring.engine import Standing
from sessions import caching
from sessions.boards import HINTS, board_for
from sessions.games import get_game
from sessions.models import GameSession, Seat


def live_response(
    request: HttpRequest, *, version: str, render: Callable[[], HttpResponse], **varies: Any
) -> HttpResponse:
    """``render()``'s answer, or 304 when the device already has this ``version`` of it.

    ``varies`` names what else the rendering depends on (the viewer, its seat, ...).
    """
    parts = [version, get_language(), request.GET.urlencode(), *(f"{k}={v}" for k, v in sorted(varies.items()))]
    etag = '"' + "-".join(str(part) for part in parts).replace('"', "") + '"'
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = _shared_render(request, etag, render)
    response["ETag"] = etag
    # Always revalidate: the browser may keep the body, never reuse it unasked.
    response["Cache-Control"] = "private, no-cache"
    return response


# Every device of a table fetches a version within a second or two of its push; a version is
# never rendered differently later, so keeping it costs only the cache's memory: compressed,
# about 3 kB a render (a host region of 14 kB), at most RENDER_SECONDS of renders.
RENDER_SECONDS = 30
CSRF_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
IDEMPOTENCY_KEY = re.compile(r'(name="idempotency_key" value=")[0-9a-f]{32}(")')


def _shared_render(request: HttpRequest, etag: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """``render()``'s answer, from the cache when a device already had this ETag rendered."""
    key = "live-render:" + hashlib.sha256(f"{request.get_host()} {request.path} {etag}".encode()).hexdigest()
    kept = caching.get(key)
    if kept is not None:
        body, content_type = kept
        return HttpResponse(_for_this_device(request, zlib.decompress(body).decode()), content_type=content_type)
    response = render()
    if response.status_code == 200:
        caching.add(key, (zlib.compress(response.content, 1), response["Content-Type"]), timeout=RENDER_SECONDS)
    return response


def _for_this_device(request: HttpRequest, body: str) -> str:
    """A kept render with this device's CSRF token, and a new idempotency key in each form
    (two devices, or two sends of one, must never share a key)."""
    token = get_token(request)
    body = CSRF_TOKEN.sub(lambda found: found[1] + token + found[2], body)
    return IDEMPOTENCY_KEY.sub(lambda found: found[1] + uuid.uuid4().hex + found[2], body)


def region_version(version: int, revision: int) -> str:
    """What a device compares to know whether its region is current: the session's version,
    then the night's revision (join codes and the phones' seats, which are not events).
    static/js/app.js reads the part before the dot as the session's version."""
    return f"{version}.{revision}"


def live_version(session: GameSession) -> str:
    """The host's region version of ``session``."""
    from sessions.selectors import night_revision

    return region_version(session.version, night_revision(session))


@dataclass(frozen=True)
class Row:
    seat: Seat
    standing: Standing | None


def live_context(session: GameSession, *, viewer: str, seat: str | None = None, hints: bool = False) -> dict[str, Any]:
    """What every viewer of a session sees: seats, status, and the standings so far (and,
    for a viewer who switched them on, the hints of a game that has them)."""
    standings = core.standings(get_game(session.game).rules, session.state) or []
    by_seat = {s.seat: s for s in standings}
    rows = [Row(seat=seat, standing=by_seat.get(seat.key)) for seat in session.seats.all()]
    rows.sort(key=lambda row: row.standing.rank if row.standing else 0)
    context = {
        "session": session,
        "game": get_game(session.game),
        "rows": rows,
        "viewer": viewer,
        "live_version": live_version(session),
    }
    board = board_for(session)
    if board is not None:
        context.update(board.board_context(session))
        context["board_template"] = board.BOARD_TEMPLATE
        context["controls"] = viewer == "member" and session.is_open
        if viewer == "guest" and session.is_open:  # a phone at the table acts for its own seat
            context.update(board.phone_context(session, seat))
            context["phone_template"] = board.PHONE_TEMPLATE
            context["my_seat"] = seat
        if session.game in HINTS:
            context["hints"] = hints
            if hints and session.is_open:
                context.update(HINTS[session.game].hint_context(session))
    return context
