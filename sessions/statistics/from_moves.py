"""What only this app can know, from the sessions' logs (issue 44, point 6): reads only.

The figures are computed from a group's finished sessions (``scoring.move_facts``) by the
statistics task, which keeps them in ``MoveStatistics`` (``statistics.services``): the game
page reads one row and the names of the players it mentions, never a log.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice
from typing import Any

from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from scoring import move_facts
from scoring import session as core
from scoring.score_entry import RECORD_PLACES, RECORD_SCORES
from sessions.games import BABEL_CUBES, BABEL_ON, SEVEN_WONDERS, TOWER_OF_BABEL
from sessions.models import GameSession, Group, MoveStatistics, Player, Result, Seat, SessionEvent
from sessions.sources import source_label

RULES = {
    TOWER_OF_BABEL: move_facts.TOWER_OF_BABEL,
    BABEL_ON: move_facts.BABEL_ON,
    SEVEN_WONDERS: move_facts.SEVEN_WONDERS,
    BABEL_CUBES: move_facts.BABEL_CUBES,
}
# Sessions read at a time: four queries each batch, a few hundred logs in memory at most.
BATCH = 200
# Events that tell nothing the facts need: the final scores are in the results.
UNREAD_EVENTS = (core.FINISH, core.ABANDON, core.UNDO, RECORD_SCORES, RECORD_PLACES)
# A page lists at most this many players per figure (the API too).
LISTED = 10


# --- reading the logs (for the statistics task) --------------------------------------------


def finished_sessions(group_id: int, *, until: datetime | None = None) -> list[int]:
    """The group's finished sessions in the order of play (as the statistics count them)."""
    sessions = GameSession.objects.filter(group_id=group_id, status=core.FINISHED)
    played = sessions.annotate(played=Coalesce(F("finished_at"), F("updated_at")))
    if until is not None:
        played = played.filter(played__lte=until)
    return list(played.order_by("played", "id").values_list("id", flat=True))


def played_sessions(session_ids: Sequence[int]) -> Iterator[tuple[str, move_facts.Played]]:
    """(game, session as its rows keep it) for each of these sessions, in the order given;
    four queries per ``BATCH`` sessions."""
    ids = iter(session_ids)
    while chunk := list(islice(ids, BATCH)):
        rows = GameSession.objects.filter(pk__in=chunk).annotate(played=Coalesce(F("finished_at"), F("updated_at")))
        sessions = {row[0]: row[1:] for row in rows.values_list("id", "game", "state", "played")}
        seats, results, events = _seats(chunk), _results(chunk), _events(chunk)
        for pk in chunk:
            if pk not in sessions or sessions[pk][0] not in RULES:
                continue
            game, state, played = sessions[pk]
            yield (
                game,
                move_facts.Played(
                    session_id=pk,
                    rules=RULES[game],
                    played_at=played.isoformat(),
                    seats=tuple(seats.get(pk, ())),
                    results=results.get(pk, {}),
                    state=state if isinstance(state, Mapping) else {},
                    events=events.get(pk, ()),
                ),
            )


def _seats(chunk: Sequence[int]) -> dict[int, list[str]]:
    seats: dict[int, list[str]] = {}
    rows = Seat.objects.filter(session_id__in=chunk).order_by("session_id", "order")
    for session_id, player_id in rows.values_list("session_id", "player_id"):
        seats.setdefault(session_id, []).append(str(player_id))
    return seats


def _results(chunk: Sequence[int]) -> dict[int, dict[str, move_facts.Placed]]:
    results: dict[int, dict[str, move_facts.Placed]] = {}
    rows = Result.objects.filter(session_id__in=chunk)
    for session_id, player_id, rank, score, breakdown in rows.values_list(
        "session_id", "player_id", "rank", "score", "breakdown"
    ):
        results.setdefault(session_id, {})[str(player_id)] = move_facts.Placed(rank, score, breakdown or {})
    return results


def _events(chunk: Sequence[int]) -> dict[int, list[move_facts.Logged]]:
    events: dict[int, list[move_facts.Logged]] = {}
    logged = SessionEvent.objects.filter(session_id__in=chunk).exclude(type__in=UNREAD_EVENTS)
    rows = logged.order_by("session_id", "seq")
    for session_id, seq, kind, payload, at in rows.values_list("session_id", "seq", "type", "payload", "created_at"):
        events.setdefault(session_id, []).append(move_facts.Logged(seq, kind, payload or {}, at.timestamp()))
    return events


def with_sessions(stored: dict[str, dict[str, Any]], session_ids: Sequence[int]) -> dict[str, dict[str, Any]]:
    """``stored`` (figures by game) with these sessions folded in, in the order given; the
    games they changed. A session without results (nothing to count) is left out."""
    changed: dict[str, dict[str, Any]] = {}
    for game, played in played_sessions(session_ids):
        if not played.results:
            continue
        figures = changed.setdefault(game, stored.get(game) or move_facts.empty())
        move_facts.fold(figures, played, move_facts.facts(played))
    return changed


def group_figures(group_id: int, *, until: datetime | None = None) -> dict[str, dict[str, Any]]:
    """Every game's figures from all the group's sessions finished by ``until`` (a rebuild)."""
    return with_sessions({}, finished_sessions(group_id, until=until))


# --- the game page and the API --------------------------------------------------------------


@dataclass
class PlayerFigure:
    player_id: int
    name: str
    count: int
    accepted: int | None = None  # of the offers counted (Tower of Babel), how many were accepted


@dataclass
class FirstPlayer:
    games: int
    wins: int
    expected: float  # the first player's wins if the seat did not matter: 1/n of each game

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def expected_rate(self) -> float:
        return self.expected / self.games

    @property
    def win_percent(self) -> int:
        return round(100 * self.win_rate)

    @property
    def expected_percent(self) -> int:
        return round(100 * self.expected_rate)


