"""A year in review (issue 44, point 7): a group's or a player's year of plays in figures.

Plays, wins and win rates, the games played most, the rivalries, the records (the highest
score of each game, the longest winning streak), the games' own highlights and the busiest
night, for one calendar year in the site's time zone: a session counts in the year it was
played (finished), as the monthly tallies and the rating history count it.

Read from the stored Results (not from the statistics' rows: those keep totals over all
time, not a year's), in one query a year whatever the number of plays, and computed here in
Python: :func:`review` is a pure function of the plays, so the tests check it against a
plain recomputation. A win is a first place (a shared first place is a win for each); head
to head, you beat everyone you finish above, as on the player page.

Privacy (``sessions.privacy``): a player hidden from the leaderboards is left out of every
figure that names a player in a group's year (players, rivalries, records, streaks,
highlights), as from the leaderboards; their games still count in the group's plays, games
and nights, as played. A player's own year shows their own figures, without hidden opponents.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from itertools import combinations

from django.db.models import F, QuerySet
from django.db.models.functions import Coalesce, ExtractYear
from django.utils import timezone

from scoring import session as core
from sessions.games import BABEL_CUBES, BABEL_ON, game_name
from sessions.models import GameSession, Group, Player, Result
from sessions.statistics.selectors import MIN_SHARED_PLAYS, rate

# A year the address may name: datetime's own range, less a year either side for the time zones.
FIRST_YEAR, LAST_YEAR = 1900, 9998
# A highlight lists at most this many of its plays (the newest); its count is of them all.
MOMENTS_SHOWN = 3
PERFECT_TOWER = "perfect"  # Babel On!'s Result.breakdown["won_by"] when a perfect tower won


# --- the plays -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A player's result in a play."""

    player_id: int
    rank: int
    score: int | None = None
    won_by: str | None = None  # Babel On!: how the winner won ("perfect", "last_standing")
    level: int | None = None  # babel: the level the cube tower reached

    @property
    def won(self) -> bool:
        return self.rank == 1


@dataclass(frozen=True)
class Play:
    """A finished session of the year, its seats best first."""

    session_id: int
    game: str
    played_at: datetime  # in the site's time zone
    night_id: int
    night_date: date
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class Person:
    name: str
    hidden: bool = False  # from the leaderboards


@dataclass(frozen=True)
class Plays:
    """What a year's review is computed from: its plays in the order played, and the players in them."""

    plays: list[Play]
    people: dict[int, Person]


def year_span(year: int) -> tuple[datetime, datetime]:
    """The year's first moment and the next year's, in the site's time zone."""
    zone = timezone.get_current_timezone()
    return datetime(year, 1, 1, tzinfo=zone), datetime(year + 1, 1, 1, tzinfo=zone)


def _played(prefix: str = "") -> Coalesce:
    """When a session counts as played: as the statistics count it (``statistics.services``)."""
    return Coalesce(F(f"{prefix}finished_at"), F(f"{prefix}updated_at"))


def _read(results: QuerySet[Result], year: int) -> Plays:
    """One query: the results of the year's finished sessions among ``results``, as plays."""
    start, end = year_span(year)
    rows = (
        results.annotate(played=_played("session__"))
        .filter(session__status=core.FINISHED, played__gte=start, played__lt=end)
        .order_by("played", "session_id", "rank", "player_id")
        .values_list(
            "session_id",
            "session__game",
            "played",
            "session__night_id",
            "session__night__date",
            "player_id",
            "player__name",
            "player__hidden_from_leaderboards",
            "rank",
            "score",
            "breakdown__won_by",
            "breakdown__level",
        )
    )
    plays: list[Play] = []
    people: dict[int, Person] = {}
    current: list[Seat] = []
    head: tuple[int, str, datetime, int, date] | None = None
    for session_id, game, played, night_id, night_date, player_id, name, hidden, rank, score, won_by, level in rows:
        if head is None or head[0] != session_id:
            if head is not None:
                plays.append(Play(*head, seats=tuple(current)))
            head, current = (session_id, game, timezone.localtime(played), night_id, night_date), []
        people.setdefault(player_id, Person(name, hidden))
        current.append(Seat(player_id, rank, score, won_by if isinstance(won_by, str) else None, _integer(level)))
    if head is not None:
        plays.append(Play(*head, seats=tuple(current)))
    return Plays(plays, people)


