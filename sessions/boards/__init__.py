"""Per-game table views: what the board looks like and how its forms become events.

A game with a play-by-play engine has a board module here; the session page shows its
board in the live region (every phone sees it) and its controls below, and posts the
controls to one generic endpoint that asks the module for the event's payload.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.http import QueryDict

from sessions.boards import tower_of_babel
from sessions.games import TOWER_OF_BABEL
from sessions.models import GameSession


class Board(Protocol):
    BOARD_TEMPLATE: str
    CONTROLS_TEMPLATE: str
    EVENTS: dict[str, str]

    def board_context(self, session: GameSession) -> dict[str, Any]: ...

    def controls_context(self, session: GameSession, query: QueryDict) -> dict[str, Any]: ...

    def payload(self, event_type: str, data: QueryDict, session: GameSession) -> dict[str, Any]: ...


BOARDS: dict[str, Board] = {TOWER_OF_BABEL: tower_of_babel}
# Games whose unverified component values a group can set ("our board says ...").
EDITIONS = {TOWER_OF_BABEL: tower_of_babel}


def board_for(session: GameSession) -> Board | None:
    return BOARDS.get(session.game)
