"""Resolving a Great Project at the end of an age (SW-10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import RuleError, gettext_noop
from scoring.seven_wonders.data import data, project


@dataclass(frozen=True)
class Participant:
    name: str
    markers: int
    can_suffer_penalty: bool = True


@dataclass(frozen=True)
class Outcome:
    name: str
    outcome: str
    """``reward``, ``penalty``, ``penalty_token`` or ``none``."""
    times: int = 0
    vp: int | None = None
    """The penalty token's value, or a military reward token's value after tile 19."""


def resolve(
    slug: str,
    players: Sequence[Participant],
    *,
    markers_left: int,
    age: int,
    tiles: Sequence[int] = (),
    corrections: Mapping[str, Any] | None = None,
) -> tuple[bool, list[Outcome]]:
    """Success when no marker is left: participants get the reward once per marker. Failure:
    every player without a marker suffers the penalty, or takes the age's penalty token if
    they cannot; participants get nothing. Tile 19, if visible, lowers military reward
    tokens a step (SW-7, SW-10). Tile 22 doubles defeat tokens; no project's penalty as
    recorded gives defeat tokens, so it changes nothing here. ``corrections`` are the
    group's corrections of the card data."""
    card = project(slug, corrections)
    if age != card["age"]:
        raise RuleError(
            gettext_noop("{name} is a project of age {age}."),
            field="age",
            rule="SW-3",
            params={"name": card["name"], "age": card["age"]},
        )
    if markers_left < 0:
        raise RuleError(
            gettext_noop("Enter a number from {low} to {high}."), field="markers_left", params={"low": 0, "high": 99}
        )
    success = markers_left == 0
    results = []
    for player in players:
        if success:
            outcome = (
                Outcome(player.name, "reward", player.markers, _reward_vp(card, tiles))
                if player.markers
                else Outcome(player.name, "none")
            )
        elif player.markers:
            outcome = Outcome(player.name, "none")
        elif player.can_suffer_penalty:
            outcome = Outcome(player.name, "penalty", 1)
        else:
            outcome = Outcome(player.name, "penalty_token", 1, data()["penalty_token_vp"]["value"][str(age)])
        results.append(outcome)
    return success, results


def _reward_vp(card: dict[str, Any], tiles: Sequence[int]) -> int | None:
    reward = card["reward"]
    if reward["kind"] != "military_victory":
        return None
    vp: int = reward["vp"]
    if 19 in tiles:
        vp = data()["tile_19_victory_tokens"]["value"][str(vp)]
    return vp
