"""Exact solver: memoised negamax over a compact state, up to the square's 8 symmetries.

The compact state is three ints. A hand packs the five type counts in 2 bits each. The
board packs one byte per cell (``CELLS`` order): bit 7 says the face under an empty cell
is a bulge (the table counts as one, so a ground-level bottom must be an indent, BC-5),
bit 6 says the cell holds a cube, bits 0..5 keep the cube's bulges that still matter: its
top, and its inner sides towards empty cells. The level and who moves follow from the
hands' sizes. Values are for the player to move: 1 win, 0 draw, -1 loss; each memoised
value is exact (the search stops early only on a win, the best value there is).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from scoring.babel_cubes.geometry import (
    BIT,
    CELLS,
    DOWN,
    NEIGHBOURS,
    OPPOSITE,
    SQUARE,
    TYPES,
    UP,
    Geometry,
    cell_image,
    inner_faces,
    permute,
    raw_data,
)
from scoring.babel_cubes.moves import CUBES, Move, Position, position_of
from scoring.babel_cubes.table import SolvedTable, UnreadableTable, write_table

VALUES = {1: "win", 0: "draw", -1: "loss"}
PLACED, BELOW = 64, 128
ALL_UP = sum(UP << 8 * c for c in range(4))
ALL_PLACED = ALL_UP * PLACED
Children = list[tuple[int, int, Move]]


def pack_hand(counts: tuple[int, ...]) -> int:
    return sum(count << 2 * t for t, count in enumerate(counts))


HAND_SIZE = [sum(code >> 2 * t & 3 for t in TYPES) for code in range(1 << 10)]
CELL_INDEX = {cell: i for i, cell in enumerate(CELLS)}
# For each cell: (inner face bit, neighbour index, the neighbour's face bit towards this cell).
LINKS = [
    [(BIT[face], CELL_INDEX[other], BIT[OPPOSITE[face]]) for face, other in NEIGHBOURS[cell].items()] for cell in CELLS
]
TOUCHING = [{other for _, other, _ in links} for links in LINKS]


def _symmetry_tables() -> list[list[list[int]]]:
    """``tables[s][c][byte]``: cell ``c``'s byte under symmetry ``s``, shifted to its image cell."""
    tables = []
    for perm in SQUARE:
        per_cell = []
        for cell in CELLS:
            shift = 8 * CELL_INDEX[cell_image(cell, perm)]
            per_cell.append([((byte & 0xC0) | permute(byte & 0x3F, perm)) << shift for byte in range(256)])
        tables.append(per_cell)
    return tables


SYMMETRY_TABLES = _symmetry_tables()


_CANONICAL: dict[int, int] = {}


def canonical(board: int) -> int:
    """The least image of ``board`` under the 8 symmetries of the square."""
    known = _CANONICAL.get(board)
    if known is None:
        b0, b1, b2, b3 = board & 255, board >> 8 & 255, board >> 16 & 255, board >> 24
        known = _CANONICAL[board] = min(t0[b0] | t1[b1] | t2[b2] | t3[b3] for t0, t1, t2, t3 in SYMMETRY_TABLES)
    return known


class Solver:
    """The memo and the move tables of one geometry, and the solved game's table if there is one."""

    def __init__(self, geometry: Geometry, table: SolvedTable | None = None) -> None:
        self.geometry = geometry
        self.table = table
        self.memo: dict[int, int] = {}
        self.options = {
            (c, below, first, second): self._options(cell, below, first, second)
            for c, cell in enumerate(CELLS)
            for below in (0, 1)
            for first in (0, 1, 2)
            for second in (0, 1, 2)
        }
        self.warmed: set[int] = set()
        self._successors: dict[int, list[tuple[int, int, Move]]] = {}

    def _options(self, cell: str, below: int, first: int, second: int) -> list[tuple[int, int]]:
        """(type, mask) that fit: the down face opposite to ``below``, inner faces as required (2: free)."""
        needs = [(BIT[face], need) for face, need in zip(inner_faces(cell), (first, second), strict=True)]
        return [
            (cube_type, mask)
            for cube_type in TYPES
            for mask in self.geometry.in_cell(cell, cube_type)
            if bool(mask & DOWN) != bool(below)
            and all(need == 2 or bool(mask & bit) == bool(need) for bit, need in needs)
        ]

    def children(self, mover: int, other: int, board: int) -> Children:
        """(the mover's hand after, the board after, the move) for every legal placement."""
        second = CUBES - HAND_SIZE[mover] - HAND_SIZE[other] == 1
        return [
            (mover - (1 << 2 * move.type), after, move)
            for shift, after, move in self.successors(board, second)
            if mover >> shift & 3
        ]

    def successors(self, board: int, second: bool) -> list[tuple[int, int, Move]]:
        """(2 * type, the board after, the move) for every placement that fits, whatever the hands hold."""
        key = board | second << 32
        known = self._successors.get(key)
        if known is not None:
            return known
        occupied = [board >> 8 * c & PLACED for c in range(4)]
        allowed = TOUCHING[occupied.index(PLACED)] if second else range(4)  # BC-7
        known = self._successors[key] = []
        for c, cell in enumerate(CELLS):
            if occupied[c] or c not in allowed:
                continue
            needs = [2 if not occupied[n] else 0 if board >> 8 * n & towards else 1 for _, n, towards in LINKS[c]]
            for cube_type, mask in self.options[c, board >> 8 * c + 7 & 1, needs[0], needs[1]]:
                known.append((2 * cube_type, _place(board, c, mask), Move(cell, cube_type, mask)))
        return known

    def value(self, mover: int, other: int, board: int) -> int:
        """The exact value for the player to move; the search stops at the first winning move."""
        key = canonical(board) | mover << 32 | other << 42
        known = self.memo.get(key)
        if known is None and self.table is not None:
            known = self.table.get(key)  # every position reachable from the opening is there
        if known is not None:
            return known
        best = 0 if mover == other == 0 else -1  # BC-9: a complete tower is a draw, no move loses
        for after, child, _ in self.children(mover, other, board):
            result = -self.value(other, after, child)
            if result > best:
                best = result
                if best == 1:
                    break
        self.memo[key] = best
        return best

    def warm(self, mover: int, other: int, board: int) -> int:
        """Like ``value``, but solves every position reachable from this one, so later calls only look up."""
        if self.table is not None:  # solved already, on disk
            return self.value(mover, other, board)
        key = canonical(board) | mover << 32 | other << 42
        if key in self.warmed:
            return self.memo[key]
        best = 0 if mover == other == 0 else -1
        for after, child, _ in self.children(mover, other, board):
            best = max(best, -self.warm(other, after, child))
        self.memo[key] = best
        self.warmed.add(key)
        return best


