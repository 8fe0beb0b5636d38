"""Replaying finished sessions into ratings and running totals, without the database.

A :class:`Replay` starts from the stored state of a group (or from nothing, for a rebuild)
and takes :class:`Match` objects in chronological order. Each match rates its players with
OpenSkill's Plackett-Luce model twice, in its game and over all games, and adds to the
monthly tallies and the game's totals. Ranks are competition ranks (1, 1, 3): players who
share a place are a tie for OpenSkill, and everyone ranked 1 has won.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, tzinfo
from types import MappingProxyType
from typing import Any, NamedTuple

from django.utils import timezone
from openskill.models import PlackettLuce, PlackettLuceRating

OVERALL = ""  # the game key of the rating over every game (as in sessions.models.OVERALL)

# A rating is shown only after this many rated plays (in the game, or over all games for
# the overall rating). Before that sigma is still wide and mu - 3 sigma says little more than
# "new player"; five plays brings a regular player's sigma down to about half its start.
MIN_RATED_PLAYS = 5

MODEL = PlackettLuce()
NUMBERS = (int, float)


def conservative(mu: float, sigma: float) -> float:
    """The displayed rating: mu - 3 sigma, a value the player's skill is very likely above."""
    return mu - 3 * sigma


class Entry(NamedTuple):
    """One player's result in a match (a tuple: a rebuild makes hundreds of thousands)."""

    player_id: int
    rank: int
    score: int | None = None
    seat: int | None = None  # the seat's place in playing order, 0 = the first player
    breakdown: Mapping[str, Any] = MappingProxyType({})


class Match(NamedTuple):
    session_id: int
    game: str
    played_at: datetime
    entries: tuple[Entry, ...]
    # The time as the database gave it, written back as is (None: convert ``played_at``).
    stored_at: Any = None
    # What a rebuild's database works out once per session, where Python would per match
    # (None: from ``played_at``): the local month (as ``Replay.month``), and the moment as
    # the rating history writes it (``Replay.moment``).
    month: date | None = None
    moment: str | None = None


@dataclass
class Rating:
    """A player's rating in one game (or overall) and the plays behind it.

    ``skill`` is OpenSkill's own rating object, kept for the whole replay and updated in
    place (see :func:`rate_in_place`).
    """

    skill: PlackettLuceRating
    plays: int = 0
    wins: int = 0
    last_played: datetime | None = None
    # As ``models.PlayerRating``: the scores of a game's rating (added by an update; a rebuild
    # has the database sum them, see ``services.player_scores``), and the win streaks, in the
    # order of play.
    best: int | None = None
    worst: int | None = None
    score_sum: int = 0
    scored: int = 0
    streak: int = 0
    longest_streak: int = 0

    @classmethod
    def of(cls, mu: float, sigma: float, **counts: Any) -> Rating:
        return cls(skill=PlackettLuceRating(mu, sigma), **counts)

    @property
    def mu(self) -> float:
        return self.skill.mu

    @property
    def sigma(self) -> float:
        return self.skill.sigma

    def count_score(self, score: int) -> None:
        self.score_sum += score
        self.scored += 1
        if self.best is None or score > self.best:
            self.best = score
        if self.worst is None or score < self.worst:
            self.worst = score


@dataclass
class Totals:
    """A game's running totals in a group (``GameStatistics``)."""

    plays: int = 0
    data: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def empty() -> dict[str, Any]:
        return {"winning": {"sum": 0, "count": 0, "best": None}, "scores": {}, "seats": {}, "breakdown": {}}

    def add(self, entries: Iterable[Entry]) -> None:
        self.plays += 1
        data = self.data
        if not data:
            data.update(self.empty())
        winning = data["winning"]
        scores: dict[str, int] = data["scores"]
        seats: dict[str, list[int]] = data["seats"]
        breakdown: dict[str, list[float]] = data["breakdown"]
        for entry in entries:
            won = entry.rank == 1
            if entry.score is not None:
                key = str(entry.score)
                scores[key] = scores.get(key, 0) + 1
                if won:
                    winning["sum"] += entry.score
                    winning["count"] += 1
                    if winning["best"] is None or entry.score > winning["best"]:
                        winning["best"] = entry.score
            if entry.seat is not None:
                seat = seats.setdefault(str(entry.seat), [0, 0])
                seat[0] += 1
                seat[1] += won
            for name, value in entry.breakdown.items():
                if type(value) in NUMBERS:  # not bool, not text
                    pair = breakdown.setdefault(name, [0, 0])
                    pair[0] += value
                    pair[1] += 1


