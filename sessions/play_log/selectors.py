"""The reads of the play log: a group's plays, newest first, in cursor pages.

Two kinds of plays make one list: the sessions finished here, and the plays of other games
imported from BG Stats (``PlainResult`` rows, a row per player; they count in no statistics).
Both are read from an index in the list's order, ``(when, kind, key)`` newest first (a session
is kind 1 and keyed by its id, an imported play kind 0 and keyed by its source and play id),
and a page is the newest ``size`` of the two merged: so a page of a group of 100,000 sessions
costs what one of 1,000 does, where an OFFSET would read every play before it. A player's (or
a winner's) sessions are read from their results instead (``_of_player``): as many rows as
the player has plays, whatever the group's size.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Exists, F, Max, OuterRef, Q, QuerySet
from django.utils import timezone

from sessions.games import game_name
from sessions.models import GameNight, GameSession, Group, PlainResult, Result
from sessions.play_log.filters import Filters

PAGE_SIZE = 50
SESSION, OTHER = 1, 0  # the kinds, in the order of two plays at the same moment


@dataclass(frozen=True)
class Standing:
    name: str
    rank: int | None
    score: int | None
    winner: bool


@dataclass(frozen=True)
class Play:
    when: datetime  # the session's end, or when the imported play was played
    day: date  # the night's date, or the imported play's
    game: str  # the game's slug, or an imported game's name
    game_name: str
    session_id: int | None  # None: an imported play of another game
    night_id: int | None
    place: str
    standings: list[Standing]
    position: dict[str, Any]  # what a cursor holds to start after this play

    @property
    def other_game(self) -> bool:
        return self.session_id is None


@dataclass(frozen=True)
class LogPage:
    plays: list[Play]
    after: dict[str, Any] | None  # the position of the next page, None on the last
    # How many sessions, and imported plays, the filters find, where this page read them all
    # (the first page of a small log): no need to count them again.
    sessions_found: int | None = None
    others_found: int | None = None


def count(group: Group, filters: Filters, *, known: LogPage | None = None) -> int:
    """How many plays the filters find: an index range per kind, unless ``known`` (the first
    page, read with the same filters) held them all."""
    sessions = known.sessions_found if known else None
    if sessions is None and filters.others_only:
        sessions = 0
    elif sessions is None:
        of_player = _of_player(group, filters)
        sessions = len(of_player) if of_player is not None else _sessions(group, filters).count()
    others = known.others_found if known else None
    if others is None:
        others = 0 if filters.tracked_only else _other_heads(group, filters).count()
    return sessions + others


def page(group: Group, filters: Filters, *, after: dict[str, Any] | None = None, size: int = PAGE_SIZE) -> LogPage:
    """The ``size`` newest plays after the position ``after`` (a ``Play.position``; a
    ``ValueError`` if it is not one): four queries at most, two per kind."""
    start = None if after is None else _parsed(after)
    sessions: list[Play] = []
    others: list[Play] = []
    of_player: list[GameSession] | None = None
    if not filters.others_only:
        of_player = _of_player(group, filters)
        sessions = _session_plays(_session_page(group, filters, start, size + 1, of_player))
    if not filters.tracked_only:
        others = _other_plays(group, _after_others(_other_heads(group, filters), start)[: size + 1])
    plays = sorted(sessions + others, key=_order, reverse=True)
    shown = plays[:size]
    return LogPage(
        plays=shown,
        after=shown[-1].position if len(plays) > size else None,
        sessions_found=_sessions_found(of_player, sessions, start, size),
        others_found=len(others) if start is None and len(others) <= size else None,
    )


def _sessions_found(
    of_player: list[GameSession] | None, page: list[Play], start: dict[str, Any] | None, size: int
) -> int | None:
    if of_player is not None:  # read whole
        return len(of_player)
    return len(page) if start is None and len(page) <= size else None


def every_play(group: Group, filters: Filters, *, chunk: int = 500) -> Iterator[Play]:
    """Every play the filters find, newest first, a page of ``chunk`` at a time (the exports)."""
    after: dict[str, Any] | None = None
    while True:
        found = page(group, filters, after=after, size=chunk)
        yield from found.plays
        if found.after is None:
            return
        after = found.after


def _parsed(raw: dict[str, Any]) -> dict[str, Any]:
    """A position as ``Play.position`` wrote it, its moment read back (``ValueError`` if it is
    not one)."""
    kind, when = raw.get("k"), datetime.fromisoformat(str(raw.get("w")))
    if kind == SESSION and isinstance(raw.get("i"), int):
        return {"k": kind, "w": when, "i": raw["i"]}
    if kind == OTHER and isinstance(raw.get("s"), str) and isinstance(raw.get("p"), str):
        return {"k": kind, "w": when, "s": raw["s"], "p": raw["p"]}
    raise ValueError("not a position of the play log")


def _order(play: Play) -> tuple[datetime, int, Any]:
    key = play.position
    return (play.when, key["k"], (key["i"], "") if key["k"] == SESSION else (key["s"], key["p"]))


# --- the sessions finished here ---------------------------------------------------------------


def _sessions(group: Group, filters: Filters) -> QuerySet[GameSession]:
    """The finished sessions the filters find, without a player or a winner, for their count."""
    return GameSession.objects.filter(_conditions(group, filters))


def _session_page(
    group: Group, filters: Filters, start: dict[str, Any] | None, limit: int, of_player: list[GameSession] | None
) -> list[GameSession]:
    """The ``limit`` newest finished sessions the filters find after ``start``: in the order of
    the play log's index, which stops at ``limit``; with a player, from ``_of_player``."""
    if of_player is None:
        sessions = GameSession.objects.filter(_conditions(group, filters) & _after(start))
        return list(_shown(sessions.order_by("-finished_at", "-id")[:limit]))
    if start is not None:
        # After an imported play at a moment come only the sessions before that moment.
        position = (start["w"], start["i"] if start["k"] == SESSION else -1)
        of_player = [s for s in of_player if (s.finished_at, s.pk) < position]
    return of_player[:limit]


