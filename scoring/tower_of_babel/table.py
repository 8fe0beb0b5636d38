"""The component table: values from the data file, each marked verified, unverified or
outside the seed.

A group may correct the values that are not verified to match its own box ("edition table"):
the unverified ones (our best default, the printed value was not available) and those from
outside the seed (the publisher's components or rulebook, not stated in the rule text we have,
TB-1, TB-4, TB-5, TB-22); the verified ones are the rulebook's and stay fixed. A session keeps
the table it started with (``Table.as_json``), so later edits never change past results.
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
# The unverified entries (the rules pages list them, see ``unverified``).
OVERRIDABLE = ("single_disc_numbers", "two_kind_discs", "rows", "set_bonus")
# Every entry a group may correct, in the order its edition page shows them: the unverified
# ones and those from outside the seed (``markings`` says which value is which).
CORRECTABLE = (
    "min_players",
    "single_disc_range",
    "single_disc_numbers",
    "two_kind_discs",
    "rows",
    "set_bonus",
    "parts_per_player",
    "action_cards",
)
# The entries a group could correct only from issue 40 on: a session stores them only where
# they differ from the data file's (see ``Table.as_json``).
ADDED_ENTRIES = ("min_players", "single_disc_range", "parts_per_player", "action_cards")
VERIFIED, UNVERIFIED, OUTSIDE_SEED = "verified", "unverified", "outside_seed"


@dataclass(frozen=True)
class Table:
    min_players: int
    kinds: tuple[str, ...]
    wonders: tuple[str, ...]
    single_disc_range: tuple[int, int]
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

    @property
    def most_cards(self) -> int:
        """The most cards of one kind a disc demands (TB-4), so the most of a kind a build takes."""
        return self.single_disc_range[1]

    def entries(self) -> dict[str, Any]:
        """Every correctable entry's value, as JSON."""
        return {
            "min_players": self.min_players,
            "single_disc_range": list(self.single_disc_range),
            "single_disc_numbers": list(self.single_disc_numbers),
            "two_kind_discs": [dict(disc) for disc in self.two_kind_discs],
            "rows": [list(row) for row in self.rows],
            "set_bonus": list(self.set_bonus),
            "parts_per_player": {str(value): count for value, count in self.parts_per_player},
            "action_cards": dict(self.action_cards),
        }

    def as_json(self) -> dict[str, Any]:
        """The table a session keeps: every entry, except that one added since sessions were
        first stored (``ADDED_ENTRIES``) is kept only where it differs from the data file's, so
        a session on the data file's values has the very state it had before (``load_table``
        reads a missing entry as the data file's)."""
        return {
            name: value
            for name, value in self.entries().items()
            if name not in ADDED_ENTRIES or value != raw_data()[name]["value"]
        }


@cache
def raw_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA_FILE.read_text())
    return data


def _marking(verified: bool | str) -> str:
    if verified == OUTSIDE_SEED:
        return OUTSIDE_SEED
    return VERIFIED if verified is True else UNVERIFIED


def markings(name: str) -> list[str] | str:
    """How an entry's values are known: ``verified``, ``unverified`` or ``outside_seed``, one
    for the whole entry or one per position (as the data file marks them)."""
    verified = raw_data()[name]["verified"]
    if isinstance(verified, list):
        return [_marking(mark) for mark in verified]
    return _marking(verified)


def marking_at(name: str, index: int) -> str:
    """The marking of one position of an entry."""
    marks = markings(name)
    return marks if isinstance(marks, str) else marks[index]


def unverified() -> dict[str, list[int] | bool]:
    """For each unverified entry: False if all verified, else which positions are unverified
    (a value from outside the seed is not one of them, see ``markings``)."""
    marks: dict[str, list[int] | bool] = {}
    for name in OVERRIDABLE:
        marked = markings(name)
        if isinstance(marked, list):
            marks[name] = [i for i, mark in enumerate(marked) if mark == UNVERIFIED]
        else:
            marks[name] = marked == UNVERIFIED
    return marks


def outside_seed() -> list[str]:
    """The entries with a value from outside the seed (TB-1, TB-4, TB-5, TB-22)."""
    return [name for name in CORRECTABLE if OUTSIDE_SEED in markings(name)]


