"""The expansion's card data (single fan source for the cards, kept as data)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from scoring.errors import RuleError, gettext_noop

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "seven_wonders_babel.json"


@cache
def data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DATA_FILE.read_text())
    return loaded


# What a group may correct on a card (the card data is single-source, SW-7, SW-11).
PROJECT_TEXTS = ("cost", "penalty", "reward")
PROJECT_NUMBERS = ("reward_vp", "penalty_defeat_tokens")
MAX_DEFEAT_TOKENS = 10
MAX_TEXT = 200


def project(slug: str, corrections: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A Great Project card, with the group's corrections of it."""
    for card in data()["projects"]["value"]:
        if card["slug"] == slug:
            fixed = (corrections or {}).get("projects", {}).get(slug, {})
            reward = {**card["reward"], **({"text": fixed["reward"]} if "reward" in fixed else {})}
            if "reward_vp" in fixed:
                reward["vp"] = fixed["reward_vp"]
            numbers = {k: fixed[k] for k in ("cost", "penalty", "penalty_defeat_tokens") if k in fixed}
            return {**card, **numbers, "reward": reward}
    raise RuleError(
        gettext_noop("There is no Great Project called {slug}."), field="project", rule="SW-11", params={"slug": slug}
    )


def tile_effects(corrections: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Each tile's effect text by number ("1".."24"), with the group's corrections."""
    return {**data()["tiles"]["value"], **(corrections or {}).get("tiles", {})}


def tiles_outside_seed() -> list[int]:
    """The tiles whose one-by-one effect is from outside the seed (SW-7: seed 002 groups them
    but never says which is which); a group corrects them like the others."""
    return list(data()["tiles"]["outside_seed"])


def check_corrections(raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """A group's card corrections, checked: ``{"tiles": {"9": text}, "projects": {slug:
    {"cost"|"penalty"|"reward": text, "reward_vp": n, "penalty_defeat_tokens": n}}}``."""
    raw = raw or {}
    if not isinstance(raw, Mapping) or set(raw) - {"tiles", "projects"}:
        raise RuleError(gettext_noop("Correct tiles or projects."), field="table", rule="SW-11")
    tiles = raw.get("tiles", {})
    if not isinstance(tiles, Mapping):
        raise RuleError(gettext_noop("Correct tiles or projects."), field="table.tiles", rule="SW-7")
    for number, text in tiles.items():
        if number not in data()["tiles"]["value"]:
            raise RuleError(
                gettext_noop("There is no tile {tile}."), field=f"tiles.{number}", rule="SW-7", params={"tile": number}
            )
        _check_text(text, f"tiles.{number}", "SW-7")
    projects = raw.get("projects", {})
    if not isinstance(projects, Mapping):
        raise RuleError(gettext_noop("Correct tiles or projects."), field="table.projects", rule="SW-11")
    for slug, fixed in projects.items():
        card = project(slug)
        if not isinstance(fixed, Mapping) or set(fixed) - {*PROJECT_TEXTS, *PROJECT_NUMBERS}:
            raise RuleError(
                gettext_noop("A project's cost, penalty and reward can be corrected."),
                field=f"projects.{slug}",
                rule="SW-11",
            )
        for key in set(fixed) & set(PROJECT_TEXTS):
            _check_text(fixed[key], f"projects.{slug}.{key}", "SW-11")
        if "reward_vp" in fixed:
            vp = fixed["reward_vp"]
            if card["reward"]["kind"] != "military_victory" or not isinstance(vp, int) or not 0 <= vp <= 10:
                raise RuleError(
                    gettext_noop("Only a military victory reward has points: 0 to 10."),
                    field=f"projects.{slug}.reward_vp",
                    rule="SW-10",
                )
        if "penalty_defeat_tokens" in fixed:
            tokens = fixed["penalty_defeat_tokens"]
            if isinstance(tokens, bool) or not isinstance(tokens, int) or not 0 <= tokens <= MAX_DEFEAT_TOKENS:
                raise RuleError(
                    gettext_noop("A penalty gives 0 to {max} defeat tokens."),
                    field=f"projects.{slug}.penalty_defeat_tokens",
                    rule="SW-10",
                    params={"max": MAX_DEFEAT_TOKENS},
                )
    return {"tiles": dict(tiles), "projects": {slug: dict(fixed) for slug, fixed in projects.items()}}


def _check_text(text: Any, field: str, rule: str) -> None:
    if not isinstance(text, str) or not 0 < len(text.strip()) <= MAX_TEXT:
        raise RuleError(
            gettext_noop("Write the card's text: 1 to {max} characters."),
            field=field,
            rule=rule,
            params={"max": MAX_TEXT},
        )


def markers_for(players: int) -> int:
    """Participation markers put on a project at the start of an age (SW-3)."""
    table = data()["markers"]["value"]
    return int(table.get(str(players), players - 1))