def _of_player(group: Group, filters: Filters) -> list[GameSession] | None:
    """Every session of the filter's player (or winner) that the other filters find, newest
    first; None without a player or a winner.

    Read from the player's results and filtered here, not in the database: SQLite, without
    statistics on its tables, walks the group's index of sessions for them (it cannot tell a
    group of 100,000 sessions from one of 10), which reads the whole group for a player's last
    page or their CSV. From their results, it reads as many rows as the player has plays,
    whatever the group's size.
    """
    if filters.player is None and filters.winner is None:
        return None
    sessions = GameSession.objects.order_by()
    if filters.winner is not None:
        sessions = sessions.filter(pk__in=Result.objects.filter(player=filters.winner, rank=1).values("session_id"))
    if filters.player is not None and filters.player != filters.winner:
        sessions = sessions.filter(pk__in=Result.objects.filter(player=filters.player).values("session_id"))
    wanted = [
        s
        for s in _shown(sessions)
        if s.group_id == group.pk
        and s.status == "finished"
        and filters.game in ("", s.game)
        and (filters.night is None or s.night_id == filters.night.pk)
        and (filters.since is None or s.night.date >= filters.since)
        and (filters.until is None or s.night.date <= filters.until)
    ]
    return sorted(wanted, key=lambda s: (s.finished_at, s.pk), reverse=True)


def _shown(sessions: QuerySet[GameSession]) -> QuerySet[GameSession]:
    return sessions.select_related("night").only(
        "group_id", "status", "game", "finished_at", "night__date", "night__place"
    )


def _conditions(group: Group, filters: Filters) -> Q:
    """The filters but the player's and the winner's, as conditions on a finished session."""
    wanted = Q(group=group, status="finished")
    if filters.game:
        wanted &= Q(game=filters.game)
    if filters.night is not None:
        wanted &= Q(night=filters.night)
    if filters.since or filters.until:
        wanted &= Q(night__in=_nights_between(group, filters.since, filters.until))
    return wanted


def _nights_between(group: Group, since: date | None, until: date | None) -> QuerySet[GameNight, Any]:
    nights = GameNight.objects.filter(group=group)
    if since:
        nights = nights.filter(date__gte=since)
    if until:
        nights = nights.filter(date__lte=until)
    return nights.values("pk")


