"""The babel cube-tower engine the session core calls, and the position analysis.

The state keeps the geometry and the placements in order; ``level``, ``to_move`` (player
1 or 2, ``seats[to_move - 1]``), ``hands``, ``status`` and ``winner`` are derived from
them and stored for display. Player 1 (the first seat) places the first cube.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.babel_cubes import solver
from scoring.babel_cubes.geometry import load_geometry
from scoring.babel_cubes.moves import Position, legal_moves, outcome, parse_move, position_of, replay
from scoring.engine import JSON, Standing
from scoring.errors import RuleError, gettext_noop

PLACE = "bc.place"


def summary(position: Position) -> dict[str, JSON]:
    """Status, who moves, the winner, the level and the legal moves (the API's response)."""
    status, winner = outcome(position)
    return {
        "status": status,
        "to_move": position.to_move if status == "in_progress" else None,
        "winner": winner,
        "level": position.level,
        "legal_moves": [move.as_json() for move in legal_moves(position)],
    }


def analyse(moves: Any, geometry: Mapping[str, Any] | None = None, *, solve: bool = False) -> dict[str, JSON]:
    """Replay ``moves`` and describe the position; with ``solve``, its value and best moves."""
    position = replay(moves, geometry)
    result = summary(position)
    if solve:
        result["value"] = solver.solve(position)
        result["best_moves"] = [move.as_json() for move in solver.best_moves(position)]
    return result


def state_of(position: Position, seats: Sequence[str]) -> dict[str, JSON]:
    status, winner = outcome(position)
    return {
        "seats": list(seats),
        "geometry": position.geometry.as_json(),
        "moves": [move.as_json() for move in position.moves],
        "level": position.level,
        "to_move": position.to_move if status == "in_progress" else None,
        "hands": {str(player): list(position.hand(player)) for player in (1, 2)},
        "status": status,
        "winner": winner,
    }


class BabelCubes:
    """The engine the session core calls (``scoring.engine.Engine``)."""

    def initial_state(self, *, seats: Sequence[str], options: Mapping[str, JSON], seed: int) -> JSON:
        if len(seats) != 2:
            raise RuleError(gettext_noop("babel is a game for two players."), field="seats", rule="BC-1")
        return state_of(Position(load_geometry(options, field="")), seats)

    def event_types(self) -> frozenset[str]:
        return frozenset({PLACE})

    def apply(self, state: JSON, *, type: str, payload: Mapping[str, JSON]) -> JSON:
        if type != PLACE:
            raise RuleError(gettext_noop("Unknown event type {type}."), field="type", params={"type": type})
        if state["status"] != "in_progress":
            raise RuleError(gettext_noop("The game is over."), field="cell", rule="BC-9")
        position = position_of(state)
        return state_of(position.play(parse_move(position, payload)), state["seats"])

    def standings(self, state: JSON) -> list[Standing] | None:
        if state["status"] == "in_progress":
            return None
        winner = state["winner"]
        return [
            Standing(
                seat=seat,
                score=None,
                rank=1 if winner in (None, player) else 2,
                breakdown={"cubes_placed": len(state["moves"][player - 1 :: 2]), "level": state["level"]},
            )
            for player, seat in enumerate(state["seats"], start=1)
        ]
