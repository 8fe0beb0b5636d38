"""Reads of the statistics, for the pages and the API. A few queries each, whatever the size.

The player page reads the player's ratings and rating history (precomputed rows) and the
Results of the sessions the player was in (one query), from which it works out scores,
streaks, opponents and head-to-head records. The game page reads the game's totals row;
the leaderboard reads the ratings, plus the monthly tallies for a period.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db.models import F, Sum
from django.utils import timezone

from scoring import session as core
from scoring.seven_wonders.sheet import COLUMNS as SHEET_COLUMNS
from sessions.games import GAMES, SEVEN_WONDERS, TOWER_OF_BABEL, game_name
from sessions.models import GameStatistics, Group, Player, PlayerMonth, PlayerRating, RatingHistory, Result
from sessions.statistics.ratings import MIN_RATED_PLAYS, OVERALL, conservative

# A rival or nemesis needs this many shared plays (the rule).
MIN_SHARED_PLAYS = 3
REGULAR_OPPONENTS = 5
PERIODS = ("all", "year", "month")
ORDERS = ("rating", "win_rate")


def shown_rating(mu: float, sigma: float, plays: int) -> float | None:
    """The conservative rating, once the player has enough rated plays; else None."""
    return round(conservative(mu, sigma), 2) if plays >= MIN_RATED_PLAYS else None


def rate(wins: int, plays: int) -> float | None:
    return round(wins / plays, 4) if plays else None


# --- player ------------------------------------------------------------------------------


@dataclass
class GameLine:
    game: str
    name: str
    plays: int = 0
    wins: int = 0
    best: int | None = None
    worst: int | None = None
    score_sum: int = 0
    scored: int = 0
    rating: float | None = None
    rated_plays: int = 0

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)

    @property
    def average(self) -> float | None:
        return round(self.score_sum / self.scored, 1) if self.scored else None


@dataclass
class Opponent:
    player_id: int
    name: str
    shared: int = 0
    wins: int = 0  # sessions where the player beat this opponent
    losses: int = 0
    draws: int = 0


@dataclass
class HistoryPoint:
    played_at: datetime
    game: str
    rating: float  # conservative, in the session's game
    overall: float  # conservative, over all games


@dataclass
class PlayerStatistics:
    player: Player
    plays: int = 0
    wins: int = 0
    last_played: datetime | None = None
    current_streak: int = 0
    longest_streak: int = 0
    rating: float | None = None
    rated_plays: int = 0
    games: list[GameLine] = field(default_factory=list)
    opponents: list[Opponent] = field(default_factory=list)
    rival: Opponent | None = None
    nemesis: Opponent | None = None
    history: list[HistoryPoint] = field(default_factory=list)

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)

    @property
    def regular_opponents(self) -> list[Opponent]:
        return sorted(self.opponents, key=lambda o: (-o.shared, o.name))[:REGULAR_OPPONENTS]


def player_statistics(player: Player) -> PlayerStatistics:
    """Three queries: ratings, the Results of the player's sessions, the rating history."""
    stats = PlayerStatistics(player=player)
    lines: dict[str, GameLine] = {}
    for row in PlayerRating.objects.filter(player=player):
        if row.game == OVERALL:
            stats.rating, stats.rated_plays = shown_rating(row.mu, row.sigma, row.plays), row.plays
        else:
            lines[row.game] = GameLine(
                game=row.game,
                name=game_name(row.game),
                rating=shown_rating(row.mu, row.sigma, row.plays),
                rated_plays=row.plays,
            )
    rows = (
        # "The sessions the player was in" as a subquery: the planner starts from the player's results.
        Result.objects.filter(
            session_id__in=Result.objects.filter(player=player).values("session_id"), session__status=core.FINISHED
        )
        .order_by("session__finished_at", "session_id")
        .values_list(
            "session_id", "session__game", "session__finished_at", "player_id", "player__name", "rank", "score"
        )
    )
    by_session: dict[int, list[tuple[int, str, int, int | None]]] = defaultdict(list)
    sessions: list[tuple[int, str, datetime | None]] = []
    for session_id, game, finished_at, player_id, name, rank, score in rows:
        if session_id not in by_session:
            sessions.append((session_id, game, finished_at))
        by_session[session_id].append((player_id, name, rank, score))
    opponents: dict[int, Opponent] = {}
    streak = 0
    for session_id, game, finished_at in sessions:
        entries = by_session[session_id]
        mine = next(e for e in entries if e[0] == player.pk)
        rank, score = mine[2], mine[3]
        line = lines.setdefault(game, GameLine(game=game, name=game_name(game)))
        won = rank == 1
        stats.plays += 1
        stats.wins += won
        line.plays += 1
        line.wins += won
        if score is not None:
            line.score_sum += score
            line.scored += 1
            line.best = score if line.best is None else max(line.best, score)
            line.worst = score if line.worst is None else min(line.worst, score)
        stats.last_played = finished_at
        streak = streak + 1 if won else 0
        stats.longest_streak = max(stats.longest_streak, streak)
        for other_id, other_name, other_rank, _score in entries:
            if other_id == player.pk:
                continue
            opponent = opponents.setdefault(other_id, Opponent(player_id=other_id, name=other_name))
            opponent.shared += 1
            # Pairwise: you beat everyone you finish above; a shared first place is a win for each.
            if rank < other_rank or rank == other_rank == 1:
                opponent.wins += 1
            elif rank > other_rank:
                opponent.losses += 1
            else:
                opponent.draws += 1
    stats.current_streak = streak
    stats.games = sorted(lines.values(), key=lambda g: (-g.plays, g.name))
    stats.opponents = sorted(opponents.values(), key=lambda o: o.name.lower())
    qualified = [o for o in stats.opponents if o.shared >= MIN_SHARED_PLAYS]
    # The nemesis beats you most often (and more often than you beat them); the rival is
    # the opponent whose record against you is closest to even, the more shared plays the better.
    beaten_by = [o for o in qualified if o.losses > o.wins]
    if beaten_by:
        stats.nemesis = max(beaten_by, key=lambda o: (o.losses / o.shared, o.shared))
    if qualified:
        stats.rival = min(qualified, key=lambda o: (abs(o.wins - o.losses) / o.shared, -o.shared, o.name))
    by_year = RatingHistory.objects.filter(player=player).order_by("year").values_list("points", flat=True)
    points = [point for year in by_year for point in year]
    stats.history = [
        HistoryPoint(
            played_at=datetime.fromisoformat(played_at),
            game=game,
            rating=round(conservative(mu, sigma), 2),
            overall=round(conservative(overall_mu, overall_sigma), 2),
        )
        for played_at, _session, game, mu, sigma, overall_mu, overall_sigma in points
    ]
    return stats


