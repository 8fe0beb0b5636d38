"""Per-game table views: what the board looks like and how its forms become events.

A game with a play-by-play engine has a board module here; the session page shows its
board in the live region (every phone sees it) and its controls below, and posts the
controls to one generic endpoint that asks the module for the event's payload.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.http import QueryDict

from sessions.boards import babel_cubes, babel_on, seven_wonders, tower_of_babel
from sessions.games import BABEL_CUBES, BABEL_ON, SEVEN_WONDERS, TOWER_OF_BABEL
from sessions.models import GameSession


class Board(Protocol):
    BOARD_TEMPLATE: str
    CONTROLS_TEMPLATE: str
    PHONE_TEMPLATE: str
    PHONE_EVENTS: dict[str, str]
    EVENTS: dict[str, str]
    # Where a refusal's engine field is typed: (pattern, input names) for formstate.input_for.
    ERROR_INPUTS: list[tuple[str, str]]

    def board_context(self, session: GameSession) -> dict[str, Any]: ...

    def controls_context(self, session: GameSession, query: QueryDict) -> dict[str, Any]: ...

    def payload(self, event_type: str, data: QueryDict, session: GameSession) -> dict[str, Any]: ...

    def phone_context(self, session: GameSession, seat: str | None) -> dict[str, Any]: ...

    def phone_payload(self, event_type: str, data: QueryDict, *, seat: str, session: GameSession) -> dict[str, Any]: ...

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]: ...

    def public_payloads(
        self, state: dict[str, Any], events: list[tuple[int, str, dict[str, Any]]]
    ) -> list[dict[str, Any]]: ...


BOARDS: dict[str, Board] = {
    TOWER_OF_BABEL: tower_of_babel,
    SEVEN_WONDERS: seven_wonders,
    BABEL_CUBES: babel_cubes,
    BABEL_ON: babel_on,
}
# Games whose forms show their totals as they are typed (the 7 Wonders sheet).
PREVIEWS = {SEVEN_WONDERS: seven_wonders}
# Games whose exact solver answers the hint switch.
HINTS = {BABEL_CUBES: babel_cubes}
# Games whose phone forms can be sent a part at a time (Babel On!'s move, a block per send
# without JavaScript): the answer shows the phone's turn with the part sent (``phone_draft``).
DRAFTS = {BABEL_ON: babel_on}


def board_for(session: GameSession) -> Board | None:
    return BOARDS.get(session.game)


def public_state(session: GameSession) -> dict[str, Any]:
    """The state without what is secret for now (offers not yet revealed, ...)."""
    board = board_for(session)
    return board.public_state(session.state) if board else session.state


def public_payloads(session: GameSession, events: list[tuple[int, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    board = board_for(session)
    return board.public_payloads(session.state, events) if board else [payload for _s, _t, payload in events]
