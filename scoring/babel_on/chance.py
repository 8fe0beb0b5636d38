"""The chance to draw at least k blocks of a colour when drawing n from the bag: the exact
hypergeometric distribution, as fractions."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from scoring.errors import RuleError, gettext_noop


def draw_distribution(total: int, mine: int, drawn: int) -> list[Fraction]:
    """P(exactly k of ``mine`` among ``drawn`` blocks drawn from ``total``), k = 0..drawn."""
    _check(total, mine, drawn)
    ways = comb(total, drawn)
    return [Fraction(comb(mine, k) * comb(total - mine, drawn - k), ways) for k in range(drawn + 1)]


def chance_at_least(total: int, mine: int, drawn: int, at_least: int) -> Fraction:
    if at_least < 0:
        raise RuleError(gettext_noop("Ask for at least 0 blocks."), field="at_least")
    return sum(draw_distribution(total, mine, drawn)[at_least:], Fraction(0))


def _check(total: int, mine: int, drawn: int) -> None:
    if not 0 <= mine <= total:
        raise RuleError(
            gettext_noop("The bag holds {total} blocks in all."), field="mine", rule="BO-5", params={"total": total}
        )
    if not 0 <= drawn <= total:
        raise RuleError(
            gettext_noop("Draw 0 to {total} blocks: that is what the bag holds."),
            field="drawn",
            rule="BO-5",
            params={"total": total},
        )