# --- game --------------------------------------------------------------------------------

# The Result.breakdown keys a game's engine writes, in the order the game page shows them.
BREAKDOWN_KEYS: dict[str, tuple[str, ...]] = {
    TOWER_OF_BABEL: ("wonders", "final_wonders", "rejected", "discs", "action_cards"),
    SEVEN_WONDERS: (*SHEET_COLUMNS, "coins"),
}


@dataclass
class SeatLine:
    seat: int  # 0 = first in playing order
    plays: int
    wins: int

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)


@dataclass
class TopPlayer:
    player_id: int
    name: str
    rating: float | None
    plays: int


@dataclass
class GameStatisticsView:
    group: Group
    game: str
    name: str
    plays: int = 0
    average_winning_score: float | None = None
    best_winning_score: int | None = None
    scores: list[tuple[int, int]] = field(default_factory=list)  # (score, how many results)
    seats: list[SeatLine] = field(default_factory=list)
    breakdown: list[tuple[str, float]] = field(default_factory=list)  # (key, average points)
    top: list[TopPlayer] = field(default_factory=list)


def game_statistics(group: Group, game: str) -> GameStatisticsView:
    """Two queries: the game's totals row and its best-rated players."""
    view = GameStatisticsView(group=group, game=game, name=game_name(game))
    row = GameStatistics.objects.filter(group=group, game=game).first()
    if row is not None:
        totals: dict[str, Any] = row.totals
        view.plays = row.plays
        winning = totals.get("winning", {})
        if winning.get("count"):
            view.average_winning_score = round(winning["sum"] / winning["count"], 1)
            view.best_winning_score = winning["best"]
        view.scores = sorted((int(score), count) for score, count in totals.get("scores", {}).items())
        view.seats = sorted(
            (SeatLine(seat=int(seat), plays=n[0], wins=n[1]) for seat, n in totals.get("seats", {}).items()),
            key=lambda s: s.seat,
        )
        sums = totals.get("breakdown", {})
        view.breakdown = [
            (key, round(sums[key][0] / sums[key][1], 1))
            for key in BREAKDOWN_KEYS.get(game, ())
            if key in sums and sums[key][1]
        ]
    ratings = (
        PlayerRating.objects.filter(player__group=group, game=game, plays__gte=MIN_RATED_PLAYS)
        .annotate(value=F("mu") - 3 * F("sigma"))
        .order_by("-value", "player__name")
        .values_list("player_id", "player__name", "mu", "sigma", "plays")[:10]
    )
    view.top = [
        TopPlayer(player_id=pk, name=name, rating=shown_rating(mu, sigma, plays), plays=plays)
        for pk, name, mu, sigma, plays in ratings
    ]
    return view


