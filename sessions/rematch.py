"""Who starts a rematch: the player after the last game's first, in seat order, chosen the way
each game's rules choose a first player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.tower_of_babel.engine import FIRST_PLAYER
from sessions.games import BABEL_CUBES, TOWER_OF_BABEL


def next_seating(game: str, seats: list[str], first: str | None) -> tuple[list[str], list[tuple[str, dict[str, Any]]]]:
    """The rematch's seats in order, and the moves that name its first player once it has
    started. ``first`` is the seat the table chose to play first last time, if it chose one."""
    if game == BABEL_CUBES:  # the first seat places the first cube (BC-3): the seats turn
        return seats[1:] + seats[:1], []
    if game == TOWER_OF_BABEL and first in seats:  # the table names the first player (TB-9)
        return seats, [(FIRST_PLAYER, {"seat": seats[(seats.index(first) + 1) % len(seats)]})]
    # Babel On! rolls off for the first player (BO-3); in 7 Wonders everyone plays at once.
    return seats, []


def colours_played(session_colours: Mapping[str, str], game_state: Mapping[str, Any] | None) -> dict[str, str]:
    """Each seat's colour as it was played: the one chosen with the session, else the one the
    game recorded at its set-up (Babel On! names them there, BO-1)."""
    recorded = (game_state or {}).get("colours") or {}
    return {key: colour or recorded.get(key, "") for key, colour in session_colours.items()}
