"""The hint switch: off by default, remembered per browser and per session.

It lives in the visitor's own Django session, so switching hints on for one phone spoils
nobody else at the table.
"""

from __future__ import annotations

from django.http import HttpRequest

from sessions.boards import HINTS
from sessions.models import GameSession

KEY = "hints"


def hints_on(request: HttpRequest, session_id: int) -> bool:
    return session_id in request.session.get(KEY, [])


def toggle_hints(request: HttpRequest, session: GameSession) -> None:
    """Switch this browser's hints for ``session``; switching them on readies the solver, so
    that every hint after this one is a lookup."""
    chosen = set(request.session.get(KEY, []))
    chosen ^= {session.pk}
    request.session[KEY] = sorted(chosen)
    if session.pk in chosen and session.game in HINTS:
        HINTS[session.game].warm_hints(session)
