"""Writes of the statistics: the update after a finished session, the catch-up, the rebuild.

Idempotency: a finished session is counted once, when its ``RatedSession`` row is written
in the same transaction as the numbers. An update for a session already counted (a
redelivered or duplicated task) finds nothing pending and changes nothing.

Chronology: ratings depend on the order of play, so sessions are counted in the order they
finished, and every update of a group counts all its pending sessions (those whose task was
lost while the broker was down, an import's). When a pending session finished before one
already counted (plays imported into a group with later ones), the group is rebuilt instead,
so the numbers always equal a rebuild's.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from itertools import islice
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Count, F, Max, Min, Model, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from scoring import session as core
from sessions.models import (
    GameSession,
    GameStatistics,
    Group,
    MoveStatistics,
    PlayerMonth,
    PlayerRating,
    PlayerTally,
    RatedSession,
    RatingHistory,
    Result,
    Seat,
)
from sessions.statistics import from_moves, keys
from sessions.statistics.ratings import OVERALL, Entry, Match, Rating, Replay, Totals

logger = logging.getLogger(__name__)

BATCH = 5000
# When a session counts as played, in SQL on a session aliased ``s`` (see ``_played``). The
# index ``session_played_order`` (``GameSession.Meta``) is on this same expression, which the
# rebuild's reading needs to come in order without a sort: change the two together.
PLAYED_SQL = "COALESCE(s.finished_at, s.updated_at)"
# The wins among a group of results aliased ``r``: everyone ranked 1 has won.
WINS_SQL = "SUM(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END)"
# A rebuild's summing connections' memory for sorts and hashes (PostgreSQL's default, 4 MB,
# sends them to disk at 100,000 sessions).
SUMMING_MEMORY = "64MB"
# The player page's figures a rating row keeps besides the rating (``models.PlayerRating``).
KEPT_FIGURES = ("best", "worst", "score_sum", "scored", "streak", "longest_streak")


def update_statistics(*, session_id: int) -> int:
    """Count a finished session, and every other pending session of its group, in the order
    of play, when the group is marked behind; say how many. Idempotent: a repeat finds
    nothing pending and returns 0.

    A session whose task was lost (the broker was down) or never sent on its own (an import
    queues one update for all its sessions) marks its group behind
    (``services.enqueue_statistics_update``), so the group's next update counts it without
    waiting for :func:`catch_up` (every few minutes from beat). Otherwise only this session
    is looked at: a primary-key lookup, not a scan of the group.
    """
    found = GameSession.objects.filter(pk=session_id).values_list("group_id", "group__statistics_behind").first()
    if found is None:  # deleted since the task was queued: nothing to count
        return 0
    group_id, behind = found
    return catch_up_group(group_id=group_id, session_id=None if behind else session_id)


def catch_up() -> int:
    """Count every pending finished session, group by group (after the broker was down)."""
    groups = pending_sessions().values_list("group_id", flat=True).distinct().order_by("group_id")
    return sum(catch_up_group(group_id=group_id) for group_id in list(groups))


def pending_sessions() -> QuerySet[GameSession]:
    """Finished sessions the statistics do not count yet."""
    return GameSession.objects.filter(status=core.FINISHED, rated__isnull=True)


def catch_up_group(*, group_id: int, session_id: int | None = None) -> int:
    """Count the group's pending sessions (or only ``session_id``, if pending) in the order of
    play; counting the whole group clears its ``statistics_behind`` mark."""
    with transaction.atomic():
        lock_statistics(group_id)
        pending_here = pending_sessions().filter(group_id=group_id)
        if session_id is None:
            Group.objects.filter(pk=group_id, statistics_behind=True).update(statistics_behind=False)
        else:
            pending_here = pending_here.filter(pk=session_id)
        pending = list(pending_here.annotate(played=_played()).order_by("played", "id").values_list("played", "id"))
        if not pending:
            return 0
        latest = (
            RatedSession.objects.filter(group_id=group_id)
            .order_by("-finished_at", "-session_id")
            .values_list("finished_at", "session_id")
            .first()
        )
        if latest is not None and pending[0] < latest:
            logger.info("group %s: a session finished before one already counted; rebuilding", group_id)
            rebuild_group(group_id=group_id)
            return len(pending)
        matches = list(load_matches(group_id=group_id, session_ids=[pk for _played, pk in pending]))
        replay = _stored_replay(group_id=group_id, matches=matches)
        for match in matches:
            replay.add(match)
        rated = {match.session_id for match in matches}
        replay.sessions += [(pk, played) for played, pk in pending if pk not in rated]  # no results: nothing to count
        _write_moves(group_id=group_id, session_ids=[pk for _played, pk in pending])  # before they count as rated
        _write_update(group_id=group_id, replay=replay, matches=matches)
        return len(pending)


def rebuild_all() -> None:
    """Recompute every group's statistics from the Results (the nightly consistency run)."""
    for group_id in Group.objects.order_by("pk").values_list("pk", flat=True):
        rebuild_group(group_id=group_id)