def load_table(overrides: Mapping[str, Any] | None = None, *, edition_rules: bool = True) -> Table:
    """The data file's table, with a group's corrections of the values that are not verified.

    ``edition_rules`` also holds the overrides to the rules a table must keep to be played
    (TB-1, TB-4, TB-5, TB-6, TB-8, TB-22), so a group can only save a table within them (saving
    loads it so).
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
    low, high = data["single_disc_range"]
    return Table(
        min_players=data["min_players"],
        kinds=kinds,
        wonders=tuple(data["wonders"]),
        single_disc_range=(low, high),
        single_disc_numbers=tuple(data["single_disc_numbers"]),
        two_kind_discs=tuple(tuple(sorted(disc.items())) for disc in data["two_kind_discs"]),
        two_kind_variant_removes=data["two_kind_variant_removes"],
        rows=tuple((first, second) for first, second in data["rows"]),
        final_row=(data["final_row"][0], data["final_row"][1]),
        present_points=data["present_points"],
        set_bonus=tuple(data["set_bonus"]),
        # In the data file's order, whatever order a stored table kept (PostgreSQL's jsonb sorts keys).
        action_cards=tuple((card, data["action_cards"][card]) for card in raw_data()["action_cards"]["value"]),
        parts_per_player=tuple(sorted((int(value), count) for value, count in data["parts_per_player"].items())),
        score_marker_part=data["score_marker_part"],
    )


def check_edition_rules(data: Mapping[str, Any]) -> None:
    """The rules an edition table must keep to be played (checked where a group saves it)."""
    lowest, most = raw_data()["min_players"]["lowest"], data["max_players"]
    if not lowest <= data["min_players"] <= most:
        raise RuleError(
            gettext_noop("A group may start with {low} to {high} players."),
            field="min_players",
            rule="TB-1",
            params={"low": lowest, "high": most},
        )
    low, high = data["single_disc_range"]
    if not 1 <= low <= high:
        raise RuleError(
            gettext_noop("A single disc demands at least 1 card, and its most cannot be below its fewest."),
            field="single_disc_range",
            rule="TB-4",
        )
    for index, number in enumerate(data["single_disc_numbers"]):
        _check_cards(
            number,
            range(low, high + 1),
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
            _check_cards(  # some of each of its two kinds, at most as many as any disc demands
                number,
                range(1, high + 1),
                gettext_noop("A two-kind disc demands {low} to {high} cards of each of its kinds."),
                field=f"two_kind_discs[{index}].{kind}",
            )
    for index, row in enumerate(data["rows"]):
        check_row(row, field=f"rows[{index}]")
    parts = data["parts_count"]
    if sum(data["parts_per_player"].values()) != parts:
        raise RuleError(
            gettext_noop("Each player has {count} building parts: the numbers must add up to {count}."),
            field="parts_per_player",
            rule="TB-5",
            params={"count": parts},
        )
    marker = str(data["score_marker_part"])
    if data["parts_per_player"].get(marker, 0) < 1:
        raise RuleError(
            gettext_noop("One part worth {value} marks the score: keep at least one."),
            field=f"parts_per_player.{marker}",
            rule="TB-5",
            params={"value": marker},
        )
    cards = data["action_card_count"]
    if sum(data["action_cards"].values()) != cards:
        raise RuleError(
            gettext_noop("The action deck holds {count} cards: the numbers must add up to {count}."),
            field="action_cards",
            rule="TB-22",
            params={"count": cards},
        )


def _check_cards(number: int, allowed: range, template: str, *, field: str) -> None:
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
    if name not in CORRECTABLE:
        raise RuleError(gettext_noop("This value is verified and cannot be changed."), field=name)
    if isinstance(default, dict):  # counts by value or by card (TB-5, TB-22)
        if not isinstance(value, dict) or set(value) != set(default):
            raise RuleError(gettext_noop("Give {count} values."), field=name, params={"count": len(default)})
        for key in default:
            _check_shape(f"{name}.{key}", value[key], 0)
        _check_locks(name, [value[key] for key in default], list(default.values()))
        return value
    if isinstance(default, int):  # the fewest players (TB-1)
        _check_shape(name, value, 0)
        _check_locks(name, [value], [default])
        return value
    if not isinstance(value, list) or len(value) != len(default):
        raise RuleError(gettext_noop("Give {count} values."), field=name, params={"count": len(default)})
    for index, (new, old) in enumerate(zip(value, default, strict=True)):
        _check_shape(f"{name}[{index}]", new, old)
    _check_locks(name, value, default)
    return value


def _check_locks(name: str, values: Sequence[Any], defaults: Sequence[Any]) -> None:
    """Refuse a change of a verified value."""
    for index, (new, old) in enumerate(zip(values, defaults, strict=True)):
        if new != old and marking_at(name, index) == VERIFIED:
            field = f"{name}[{index}]" if isinstance(raw_data()[name]["verified"], list) else name
            raise RuleError(gettext_noop("This value is verified and cannot be changed."), field=field)


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