def known_game(game: str) -> bool:
    return game in GAMES


# --- leaderboard -------------------------------------------------------------------------


@dataclass
class LeaderboardRow:
    player_id: int
    name: str
    plays: int
    wins: int
    rating: float | None

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)


def period_start(period: str, today: date | None = None) -> date | None:
    """The first month counted by a period filter ("all" counts everything)."""
    today = today or timezone.localdate()
    if period == "month":
        return today.replace(day=1)
    if period == "year":
        return today.replace(month=1, day=1)
    return None


def leaderboard(
    group: Group, *, game: str = OVERALL, period: str = "all", min_plays: int = 0, order: str = "rating"
) -> list[LeaderboardRow]:
    """Players with at least ``min_plays`` plays in the period, best first. Two queries at most.

    The rating is the current one (it sums up every play so far); the plays, wins and win
    rate are those of the period.
    """
    ratings = {
        pk: (name, mu, sigma, plays, wins)
        for pk, name, mu, sigma, plays, wins in PlayerRating.objects.filter(player__group=group, game=game).values_list(
            "player_id", "player__name", "mu", "sigma", "plays", "wins"
        )
    }
    start = period_start(period)
    rows: list[LeaderboardRow] = []
    if start is None:
        for pk, (name, mu, sigma, plays, wins) in ratings.items():
            rows.append(LeaderboardRow(pk, name, plays, wins, shown_rating(mu, sigma, plays)))
    else:
        months = PlayerMonth.objects.filter(group=group, month__gte=start)
        if game != OVERALL:
            months = months.filter(game=game)
        for pk, name, plays, wins in (
            months.values("player_id")
            .annotate(total=Sum("plays"), won=Sum("wins"))
            .values_list("player_id", "player__name", "total", "won")
        ):
            rated = ratings.get(pk)
            rating = shown_rating(rated[1], rated[2], rated[3]) if rated else None
            rows.append(LeaderboardRow(pk, name, plays, wins, rating))
    rows = [row for row in rows if row.plays >= max(min_plays, 1)]
    if order == "win_rate":
        rows.sort(key=lambda r: (-(r.win_rate or 0), -r.plays, r.name.lower()))
    else:
        rows.sort(key=lambda r: (r.rating is None, -(r.rating or 0), -r.plays, r.name.lower()))
    return rows