def _integer(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def group_plays(group: Group, year: int) -> Plays:
    return _read(Result.objects.filter(session__group=group), year)


def player_plays(player: Player, year: int) -> Plays:
    """The plays the player took part in, with every seat of them (their opponents' too)."""
    return _read(Result.objects.filter(session__in=Result.objects.filter(player=player).values("session_id")), year)


def _years(sessions: QuerySet[GameSession]) -> list[int]:
    """The years (site's time zone) with finished sessions among ``sessions``, oldest first: one query."""
    return sorted(
        sessions.filter(status=core.FINISHED)
        .annotate(year=ExtractYear(_played()))
        .order_by()
        .values_list("year", flat=True)
        .distinct()
    )


def group_years(group: Group) -> list[int]:
    return _years(GameSession.objects.filter(group=group))


def player_years(player: Player) -> list[int]:
    return _years(GameSession.objects.filter(group_id=player.group_id, results__player=player))


# --- the figures -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerLine:
    player_id: int
    name: str
    plays: int
    wins: int

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)


@dataclass(frozen=True)
class GameLine:
    game: str
    name: str
    plays: int
    wins: int = 0  # in a player's year: the player's wins


@dataclass(frozen=True)
class Pair:
    """Two players' head to head in the year: ``first`` is the reviewed player in a player's year."""

    first: PlayerLine  # plays = games together, wins = wins over the other
    second: PlayerLine

    @property
    def shared(self) -> int:
        return self.first.plays

    @property
    def draws(self) -> int:
        # A shared first place is a win for each, so the wins and losses may add up beyond the plays.
        return max(0, self.shared - self.first.wins - self.second.wins)

    @property
    def gap(self) -> float:
        """How far from even the head to head is: 0 is dead even."""
        return abs(self.first.wins - self.second.wins) / self.shared


@dataclass(frozen=True)
class Record:
    """A game's highest score in the year, by whoever made it first (``others`` equalled it)."""

    game: str
    name: str
    score: int
    player_id: int
    player_name: str
    played_at: datetime
    others: int = 0


@dataclass(frozen=True)
class Streak:
    """The longest run of wins in a row (over every game, in the order played) and who ran it first."""

    length: int
    player_id: int
    name: str
    others: int = 0  # players with as long a run


@dataclass(frozen=True)
class Moment:
    """A play a highlight names: when, and who won it (by ``margin`` points, or to ``level``)."""

    session_id: int
    played_at: datetime
    winners: tuple[str, ...]
    detail: int | None = None


@dataclass(frozen=True)
class Highlight:
    """One of the games' own highlights: how many plays had it, and the newest of them."""

    kind: str  # "perfect-tower", "one-point", "tie-break", "tallest-tower"
    game: str
    count: int
    moments: tuple[Moment, ...]


@dataclass(frozen=True)
class Night:
    night_id: int
    date: date
    plays: int


@dataclass
class YearReview:
    year: int
    player_id: int | None = None  # a player's year; None: the group's
    plays: int = 0
    wins: int = 0  # a player's year: their wins
    nights: int = 0
    players: list[PlayerLine] = field(default_factory=list)  # most wins first
    games: list[GameLine] = field(default_factory=list)  # most played first
    most_met: Pair | None = None
    closest: Pair | None = None  # the closest head to head of at least MIN_SHARED_PLAYS games
    records: list[Record] = field(default_factory=list)  # by game name
    streak: Streak | None = None
    highlights: list[Highlight] = field(default_factory=list)
    busiest_night: Night | None = None

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)

    @property
    def favourite(self) -> GameLine | None:
        return self.games[0] if self.games else None

    @property
    def top_player(self) -> PlayerLine | None:
        return self.players[0] if self.players and self.players[0].wins else None