def _place(board: int, c: int, mask: int) -> int:
    keep = UP
    for bit, n, towards in LINKS[c]:
        if board >> 8 * n & PLACED:
            board &= ~(towards << 8 * n)  # that contact is settled
        else:
            keep |= bit
    board = (board & ~(255 << 8 * c)) | (PLACED | mask & keep) << 8 * c
    if board & ALL_PLACED == ALL_PLACED:  # the level is complete: its tops face the next one
        return (board & ALL_UP) * BELOW
    return board


def compact(position: Position) -> tuple[int, int, int]:
    """(mover's hand, other hand, board) of a position."""
    mover, other = position.to_move, 3 - position.to_move
    below = position.below
    cells = position.cells
    board = 0
    for c, cell in enumerate(CELLS):
        if cell in cells:
            keep = UP | sum(bit for bit, n, _ in LINKS[c] if CELLS[n] not in cells)
            byte = PLACED | cells[cell].mask & keep
        else:
            byte = BELOW if cell not in below or below[cell].mask & UP else 0
        board |= byte << 8 * c
    return pack_hand(position.hand(mover)), pack_hand(position.hand(other)), board


_SOLVERS: dict[Geometry, Solver] = {}
_TABLES: list[Path] = []  # the folder of the solved games' tables, once the app names one


def use_tables(folder: Path) -> None:
    """Read (and on first use write) each geometry's solved game in ``folder``."""
    _TABLES[:] = [folder]


# Part of each table's name: a new key encoding or new component data never reads an old table.
KEY_ENCODING = 1


def table_path(folder: Path, geometry: Geometry) -> Path:
    data = json.dumps([KEY_ENCODING, raw_data()], sort_keys=True).encode()
    chosen = "-".join(f"{key}.{name}" for key, name in geometry.choice)
    return folder / f"{chosen}-{hashlib.sha256(data).hexdigest()[:12]}.bct"


def solver_for(geometry: Geometry) -> Solver:
    if geometry not in _SOLVERS:
        _SOLVERS[geometry] = _with_table(geometry) if _TABLES else Solver(geometry)
    return _SOLVERS[geometry]


def _with_table(geometry: Geometry) -> Solver:
    """The solver reading the geometry's table; the first process on the machine to need one
    solves the whole game and writes it (later ones, and other processes, only read)."""
    path = table_path(_TABLES[0], geometry)
    try:
        return Solver(geometry, SolvedTable(path))
    except (FileNotFoundError, UnreadableTable):
        pass
    solver = Solver(geometry)
    solver.warm(*compact(Position(geometry)))
    write_table(path, solver.memo)
    return solver


def forget() -> None:
    """Drop every memo and table (for measuring a solve from cold)."""
    _SOLVERS.clear()
    _CANONICAL.clear()


def as_position(state: Position | Mapping[str, Any]) -> Position:
    """A position, or the engine's JSON state."""
    return state if isinstance(state, Position) else position_of(state)


def solve(state: Position | Mapping[str, Any]) -> str:
    """``"win"``, ``"loss"`` or ``"draw"`` for the player to move, with perfect play."""
    position = as_position(state)
    return VALUES[solver_for(position.geometry).value(*compact(position))]


def move_values(state: Position | Mapping[str, Any]) -> list[tuple[Move, int]]:
    """Each legal move (in ``legal_moves`` order) with its exact value for the player who makes it."""
    position = as_position(state)
    solver = solver_for(position.geometry)
    mover, other, board = compact(position)
    return [(move, -solver.value(other, after, child)) for after, child, move in solver.children(mover, other, board)]


def best_moves(state: Position | Mapping[str, Any]) -> list[Move]:
    """Every legal move that keeps the position's value (empty when the game is over)."""
    values = move_values(state)
    best = max((value for _, value in values), default=None)
    return [move for move, value in values if value == best]