def rebuild_group(*, group_id: int) -> Replay:
    """Recompute the group's statistics from its Results.

    Over the sessions finished up to a cutoff: a session finished after it, even one a task
    counted meanwhile, is left pending and the catch-up counts it after the rebuild (the same
    numbers either way). The games' totals, the players' scores, the monthly tallies and the
    counted sessions are summed by the database; Python replays the ratings and the streaks.

    On SQLite the replay happens before the write transaction: SQLite takes its write lock
    at BEGIN, and the phones must not wait for the replay. On PostgreSQL the transaction
    begins first, and the database writes the monthly tallies and counted sessions in it
    while Python replays (0.6 s of a 5 s rebuild at 100,000 sessions). Its lock on the group
    (FOR NO KEY UPDATE) holds off only the other statistics writers, not a new session or
    player of the group.

    Outside a transaction the rows are read, and the totals summed, on connections of their
    own, beside the replay (``apart``). Inside one (a rebuild started by the catch-up, or a
    test) a second connection would not see this one's rows.
    """
    until = timezone.now()
    apart = not connection.in_atomic_block
    if apart and connection.vendor == "postgresql":
        with transaction.atomic():
            lock_statistics(group_id)
            now = timezone.now()
            with ThreadPoolExecutor(max_workers=1) as beside:
                # One after the other, beside the replay: on two cores, the three at once
                # slowed the reading the replay waits for.
                sums = _summed(beside, group_id=group_id, until=until, apart=True)
                summed = _on_this_connection(beside, _write_summed, group_id=group_id, until=until, now=now)
                replay = _replayed(group_id=group_id, until=until, sums=sums, read_ahead=True)
                summed.result()
            _write_replayed(group_id=group_id, replay=replay, now=now)
            _write_moves_rebuilt(group_id=group_id, figures=from_moves.group_figures(group_id, until=until))
        return replay
    with ThreadPoolExecutor(max_workers=1) as beside:
        sums = _summed(beside, group_id=group_id, until=until, apart=apart)
        replay = _replayed(group_id=group_id, until=until, sums=sums, read_ahead=apart)
    moves = from_moves.group_figures(group_id, until=until)  # read the logs before SQLite's write lock
    with transaction.atomic():
        lock_statistics(group_id)
        now = timezone.now()
        _write_replayed(group_id=group_id, replay=replay, now=now)
        _write_summed(db=connection, group_id=group_id, until=until, now=now)
        _write_moves_rebuilt(group_id=group_id, figures=moves)
    return replay


def lock_statistics(group_id: int) -> None:
    """One statistics writer per group at a time (PostgreSQL; SQLite's writes are serial anyway).
    NO KEY UPDATE: a new row that refers to the group (a session, a player) does not wait.
    ``services.merge_players`` takes it too before it deletes a player: the statistics' rows
    keep no foreign key (``models.PlayerMonth``), so no rebuild may write any for that player
    once it is deleted."""
    Group.objects.select_for_update(no_key=True).filter(pk=group_id).values_list("pk", flat=True).first()


def _replayed(*, group_id: int, until: datetime, sums: Future[Sums], read_ahead: bool) -> Replay:
    """The ratings replayed from the group's sessions finished by ``until``, with the games'
    totals and the players' scores that the database ``sums``."""
    replay = Replay(tally=False)
    plays: dict[str, int] = {}
    for match in load_matches(group_id=group_id, details=False, until=until, read_ahead=read_ahead):
        replay.add(match)
        plays[match.game] = plays.get(match.game, 0) + 1
    summed = sums.result()
    # A game's totals summed without a play replayed (its sessions deleted between the two
    # reads) are left out: the next rebuild finds them gone from both.
    replay.totals = {game: Totals(n, summed.totals.get(game) or Totals.empty()) for game, n in plays.items()}
    for key, (best, worst, total, count) in summed.scores.items():
        # Summed on another connection: a session deleted between its read and the replay's
        # leaves scores of nobody the replay rated (the next rebuild finds it gone from both).
        rating = replay.ratings.get(key)
        if rating is not None:
            rating.best, rating.worst, rating.score_sum, rating.scored = best, worst, total, count
    return replay


