"""Each seat's chance to win, on the host's page while the session is set up:
``{% win_chances session %}``.

The session's region is built by ``sessions.table.regions`` for every screen of the table;
only the host's set-up shows the chances, so the part reads its own figures: one query, the
seats' ratings in the game (``chances.seat_chances``).
"""

from __future__ import annotations

from typing import Any

from django import template

from sessions.games import game_name
from sessions.models import GameSession
from sessions.statistics.chances import seat_chances, shows_chances
from sessions.statistics.ratings import MIN_RATED_PLAYS

register = template.Library()


@register.inclusion_tag("sessions/_chances.html")
def win_chances(session: GameSession) -> dict[str, Any]:
    chances = seat_chances(session) if shows_chances(session) else []
    return {
        "chances": chances,
        "game_name": game_name(session.game),
        "any_new": any(seat.new for seat in chances),
        "min_rated_plays": MIN_RATED_PLAYS,
    }
