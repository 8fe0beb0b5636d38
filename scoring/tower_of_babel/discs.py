"""Dealing the discs (TB-8) and scoring the discs a player holds (TB-7, TB-20)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.errors import RuleError, gettext_noop
from scoring.tower_of_babel.table import Table

Disc = Mapping[str, int]
"""A disc: the cards it demands per kind (one kind, or two for a two-kind disc)."""

HELD_CARDS = ("building_disc_bonus", "five_points")
"""The action cards that score when held at the end (TB-20 step 3)."""


def check_held_card_names(cards: Mapping[str, object], *, field: str) -> None:
    """Only the held cards that score at the end can be declared (TB-20 step 3)."""
    for name in cards:
        if name not in HELD_CARDS:
            raise RuleError(
                gettext_noop("Only the Building disc bonus and 5 victory points cards score at the end."),
                field=f"{field}.{name}",
                rule="TB-20",
            )


def disc_set(table: Table, *, two_kind_variant: bool) -> list[dict[str, int]]:
    """The 24 discs in play: 6 per kind, or with the variant 5 per kind plus the 4 two-kind discs."""
    if two_kind_variant and table.two_kind_variant_removes not in table.single_disc_numbers:
        # Only a table stored before the edition check (``load_table``) can lack it.
        raise RuleError(
            gettext_noop("The two-kind variant takes out a single disc of {number} of each kind: keep one {number}."),
            field="single_disc_numbers",
            rule="TB-8",
            params={"number": table.two_kind_variant_removes},
        )
    discs: list[dict[str, int]] = []
    for kind in table.kinds:
        numbers = list(table.single_disc_numbers)
        if two_kind_variant:
            numbers.remove(table.two_kind_variant_removes)
        discs.extend({kind: number} for number in numbers)
    if two_kind_variant:
        discs.extend(dict(disc) for disc in table.two_kind_discs)
    return discs


def deal(table: Table, *, two_kind_variant: bool, seed: int) -> dict[str, list[dict[str, int]]]:
    """Three discs face up on each of the 8 wonders, shuffled reproducibly from the seed."""
    discs = disc_set(table, two_kind_variant=two_kind_variant)
    random.Random(seed).shuffle(discs)
    return {wonder: discs[3 * i : 3 * i + 3] for i, wonder in enumerate(table.wonders)}


@dataclass(frozen=True)
class DiscScore:
    total: int
    sets: dict[str, int]
    assignment: list[str]
    action_card_points: int


def score_discs(
    table: Table,
    discs: Sequence[Sequence[str]],
    *,
    building_disc_bonus: int = 0,
    five_points: int = 0,
) -> DiscScore:
    """Disc-set bonus with each two-kind disc counted for the kind that maximises the total.

    Ties between equally good assignments go to the first in input order, so the answer is
    deterministic. Action cards: +1 per disc held for each Building disc bonus, +5 for each
    5 victory points card (TB-20 step 3).
    """
    _check_discs(table, discs)
    choices = [list(disc) for disc in discs]
    best: tuple[int, list[str]] | None = None
    for assignment in itertools.product(*choices):
        counts = Counter(assignment)
        total = sum(table.bonus(counts[kind]) for kind in table.kinds)
        if best is None or total > best[0]:
            best = (total, list(assignment))
    assert best is not None
    counts = Counter(best[1])
    sets = {kind: table.bonus(counts[kind]) for kind in table.kinds}
    action_points = building_disc_bonus * len(discs) + 5 * five_points
    return DiscScore(total=best[0] + action_points, sets=sets, assignment=best[1], action_card_points=action_points)


def _check_discs(table: Table, discs: Sequence[Sequence[str]]) -> None:
    singles: Counter[str] = Counter()
    doubles = 0
    unused_doubles = [tuple(kind for kind, _number in disc) for disc in table.two_kind_discs]
    for index, disc in enumerate(discs):
        field = f"discs[{index}]"
        if not isinstance(disc, list | tuple) or not 1 <= len(disc) <= 2 or len(set(disc)) != len(disc):
            raise RuleError(gettext_noop("A disc lists one kind, or two different kinds."), field=field, rule="TB-4")
        for kind in disc:
            if kind not in table.kinds:
                raise RuleError(
                    gettext_noop("{kind} is not a kind: camel, crane, ship or stonemason."),
                    field=field,
                    rule="TB-2",
                    params={"kind": kind},
                )
        if len(disc) == 1:
            singles[disc[0]] += 1
        elif tuple(sorted(disc)) in unused_doubles:
            unused_doubles.remove(tuple(sorted(disc)))
            doubles += 1
        else:
            raise RuleError(
                gettext_noop("No two-kind disc pairs these kinds, or it is listed twice."), field=field, rule="TB-4"
            )
    too_many = [kind for kind, count in singles.items() if count > len(table.single_disc_numbers)]
    if too_many:
        raise RuleError(
            gettext_noop("There are only {count} single discs of each kind."),
            field="discs",
            rule="TB-4",
            params={"count": len(table.single_disc_numbers)},
        )
    variant_singles = len(table.single_disc_numbers) - 1
    if doubles and any(count > variant_singles for count in singles.values()):
        raise RuleError(
            gettext_noop("With two-kind discs there are only {count} single discs of each kind."),
            field="discs",
            rule="TB-8",
            params={"count": variant_singles},
        )