@dataclass
class Holder:
    """A record's holder; ``name`` None for a player hidden from the leaderboards."""

    player_id: int
    name: str | None


@dataclass
class Record:
    figure: float  # points, games in a row, or seconds (the fastest win)
    holders: list[Holder]
    played_at: datetime | None = None

    @property
    def duration(self) -> str:
        """The figure as a length of time, for the fastest win ("1 h 05 min", "12 min 30 s")."""
        seconds = round(self.figure)
        hours, minutes = seconds // 3600, seconds % 3600 // 60
        if hours:
            return _("%(hours)d h %(minutes)02d min") % {"hours": hours, "minutes": minutes}
        if minutes:
            return _("%(minutes)d min %(seconds)02d s") % {"minutes": minutes, "seconds": seconds % 60}
        return _("%(seconds)d s") % {"seconds": seconds}


@dataclass
class SourceLine:
    key: str
    label: str
    points: int
    share: float  # of all the points the sheets counted, in per cent


@dataclass
class AgeLine:
    age: int
    projects: int
    succeeded: int
    reward_points: int
    penalty_points: int


@dataclass
class FromTheMoves:
    game: str
    sessions: int = 0
    first_player: FirstPlayer | None = None
    solved_first_player_wins: bool | None = None  # the cube game's exact answer
    highest_score: Record | None = None
    longest_streak: Record | None = None
    fastest_win: Record | None = None
    timed_games: int = 0
    perfect_towers: list[PlayerFigure] = field(default_factory=list)
    perfect_wins: int = 0
    sources: list[SourceLine] = field(default_factory=list)
    sheets: int = 0
    ages: list[AgeLine] = field(default_factory=list)
    wonders_won: list[PlayerFigure] = field(default_factory=list)
    wonders_completed: int = 0
    offers: list[PlayerFigure] = field(default_factory=list)


def moves_of_game(group: Group, game: str) -> FromTheMoves:
    """Two queries: the game's stored figures and the names of the players they mention."""
    view = FromTheMoves(game=game)
    if game == BABEL_CUBES:
        view.solved_first_player_wins = move_facts.SOLVED_FIRST_PLAYER_WINS
    figures = MoveStatistics.objects.filter(group=group, game=game).values_list("figures", flat=True).first()
    if not figures:
        return view
    view.sessions = figures["sessions"]
    ids = {int(pk) for key in ("streaks", "perfect", "wonders", "offers") for pk in figures[key]}
    for record in (figures["top"], figures["fastest"]):
        if record is not None:
            ids |= {int(pk) for pk in (record[1] if isinstance(record[1], list) else [record[1]])}
    names: dict[int, str | None] = {
        pk: None if hidden else name
        for pk, name, hidden in Player.objects.filter(group=group, pk__in=ids).values_list(
            "pk", "name", "hidden_from_leaderboards"
        )
    }
    first = figures["first"]
    games = sum(row[0] for row in first.values())
    if games:
        wins = sum(row[1] for row in first.values())
        view.first_player = FirstPlayer(games, wins, move_facts.expected_first_wins(first))
    view.highest_score = _record(figures["top"], names)
    view.fastest_win = _record(figures["fastest"], names)
    view.timed_games = figures["timed"]
    view.longest_streak = _streak(figures["streaks"], names)
    view.perfect_towers = _listed({pk: row[0] for pk, row in figures["perfect"].items()}, names)
    view.perfect_wins = figures["perfect_games"]
    view.wonders_won = _listed(figures["wonders"], names)
    view.wonders_completed = figures["completed"]
    offers = {pk: row[0] for pk, row in figures["offers"].items()}
    view.offers = _listed(offers, names, accepted={pk: row[1] for pk, row in figures["offers"].items()})
    view.sheets = figures["sheets"]
    total = sum(figures["sources"].values())
    view.sources = [
        SourceLine(key, source_label(game, key), points, round(100 * points / total, 1) if total else 0.0)
        for key, points in sorted(figures["sources"].items(), key=lambda item: (-item[1], item[0]))
        if points
    ]
    view.ages = [AgeLine(int(age), row[2], row[3], row[0], row[1]) for age, row in sorted(figures["ages"].items())]
    return view


def _record(stored: list[Any] | None, names: Mapping[int, str | None]) -> Record | None:
    if stored is None:
        return None
    figure, who, played_at = stored[0], stored[1], stored[2]
    holders = [Holder(int(pk), names.get(int(pk))) for pk in (who if isinstance(who, list) else [who])]
    return Record(figure=figure, holders=holders, played_at=parse_datetime(played_at))


def _streak(streaks: Mapping[str, list[int]], names: Mapping[int, str | None]) -> Record | None:
    """The longest run of wins among the players shown (a hidden player is left out)."""
    shown = {int(pk): row[1] for pk, row in streaks.items() if names.get(int(pk))}
    longest = max(shown.values(), default=0)
    if not longest:
        return None
    holders = sorted((Holder(pk, names[pk]) for pk, n in shown.items() if n == longest), key=lambda h: h.name or "")
    return Record(figure=longest, holders=holders[:3])


def _listed(
    counts: Mapping[str, int], names: Mapping[int, str | None], *, accepted: Mapping[str, int] | None = None
) -> list[PlayerFigure]:
    """The players with the highest counts, hidden players left out, at most ``LISTED``."""
    rows = [
        PlayerFigure(int(pk), name, count, None if accepted is None else accepted.get(pk, 0))
        for pk, count in counts.items()
        if count and (name := names.get(int(pk)))
    ]
    rows.sort(key=lambda row: (-row.count, row.name))
    return rows[:LISTED]
