"""The winner moment of a finished session: its podium, its points by source as a chart, and
the result as a few lines of text a phone can share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from sessions.games import get_game
from sessions.models import GameSession
from sessions.sources import source_label
from sessions.statistics import charts
from sessions.statistics.selectors import BREAKDOWN_KEYS

if TYPE_CHECKING:
    from sessions.live import Row

PODIUM_PLACES = 3


@dataclass(frozen=True)
class Step:
    """A step of the podium: a place and whoever shares it."""

    rank: int
    rows: list[Row]


@dataclass(frozen=True)
class Winners:
    podium: list[Step]
    chart: charts.Chart | None  # none when the points were typed in as totals (or there are none)
    text: str


def winners(session: GameSession, rows: Sequence[Row]) -> Winners:
    """``rows`` are the session's seats with their final standings, best first."""
    placed = [row for row in rows if row.standing is not None]
    podium = [
        Step(rank, [row for row in placed if row.standing and row.standing.rank == rank])
        for rank in sorted({row.standing.rank for row in placed if row.standing})
        if rank <= PODIUM_PLACES
    ]
    return Winners(podium=podium, chart=_points_by_source(session, placed), text=_shared_text(session, placed))


def _points_by_source(session: GameSession, rows: Sequence[Row]) -> charts.Chart | None:
    keys = [key for key in BREAKDOWN_KEYS.get(session.game, ()) if key != "coins"]
    breakdowns = [(row.seat.player.name, row.standing.breakdown if row.standing else {}) for row in rows]
    used = [key for key in keys if any(isinstance(b.get(key), int) and b.get(key) for _n, b in breakdowns)]
    if not used:
        return None
    labels = [source_label(session.game, key) for key in used]
    return charts.stacked_hbar_chart(
        chart_id=f"points-by-source-{session.pk}",
        title=_("Points by source"),
        description=_("Where each player's points came from."),
        bars=[
            (name, [(label, int(b.get(key) or 0)) for key, label in zip(used, labels, strict=True)])
            for name, b in breakdowns
        ],
        headers=(_("Player"), *labels, _("Total")),
    )


def _shared_text(session: GameSession, rows: Sequence[Row]) -> str:
    """ "Tower of Babel, 23 November 2026", then a line a player ("1. Chiara 52"), then the app."""
    lines = [f"{get_game(session.game).name}, {date_format(session.night.date, 'DATE_FORMAT')}"]
    for row in rows:
        assert row.standing is not None
        score = "" if row.standing.score is None else f" {row.standing.score}"
        lines.append(f"{row.standing.rank}. {row.seat.player.name}{score}")
    lines.append(_("Babel Companion"))
    return "\n".join(lines)