def _on_this_connection(beside: ThreadPoolExecutor, work: Callable[..., None], **kwargs: Any) -> Future[None]:
    """``work(db=..., **kwargs)`` on ``beside``'s thread, on this thread's connection and in its
    transaction, while this thread does what needs no database (Django lets a connection be
    shared once told, as its live test server does). This thread must not use the
    connection until the future is done."""
    db = connections[DEFAULT_DB_ALIAS]
    db.inc_thread_sharing()

    def shared() -> None:
        try:
            work(db=db, **kwargs)
        finally:
            db.dec_thread_sharing()

    return beside.submit(shared)


def _write_replayed(*, group_id: int, replay: Replay, now: datetime) -> None:
    """Replace the group's ratings, tallies, games' totals and rating history with the replay's."""
    transaction.on_commit(lambda: keys.statistics_changed(group_id))  # what the cache computed from them
    RatingHistory.objects.filter(player__group_id=group_id).delete()
    PlayerRating.objects.filter(player__group_id=group_id).delete()
    PlayerTally.objects.filter(player__group_id=group_id).delete()
    GameStatistics.objects.filter(group_id=group_id).delete()
    moments = _prepared_moments([now, *{r.last_played for r in replay.ratings.values() if r.last_played}])
    _insert_many(
        PlayerRating,
        ["player_id", "game", "mu", "sigma", "plays", "wins", "last_played", *KEPT_FIGURES],
        (
            (
                *(pk, game, r.mu, r.sigma, r.plays, r.wins, moments[r.last_played] if r.last_played else None),
                *(r.best, r.worst, r.score_sum, r.scored, r.streak, r.longest_streak),  # KEPT_FIGURES
            )
            for (pk, game), r in replay.ratings.items()
        ),
    )
    _insert_many(
        PlayerTally,
        ["player_id", "game", "plays", "wins", "updated_at"],
        ((pk, game, r.plays, r.wins, moments[now]) for (pk, game), r in replay.ratings.items() if game != OVERALL),
    )
    GameStatistics.objects.bulk_create(
        GameStatistics(group_id=group_id, game=game, plays=totals.plays, totals=totals.data)
        for game, totals in replay.totals.items()
    )
    _insert_many(
        RatingHistory,
        ["player_id", "year", "points"],
        # one row's JSON at a time: all of them at once would double the history's memory
        ((key[0], key[1], replay.history_json(key)) for key in replay.history),
    )


def load_matches(
    *,
    group_id: int,
    session_ids: Sequence[int] | None = None,
    details: bool = True,
    until: datetime | None = None,
    read_ahead: bool = False,
) -> Iterator[Match]:
    """The group's finished sessions in the order they finished: one query, streamed.

    ``details`` adds each result's score, seat and breakdown (for the game totals of an
    incremental update; a rebuild sums those in the database, see :func:`game_totals`).
    The rows are read without the ORM's per-value converters, the bulk of a rebuild's
    reading time: the time is converted once per session and also kept as stored.
    """
    q = connection.ops.quote_name
    result, session, seat = (q(m._meta.db_table) for m in (Result, GameSession, Seat))
    sessions, columns = f"{session} s", f"s.id, s.game, {PLAYED_SQL}, NULL"  # SQLite: its text; no month
    month_params: Sequence[Any] = ()
    on_postgresql = connection.vendor == "postgresql"
    if on_postgresql:
        # The time as text in the one format fromisoformat reads: psycopg would parse a
        # timestamp for each row, four a session (2 of a rebuild's 12 s at 100,000 sessions),
        # where the replay converts one a session; the same text is the history's
        # (``Replay.moment``). And the local month, as the monthly tallies sum it
        # (``_write_summed``). Both once a session, not once a result (OFFSET 0 keeps the
        # planner from moving them out of the subquery): 0.2 s less of the server's time.
        month_sql, month_params = _month_sql(connection)
        stored_sql = f"""to_char({PLAYED_SQL} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')"""
        sessions += f" CROSS JOIN LATERAL (SELECT {stored_sql} AS played, {month_sql} AS month OFFSET 0) d"
        columns = "s.id, s.game, d.played, d.month"
    columns += ", r.player_id, r.rank"
    joins = ""
    if details:
        columns += f", r.score, t.{q('order')}, r.breakdown"
        joins = f"LEFT JOIN {seat} t ON t.session_id = r.session_id AND t.player_id = r.player_id"
    sql = (
        f"SELECT {columns} FROM {sessions} JOIN {result} r ON r.session_id = s.id {joins} "
        "WHERE s.group_id = %s AND s.status = %s"
    )
    params: list[Any] = [*month_params, group_id, core.FINISHED]
    if session_ids is not None:
        sql += f" AND s.id IN ({', '.join(['%s'] * len(session_ids))})"
        params += list(session_ids)
    if until is not None:
        sql += f" AND {PLAYED_SQL} <= %s"
        params.append(connection.ops.adapt_datetimefield_value(until))
    sql += f" ORDER BY {PLAYED_SQL}, s.id, r.rank, r.player_id"
    current: int | None = None
    game, played, stored, month, moment = "", timezone.now(), None, None, None
    entries: list[Entry] = []
    for rows in _batches(sql, params, whole=session_ids is None, read_ahead=read_ahead):
        for row in rows:
            if row[0] != current:
                if current is not None:
                    yield Match(current, game, played, tuple(entries), stored, month, moment)
                current, game, stored, month, entries = row[0], row[1], row[2], row[3], []
                played = _moment(stored)
                moment = stored if on_postgresql else None  # PostgreSQL's text is the history's
            if details:
                breakdown = row[8]
                if isinstance(breakdown, str):
                    breakdown = json.loads(breakdown) if breakdown != "{}" else {}
                entries.append(Entry(row[4], row[5], row[6], row[7], breakdown or {}))
            else:
                entries.append(Entry(row[4], row[5]))
    if current is not None:
        yield Match(current, game, played, tuple(entries), stored, month, moment)


