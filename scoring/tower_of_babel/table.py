"""The component table: values from the data file, each marked verified or not.

A group may override the unverified values to match its own box ("edition table"); the
verified ones are the rulebook's and stay fixed. A session keeps the table it started
with (``Table.as_json``), so later edits never change past results.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from scoring.errors import RuleError, gettext_noop

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "tower_of_babel.json"
OVERRIDABLE = ("single_disc_numbers", "two_kind_discs", "rows", "set_bonus")


@dataclass(frozen=True)
class Table:
    kinds: tuple[str, ...]
    wonders: tuple[str, ...]
    single_disc_numbers: tuple[int, ...]
    two_kind_discs: tuple[tuple[tuple[str, int], ...], ...]
    two_kind_variant_removes: int
    rows: tuple[tuple[int, int], ...]
    final_row: tuple[int, int]
    present_points: int
    set_bonus: tuple[int, ...]
    action_cards: tuple[tuple[str, int], ...]
    parts_per_player: tuple[tuple[int, int], ...]
    score_marker_part: int

    @property
    def parts_in_play(self) -> int:
        """What a player can have on the wonders at once, by value: their parts less the one
        that marks their score (TB-5)."""
        return sum(value * count for value, count in self.parts_per_player) - self.score_marker_part

    def row_values(self, row: int | str) -> tuple[int, int]:
        """(first, second) of scoring row 1..7, or of the final row."""
        if row == "final":
            return self.final_row
        if isinstance(row, bool) or not isinstance(row, int) or not 1 <= row <= len(self.rows):
            raise RuleError(
                gettext_noop("A row is 1 to {rows}, or final."),
                field="row",
                rule="TB-6",
                params={"rows": len(self.rows)},
            )
        return self.rows[row - 1]

    def bonus(self, count: int) -> int:
        return self.set_bonus[count]

    def check_deck(self, card: str, count: int, *, field: str) -> None:
        """Refuse more copies of an action card than the deck holds (TB-22)."""
        in_deck = dict(self.action_cards)[card]
        if count > in_deck:
            raise RuleError(
                gettext_noop("The action deck holds only {count} of this card."),
                field=field,
                rule="TB-22",
                params={"count": in_deck},
            )

    def as_json(self) -> dict[str, Any]:
        return {
            "single_disc_numbers": list(self.single_disc_numbers),
            "two_kind_discs": [dict(disc) for disc in self.two_kind_discs],
            "rows": [list(row) for row in self.rows],
            "set_bonus": list(self.set_bonus),
        }


@cache
def raw_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA_FILE.read_text())
    return data


def unverified() -> dict[str, list[int] | bool]:
    """For each overridable entry: False if all verified, else which positions are not."""
    marks: dict[str, list[int] | bool] = {}
    for name in OVERRIDABLE:
        verified = raw_data()[name]["verified"]
        if isinstance(verified, list):
            marks[name] = [i for i, ok in enumerate(verified) if not ok]
        else:
            marks[name] = not verified
    return marks


def load_table(overrides: Mapping[str, Any] | None = None, *, edition_rules: bool = True) -> Table:
    """The data file's table, with a group's overrides of unverified values applied.

    ``edition_rules`` also holds the overrides to the rules a table must keep to be played
    (TB-4, TB-6, TB-8), so a group can only save a table within them (saving loads it so).
    A session's stored table, and a group's table shown for editing, are read with
    ``edition_rules=False``: a session keeps the table it started with, and replays from it,
    even one saved before a check existed.
    """
    data = {name: entry["value"] for name, entry in raw_data().items() if isinstance(entry, dict)}
    for name, value in (overrides or {}).items():
        data[name] = _checked_override(name, value, data.get(name))
    if overrides and edition_rules:
        check_edition_rules(data)
    kinds = tuple(data["kinds"])
    return Table(
        kinds=kinds,
        wonders=tuple(data["wonders"]),
        single_disc_numbers=tuple(data["single_disc_numbers"]),
        two_kind_discs=tuple(tuple(sorted(disc.items())) for disc in data["two_kind_discs"]),
        two_kind_variant_removes=data["two_kind_variant_removes"],
        rows=tuple((first, second) for first, second in data["rows"]),
        final_row=(data["final_row"][0], data["final_row"][1]),
        present_points=data["present_points"],
        set_bonus=tuple(data["set_bonus"]),
        action_cards=tuple(data["action_cards"].items()),
        parts_per_player=tuple((int(value), count) for value, count in data["parts_per_player"].items()),
        score_marker_part=data["score_marker_part"],
    )


SINGLE_DISC_CARDS = (3, 4, 5, 6)  # TB-4: each single disc demands 3 to 6 cards (verified range)
TWO_KIND_DISC_CARDS = range(1, 7)  # TB-4: some of each of its two kinds, at most 6 like any disc


def check_edition_rules(data: Mapping[str, Any]) -> None:
    """The rules an edition table must keep to be played (checked where a group saves it)."""
    for index, number in enumerate(data["single_disc_numbers"]):
        _check_cards(
            number,
            SINGLE_DISC_CARDS,
            gettext_noop("A single disc demands {low} to {high} cards."),
            field=f"single_disc_numbers[{index}]",
        )
    removed = data["two_kind_variant_removes"]
    if removed not in data["single_disc_numbers"]:
        raise RuleError(
            gettext_noop("The two-kind variant takes out a single disc of {number} of each kind: keep one {number}."),
            field="single_disc_numbers",
            rule="TB-8",
            params={"number": removed},
        )
    for index, disc in enumerate(data["two_kind_discs"]):
        for kind, number in disc.items():
            _check_cards(
                number,
                TWO_KIND_DISC_CARDS,
                gettext_noop("A two-kind disc demands {low} to {high} cards of each of its kinds."),
                field=f"two_kind_discs[{index}].{kind}",
            )
    for index, row in enumerate(data["rows"]):
        check_row(row, field=f"rows[{index}]")


def _check_cards(number: int, allowed: Sequence[int], template: str, *, field: str) -> None:
    """A disc's demand within its range (TB-4), or RuleError naming it and the range."""
    if number not in allowed:
        raise RuleError(template, field=field, rule="TB-4", params={"low": allowed[0], "high": allowed[-1]})


