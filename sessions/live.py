"""The live regions that devices fetch again and again: cheap when nothing changed.

The ETag is the session's version (plus what changes the rendering: language, viewer,
the page's own query), so a fetch that finds nothing new costs one small query and answers
304 with no body; only a changed session is loaded in full and rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.translation import get_language

from scoring import session as core
from scoring.engine import Standing
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
        response = render()
    response["ETag"] = etag
    # Always revalidate: the browser may keep the body, never reuse it unasked.
    response["Cache-Control"] = "private, no-cache"
    return response


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
