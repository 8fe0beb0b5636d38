"""Reads of the statistics, for the pages and the API. A few queries each, whatever the size.

The player page reads the player's rating rows (which keep its figures per game and its win
streaks) and rating history, precomputed, and its head-to-head records as the database sums
them from the player's plays. The game page reads the game's totals row; the leaderboard
reads the ratings, plus the monthly tallies for a period.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db import connection
from django.db.models import F, Sum
from django.utils import timezone

from scoring import session as core
from scoring.seven_wonders.sheet import COLUMNS as SHEET_COLUMNS
from sessions.games import GAMES, SEVEN_WONDERS, TOWER_OF_BABEL, game_name
from sessions.models import GameSession, GameStatistics, Group, Player, PlayerMonth, PlayerRating, RatingHistory, Result
from sessions.privacy import not_hidden
from sessions.statistics.bands import RatingBand, shown_band
from sessions.statistics.ratings import MIN_RATED_PLAYS, OVERALL, conservative

# A rival or nemesis needs this many shared plays (the rule).
MIN_SHARED_PLAYS = 3
REGULAR_OPPONENTS = 5
OPPONENTS_SHOWN = 30  # head to head: the opponents with the most shared plays
# The API's player statistics send the latest points of the rating history (a point a rated
# play: a regular of a large group has hundreds); the rest is read a year at a time.
HISTORY_SHOWN = 100
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
    band: RatingBand | None = None  # where the skill likely lies, shown with the rating

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
    band: RatingBand | None = None
    games: list[GameLine] = field(default_factory=list)
    opponents: list[Opponent] = field(default_factory=list)
    rival: Opponent | None = None
    nemesis: Opponent | None = None
    history: list[HistoryPoint] = field(default_factory=list)  # the latest, or all: see player_statistics
    history_years: list[int] = field(default_factory=list)  # the years that have points, oldest first
    opponent_count: int = 0  # all the player's opponents; ``opponents`` holds the most shared

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)

    @property
    def regular_opponents(self) -> list[Opponent]:
        return self.opponents[:REGULAR_OPPONENTS]

    @property
    def favourite_game(self) -> GameLine | None:
        """The game played most (``games`` is sorted by plays, then by name)."""
        return self.games[0] if self.games else None

    @property
    def scored_game(self) -> GameLine | None:
        """The most played game with scores, whose best, average and worst the page leads
        with: two games' scores do not add up (Babel On! is played by places)."""
        return next((line for line in self.games if line.scored), None)

    @property
    def most_won_game(self) -> GameLine | None:
        """The game won most often (then the most played of those)."""
        won = [line for line in self.games if line.wins]
        return min(won, key=lambda g: (-g.wins, -g.plays, g.name)) if won else None


