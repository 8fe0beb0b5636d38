"""The end-of-game score sheet and the ranking (SW-8, SW-12..SW-14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.errors import RuleError, gettext_noop
from scoring.ranking import competition_ranks
from scoring.seven_wonders.data import data
from scoring.seven_wonders.science import best_science

COLUMNS = (
    "military",
    "treasury",
    "wonder",
    "civilian",
    "science",
    "commercial",
    "guilds",
    "leaders",
    "cities",
    "babel_tiles",
    "great_projects",
)
TYPED = ("military", "wonder", "civilian", "commercial", "guilds", "leaders", "cities", "great_projects")
SCIENCE = ("tablet", "compass", "gear", "wild", "archives")
# End-of-game Great Project rewards (SW-10, SW-12): tokens held, and what each counts.
REWARD_COUNTS = ("smelter", "wonder_stages", "menagerie", "guilds_around")


@dataclass(frozen=True)
class Sheet:
    name: str
    coins: int
    columns: dict[str, int]
    science: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.columns.values())


def score_sheet(entry: Mapping[str, object], *, field: str = "player") -> Sheet:
    """One player's column points from the counts a table types in."""
    coins = _number(entry.get("coins"), f"{field}.coins", low=0, required=True)
    columns = {name: _number(entry.get(name, 0), f"{field}.{name}", low=-200) for name in TYPED}
    raw_science = entry.get("science") or {}
    if not isinstance(raw_science, Mapping):
        raise RuleError(gettext_noop("Give the science symbols by name."), field=f"{field}.science")
    counts = {name: _number(raw_science.get(name, 0), f"{field}.science.{name}", low=0) for name in SCIENCE}
    science = best_science(
        counts["tablet"], counts["compass"], counts["gear"], wild=counts["wild"], archives=counts["archives"]
    )
    tiles = _number(entry.get("babel_tiles", 0), f"{field}.babel_tiles", low=0, high=3, rule="SW-8")
    rewards = {name: _number(entry.get(name, 0), f"{field}.{name}", low=0) for name in REWARD_COUNTS}
    # Smelter: +1 per wonder stage built; Menagerie: +1 per guild you and your neighbours have.
    columns["great_projects"] += (
        rewards["smelter"] * rewards["wonder_stages"] + rewards["menagerie"] * rewards["guilds_around"]
    )
    columns |= {
        "treasury": coins // 3,  # SW-12: 1 VP per 3 coins, rounded down
        "science": science.points,
        "babel_tiles": data()["babel_tile_points"]["value"][tiles],
    }
    return Sheet(
        name=str(entry.get("name", "")),
        coins=coins,
        columns={name: columns[name] for name in COLUMNS},
        science=science.counts,
    )


def rank_sheets(sheets: Sequence[Sheet]) -> dict[str, int]:
    """Competition ranks by total, then coins; still tied: shared (SW-14)."""
    return competition_ranks({sheet.name: (sheet.total, sheet.coins) for sheet in sheets})


def _number(
    raw: object, field: str, *, low: int, high: int = 999, rule: str | None = None, required: bool = False
) -> int:
    if raw is None and not required:
        return 0
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise RuleError(gettext_noop("Enter a whole number."), field=field)
    if not low <= raw <= high:
        raise RuleError(
            gettext_noop("Enter a number from {low} to {high}."),
            field=field,
            rule=rule,
            params={"low": low, "high": high},
        )
    return raw
