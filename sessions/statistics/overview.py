"""Reads of the overview figures that lead the statistics pages (issue 44): a group's and a
game's leaders, read from the rows the statistics keep, one query each whatever the size.

A player's own figures (plays, streaks, favourite game, rival, nemesis...) are those of
``selectors.player_statistics``; a game's totals are those of ``selectors.game_statistics``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User

from sessions.games import game_name
from sessions.models import GameStatistics, Group, Player, PlayerRating
from sessions.statistics.ratings import MIN_RATED_PLAYS, OVERALL
from sessions.statistics.selectors import GameStatisticsView, SeatLine, rate


@dataclass(frozen=True)
class Leader:
    """The player who leads a figure, with their plays and wins, and how many others share it."""

    player_id: int
    name: str
    value: float
    plays: int
    wins: int
    others: int = 0  # the other players with the same value

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)


@dataclass(frozen=True)
class Row:
    """A player's rating row, as the leaders are read from it."""

    player_id: int
    name: str
    plays: int
    wins: int
    best: int | None = None
    streak: int = 0
    longest_streak: int = 0
    last_played: datetime | None = None
    hidden: bool = False  # hidden from the leaderboards: counted, never named a leader


def leader(
    rows: Iterable[Row], value: Callable[[Row], float | None], *, fewer_plays_first: bool = False
) -> Leader | None:
    """The row with the highest value (None and 0 lead nothing); ties go to the fewer plays
    when asked (the same wins in fewer games), then by name."""
    scored = [(found, row) for row in rows if not row.hidden and (found := value(row))]
    if not scored:
        return None
    top = max(found for found, _row in scored)
    tied = [row for found, row in scored if found == top]
    first = min(tied, key=lambda r: (r.plays if fewer_plays_first else 0, r.name.lower(), r.player_id))
    return Leader(first.player_id, first.name, top, first.plays, first.wins, others=len(tied) - 1)


# --- the group -----------------------------------------------------------------------------


@dataclass
class GroupOverview:
    plays: int = 0  # finished games counted by the statistics
    players: int = 0  # players with at least one of them
    last_played: datetime | None = None
    favourite: tuple[str, str, int] | None = None  # (game, its name, plays): the game played most
    games: int = 0  # how many of the four games the group has played
    most_plays: Leader | None = None
    most_wins: Leader | None = None
    best_win_rate: Leader | None = None  # among the players with MIN_RATED_PLAYS plays
    longest_streak: Leader | None = None
    current_streak: Leader | None = None


def group_overview(group: Group) -> GroupOverview:
    """Two queries: the games' totals rows and the players' overall rating rows."""
    overview = GroupOverview()
    played = sorted(
        (
            (game, plays)
            for game, plays in GameStatistics.objects.filter(group=group).values_list("game", "plays")
            if plays
        ),
        key=lambda pair: (-pair[1], game_name(pair[0])),
    )
    overview.plays, overview.games = sum(plays for _game, plays in played), len(played)
    if played:
        game, plays = played[0]
        overview.favourite = (game, game_name(game), plays)
    rows = [
        Row(*values)
        for values in PlayerRating.objects.filter(player__group=group, game=OVERALL, plays__gt=0).values_list(
            "player_id",
            "player__name",
            "plays",
            "wins",
            "best",
            "streak",
            "longest_streak",
            "last_played",
            "player__hidden_from_leaderboards",
        )
    ]
    overview.players = len(rows)
    overview.last_played = max((row.last_played for row in rows if row.last_played), default=None)
    overview.most_plays = leader(rows, lambda r: r.plays)
    overview.most_wins = leader(rows, lambda r: r.wins, fewer_plays_first=True)
    regulars = [row for row in rows if row.plays >= MIN_RATED_PLAYS]
    overview.best_win_rate = leader(regulars, lambda r: rate(r.wins, r.plays))
    overview.longest_streak = leader(rows, lambda r: r.longest_streak)
    overview.current_streak = leader(rows, lambda r: r.streak)
    return overview


# --- a game --------------------------------------------------------------------------------


@dataclass
class GameOverview:
    players: int = 0  # the group's players who have played the game
    results: int = 0  # a result a player a game: results / plays is the table's usual size
    most_plays: Leader | None = None
    most_wins: Leader | None = None
    best_score: Leader | None = None
    average_score: float | None = None  # over every result with a score, won or not
    scores: int = 0  # how many results have a score
    first_seat: SeatLine | None = None  # the first player in playing order


def game_overview(view: GameStatisticsView) -> GameOverview:
    """One query: the game's rating rows of the group's players; the rest is the game's
    totals row, which ``view`` has read."""
    overview = GameOverview()
    rows = [
        Row(*values[:5], hidden=values[5])
        for values in PlayerRating.objects.filter(player__group=view.group, game=view.game, plays__gt=0).values_list(
            "player_id", "player__name", "plays", "wins", "best", "player__hidden_from_leaderboards"
        )
    ]
    overview.players, overview.results = len(rows), sum(row.plays for row in rows)
    overview.most_plays = leader(rows, lambda r: r.plays)
    overview.most_wins = leader(rows, lambda r: r.wins, fewer_plays_first=True)
    overview.best_score = _best_score(rows)
    overview.scores = sum(count for _score, count in view.scores)
    if overview.scores:
        overview.average_score = round(sum(score * count for score, count in view.scores) / overview.scores, 1)
    overview.first_seat = next((seat for seat in view.seats if seat.seat == 0 and seat.plays), None)
    return overview


def _best_score(rows: list[Row]) -> Leader | None:
    """The best score (a negative or zero one too: a score is no count) and who made it."""
    scored = [row for row in rows if row.best is not None and not row.hidden]
    if not scored:
        return None
    top = max(row.best for row in scored if row.best is not None)
    tied = [row for row in scored if row.best == top]
    first = min(tied, key=lambda r: (r.name.lower(), r.player_id))
    return Leader(first.player_id, first.name, top, first.plays, first.wins, others=len(tied) - 1)


# --- the reader ----------------------------------------------------------------------------


def own_players(group: Group, user: User | AnonymousUser) -> set[int]:
    """The players of the group who are the user (the leaderboard highlights them): one query."""
    if not user.is_authenticated:
        return set()
    return set(Player.objects.filter(group=group, user=user).values_list("pk", flat=True))