def _opponents(player: Player, shown: int) -> tuple[list[Opponent], list[Opponent], int]:
    """The ``shown`` opponents with the most shared plays (then by name), those with at least
    MIN_SHARED_PLAYS shared plays (by name), and how many opponents the player has: one query,
    summed and ranked by the database, so a group of a thousand players sends only these rows.
    Head to head is pairwise: you beat everyone you finish above, and a shared first place is a
    win for each; any other shared place is a draw, so the draws are the rest of the shared
    plays. The names are joined once the plays are summed (a row per opponent, not per play),
    and only for the opponents that can be among those returned: shared plays at least those
    of the ``shown``-th most shared (ties included) or MIN_SHARED_PLAYS. Every other opponent
    has fewer shared plays than all of these, so it ranks after them and their positions stay
    as over all opponents (a regular of 441 plays has 786 opponents: 3.9 ms on SQLite, 3.0 ms
    so)."""
    result, session, person = Result._meta.db_table, GameSession._meta.db_table, Player._meta.db_table
    sql = f"""
        WITH pairs AS (
            SELECT o.player_id, COUNT(*) AS shared,
                SUM(CASE WHEN m.rank < o.rank OR (m.rank = 1 AND o.rank = 1) THEN 1 ELSE 0 END) AS wins,
                SUM(CASE WHEN m.rank > o.rank THEN 1 ELSE 0 END) AS losses
            FROM {result} m
            JOIN {session} s ON s.id = m.session_id
            JOIN {result} o ON o.session_id = m.session_id AND o.player_id <> m.player_id
            WHERE m.player_id = %s AND s.status = %s
            GROUP BY o.player_id
        )
        SELECT player_id, name, shared, wins, losses, (SELECT COUNT(*) FROM pairs) FROM (
            SELECT pairs.*, p.name,
                ROW_NUMBER() OVER (ORDER BY shared DESC, LOWER(p.name), pairs.player_id) AS position
            FROM pairs JOIN {person} p ON p.id = pairs.player_id
            WHERE pairs.shared >= %s OR pairs.shared >= (
                SELECT MIN(shared) FROM (SELECT shared FROM pairs ORDER BY shared DESC LIMIT %s) top
            )
        ) ranked
        WHERE position <= %s OR shared >= %s
        ORDER BY position"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [player.pk, core.FINISHED, MIN_SHARED_PLAYS, shown, shown, MIN_SHARED_PLAYS])
        rows = cursor.fetchall()
    found = [
        (position, Opponent(pk, name, shared, wins, losses, shared - wins - losses))
        for position, (pk, name, shared, wins, losses, _total) in enumerate(rows, start=1)
    ]
    most_shared = [opponent for position, opponent in found if position <= shown]
    qualified = sorted((o for _, o in found if o.shared >= MIN_SHARED_PLAYS), key=lambda o: o.name.lower())
    return most_shared, qualified, rows[0][5] if rows else 0


def player_statistics(
    player: Player, *, opponents: int = OPPONENTS_SHOWN, history: int | None = None
) -> PlayerStatistics:
    """A few queries whose answers do not grow with the group: the rating rows (a row per
    game and one over all games, with the figures and streaks the statistics keep in them),
    the ``opponents`` opponents with the most shared plays (and those with enough for a rival
    or a nemesis), and the rating history: its latest ``history`` points (read from the newest
    years until there are enough), or all of it (``None``, the page's chart)."""
    stats = PlayerStatistics(player=player)
    lines = []
    for row in PlayerRating.objects.filter(player=player):
        if row.game == OVERALL:
            stats.rating, stats.rated_plays = shown_rating(row.mu, row.sigma, row.plays), row.plays
            stats.band = shown_band(row.mu, row.sigma, row.plays)
            stats.plays, stats.wins, stats.last_played = row.plays, row.wins, row.last_played
            stats.current_streak, stats.longest_streak = row.streak, row.longest_streak
        else:
            lines.append(
                GameLine(
                    game=row.game,
                    name=game_name(row.game),
                    plays=row.plays,
                    wins=row.wins,
                    best=row.best,
                    worst=row.worst,
                    score_sum=row.score_sum,
                    scored=row.scored,
                    rating=shown_rating(row.mu, row.sigma, row.plays),
                    rated_plays=row.plays,
                    band=shown_band(row.mu, row.sigma, row.plays),
                )
            )
    stats.games = sorted(lines, key=lambda g: (-g.plays, g.name))
    shown, qualified, stats.opponent_count = _opponents(player, opponents)
    stats.opponents = shown
    qualified = not_hidden(qualified)  # a player hidden from the leaderboards is nobody's rival or nemesis
    stats.rival, stats.nemesis = rival_of(qualified), nemesis_of(qualified)
    stats.history_years, points = _history(player, latest=history)
    stats.history = _history_points(points)
    return stats


def rival_of(qualified: list[Opponent]) -> Opponent | None:
    """The opponent met most often (issue 44); of those met as often, the one whose record
    against the player is closest to even, then by name."""
    if not qualified:
        return None
    return min(qualified, key=lambda o: (-o.shared, abs(o.wins - o.losses) / o.shared, o.name.lower(), o.player_id))


def nemesis_of(qualified: list[Opponent]) -> Opponent | None:
    """The opponent who beat the player most often (issue 44), counted in games, among those
    who beat the player more often than the player beat them: a regular opponent the player
    mostly beats is no nemesis, however often the two have played. Ties: the higher share of
    the shared plays, then by name."""
    beaten_by = [o for o in qualified if o.losses > o.wins]
    if not beaten_by:
        return None
    return min(beaten_by, key=lambda o: (-o.losses, -o.losses / o.shared, o.name.lower(), o.player_id))


def _history(player: Player, *, latest: int | None) -> tuple[list[int], list[list[Any]]]:
    """(the years with points, the points: the latest ``latest`` or all), oldest first.
    With ``latest``, the newest two years' rows are read, and the others only if those two
    hold fewer points (a year's row holds every play of the player in it)."""
    rows = RatingHistory.objects.filter(player=player)
    if latest is None:
        read = list(rows.order_by("year").values_list("year", "points"))
        years = [year for year, _points in read]
    else:
        years = rating_history_years(player)
        newest_first = rows.order_by("-year").values_list("year", "points")
        read = list(newest_first[:2])
        if sum(len(year_points) for _year, year_points in read) < latest and len(years) > 2:
            read += list(newest_first[2:])
        read.reverse()
    points = [point for _year, year_points in read for point in year_points]
    return years, points if latest is None else points[-latest:]


def _history_points(points: list[list[Any]]) -> list[HistoryPoint]:
    """Stored points ([played at, session, game, mu, sigma, overall mu, overall sigma]) as shown."""
    return [
        HistoryPoint(
            played_at=datetime.fromisoformat(played_at),
            game=game,
            rating=round(conservative(mu, sigma), 2),
            overall=round(conservative(overall_mu, overall_sigma), 2),
        )
        for played_at, _session, game, mu, sigma, overall_mu, overall_sigma in points
    ]


def rating_history_years(player: Player) -> list[int]:
    """The years with points in the player's rating history, oldest first."""
    return list(RatingHistory.objects.filter(player=player).order_by("year").values_list("year", flat=True))


def rating_history_of_year(player: Player, year: int) -> list[HistoryPoint] | None:
    """The player's rating history in ``year``, oldest first; None if it has no points then."""
    points = RatingHistory.objects.filter(player=player, year=year).values_list("points", flat=True).first()
    return None if points is None else _history_points(points)


# --- game --------------------------------------------------------------------------------

# The Result.breakdown keys a game's engine writes, in the order the game page shows them.
BREAKDOWN_KEYS: dict[str, tuple[str, ...]] = {
    TOWER_OF_BABEL: ("wonders", "final_wonders", "rejected", "discs", "action_cards"),
    SEVEN_WONDERS: (*SHEET_COLUMNS, "coins"),
}
# The sources of a game's optional parts (expansions, modules, action cards). The engines
# write them as 0 when a session is played without them, so a source nobody has scored a
# point from is a part the group has not played: the game page leaves it out.
OPTIONAL_SOURCES: dict[str, frozenset[str]] = {
    TOWER_OF_BABEL: frozenset({"action_cards"}),
    SEVEN_WONDERS: frozenset({"leaders", "cities", "babel_tiles", "great_projects"}),
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
    band: RatingBand | None = None


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
        optional = OPTIONAL_SOURCES.get(game, frozenset())
        view.breakdown = [
            (key, round(sums[key][0] / sums[key][1], 1))
            for key in BREAKDOWN_KEYS.get(game, ())
            if key in sums and sums[key][1] and (key not in optional or sums[key][0])
        ]
    ratings = (
        PlayerRating.objects.filter(
            player__group=group, game=game, plays__gte=MIN_RATED_PLAYS, player__hidden_from_leaderboards=False
        )
        .annotate(value=F("mu") - 3 * F("sigma"))
        .order_by("-value", "player__name")
        .values_list("player_id", "player__name", "mu", "sigma", "plays")[:10]
    )
    view.top = [
        TopPlayer(
            player_id=pk,
            name=name,
            rating=shown_rating(mu, sigma, plays),
            plays=plays,
            band=shown_band(mu, sigma, plays),
        )
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
    band: RatingBand | None = None

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
        for pk, name, mu, sigma, plays, wins in PlayerRating.objects.filter(
            player__group=group, game=game, player__hidden_from_leaderboards=False
        ).values_list("player_id", "player__name", "mu", "sigma", "plays", "wins")
    }
    start = period_start(period)
    rows: list[LeaderboardRow] = []
    if start is None:
        for pk, (name, mu, sigma, plays, wins) in ratings.items():
            rows.append(
                LeaderboardRow(pk, name, plays, wins, shown_rating(mu, sigma, plays), shown_band(mu, sigma, plays))
            )
    else:
        months = PlayerMonth.objects.filter(group=group, month__gte=start, player__hidden_from_leaderboards=False)
        if game != OVERALL:
            months = months.filter(game=game)
        for pk, name, plays, wins in (
            months.values("player_id")
            .annotate(total=Sum("plays"), won=Sum("wins"))
            .values_list("player_id", "player__name", "total", "won")
        ):
            rated = ratings.get(pk)
            rating = shown_rating(rated[1], rated[2], rated[3]) if rated else None
            band = shown_band(rated[1], rated[2], rated[3]) if rated else None
            rows.append(LeaderboardRow(pk, name, plays, wins, rating, band))
    rows = [row for row in rows if row.plays >= max(min_plays, 1)]
    if order == "win_rate":
        rows.sort(key=lambda r: (-(r.win_rate or 0), -r.plays, r.name.lower()))
    else:
        rows.sort(key=_by_rating_then_wins)
    return rows


def _by_rating_then_wins(row: LeaderboardRow) -> tuple[Any, ...]:
    """Rated players first, best rating first; then the players without a rating yet by
    wins, win rate and plays: a newcomer with no win never heads the board only because
    nobody has played enough games for a rating."""
    if row.rating is not None:
        return (0, -row.rating, -row.plays, row.name.lower())
    return (1, -row.wins, -(row.win_rate or 0), -row.plays, row.name.lower())
