"""Positions, legal placements, apply and end detection (BC-3..BC-9).

A position is the geometry plus the placements so far, in order: the ``i``-th cube goes on
level ``i // 4 + 1`` and is player ``i % 2 + 1``'s. Every refusal is a ``RuleError``
naming the field and the rule id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple

from scoring.babel_cubes.geometry import (
    BIT,
    CELLS,
    DOWN,
    FACES,
    LEVELS,
    NEIGHBOURS,
    OPPOSITE,
    OUTER_MASK,
    TYPES,
    UP,
    Geometry,
    faces_of,
    hand_of_each,
    load_geometry,
    mask_of,
)
from scoring.errors import RuleError, gettext_noop

CUBES = LEVELS * len(CELLS)


class Move(NamedTuple):
    cell: str
    type: int
    mask: int
    """The faces that carry bulges (see ``geometry.FACES``)."""

    def as_json(self) -> dict[str, Any]:
        return {"cell": self.cell, "type": self.type, "bulges": faces_of(self.mask)}


@dataclass(frozen=True)
class Position:
    geometry: Geometry
    moves: tuple[Move, ...] = ()

    @cached_property
    def placed(self) -> int:
        return len(self.moves)

    @cached_property
    def complete(self) -> bool:
        """All 24 cubes stand: the tower is finished, a draw (BC-9, decision)."""
        return self.placed == CUBES

    @cached_property
    def level(self) -> int:
        return min(self.placed // 4 + 1, LEVELS)

    @cached_property
    def to_move(self) -> int:
        return self.placed % 2 + 1

    def hand(self, player: int) -> tuple[int, ...]:
        """The cubes ``player`` (1 or 2) has left, by type (BC-1)."""
        return self._hands[player - 1]

    @cached_property
    def _hands(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        used = [[0] * len(TYPES), [0] * len(TYPES)]
        for index, move in enumerate(self.moves):
            used[index % 2][move.type] += 1
        start = hand_of_each()
        return tuple(start[t] - used[0][t] for t in TYPES), tuple(start[t] - used[1][t] for t in TYPES)

    @cached_property
    def cells(self) -> Mapping[str, Move]:
        """The cubes on the level being built."""
        start = self.placed - self.placed % 4
        return MappingProxyType({move.cell: move for move in self.moves[start:]})

    @cached_property
    def below(self) -> Mapping[str, Move]:
        """The cubes of the complete level under the one being built (empty on level 1)."""
        start = self.placed - self.placed % 4
        return MappingProxyType({move.cell: move for move in self.moves[max(start - 4, 0) : start]})

    def play(self, move: Move) -> Position:
        return Position(self.geometry, (*self.moves, move))


def violation(position: Position, move: Move, prefix: str = "") -> RuleError | None:
    """Why ``move`` is illegal in ``position`` (None if it is legal)."""
    cell, cube_type, mask = move
    cells = position.cells
    if position.complete:
        return RuleError(gettext_noop("The tower is complete: the game is a draw."), field=f"{prefix}cell", rule="BC-9")
    if cell in cells:
        return RuleError(gettext_noop("This cell of the level is taken."), field=f"{prefix}cell", rule="BC-3")
    if position.level == 1 and len(cells) == 1 and cell not in NEIGHBOURS[next(iter(cells))].values():
        return RuleError(
            gettext_noop("On the ground level the second cube must touch the first, not stand diagonal to it."),
            field=f"{prefix}cell",
            rule="BC-7",
        )
    if cube_type == 4 and position.placed == 0:
        return RuleError(gettext_noop("The first cube may not be a type 4."), field=f"{prefix}type", rule="BC-4")
    if position.hand(position.to_move)[cube_type] == 0:
        return RuleError(
            gettext_noop("This player has no type {type} cube left."),
            field=f"{prefix}type",
            rule="BC-1",
            params={"type": cube_type},
        )
    if mask.bit_count() != cube_type:
        return RuleError(
            gettext_noop("A type {type} cube has exactly {type} bulges."),
            field=f"{prefix}bulges",
            rule="BC-1",
            params={"type": cube_type},
        )
    if mask & OUTER_MASK[cell] or (position.level == 1 and mask & DOWN):
        return RuleError(
            gettext_noop("Only indents may face outwards: the outer sides, and the bottom on the ground level."),
            field=f"{prefix}bulges",
            rule="BC-5",
        )
    if not position.geometry.allows(cube_type, mask):
        return RuleError(
            gettext_noop("A type {type} cube cannot show its bulges on these faces."),
            field=f"{prefix}bulges",
            rule="BC-2",
            params={"type": cube_type},
        )
    under = position.below.get(cell)
    if under is not None and bool(under.mask & UP) == bool(mask & DOWN):
        return _contact(prefix, "down")
    for face, other in NEIGHBOURS[cell].items():
        if other in cells and bool(cells[other].mask & BIT[OPPOSITE[face]]) == bool(mask & BIT[face]):
            return _contact(prefix, face)
    return None


def _contact(prefix: str, face: str) -> RuleError:
    return RuleError(
        gettext_noop("Every contact pairs one bulge with one indent: check the {face} face."),
        field=f"{prefix}bulges",
        rule="BC-6",
        params={"face": face},
    )


def legal_moves(position: Position) -> list[Move]:
    """Every legal placement, by cell, type and bulge mask."""
    if position.complete:
        return []
    hand = position.hand(position.to_move)
    return [
        move
        for cell in CELLS
        for cube_type in TYPES
        if hand[cube_type]
        for mask in position.geometry.in_cell(cell, cube_type)
        if violation(position, move := Move(cell, cube_type, mask)) is None
    ]


def outcome(position: Position) -> tuple[str, int | None]:
    """``("in_progress", None)``, ``("drawn", None)`` or ``("won", winner)`` (BC-9)."""
    if position.complete:
        return "drawn", None
    if not legal_moves(position):
        return "won", 3 - position.to_move
    return "in_progress", None


def parse_move(position: Position, raw: Any, prefix: str = "") -> Move:
    """A placement from JSON (``{"cell", "type", "bulges"}``), checked against every rule."""
    if not isinstance(raw, Mapping):
        raise RuleError(
            gettext_noop("Give a cell, a type and the bulging faces."), field=prefix.rstrip(".") or "cell", rule="BC-3"
        )
    cell: Any = raw.get("cell")
    cube_type: Any = raw.get("type")
    bulges: Any = raw.get("bulges", [])
    if cell not in CELLS:
        raise RuleError(gettext_noop("A level has four cells: nw, ne, sw, se."), field=f"{prefix}cell", rule="BC-3")
    if type(cube_type) is not int or cube_type not in TYPES:  # not true, nor 1.0: JSON gives both
        raise RuleError(gettext_noop("A cube is of type 0 to 4."), field=f"{prefix}type", rule="BC-1")
    if (
        not isinstance(bulges, list)
        or not all(isinstance(face, str) and face in FACES for face in bulges)
        or len(set(bulges)) != len(bulges)
    ):
        raise RuleError(
            gettext_noop("List the bulging faces: up, down, north, south, east, west."),
            field=f"{prefix}bulges",
            rule="BC-1",
        )
    move = Move(str(cell), int(cube_type), sum(BIT[face] for face in bulges))
    error = violation(position, move, prefix)
    if error is not None:
        raise error
    return move


def position_of(state: Mapping[str, Any]) -> Position:
    """The position an engine state holds (its moves were checked when they were applied)."""
    moves = tuple(Move(move["cell"], move["type"], mask_of(move["bulges"])) for move in state["moves"])
    return Position(load_geometry(state["geometry"]), moves)


def replay(raw_moves: Any, geometry: Mapping[str, Any] | None = None) -> Position:
    """The position after a list of JSON moves; a refusal names ``moves[i].field``."""
    if not isinstance(raw_moves, Sequence) or isinstance(raw_moves, str):
        raise RuleError(gettext_noop("Give the moves as a list."), field="moves", rule="BC-3")
    position = Position(load_geometry(geometry))
    for index, raw in enumerate(raw_moves):
        prefix = f"moves[{index}]."
        if outcome(position)[0] != "in_progress":
            raise RuleError(gettext_noop("The game is already over."), field=f"{prefix}cell", rule="BC-9")
        position = position.play(parse_move(position, raw, prefix))
    return position
