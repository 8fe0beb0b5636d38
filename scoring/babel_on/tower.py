"""One tower: 6 floors of a 2x2 grid, the building rules (BO-7..BO-11) and the perfect
tower (BO-13).

A tower is a list of floors from the bottom; a floor lists its 4 cells in the order
north-west, north-east, south-west, south-east, each a colour or ``None`` (empty). Floors
are numbered from 1 in messages and payloads, as at the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from scoring.errors import RuleError, gettext_noop

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "babel_on.json"

Floor = list[str | None]
Tower = list[Floor]


@cache
def data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DATA_FILE.read_text())
    return loaded


def value(name: str) -> Any:
    return data()[name]["value"]


def cells() -> tuple[str, ...]:
    return tuple(value("cells"))


def floors() -> int:
    return int(value("floors"))


def highest_allowed(tower: Tower) -> int:
    """The highest floor that may hold a block: at most 2 floors are partly built, so blocks
    go only on the lowest incomplete floor and the one above it (BO-8)."""
    lowest = lowest_incomplete(tower)
    return floors() if lowest is None else min(floors(), lowest + value("partial_floors") - 1)


# Orthogonal neighbours in the 2x2 grid (nw-ne, sw-se, nw-sw, ne-se); diagonals are not.
ADJACENT = ((0, 1), (2, 3), (0, 2), (1, 3))


def empty_tower() -> Tower:
    return [[None] * len(cells()) for _ in range(floors())]


def blocks(tower: Tower) -> int:
    return sum(1 for floor in tower for cell in floor if cell is not None)


def lowest_incomplete(tower: Tower) -> int | None:
    """The lowest floor (from 1) that is not full, or ``None`` for a full tower."""
    return next((number for number, floor in enumerate(tower, start=1) if None in floor), None)


def top_floor(tower: Tower) -> int:
    """The highest floor (from 1) holding a block; 0 for an empty tower."""
    return max((number for number, floor in enumerate(tower, start=1) if any(floor)), default=0)


def is_complete(tower: Tower) -> bool:
    return lowest_incomplete(tower) is None


def cell_index(raw: Any, *, field: str) -> int:
    if raw not in cells():
        raise RuleError(
            gettext_noop("A cell is one of {cells}."), field=field, rule="BO-7", params={"cells": ", ".join(cells())}
        )
    return cells().index(raw)


def floor_number(raw: Any, *, field: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= floors():
        raise RuleError(
            gettext_noop("A tower has floors 1 to {floors}."), field=field, rule="BO-7", params={"floors": floors()}
        )
    return raw


def check_add(tower: Tower, floor: int, cell: int, *, field: str) -> None:
    """May a block go on ``floor`` (from 1), ``cell`` (index)? Structure (BO-7), safety (BO-8)."""
    check_supported(tower, floor, cell, field=field)
    if floor > highest_allowed(tower):
        raise RuleError(
            gettext_noop("At most {partial} floors may be partly built: floor {lowest} is not complete yet."),
            field=field,
            rule="BO-8",
            params={"partial": value("partial_floors"), "lowest": lowest_incomplete(tower)},
        )


def check_supported(tower: Tower, floor: int, cell: int, *, field: str) -> None:
    """An empty cell, with a block under it unless on the ground (BO-7)."""
    if tower[floor - 1][cell] is not None:
        raise RuleError(gettext_noop("That cell already holds a block."), field=field, rule="BO-7")
    if floor > 1 and tower[floor - 2][cell] is None:
        raise RuleError(
            gettext_noop("A block on floor {floor} must sit on a block in the same cell of floor {below}."),
            field=field,
            rule="BO-7",
            params={"floor": floor, "below": floor - 1},
        )


def check_on_top(tower: Tower, floor: int, cell: int, *, field: str) -> str:
    """The colour of the block there, if nothing stands on it (BO-7)."""
    colour = tower[floor - 1][cell]
    if colour is None:
        raise RuleError(gettext_noop("There is no block in that cell."), field=field, rule="BO-7")
    if floor < len(tower) and tower[floor][cell] is not None:
        raise RuleError(
            gettext_noop("A block with a block on top of it cannot be taken off."), field=field, rule="BO-7"
        )
    return colour


def fits(tower: Tower, floor: int, cell: int) -> bool:
    try:
        check_add(tower, floor, cell, field="")
    except RuleError:
        return False
    return True


def suggested_places(tower: Tower, count: int) -> list[str]:
    """Where ``count`` blocks could go one after another (BO-7, BO-8), lowest floor first,
    as ``<floor>-<cell>``; fewer when the tower fills up."""
    tower = [list(floor) for floor in tower]
    places = []
    for _block in range(count):
        spot = next(
            ((f, i) for f in range(1, floors() + 1) for i in range(len(cells())) if fits(tower, f, i)),
            None,
        )
        if spot is None:
            break
        tower[spot[0] - 1][spot[1]] = "taken"
        places.append(f"{spot[0]}-{cells()[spot[1]]}")
    return places


def protected_up_to(tower: Tower, owner_colour: str) -> int:
    """The highest floor made of 4 blocks of the owner's colour (0: none): it and every
    floor below it cannot lose blocks (BO-11)."""
    return max(
        (number for number, floor in enumerate(tower, start=1) if all(cell == owner_colour for cell in floor)),
        default=0,
    )


def check_remove(tower: Tower, floor: int, cell: int, *, owner_colour: str, by_owner: bool, field: str) -> None:
    """May the block at ``floor``, ``cell`` be taken off? BO-7, BO-8, BO-10, BO-11."""
    colour = check_on_top(tower, floor, cell, field=field)
    protected = protected_up_to(tower, owner_colour)
    if floor <= protected:
        raise RuleError(
            gettext_noop("Floor {protected} is all in the owner's colour: it and the floors below are protected."),
            field=field,
            rule="BO-11",
            params={"protected": protected},
        )
    if colour == owner_colour and not by_owner:
        on_floor = tower[floor - 1]
        if floor != top_floor(tower) or any(c is not None and c != owner_colour for c in on_floor):
            raise RuleError(
                gettext_noop(
                    "A block of the owner's colour may be taken only from the top floor, "
                    "and only if no block of another colour is on it."
                ),
                field=field,
                rule="BO-10",
            )
    after = [list(f) for f in tower]
    after[floor - 1][cell] = None
    if top_floor(after) > highest_allowed(after):
        raise RuleError(
            gettext_noop("Taking this block off would leave more than {partial} floors partly built."),
            field=field,
            rule="BO-8",
            params={"partial": value("partial_floors")},
        )


def room(tower: Tower) -> int:
    """How many blocks the tower can still take, one after another: every empty cell, since a
    tower that is not full always has a place on its lowest incomplete floor (BO-7, BO-8)."""
    return sum(1 for floor in tower for cell in floor if cell is None)


def most_removable(tower: Tower, owner_colour: str, *, by_owner: bool, cap: int) -> int:
    """The most blocks (at most ``cap``) that can be taken off the tower one after another,
    each removal checked as a move checks it (BO-7, BO-8, BO-10, BO-11). Taking one block
    off can free another (the one under it) or keep one (BO-8), so the orders are searched;
    a tower reached twice is searched once."""
    best = 0
    seen: set[tuple[tuple[str | None, ...], ...]] = set()

    def search(current: Tower, taken: int) -> bool:
        nonlocal best
        best = max(best, taken)
        key = tuple(tuple(floor) for floor in current)
        if best >= cap or key in seen:
            return best >= cap
        seen.add(key)
        for number, index in removable_blocks(current, owner_colour, by_owner=by_owner):
            after = [list(f) for f in current]
            after[number - 1][index] = None
            if search(after, taken + 1):
                return True
        return False

    search([list(floor) for floor in tower], 0)
    return best


def removable_blocks(tower: Tower, owner_colour: str, *, by_owner: bool) -> Iterator[tuple[int, int]]:
    """(floor, cell) of each block that may come off the tower now (BO-7, BO-8, BO-10, BO-11),
    one at a time: ``most_removable`` stops at the first that completes its search."""
    for number, floor in enumerate(tower, start=1):
        for index, colour in enumerate(floor):
            if colour is not None and _removable(tower, number, index, owner_colour, by_owner):
                yield number, index


def _removable(tower: Tower, floor: int, cell: int, owner_colour: str, by_owner: bool) -> bool:
    try:
        check_remove(tower, floor, cell, owner_colour=owner_colour, by_owner=by_owner, field="")
    except RuleError:
        return False
    return True


def check_built(tower: Tower, *, field: str) -> None:
    """A whole tower given at once must be one that could stand (BO-7, BO-8)."""
    for number, floor in enumerate(tower, start=1):
        for index, colour in enumerate(floor):
            if colour is not None and number > 1 and tower[number - 2][index] is None:
                raise RuleError(
                    gettext_noop("A block on floor {floor} must sit on a block in the same cell of floor {below}."),
                    field=f"{field}[{number - 1}][{index}]",
                    rule="BO-7",
                    params={"floor": number, "below": number - 1},
                )
    if top_floor(tower) > highest_allowed(tower):
        raise RuleError(
            gettext_noop("At most {partial} floors may be partly built: floor {lowest} is not complete yet."),
            field=f"{field}[{top_floor(tower) - 1}]",
            rule="BO-8",
            params={"partial": value("partial_floors"), "lowest": lowest_incomplete(tower)},
        )


@dataclass(frozen=True)
class Failure:
    """One reason a tower is not perfect: the floor and the condition (BO-13)."""

    floor: int
    condition: str
    template: str
    params: dict[str, int]

    @property
    def message(self) -> str:
        return self.template.format(**self.params)


def failures(tower: Tower, colour: str, players: int) -> list[Failure]:
    """Every condition of the perfect tower (BO-13) that fails, floor by floor."""
    need = value("own_colour_per_floor")[str(players)]
    found: list[Failure] = []
    for number, floor in enumerate(tower, start=1):
        filled = sum(1 for cell in floor if cell is not None)
        if filled < len(floor):
            found.append(
                Failure(
                    number,
                    "complete",
                    gettext_noop("Floor {floor} has {count} of 4 blocks."),
                    {"floor": number, "count": filled},
                )
            )
        mine = [cell == colour for cell in floor]
        if need == "one" and not any(mine):
            found.append(
                Failure(number, "colour", gettext_noop("Floor {floor} has no block of your colour."), {"floor": number})
            )
        if need == "adjacent_pair" and not any(mine[a] and mine[b] for a, b in ADJACENT):
            found.append(
                Failure(
                    number,
                    "adjacent",
                    gettext_noop("Floor {floor} has no two blocks of your colour side by side (not diagonally)."),
                    {"floor": number},
                )
            )
        if number > 1 and not any(m and below == colour for m, below in zip(mine, tower[number - 2], strict=True)):
            found.append(
                Failure(
                    number,
                    "line_up",
                    gettext_noop("Floor {floor}: none of your blocks is above one of yours on floor {below}."),
                    {"floor": number, "below": number - 1},
                )
            )
    return found


def is_perfect(tower: Tower, colour: str, players: int) -> bool:
    # Every round's end asks this of every tower, and most are not complete yet: an empty
    # cell is a failure already, found without building the list of them all.
    if room(tower):
        return False
    return not failures(tower, colour, players)


def tower_from_floors(raw: Sequence[Sequence[str | None]]) -> Tower:
    """Floors given from the bottom (fewer than 6 is fine: the rest are empty)."""
    tower = empty_tower()
    for number, floor in enumerate(raw):
        tower[number] = list(floor)
    return tower