def review(year: int, plays: Plays, *, player_id: int | None = None) -> YearReview:
    """The year's figures from its plays (``player_id``: the plays of that player's year)."""
    shown = {pk for pk, person in plays.people.items() if not person.hidden or pk == player_id}
    result = YearReview(year=year, player_id=player_id, plays=len(plays.plays))
    result.nights = len({play.night_id for play in plays.plays})
    result.players = player_lines(plays.plays, plays.people, shown)
    result.games = game_lines(plays.plays, player_id)
    if player_id is not None:
        result.wins = sum(seat.won for play in plays.plays for seat in play.seats if seat.player_id == player_id)
    pairs = head_to_head(plays.plays, plays.people, shown, player_id)
    result.most_met = min(pairs, key=lambda p: (-p.shared, p.gap, _names(p)), default=None)
    regular = [pair for pair in pairs if pair.shared >= MIN_SHARED_PLAYS]
    result.closest = min(regular, key=lambda p: (p.gap, -p.shared, _names(p)), default=None)
    result.records = records(plays.plays, plays.people, shown if player_id is None else {player_id})
    result.streak = longest_streak(plays.plays, plays.people, shown if player_id is None else {player_id})
    result.highlights = highlights(plays.plays, plays.people, shown)
    result.busiest_night = busiest_night(plays.plays)
    return result


def _names(pair: Pair) -> tuple[str, str, int, int]:
    return (pair.first.name.lower(), pair.second.name.lower(), pair.first.player_id, pair.second.player_id)


def player_lines(plays: Sequence[Play], people: dict[int, Person], shown: set[int]) -> list[PlayerLine]:
    """Each shown player's plays and wins, most wins first (then fewer plays, then by name)."""
    played: Counter[int] = Counter()
    won: Counter[int] = Counter()
    for play in plays:
        for seat in play.seats:
            played[seat.player_id] += 1
            won[seat.player_id] += seat.won
    lines = [PlayerLine(pk, people[pk].name, count, won[pk]) for pk, count in played.items() if pk in shown]
    return sorted(lines, key=lambda line: (-line.wins, line.plays, line.name.lower(), line.player_id))


def game_lines(plays: Sequence[Play], player_id: int | None) -> list[GameLine]:
    """Each game's plays (and the player's wins in it), most played first, then by name."""
    played: Counter[str] = Counter(play.game for play in plays)
    won: Counter[str] = Counter()
    for play in plays:
        won[play.game] += any(seat.won and seat.player_id == player_id for seat in play.seats)
    lines = [GameLine(game, game_name(game), count, won[game]) for game, count in played.items()]
    return sorted(lines, key=lambda line: (-line.plays, line.name.lower()))


def head_to_head(
    plays: Sequence[Play], people: dict[int, Person], shown: set[int], player_id: int | None
) -> list[Pair]:
    """Every pair of shown players who met (with ``player_id``: the player and each opponent)."""
    met: Counter[tuple[int, int]] = Counter()
    beat: Counter[tuple[int, int]] = Counter()  # (a, b): a finished above b, or both first
    for play in plays:
        seats = [seat for seat in play.seats if seat.player_id in shown]
        for a, b in combinations(seats, 2):
            key = (a.player_id, b.player_id) if a.player_id < b.player_id else (b.player_id, a.player_id)
            met[key] += 1
            both_first = a.won and b.won
            if a.rank < b.rank or both_first:
                beat[(a.player_id, b.player_id)] += 1
            if b.rank < a.rank or both_first:
                beat[(b.player_id, a.player_id)] += 1
    pairs = []
    for (low, high), shared in met.items():
        if player_id is not None and player_id not in (low, high):
            continue
        first, second = (high, low) if high == player_id else (low, high)
        pairs.append(
            Pair(
                PlayerLine(first, people[first].name, shared, beat[(first, second)]),
                PlayerLine(second, people[second].name, shared, beat[(second, first)]),
            )
        )
    return pairs


def records(plays: Sequence[Play], people: dict[int, Person], holders: set[int]) -> list[Record]:
    """Each game's highest score among ``holders``, by the first to make it; by game name."""
    best: dict[str, Record] = {}
    for play in plays:
        for seat in play.seats:
            if seat.score is None or seat.player_id not in holders:
                continue
            found = best.get(play.game)
            if found is None or seat.score > found.score:
                best[play.game] = Record(
                    play.game,
                    game_name(play.game),
                    seat.score,
                    seat.player_id,
                    people[seat.player_id].name,
                    play.played_at,
                )
            elif seat.score == found.score:
                best[play.game] = replace(found, others=found.others + 1)
    return sorted(best.values(), key=lambda record: record.name.lower())