def _batches(sql: str, params: list[Any], *, whole: bool, read_ahead: bool) -> Iterator[list[Any]]:
    """The query's rows, a batch at a time.

    A few sessions' rows (the catch-up) come in one round trip. A whole group's come through
    a server-side cursor on PostgreSQL (a client-side one holds every row in the driver's
    memory before the first batch is read; SQLite streams anyway). With ``read_ahead`` they
    are read a batch ahead, on a second connection by a thread of their own: the database
    finds the next rows while the replay counts these (the drivers release the GIL while
    they wait). Only where that connection sees the same rows (see ``rebuild_group``).
    """
    if not whole:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            yield cursor.fetchall()
    elif read_ahead:
        yield from _read_ahead(sql, params)
    else:
        with connection.chunked_cursor() as cursor:
            cursor.execute(sql, params)
            while rows := cursor.fetchmany(BATCH):
                yield rows


def _read_ahead(sql: str, params: list[Any]) -> Iterator[list[Any]]:
    """The batches of :func:`_batches`, read by a thread one batch ahead of the caller."""
    ahead: queue.Queue[list[Any] | BaseException] = queue.Queue(maxsize=1)
    stop = threading.Event()

    def read() -> None:
        try:
            # In a transaction: in autocommit, PostgreSQL's server-side cursor is WITH HOLD,
            # and the commit right after its DECLARE reads and keeps every row at once.
            with transaction.atomic(), connection.chunked_cursor() as cursor:
                cursor.execute(sql, params)
                while not stop.is_set():
                    rows = cursor.fetchmany(BATCH)
                    ahead.put(rows)
                    if not rows:
                        return
        except BaseException as error:  # raised again in the caller's thread
            ahead.put(error)
        finally:
            connections.close_all()  # this thread's connections only: they are per thread

    reader = threading.Thread(target=read, name="statistics-read-ahead", daemon=True)
    reader.start()
    try:
        while True:
            batch = ahead.get()
            if isinstance(batch, BaseException):
                raise batch
            if not batch:
                return
            yield batch
    finally:
        # The caller stopped early (an error in the replay): let the reader put its last
        # batch, see the stop and close its cursor.
        stop.set()
        while reader.is_alive():
            with contextlib.suppress(queue.Empty):
                ahead.get(timeout=0.1)
        reader.join()


def _moment(value: datetime | str) -> datetime:
    """A database's timestamp as an aware datetime (``load_matches`` reads it as text)."""
    if isinstance(value, str):
        try:
            moment: datetime | None = datetime.fromisoformat(value)
        except ValueError:
            moment = parse_datetime(value)
    else:
        moment = value
    if moment is None:
        raise ValueError(f"not a timestamp: {value!r}")
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, UTC)