@dataclass
class Replay:
    """The statistics of one group as matches are added in chronological order."""

    ratings: dict[tuple[int, str], Rating] = field(default_factory=dict)
    # The games' totals, the monthly tallies and the counted sessions, kept by an update;
    # False for a rebuild, which has the database sum them instead (``services.rebuild_group``).
    tally: bool = True
    months: dict[tuple[int, str, date], list[int]] = field(default_factory=dict)
    totals: dict[str, Totals] = field(default_factory=dict)
    # (player, year) -> the points of the rating history (see ``sessions.models.RatingHistory``)
    # as the JSON they are stored as, each point followed by a comma: a rebuild of 100,000
    # sessions makes 395,000 of them, 84 bytes each this way and about 240 as Python tuples.
    history: dict[tuple[int, int], bytearray] = field(default_factory=dict)
    sessions: list[tuple[int, Any]] = field(default_factory=list)  # (session, played at as stored)
    _zone: tzinfo = field(default_factory=timezone.get_current_timezone, repr=False, compare=False)

    def add(self, match: Match) -> None:
        session_id, game, played_at, entries, _stored, month, moment = match
        ratings, fresh = self.ratings, Rating.of
        in_game, overall = [], []
        for entry in entries:
            key = (entry.player_id, game)
            rating = ratings.get(key)
            if rating is None:
                rating = ratings[key] = fresh(MODEL.mu, MODEL.sigma)
            in_game.append(rating)
            key = (entry.player_id, OVERALL)
            rating = ratings.get(key)
            if rating is None:
                rating = ratings[key] = fresh(MODEL.mu, MODEL.sigma)
            overall.append(rating)
        if len(entries) > 1:
            ranks = [entry.rank for entry in entries]
            rate_in_place([r.skill for r in in_game], ranks)
            rate_in_place([r.skill for r in overall], ranks)
        if month is None:
            month = self.month(played_at)
        # json.dumps's text but for the floats' last digits: the moment and the game key need
        # no escape, and four decimals are more than the two a rating is shown with.
        head = b'["%s",%d,"%s",' % ((moment or self.moment(played_at)).encode(), session_id, game.encode())
        history, year = self.history, month.year
        for entry, game_rating, overall_rating in zip(entries, in_game, overall, strict=True):
            game_rating.plays += 1
            game_rating.last_played = played_at
            overall_rating.plays += 1
            overall_rating.last_played = played_at
            if entry.rank == 1:
                game_rating.wins += 1
                overall_rating.wins += 1
                for rating in (game_rating, overall_rating):
                    rating.streak += 1
                    if rating.streak > rating.longest_streak:
                        rating.longest_streak = rating.streak
            else:
                game_rating.streak = overall_rating.streak = 0
            skill, whole = game_rating.skill, overall_rating.skill
            point = head + b"%.4f,%.4f,%.4f,%.4f]," % (skill.mu, skill.sigma, whole.mu, whole.sigma)
            points = history.get((entry.player_id, year))
            if points is None:
                history[(entry.player_id, year)] = bytearray(point)
            else:
                points += point
        if self.tally:
            self._tally(match, month)

    def _tally(self, match: Match, month: date) -> None:
        """Add the match to the monthly tallies, its game's totals and the counted sessions."""
        months = self.months
        for entry in match.entries:
            if entry.score is not None:
                self.ratings[(entry.player_id, match.game)].count_score(entry.score)
            month_key = (entry.player_id, match.game, month)
            tally = months.get(month_key)
            if tally is None:
                months[month_key] = [1, int(entry.rank == 1)]
            else:
                tally[0] += 1
                tally[1] += entry.rank == 1
        totals = self.totals.get(match.game)
        if totals is None:
            totals = self.totals[match.game] = Totals()
        totals.add(match.entries)
        self.sessions.append((match.session_id, match.played_at if match.stored_at is None else match.stored_at))

    def continue_history(self, key: tuple[int, int], points: Sequence[Any]) -> None:
        """Start the history of ``key`` from its stored points."""
        self.history[key] = bytearray(b"".join(json.dumps(point).encode() + b"," for point in points))

    def history_json(self, key: tuple[int, int]) -> str:
        """The history of ``key`` as the JSON array it is stored as."""
        return "[" + self.history[key][:-1].decode() + "]"

    def points(self, key: tuple[int, int]) -> list[list[Any]]:
        """The history of ``key``: [played at, session, game, mu, sigma, overall mu, overall sigma]."""
        loaded: list[list[Any]] = json.loads(self.history_json(key))
        return loaded

    @staticmethod
    def moment(played_at: datetime) -> str:
        """A moment as the rating history keeps it: ISO 8601 in UTC, always with microseconds
        (the text PostgreSQL gives a rebuild, see ``services.load_matches``)."""
        return played_at.astimezone(UTC).isoformat(timespec="microseconds")

    def month(self, moment: datetime) -> date:
        """The first day of the local calendar month of a moment."""
        return moment.astimezone(self._zone).date().replace(day=1)


def rate_in_place(skills: list[PlackettLuceRating], ranks: Sequence[int]) -> None:
    """One Plackett-Luce update of one-player teams, written into ``skills``.

    The same numbers as ``MODEL.rate([[s] for s in skills], ranks=ranks)`` (a test holds
    them equal over random matches with ties) without what ``rate`` spends most of its time
    on for our calls: checking its arguments, deep-copying the teams (a fresh UUID per
    copied rating) and sorting them by rank. It applies ``rate``'s steps itself: the tau
    correction of sigma, the teams in rank order (stable among ties), then the model's
    update, which writes the new mu and sigma into the rating objects it is given.
    openskill is pinned (6.2.0); ``_compute`` is its documented algorithm's body.
    """
    tau_squared = MODEL.tau * MODEL.tau
    for skill in skills:
        skill.sigma = math.sqrt(skill.sigma * skill.sigma + tau_squared)
    order = sorted(range(len(skills)), key=ranks.__getitem__)
    MODEL._compute(teams=[[skills[i]] for i in order], ranks=[float(ranks[i]) for i in order])
