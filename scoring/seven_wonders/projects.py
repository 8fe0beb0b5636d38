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
    takes_no_defeat_tokens: bool = False
    """Tomyris (Leaders): "Si Tomyris doit prendre des jetons Défaite suite aux pénalités des
    Grands Projets, elle n'en prend pas" (seed 002)."""


@dataclass(frozen=True)
class Outcome:
    name: str
    outcome: str
    """``reward``, ``penalty``, ``penalty_token`` or ``none``."""
    times: int = 0
    vp: int | None = None
    """The penalty token's value, or a military reward token's value after tile 19."""
    defeat_tokens: int = 0
    """Military defeat tokens a penalty gives, after tile 22."""


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
    they cannot; participants get nothing. The tiles' effects on conflict tokens apply to
    the project's tokens too (SW-10, seed 002: "les effets des tuiles 19 et 22 s'appliquent
    également aux jetons Conflits des Grands Projets"): tile 19, if visible, lowers military
    reward tokens a step; tile 22 multiplies the defeat tokens a penalty gives (the card
    data says how many a penalty gives: none in the fan data, a group can correct a card).
    No marker left while nobody holds one is refused: someone took them. ``corrections``
    are the group's corrections of the card data."""
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
    if success and not any(player.markers for player in players):
        raise RuleError(
            gettext_noop("No marker is left on the card, yet nobody holds one: say who took them."),
            field="markers_left",
            rule="SW-10",
        )
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
            tokens = 0 if player.takes_no_defeat_tokens else _penalty_defeat_tokens(card, tiles)
            outcome = Outcome(player.name, "penalty", 1, defeat_tokens=tokens)
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
        steps: dict[str, int] = data()["tile_19_victory_tokens"]["value"]
        # A token drops a step (5 to 3, 3 to 1, 1 to 0). A group's corrected value that is no
        # token (2, 4, 7: the texts are silent) drops to the next token below it.
        vp = steps[str(vp)] if str(vp) in steps else max([0, *(int(token) for token in steps if int(token) < vp)])
    return vp


def _penalty_defeat_tokens(card: dict[str, Any], tiles: Sequence[int]) -> int:
    """The defeat tokens a project's penalty gives, each one multiplied by tile 22 (SW-7:
    "each defeat gives 2 defeat tokens") while it is visible (SW-10)."""
    tokens: int = card.get("penalty_defeat_tokens", 0)
    if tokens and 22 in tiles:
        tokens *= data()["tile_22_defeat_tokens"]["value"]
    return tokens