class Sums(NamedTuple):
    """What a rebuild has the database sum: each game's totals, and each player's scores in
    each game, (best, worst, sum, how many) by (player, game)."""

    totals: dict[str, dict[str, Any]]
    scores: dict[tuple[int, str], tuple[int, int, int, int]]


def _summed(beside: ThreadPoolExecutor, *, group_id: int, until: datetime, apart: bool) -> Future[Sums]:
    """:func:`game_totals` and :func:`player_scores`, summed on a second connection while
    this thread replays the ratings if ``apart`` (see ``rebuild_group``), else here, first.

    The database's aggregation and Python's replay each take a few seconds of a rebuild;
    side by side they overlap (the database drivers release the GIL while a query runs).
    """

    def summed() -> Sums:
        return Sums(game_totals(group_id=group_id, until=until), player_scores(group_id=group_id, until=until))

    if not apart:
        done: Future[Sums] = Future()
        done.set_result(summed())
        return done

    def on_own_connection() -> Sums:
        try:
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    # As ``_write_summed``'s: the default 4 MB sorted the seats on disk.
                    cursor.execute(f"SET work_mem = '{SUMMING_MEMORY}'")  # this connection, closed below
            return summed()
        finally:
            connections.close_all()  # this thread's connections only: they are per thread

    return beside.submit(on_own_connection)


def _finished_results(*, group_id: int, until: datetime) -> QuerySet[Result]:
    return Result.objects.annotate(played=_played("session__")).filter(
        session__group_id=group_id, session__status=core.FINISHED, played__lte=until
    )


def player_scores(*, group_id: int, until: datetime) -> dict[tuple[int, str], tuple[int, int, int, int]]:
    """Each player's (best, worst, sum, how many) scores in each game, summed by the database
    (a few thousand rows, whatever the plays: 0.1 s at 100,000 sessions on PostgreSQL)."""
    scored = _finished_results(group_id=group_id, until=until).filter(score__isnull=False)
    figures = scored.values("player_id", "session__game").annotate(
        best=Max("score"), worst=Min("score"), total=Sum("score"), n=Count("id")
    )
    return {
        (pk, game): (best, worst, total, n)
        for pk, game, best, worst, total, n in figures.values_list(
            "player_id", "session__game", "best", "worst", "total", "n"
        )
    }


def game_totals(*, group_id: int, until: datetime) -> dict[str, dict[str, Any]]:
    """Each game's totals but its plays (the ``data`` of :class:`Totals`), summed by the database.

    The plays are the sessions the replay rates (see :func:`_replayed`), counted there for
    nothing: counting them here was another pass over the results.
    """
    q = connection.ops.quote_name
    result, session, seat = (q(m._meta.db_table) for m in (Result, GameSession, Seat))
    where, params = _finished_until(group_id=group_id, until=until)
    totals: dict[str, dict[str, Any]] = {}

    def of(game: str) -> dict[str, Any]:
        data = totals.get(game)
        if data is None:
            data = totals[game] = Totals.empty()
        return data

    with connection.cursor() as cursor:
        # The scores, the winners' scores and the seats in one pass, counted by all four:
        # three queries (one a join with the seats that PostgreSQL planned as a nested loop,
        # 0.8 s at 100,000 sessions) took three times as long.
        cursor.execute(
            f"SELECT s.game, r.score, t.{q('order')}, CASE WHEN r.rank = 1 THEN 1 ELSE 0 END, COUNT(*) "
            f"FROM {result} r JOIN {session} s ON s.id = r.session_id "
            f"LEFT JOIN {seat} t ON t.session_id = r.session_id AND t.player_id = r.player_id "
            f"WHERE {where} GROUP BY 1, 2, 3, 4",
            params,
        )
        for game, score, order, won, count in cursor.fetchall():
            data = of(game)
            if score is not None:
                scores, key = data["scores"], str(score)
                scores[key] = scores.get(key, 0) + count
                if won:
                    winning = data["winning"]
                    winning["sum"] += score * count
                    winning["count"] += count
                    if winning["best"] is None or score > winning["best"]:
                        winning["best"] = score
            if order is not None:
                seat_row = data["seats"].setdefault(str(order), [0, 0])
                seat_row[0] += count
                seat_row[1] += count if won else 0
        if connection.vendor == "postgresql":
            each = "CROSS JOIN LATERAL jsonb_each(r.breakdown) j"
            value, numeric = "(j.value)::numeric", "jsonb_typeof(j.value) = 'number'"
        else:  # SQLite's JSON1 functions
            each, value, numeric = ", json_each(r.breakdown) j", "j.value", "j.type IN ('integer', 'real')"
        cursor.execute(
            f"SELECT s.game, j.key, SUM({value}), COUNT(*) FROM {result} r JOIN {session} s ON s.id = r.session_id "
            f"{each} WHERE {where} AND {numeric} GROUP BY s.game, j.key",
            params,
        )
        for game, key, total, count in cursor.fetchall():
            number = total if isinstance(total, int | float) else float(total)
            if isinstance(number, float) and number.is_integer():
                number = int(number)
            of(game)["breakdown"][key] = [number, count]
    return totals