def longest_streak(plays: Sequence[Play], people: dict[int, Person], holders: set[int]) -> Streak | None:
    """The longest run of wins in a row among ``holders`` (a play not won ends it), by the
    first to reach it; none without a win."""
    running: Counter[int] = Counter()
    longest: dict[int, int] = {}
    first_reached: dict[int, int] = {}  # when (a play's index) each player reached their longest
    for index, play in enumerate(plays):
        for seat in play.seats:
            if seat.player_id not in holders:
                continue
            running[seat.player_id] = running[seat.player_id] + 1 if seat.won else 0
            if running[seat.player_id] > longest.get(seat.player_id, 0):
                longest[seat.player_id], first_reached[seat.player_id] = running[seat.player_id], index
    if not longest:
        return None
    top = max(longest.values())
    tied = [pk for pk, length in longest.items() if length == top]
    first = min(tied, key=lambda pk: (first_reached[pk], people[pk].name.lower(), pk))
    return Streak(top, first, people[first].name, others=len(tied) - 1)


def _moment(play: Play, people: dict[int, Person], shown: set[int], detail: int | None = None) -> Moment | None:
    """The play as a highlight names it: None if none of its winners may be named."""
    winners = tuple(people[s.player_id].name for s in play.seats if s.won and s.player_id in shown)
    return Moment(play.session_id, play.played_at, winners, detail) if winners else None


def highlights(plays: Sequence[Play], people: dict[int, Person], shown: set[int]) -> list[Highlight]:
    """The games' own highlights, where the results tell them: Babel On!'s perfect towers, the
    games won by a single point or on the tie-break (a scored game with one winner), and
    babel's tallest tower. Each lists its newest plays."""
    found: dict[tuple[str, str], list[Moment]] = defaultdict(list)
    tallest: dict[str, list[Moment]] = {}
    for play in plays:
        winners = [seat for seat in play.seats if seat.won]
        if play.game == BABEL_ON and any(seat.won_by == PERFECT_TOWER for seat in winners):
            _add(found[("perfect-tower", play.game)], _moment(play, people, shown))
        scores = sorted((seat.score for seat in play.seats if seat.score is not None), reverse=True)
        if len(winners) == 1 and len(scores) == len(play.seats) >= 2 and winners[0].score == scores[0]:
            margin = scores[0] - scores[1]
            if margin in (0, 1):
                kind = "one-point" if margin == 1 else "tie-break"
                _add(found[(kind, play.game)], _moment(play, people, shown, margin))
        if play.game == BABEL_CUBES:
            level = max((seat.level for seat in play.seats if seat.level is not None), default=0)
            moment = _moment(play, people, shown, level) if level else None
            if moment is not None:
                top = tallest.get(play.game, [])
                if not top or level > (top[0].detail or 0):
                    tallest[play.game] = [moment]
                elif level == top[0].detail:
                    top.append(moment)
    found.update({("tallest-tower", game): moments for game, moments in tallest.items()})
    order = ("perfect-tower", "one-point", "tie-break", "tallest-tower")
    return [
        Highlight(kind, game, len(moments), tuple(reversed(moments[-MOMENTS_SHOWN:])))
        for (kind, game), moments in sorted(found.items(), key=lambda item: (order.index(item[0][0]), item[0][1]))
        if moments
    ]


def _add(moments: list[Moment], moment: Moment | None) -> None:
    if moment is not None:
        moments.append(moment)


def busiest_night(plays: Iterable[Play]) -> Night | None:
    """The night with the most plays (of those as busy, the first)."""
    counted: Counter[int] = Counter()
    dates: dict[int, date] = {}
    for play in plays:
        counted[play.night_id] += 1
        dates[play.night_id] = play.night_date
    if not counted:
        return None
    top = max(counted.values())
    night = min((pk for pk, count in counted.items() if count == top), key=lambda pk: (dates[pk], pk))
    return Night(night, dates[night], top)


# --- the reads the pages make ----------------------------------------------------------------


def group_year(group: Group, year: int) -> YearReview:
    """Two queries: the years with plays aside, the year's results."""
    return review(year, group_plays(group, year))


def player_year(player: Player, year: int) -> YearReview:
    return review(year, player_plays(player, year), player_id=player.pk)