def _after(start: dict[str, Any] | None) -> Q:
    """The sessions after the position ``start``."""
    if start is None:
        return Q()
    when = start["w"]
    # Written so that the index's range is ``finished_at <= when`` and the rest a check.
    later = Q(finished_at__lt=when) | Q(pk__lt=start["i"]) if start["k"] == SESSION else Q(finished_at__lt=when)
    return Q(finished_at__lte=when) & later


def _session_plays(found: list[GameSession]) -> list[Play]:
    standings: dict[int, list[Standing]] = {s.pk: [] for s in found}
    results = (
        Result.objects.filter(session_id__in=standings)
        .order_by("session_id", "rank", "player__name")
        .values_list("session_id", "player__name", "rank", "score")
    )
    for session_id, name, rank, score in results:
        standings[session_id].append(Standing(name=name, rank=rank, score=score, winner=rank == 1))
    return [
        Play(
            when=s.finished_at or s.created_at,
            day=s.night.date,
            game=s.game,
            game_name=game_name(s.game),
            session_id=s.pk,
            night_id=s.night_id,
            place=s.night.place,
            standings=standings[s.pk],
            position={"k": SESSION, "w": s.finished_at.isoformat() if s.finished_at else "", "i": s.pk},
        )
        for s in found
    ]


# --- the plays of other games, imported ---------------------------------------------------------


def _other_heads(group: Group, filters: Filters) -> QuerySet[PlainResult]:
    """One row per imported play (its moment, source and id) that the filters find."""
    rows = PlainResult.objects.filter(group=group)
    same_play = {"group": group, "source": OuterRef("source"), "play": OuterRef("play")}
    if filters.player is not None:
        rows = rows.filter(Exists(PlainResult.objects.filter(**same_play, player=filters.player)))
    if filters.winner is not None:
        rows = rows.filter(Exists(PlainResult.objects.filter(**same_play, player=filters.winner, winner=True)))
    if filters.since:
        rows = rows.filter(played_at__gte=_start_of(filters.since))
    if filters.until:
        rows = rows.filter(played_at__lt=_start_of(filters.until + timedelta(days=1)))
    # A play's rows share its moment (the import writes one); the latest is taken all the same.
    return rows.order_by().values("source", "play").annotate(when=Max("played_at"))  # type: ignore[return-value]


def _start_of(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def _after_others(heads: QuerySet[PlainResult], after: dict[str, Any] | None) -> QuerySet[PlainResult]:
    if after is not None:
        when = after["w"]
        if after["k"] == SESSION:  # an imported play at the session's moment comes after it
            # Q(("when...", ...)): "when" is the heads' annotation, which mypy's Django plugin cannot see.
            heads = heads.filter(Q(("when__lte", when)))
        else:
            earlier_key = Q(source__lt=after["s"]) | Q(source=after["s"], play__lt=after["p"])
            heads = heads.filter(Q(("when__lt", when)) | Q(("when", when)) & earlier_key)
    return heads.order_by(F("when").desc(), "-source", "-play")


def _other_plays(group: Group, heads: QuerySet[PlainResult]) -> list[Play]:
    found: list[dict[str, Any]] = list(heads)  # type: ignore[arg-type]
    if not found:
        return []
    wanted = Q()
    for head in found:
        wanted |= Q(source=head["source"], play=head["play"])
    rows = (
        PlainResult.objects.filter(wanted, group=group)
        .order_by(F("rank").asc(nulls_last=True), "player__name")
        .values_list("source", "play", "game", "place", "player__name", "rank", "score", "winner")
    )
    by_play: dict[tuple[str, str], list[tuple[Any, ...]]] = {(h["source"], h["play"]): [] for h in found}
    for row in rows:
        by_play[(row[0], row[1])].append(row)
    plays = []
    for head in found:
        rows_of_play = by_play[(head["source"], head["play"])]
        first = rows_of_play[0]
        plays.append(
            Play(
                when=head["when"],
                day=timezone.localdate(head["when"]),
                game=first[2],
                game_name=first[2],
                session_id=None,
                night_id=None,
                place=first[3],
                standings=[Standing(name=r[4], rank=r[5], score=r[6], winner=r[7]) for r in rows_of_play],
                position={"k": OTHER, "w": head["when"].isoformat(), "s": head["source"], "p": head["play"]},
            )
        )
    return plays