def _finished_until(db: BaseDatabaseWrapper = connection, *, group_id: int, until: datetime) -> tuple[str, list[Any]]:
    """The SQL condition (on a session aliased ``s``) of the group's sessions finished by ``until``."""
    where = f"s.group_id = %s AND s.status = %s AND {PLAYED_SQL} <= %s"
    return where, [group_id, core.FINISHED, db.ops.adapt_datetimefield_value(until)]


def _write_summed(*, db: BaseDatabaseWrapper, group_id: int, until: datetime, now: datetime) -> None:
    """A rebuild's rows that the database sums itself, with no row through Python: the
    monthly tallies, and a ``RatedSession`` for every session finished by ``until``.

    Written by the replay, these were 220,000 rows at 100,000 sessions, 1.8 s of a 9 s
    rebuild on PostgreSQL. And a nightly rebuild finds nearly all of them right: each table
    is compared with what it should hold in one pass (two joins), and only the rows
    that differ (a deleted session, a corrected result) are deleted, changed or added.
    Comparing row by row (``NOT EXISTS``, ``ON CONFLICT``) took 1.9 s of a 7 s nightly
    rebuild at 100,000 sessions; the two passes take 0.6 s.
    """
    q = db.ops.quote_name
    result, session = q(Result._meta.db_table), q(GameSession._meta.db_table)
    months, rated = q(PlayerMonth._meta.db_table), q(RatedSession._meta.db_table)
    where, params = _finished_until(db, group_id=group_id, until=until)
    month, month_params = _month_sql(db)
    same_row = "f.player_id = m.player_id AND f.game = m.game AND f.month = m.month"
    with db.cursor() as cursor:
        if db.vendor == "postgresql":
            # The default 4 MB sends the sums and the joins to disk (120,000 rows at 100,000
            # sessions); this transaction alone gets more.
            cursor.execute(f"SET LOCAL work_mem = '{SUMMING_MEMORY}'")
        # The rows to change: a sum that differs from the stored row or has none (stored_id
        # NULL), then the stored rows that no sum has (player_id NULL). Two LEFT JOINs, not a
        # FULL JOIN, which SQLite has only since 3.39.
        cursor.execute(
            "CREATE TEMPORARY TABLE month_changes AS WITH f AS (SELECT r.player_id AS player_id, s.game AS game, "
            f"{month} AS month, COUNT(*) AS plays, {WINS_SQL} AS wins "
            f"FROM {result} r JOIN {session} s ON s.id = r.session_id WHERE {where} GROUP BY 1, 2, 3) "
            f"SELECT f.player_id, f.game, f.month, f.plays, f.wins, m.id AS stored_id FROM f LEFT JOIN {months} m "
            f"ON {same_row} AND m.group_id = %s WHERE m.id IS NULL OR m.plays <> f.plays OR m.wins <> f.wins "
            f"UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, m.id FROM {months} m LEFT JOIN f ON {same_row} "
            "WHERE m.group_id = %s AND f.player_id IS NULL",
            [*month_params, *params, group_id, group_id],
        )
        cursor.execute(
            f"DELETE FROM {months} WHERE id IN (SELECT stored_id FROM month_changes WHERE player_id IS NULL)"
        )
        cursor.execute(
            f"UPDATE {months} AS m SET plays = c.plays, wins = c.wins FROM month_changes c "
            "WHERE m.id = c.stored_id AND c.player_id IS NOT NULL"
        )
        cursor.execute(
            f"INSERT INTO {months} (group_id, player_id, game, month, plays, wins) "
            "SELECT %s, player_id, game, month, plays, wins FROM month_changes WHERE stored_id IS NULL",
            [group_id],
        )
        cursor.execute("DROP TABLE month_changes")
        # The same for the counted sessions. One finished after the cutoff goes back to
        # pending: the replay did not count it.
        cursor.execute(
            f"CREATE TEMPORARY TABLE rated_changes AS SELECT s.id AS session_id, {PLAYED_SQL} AS played, "
            f"c.session_id AS stored_id FROM {session} s LEFT JOIN {rated} c ON c.session_id = s.id "
            f"WHERE {where} AND (c.session_id IS NULL OR c.finished_at <> {PLAYED_SQL}) "
            f"UNION ALL SELECT NULL, NULL, c.session_id FROM {rated} c LEFT JOIN {session} s "
            f"ON s.id = c.session_id AND {where} WHERE c.group_id = %s AND s.id IS NULL",
            [*params, *params, group_id],
        )
        cursor.execute(
            f"DELETE FROM {rated} WHERE session_id IN (SELECT stored_id FROM rated_changes WHERE session_id IS NULL)"
        )
        cursor.execute(
            f"UPDATE {rated} AS c SET finished_at = d.played FROM rated_changes d "
            "WHERE c.session_id = d.stored_id AND d.session_id IS NOT NULL"
        )
        cursor.execute(
            f"INSERT INTO {rated} (session_id, group_id, finished_at, rated_at) "
            "SELECT session_id, %s, played, %s FROM rated_changes WHERE stored_id IS NULL",
            [group_id, db.ops.adapt_datetimefield_value(now)],
        )
        cursor.execute("DROP TABLE rated_changes")