def check_row(values: Sequence[int], *, field: str) -> None:
    """A scoring row's first value is not below its second (TB-6, TB-17)."""
    first, second = values
    if first < second:
        raise RuleError(
            gettext_noop("A row's first value ({first}) cannot be below its second ({second})."),
            field=field,
            rule="TB-6",
            params={"first": first, "second": second},
        )


def _checked_override(name: str, value: Any, default: Any) -> Any:
    """An override keeps the shape of the default and every verified value."""
    if name not in OVERRIDABLE:
        raise RuleError(gettext_noop("This value is verified and cannot be changed."), field=name)
    if not isinstance(value, list) or len(value) != len(default):
        raise RuleError(gettext_noop("Give {count} values."), field=name, params={"count": len(default)})
    verified = raw_data()[name]["verified"]
    for index, (new, old) in enumerate(zip(value, default, strict=True)):
        locked = verified[index] if isinstance(verified, list) else verified
        if locked and new != old:
            raise RuleError(gettext_noop("This value is verified and cannot be changed."), field=f"{name}[{index}]")
        _check_shape(f"{name}[{index}]", new, old)
    return value


def _check_shape(field: str, new: Any, old: Any) -> None:
    if isinstance(old, int):
        if isinstance(new, bool) or not isinstance(new, int) or not 0 <= new <= 100:
            raise RuleError(gettext_noop("Enter a whole number from 0 to 100."), field=field)
    elif isinstance(old, list):
        if not isinstance(new, list) or len(new) != len(old):
            raise RuleError(gettext_noop("Give {count} values."), field=field, params={"count": len(old)})
        for index, (n, o) in enumerate(zip(new, old, strict=True)):
            _check_shape(f"{field}[{index}]", n, o)
    elif isinstance(old, dict):
        if not isinstance(new, dict) or len(new) != 2 or not set(new) <= set(raw_data()["kinds"]["value"]):
            raise RuleError(gettext_noop("A two-kind disc names two different kinds."), field=field, rule="TB-4")
        for kind, number in new.items():
            _check_shape(f"{field}.{kind}", number, 0)
