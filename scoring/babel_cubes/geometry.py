"""Cube geometry: faces, the 2x2 level, the cube layouts from data, the square's symmetries.

A cube's orientation is a 6-bit mask of the faces that carry bulges (bit ``i`` is
``FACES[i]``). Cells are named by their two outer faces (``nw`` = north and west), so a
symmetry of the square, which maps compass faces, maps cells and faces consistently.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from scoring.errors import RuleError, gettext_noop

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "babel_cubes.json"

FACES = ("up", "down", "north", "south", "east", "west")
BIT = {face: 1 << i for i, face in enumerate(FACES)}
UP, DOWN = BIT["up"], BIT["down"]
OPPOSITE = {"up": "down", "down": "up", "north": "south", "south": "north", "east": "west", "west": "east"}
CELLS = ("nw", "ne", "sw", "se")
OUTER = {"nw": ("north", "west"), "ne": ("north", "east"), "sw": ("south", "west"), "se": ("south", "east")}
TYPES = range(5)
LEVELS = 6

Perm = tuple[int, ...]
"""A permutation of FACES by index: face ``i`` goes to face ``perm[i]``."""


def neighbour(cell: str, face: str) -> str:
    """The cell that ``cell`` touches through one of its inner side faces."""
    return _cell_with({*OUTER[cell]} - {OPPOSITE[face]} | {face})


def _cell_with(outer: set[str]) -> str:
    return next(cell for cell in CELLS if set(OUTER[cell]) == outer)


def inner_faces(cell: str) -> tuple[str, str]:
    """The two side faces of ``cell`` that touch a neighbour (north/south first)."""
    first, second = (face for face in ("north", "south", "east", "west") if face not in OUTER[cell])
    return first, second


NEIGHBOURS = {cell: {face: neighbour(cell, face) for face in inner_faces(cell)} for cell in CELLS}
OUTER_MASK = {cell: BIT[OUTER[cell][0]] | BIT[OUTER[cell][1]] for cell in CELLS}


def mask_of(faces: Iterable[str]) -> int:
    return sum(BIT[face] for face in faces)


def faces_of(mask: int) -> list[str]:
    return [face for face in FACES if mask & BIT[face]]


def permute(mask: int, perm: Perm) -> int:
    return sum(1 << perm[i] for i in range(6) if mask >> i & 1)


def _perm(mapping: Mapping[str, str]) -> Perm:
    return tuple(FACES.index(mapping.get(face, face)) for face in FACES)


def _compose(first: Perm, then: Perm) -> Perm:
    return tuple(then[first[i]] for i in range(6))


def _closure(generators: list[Perm]) -> list[Perm]:
    group = [tuple(range(6))]
    for element in group:  # the list grows while we walk it
        for generator in generators:
            product = _compose(element, generator)
            if product not in group:
                group.append(product)
    return group


QUARTER_TURN = _perm({"north": "east", "east": "south", "south": "west", "west": "north"})
ROLL = _perm({"up": "north", "north": "down", "down": "south", "south": "up"})
MIRROR = _perm({"north": "south", "south": "north"})
ROTATIONS = _closure([QUARTER_TURN, ROLL])
"""The 24 rotations of a cube."""
SQUARE = _closure([QUARTER_TURN, MIRROR])
"""The 8 symmetries of the 2x2 square (up and down stay); reflections map face names too."""


def cell_image(cell: str, perm: Perm) -> str:
    return _cell_with({FACES[perm[FACES.index(face)]] for face in OUTER[cell]})


@cache
def raw_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA_FILE.read_text())
    return data


def options() -> dict[str, tuple[str, ...]]:
    """The geometry choices a session makes: ``{"type2": ("adjacent", "opposite"), ...}``."""
    layouts = raw_data()["layouts"]
    return {key: tuple(value) for key, value in layouts.items() if isinstance(value, dict) and len(value) > 1}


def default_choice() -> dict[str, str]:
    """The default layout of each cube type (``type0``..``type4``)."""
    layouts = raw_data()["layouts"]
    return {
        f"type{t}": next(name for name, v in layouts[f"type{t}"].items() if v["status"] == "default") for t in TYPES
    }


@dataclass(frozen=True)
class Geometry:
    """Which layout each cube type has, and the orientations it can take in each cell."""

    choice: tuple[tuple[str, str], ...]
    orientations: tuple[frozenset[int], ...]
    """``orientations[type]``: every bulge mask of that cube in any rotation."""

    def as_json(self) -> dict[str, str]:
        """The session's choices only (``{"type2": ..., "type3": ...}``)."""
        return {key: name for key, name in self.choice if key in options()}

    def allows(self, cube_type: int, mask: int) -> bool:
        return mask in self.orientations[cube_type]

    def in_cell(self, cell: str, cube_type: int) -> tuple[int, ...]:
        """The orientations whose bulges avoid the cell's outer faces (BC-5), sorted."""
        return _in_cell(self.orientations[cube_type], OUTER_MASK[cell])


@cache
def _in_cell(orientations: frozenset[int], outer: int) -> tuple[int, ...]:
    return tuple(sorted(mask for mask in orientations if not mask & outer))


@cache
def _geometry(choice: tuple[tuple[str, str], ...]) -> Geometry:
    layouts = raw_data()["layouts"]
    chosen = dict(choice)
    orientations = []
    for cube_type in TYPES:
        key = f"type{cube_type}"
        reference = mask_of(layouts[key][chosen[key]]["bulges"])
        orientations.append(frozenset(permute(reference, rotation) for rotation in ROTATIONS))
    return Geometry(choice, tuple(orientations))


def load_geometry(raw: Mapping[str, Any] | None = None, *, field: str = "geometry") -> Geometry:
    """The geometry a session or request asks for; missing keys take the default (BC-2).

    Refusals name ``{field}.type2`` (or plain ``type2`` when ``field`` is empty).
    """
    raw = {} if raw is None else raw
    if not isinstance(raw, Mapping):
        raise RuleError(gettext_noop("Choose a layout for each cube type."), field=field or "options", rule="BC-2")
    choice = default_choice()
    for key, names in options().items():
        value = raw.get(key, choice[key])
        if value not in names:
            raise RuleError(
                gettext_noop("Choose one of {choices}."),
                field=f"{field}.{key}" if field else key,
                rule="BC-2",
                params={"choices": ", ".join(names)},
            )
        choice[key] = value
    return _geometry(tuple(sorted(choice.items())))


def hand_of_each() -> tuple[int, ...]:
    """The cubes each player starts with: half of each type (BC-1)."""
    counts = {cube["type"]: cube["count"] for cube in raw_data()["cubes"]}
    return tuple(counts[t] // raw_data()["players"] for t in TYPES)