def _month_sql(db: BaseDatabaseWrapper) -> tuple[str, Sequence[Any]]:
    """The SQL (and its parameters) of a session's month, on a session aliased ``s``: the first
    day of the month in the site's time zone, as ``Replay.month`` gives it."""
    month, params = db.ops.date_trunc_sql("month", PLAYED_SQL, (), timezone.get_current_timezone_name())
    if db.vendor == "postgresql":
        month = f"({month})::date"  # DATE_TRUNC gives a timestamp: as a date it hash-joins the stored dates
    return month, params


def _played(prefix: str = "") -> Coalesce:
    """When a session counts as played: when it finished (or was last changed, for old rows)."""
    return Coalesce(F(f"{prefix}finished_at"), F(f"{prefix}updated_at"))


def _stored_replay(*, group_id: int, matches: Sequence[Match]) -> Replay:
    """The stored state of the rows these matches touch, to continue the replay from."""
    players = {entry.player_id for match in matches for entry in match.entries}
    games = {match.game for match in matches}
    replay = Replay()
    months = {replay.month(match.played_at) for match in matches}
    for row in PlayerRating.objects.filter(player_id__in=players):
        kept = {name: getattr(row, name) for name in ("plays", "wins", "last_played", *KEPT_FIGURES)}
        replay.ratings[(row.player_id, row.game)] = Rating.of(row.mu, row.sigma, **kept)
    years = {month.year for month in months}
    histories = RatingHistory.objects.filter(player_id__in=players, year__in=years)
    for pk, year, points in histories.values_list("player_id", "year", "points"):
        replay.continue_history((pk, year), points)
    for month_row in PlayerMonth.objects.filter(player_id__in=players, month__in=months, game__in=games):
        replay.months[(month_row.player_id, month_row.game, month_row.month)] = [month_row.plays, month_row.wins]
    for stats in GameStatistics.objects.filter(group_id=group_id, game__in=games):
        replay.totals[stats.game] = Totals(plays=stats.plays, data=stats.totals)
    return replay


def _rating_row(key: tuple[int, str], rating: Rating) -> PlayerRating:
    player_id, game = key
    return PlayerRating(
        player_id=player_id,
        game=game,
        mu=rating.mu,
        sigma=rating.sigma,
        plays=rating.plays,
        wins=rating.wins,
        last_played=rating.last_played,
        **{name: getattr(rating, name) for name in KEPT_FIGURES},
    )


