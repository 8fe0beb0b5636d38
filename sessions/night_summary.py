"""The night's summary (issue 44, point 4): who won what tonight.

"Tonight: 4 games, Sofia 2 wins", each game of the night with its winners, and the night's
winner: whoever won the most of its finished games. Read from the stored Results in one
query, whatever the number of games: everyone ranked 1 has won (a shared first place is a
win for each, as in the statistics). Shown on the night's page, and on the phones and the
table display once the night's last game is over (``summary_of_a_night_over``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import FilteredRelation, Q
from django.utils.translation import gettext, ngettext

from scoring import session as core
from sessions.games import game_name
from sessions.models import GameSession
from sessions.winners import names_list


@dataclass(frozen=True)
class NightGame:
    """A game of the night, in the order they were set up: its winners' names once finished
    (several when they share the first place), none otherwise."""

    session_id: int
    name: str
    status: str
    winners: tuple[str, ...]

    @property
    def winner_names(self) -> str:
        return names_list(self.winners) if self.winners else ""


@dataclass(frozen=True)
class NightSummary:
    games: list[NightGame]
    # The players with the most wins (several when they tie), and how many each has.
    leaders: tuple[str, ...]
    most_wins: int

    @property
    def finished(self) -> int:
        return sum(game.status == core.FINISHED for game in self.games)

    @property
    def abandoned(self) -> int:
        return sum(game.status == core.ABANDONED for game in self.games)

    @property
    def under_way(self) -> int:
        """The games not over yet: set up, being played or being scored."""
        return sum(game.status in core.OPEN_STATUSES for game in self.games)

    @property
    def over(self) -> bool:
        """Whether the night's last game is over: every game finished or abandoned, one at
        least finished (the phones and the table display show the summary from then on)."""
        return self.finished > 0 and self.under_way == 0

    @property
    def headline(self) -> str:
        """ "Tonight: 4 games, Sofia 2 wins"; "Tonight: 3 games, Ada and Bruno 1 win each";
        "Tonight: no game finished"."""
        if not self.finished:
            return gettext("Tonight: no game finished")
        games = ngettext("Tonight: %(count)s game", "Tonight: %(count)s games", self.finished) % {
            "count": self.finished
        }
        names = names_list(self.leaders)
        if len(self.leaders) == 1:
            wins = ngettext("%(name)s %(count)s win", "%(name)s %(count)s wins", self.most_wins)
        else:
            wins = ngettext("%(name)s %(count)s win each", "%(name)s %(count)s wins each", self.most_wins)
        leaders = wins % {"name": names, "count": self.most_wins}
        return gettext("%(games)s, %(leaders)s") % {"games": games, "leaders": leaders}

    @property
    def winner_words(self) -> str:
        """Who won the night (or leads it while a game is under way), or why nobody has."""
        if not self.finished:
            if self.under_way:
                return gettext("No game is finished yet.")
            return gettext("No game was finished tonight: nobody won the night.")
        names = names_list(self.leaders)
        if self.under_way:
            if len(self.leaders) == 1:
                return gettext("%(name)s leads the night so far.") % {"name": names}
            return gettext("%(names)s share the lead so far.") % {"names": names}
        if len(self.leaders) == 1:
            return gettext("%(name)s wins the night!") % {"name": names}
        return gettext("%(names)s share the night's win: a tie.") % {"names": names}

    @property
    def rest(self) -> list[str]:
        """What else the night holds besides its finished games: "1 game abandoned", "2 games
        still being played"."""
        parts = []
        if self.abandoned:
            parts.append(
                ngettext("%(count)s game abandoned", "%(count)s games abandoned", self.abandoned)
                % {"count": self.abandoned}
            )
        if self.under_way:
            parts.append(
                ngettext("%(count)s game still being played", "%(count)s games still being played", self.under_way)
                % {"count": self.under_way}
            )
        return parts


def night_summary(night_id: int) -> NightSummary:
    """The summary of the night's games, from its sessions and their first places: one query."""
    rows = (
        GameSession.objects.filter(night_id=night_id)
        .annotate(first=FilteredRelation("results", condition=Q(results__rank=1)))
        .order_by("created_at", "id", "first__player__name", "first__player_id")
        .values_list("pk", "game", "status", "first__player_id", "first__player__name")
    )
    games: dict[int, NightGame] = {}
    wins: Counter[int] = Counter()
    names: dict[int, str] = {}
    for pk, game, status, player_id, name in rows:
        if pk not in games:
            games[pk] = NightGame(pk, game_name(game), status, ())
        # A finished game abandoned afterwards keeps its Results, but counts as abandoned.
        if player_id is not None and status == core.FINISHED:
            found = games[pk]
            games[pk] = NightGame(pk, found.name, status, (*found.winners, name))
            wins[player_id] += 1
            names[player_id] = name
    most = max(wins.values(), default=0)
    leaders = tuple(sorted((names[p] for p, count in wins.items() if count == most), key=str.casefold))
    return NightSummary(games=list(games.values()), leaders=leaders, most_wins=most)


def summary_of_a_night_over(night_id: int) -> NightSummary | None:
    """The night's summary once its last game is over (``NightSummary.over``), else None: what
    the phones and the table display show. Read it only when the game they show is over."""
    summary = night_summary(night_id)
    return summary if summary.over else None
