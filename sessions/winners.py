"""The winner moment of a finished session: who won in a sentence, its podium, its points by
source as a chart, and the result as a few lines of text a phone can share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from scoring.engine import Standing
from sessions.games import get_game
from sessions.models import GameSession
from sessions.sources import source_label
from sessions.statistics import charts
from sessions.statistics.selectors import BREAKDOWN_KEYS
from sessions.table.shown import Row

PODIUM_PLACES = 3


@dataclass(frozen=True)
class Step:
    """A step of the podium: a place and whoever shares it."""

    rank: int
    rows: list[Row]


@dataclass(frozen=True)
class Winners:
    words: str
    podium: list[Step]
    chart: charts.Chart | None  # none when the points were typed in as totals (or there are none)
    text: str


def winners(session: GameSession, rows: Sequence[Row]) -> Winners:
    """``rows`` are the session's seats with their final standings, best first."""
    placed = [row for row in rows if row.standing is not None]
    standings = [row.standing for row in placed if row.standing is not None]
    words = winner_words(standings, {row.seat.key: row.seat.player.name for row in placed})
    podium = [
        Step(rank, [row for row in placed if row.standing and row.standing.rank == rank])
        for rank in sorted({row.standing.rank for row in placed if row.standing})
        if rank <= PODIUM_PLACES
    ]
    return Winners(
        words=words, podium=podium, chart=_points_by_source(session, placed), text=_shared_text(session, placed)
    )


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


def names_list(names: Sequence[str]) -> str:
    """``Ada``, ``Ada and Bruno``, ``Ada, Bruno and Chiara``."""
    if len(names) == 1:
        return names[0]
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def winner_words(standings: Sequence[Standing], names: Mapping[str, str]) -> str:
    """ "Ada wins with 87 points", "Ada and Bruno share the win with 87 points", or without
    points (a game decided by places) "Ada wins"; nothing before there are standings."""
    first = [standing for standing in standings if standing.rank == 1]
    if not first:
        return ""
    named = names_list([names.get(standing.seat, "?") for standing in first])
    score = first[0].score
    if len(first) == 1:
        if score is None:
            return gettext("%(name)s wins") % {"name": named}
        return ngettext("%(name)s wins with %(score)s point", "%(name)s wins with %(score)s points", score) % {
            "name": named,
            "score": score,
        }
    if score is None:
        return gettext("%(names)s share the win") % {"names": named}
    return ngettext(
        "%(names)s share the win with %(score)s point", "%(names)s share the win with %(score)s points", score
    ) % {"names": named, "score": score}