def _write_update(*, group_id: int, replay: Replay, matches: Sequence[Match]) -> None:
    """Write back the rows the matches changed."""
    transaction.on_commit(lambda: keys.statistics_changed(group_id))  # what the cache computed from them
    now = timezone.now()
    ratings = sorted({(e.player_id, key) for m in matches for e in m.entries for key in (m.game, OVERALL)})
    months = sorted({(e.player_id, m.game, replay.month(m.played_at)) for m in matches for e in m.entries})
    PlayerRating.objects.bulk_create(
        [_rating_row(key, replay.ratings[key]) for key in ratings],
        update_conflicts=True,
        unique_fields=["player", "game"],
        update_fields=["mu", "sigma", "plays", "wins", "last_played", *KEPT_FIGURES],
    )
    PlayerTally.objects.bulk_create(
        [
            PlayerTally(player_id=player_id, game=game, plays=r.plays, wins=r.wins, updated_at=now)
            for (player_id, game) in ratings
            if game != OVERALL
            for r in [replay.ratings[(player_id, game)]]
        ],
        update_conflicts=True,
        unique_fields=["player", "game"],
        update_fields=["plays", "wins", "updated_at"],
    )
    PlayerMonth.objects.bulk_create(
        [
            PlayerMonth(group_id=group_id, player_id=player_id, game=game, month=month, plays=n[0], wins=n[1])
            for (player_id, game, month) in months
            for n in [replay.months[(player_id, game, month)]]
        ],
        update_conflicts=True,
        unique_fields=["player", "game", "month"],
        update_fields=["plays", "wins"],
    )
    GameStatistics.objects.bulk_create(
        [
            GameStatistics(group_id=group_id, game=game, plays=totals.plays, totals=totals.data)
            for game, totals in sorted(replay.totals.items())
        ],
        update_conflicts=True,
        unique_fields=["group", "game"],
        update_fields=["plays", "totals"],
    )
    years = sorted({(pk, month.year) for pk, _game, month in months})
    RatingHistory.objects.bulk_create(
        [RatingHistory(player_id=pk, year=year, points=replay.points((pk, year))) for pk, year in years],
        update_conflicts=True,
        unique_fields=["player", "year"],
        update_fields=["points"],
    )
    _insert_rated(group_id, replay.sessions, now)


def _insert_rated(group_id: int, sessions: Sequence[tuple[int, Any]], now: datetime) -> None:
    moments = _prepared_moments({now, *(played for _pk, played in sessions)})
    _insert_many(
        RatedSession,
        ["session_id", "group_id", "finished_at", "rated_at"],
        ((pk, group_id, moments[played], moments[now]) for pk, played in sessions),
    )


def _prepared_moments(moments: Iterable[Any]) -> dict[Any, Any]:
    """Each distinct timestamp as the database takes it, converted once, not once per row.

    A value read from the database (``Match.stored_at``) goes back as it came; an aware
    datetime is adapted.
    """
    adapt = connection.ops.adapt_datetimefield_value
    return {moment: adapt(moment) if isinstance(moment, datetime) else moment for moment in moments}


def _insert_many(model: type[Model], columns: Sequence[str], rows: Iterable[tuple[Any, ...]]) -> None:
    """INSERT rows by the default column names of ``model``: PostgreSQL's COPY, else in batches.
    The rows are streamed: a rebuild never holds them all at once.

    On PostgreSQL an executemany of 100,000 rows spent most of a rebuild (each row's
    parameters dumped and sent through the pipeline); COPY streams them as one command.
    """
    quoted = ", ".join(connection.ops.quote_name(column) for column in columns)
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({quoted}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        sql = f"INSERT INTO {table} ({quoted}) VALUES ({', '.join(['%s'] * len(columns))})"
        stream = iter(rows)
        while batch := list(islice(stream, BATCH)):
            cursor.executemany(sql, batch)


def _write_moves(*, group_id: int, session_ids: Sequence[int]) -> None:
    """Add these pending sessions, in the order of play, to the figures from the moves
    (``from_moves``). A group counted before those figures were kept has none yet: its
    counted sessions are added first, once."""
    stored = dict(MoveStatistics.objects.filter(group_id=group_id).values_list("game", "figures"))
    if not stored:
        counted = RatedSession.objects.filter(group_id=group_id).order_by("finished_at", "session_id")
        session_ids = [*counted.values_list("session_id", flat=True), *session_ids]
    changed = from_moves.with_sessions(stored, session_ids)
    MoveStatistics.objects.bulk_create(
        [MoveStatistics(group_id=group_id, game=game, figures=figures) for game, figures in sorted(changed.items())],
        update_conflicts=True,
        unique_fields=["group", "game"],
        update_fields=["figures"],
    )


def _write_moves_rebuilt(*, group_id: int, figures: dict[str, dict[str, Any]]) -> None:
    MoveStatistics.objects.filter(group_id=group_id).delete()
    MoveStatistics.objects.bulk_create(
        MoveStatistics(group_id=group_id, game=game, figures=one) for game, one in sorted(figures.items())
    )
