"""Statistics kept by Celery tasks: counted once per finished session, in the order of play,
rebuilt from the Results, and caught up after the broker was down."""

import datetime
import json
import threading
from io import StringIO
from unittest import mock

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import DatabaseError, OperationalError, connection, transaction
from django.utils import timezone

from sessions import services, tasks
from sessions.importexport.export import group_document
from sessions.importexport.importer import import_group
from sessions.models import (
    GameStatistics,
    Group,
    PlayerMonth,
    PlayerRating,
    PlayerTally,
    RatedSession,
    RatingHistory,
)
from sessions.statistics import services as statistics
from sessions.statistics.ratings import Replay

# These tests are about what the tasks do: they run in-process, whatever the broker.
pytestmark = pytest.mark.usefixtures("eager")

BASE = datetime.datetime(2026, 3, 2, 20, 0, tzinfo=datetime.UTC)


def play(night, players, scores, *, game="tower-of-babel", days=0, places=False):
    """A finished session with these final scores (or places) by seat; it finished ``days`` after BASE."""
    session = services.create_session(night=night, game=game, players=players, secret="1")
    kind = "places" if places else "scores"
    payload = {kind: {str(p.pk): s for p, s in zip(players, scores, strict=True)}}
    services.append_event(session_id=session.pk, expected_version=0, type=f"{kind}.record", payload=payload)
    services.append_event(session_id=session.pk, expected_version=1, type="session.finish")
    session.refresh_from_db()
    session.finished_at = BASE + datetime.timedelta(days=days)
    session.save(update_fields=["finished_at"])
    return session


def points_of(session):
    """How many rating-history points the session left (one per seated player)."""
    return sum(point[1] == session.pk for history in RatingHistory.objects.all() for point in history.points)


def snapshot():
    """Every statistics row, as comparable values (floats rounded)."""
    return {
        "ratings": sorted(
            (
                *(r.player_id, r.game, round(r.mu, 9), round(r.sigma, 9), r.plays, r.wins, r.last_played),
                *(getattr(r, name) for name in statistics.KEPT_FIGURES),
            )
            for r in PlayerRating.objects.all()
        ),
        "histories": sorted(
            (h.player_id, [(p[0], p[1], p[2], round(p[3], 9), round(p[6], 9)) for p in h.points])
            for h in RatingHistory.objects.all()
        ),
        "months": sorted(PlayerMonth.objects.values_list("player_id", "game", "month", "plays", "wins")),
        "games": sorted(GameStatistics.objects.values_list("game", "plays", "totals")),
        "tallies": sorted(PlayerTally.objects.values_list("player_id", "game", "plays", "wins")),
        "rated": sorted(RatedSession.objects.values_list("session_id", flat=True)),
    }


def test_finishing_a_session_enqueues_the_statistics_update_after_commit(session, django_capture_on_commit_callbacks):
    places = {seat.key: place for seat, place in zip(session.seats.all(), [1, 2, 3], strict=True)}
    services.append_event(session_id=session.pk, expected_version=0, type="places.record", payload={"places": places})
    with mock.patch.object(tasks.update_statistics, "delay") as delay:
        with django_capture_on_commit_callbacks() as hooks:
            services.append_event(session_id=session.pk, expected_version=1, type="session.finish")
        delay.assert_not_called()  # not before the Results are committed
        for hook in hooks:
            hook()
        delay.assert_called_once_with(session.pk)


def test_the_task_counts_ratings_history_months_game_totals_and_tallies(
    night, players, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        session = play(night, players[:3], [30, 30, 12])
    ada, bruno, chiara = players[:3]
    assert RatedSession.objects.filter(session=session).exists()
    assert PlayerRating.objects.filter(game="tower-of-babel").count() == 3
    assert PlayerRating.objects.filter(game="").count() == 3
    assert PlayerRating.objects.get(player=ada, game="").wins == 1
    assert PlayerRating.objects.get(player=bruno, game="tower-of-babel").wins == 1
    assert PlayerRating.objects.get(player=chiara, game="tower-of-babel").mu < 25
    assert points_of(session) == 3
    stats = GameStatistics.objects.get(game="tower-of-babel")
    assert stats.plays == 1
    assert stats.totals["winning"] == {"sum": 60, "count": 2, "best": 30}
    assert set(PlayerTally.objects.values_list("player__name", "plays", "wins")) == {
        ("Ada", 1, 1),
        ("Bruno", 1, 1),
        ("Chiara", 1, 0),
    }


def test_an_update_of_a_group_that_is_not_behind_looks_at_its_own_session_only(night, players):
    """The common case stays a key lookup, however many sessions the group has finished."""
    for day in range(3):
        play(night, players[:3], [day, 3, 6 - day], days=day)
    last = play(night, players[:3], [3, 2, 1], days=5)
    assert tasks.update_statistics(last.pk) == 1
    assert statistics.pending_sessions().count() == 3  # left to the catch-up: their updates are queued


def test_a_duplicated_or_redelivered_task_leaves_the_same_numbers(night, players):
    first = play(night, players[:3], [10, 20, 30])
    second = play(night, players[:4], [5, 6, 7, 8], days=1)
    assert tasks.update_statistics(first.pk) == 1  # only its own session: a key lookup
    assert tasks.update_statistics(second.pk) == 1
    once = snapshot()
    assert tasks.update_statistics(first.pk) == 0
    tasks.update_statistics.delay(second.pk)  # eager in the unit tests: the task body runs
    assert snapshot() == once
    assert len(once["rated"]) == 2


def test_the_incremental_updates_equal_a_rebuild_from_the_results(night, players):
    for day, scores in enumerate([[10, 20, 30], [40, 20, 30], [5, 5, 1], [9, 8, 7]]):
        session = play(night, players[:3], scores, days=day)
        tasks.update_statistics(session.pk)
    tasks.update_statistics(play(night, players[1:], [3, 1, 2], game="babel-on", days=9).pk)
    incremental = snapshot()
    tasks.rebuild_statistics()
    assert snapshot() == incremental


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_rebuild_sums_the_game_totals_on_a_second_thread_with_the_same_numbers(
    night, players
):
    for day, scores in enumerate([[10, 20, 30], [40, 20, 30], [5, 5, 1]]):
        play(night, players[:3], scores, days=day)
    with transaction.atomic():  # one connection: everything on this thread
        tasks.rebuild_statistics()
    on_one_thread = snapshot()
    summed_on = []
    game_totals = statistics.game_totals

    def spy(**kwargs):
        summed_on.append(threading.current_thread())
        return game_totals(**kwargs)

    # A batch of two rows: the results come through the read-ahead in several batches.
    with mock.patch.object(statistics, "game_totals", spy), mock.patch.object(statistics, "BATCH", 2):
        tasks.rebuild_statistics()
    assert len(summed_on) == 1
    assert summed_on[0] is not threading.main_thread()
    assert snapshot() == on_one_thread
    assert on_one_thread["games"][0][2]["breakdown"]  # the totals were there to compare


@pytest.mark.django_db(transaction=True)
def test_a_rebuild_whose_replay_fails_stops_its_read_ahead_and_writes_nothing(night, players):
    for day, scores in enumerate([[10, 20, 30], [40, 20, 30], [5, 5, 1]]):
        tasks.update_statistics(play(night, players[:3], scores, days=day).pk)
    counted = snapshot()
    add = Replay.add
    added = []

    def fail_on_the_second(replay, match):
        added.append(match.session_id)
        if len(added) == 2:
            raise RuntimeError("the replay broke")
        add(replay, match)

    with (
        mock.patch.object(Replay, "add", fail_on_the_second),
        mock.patch.object(statistics, "BATCH", 2),
        pytest.raises(RuntimeError, match="the replay broke"),
    ):
        statistics.rebuild_group(group_id=night.group_id)
    assert not [t for t in threading.enumerate() if t.name == "statistics-read-ahead"]
    assert snapshot() == counted


@pytest.mark.django_db(transaction=True)
def test_an_error_reading_ahead_reaches_the_rebuild(night, players):
    play(night, players[:3], [10, 20, 30])
    with mock.patch.object(statistics, "PLAYED_SQL", "no_such_column"), pytest.raises(DatabaseError):
        list(statistics.load_matches(group_id=night.group_id, until=timezone.now()))
    assert not [t for t in threading.enumerate() if t.name == "statistics-read-ahead"]


def test_the_rebuild_replaces_wrong_numbers(night, players):
    session = play(night, players[:3], [10, 20, 30])
    tasks.update_statistics(session.pk)
    right = snapshot()
    PlayerRating.objects.update(mu=99, plays=99)
    PlayerTally.objects.update(plays=99, wins=99)
    GameStatistics.objects.update(plays=0, totals={})
    tasks.rebuild_statistics()
    assert snapshot() == right


def test_the_rebuild_removes_tallies_and_counted_sessions_that_refer_to_nothing(night, players):
    """They keep no foreign key in the database (models.PlayerMonth): what refers to a player or
    a session that is gone is not the rebuild's, and goes."""
    session = play(night, players[:3], [10, 20, 30])
    tasks.update_statistics(session.pk)
    right = snapshot()
    group_id, gone = night.group_id, 10**9
    PlayerMonth.objects.create(group_id=group_id, player_id=gone, game="tower-of-babel", month=BASE.date(), plays=1)
    RatedSession.objects.create(session_id=gone, group_id=group_id, finished_at=BASE)
    statistics.rebuild_group(group_id=group_id)
    assert snapshot() == right


def test_a_broker_that_is_down_does_not_fail_the_finished_game_and_the_catch_up_counts_it(
    night, players, django_capture_on_commit_callbacks
):
    with (
        mock.patch.object(tasks.update_statistics, "delay", side_effect=ConnectionError("broker down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        session = play(night, players[:3], [1, 2, 3])
    assert session.status == "finished"
    assert session.results.count() == 3
    assert not RatedSession.objects.exists()  # pending: the marker is the missing RatedSession
    assert list(statistics.pending_sessions()) == [session]

    assert tasks.catch_up_statistics() == 1
    assert RatedSession.objects.filter(session=session).exists()
    assert PlayerRating.objects.get(player=players[2], game="").wins == 1


def test_once_the_broker_is_back_the_next_finish_counts_the_lost_session_and_its_own_in_order(
    night, players, django_capture_on_commit_callbacks
):
    with (
        mock.patch.object(tasks.update_statistics, "delay", side_effect=ConnectionError("broker down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        lost = play(night, players[:3], [1, 2, 3])
    with django_capture_on_commit_callbacks(execute=True):  # the broker is back
        later = play(night, players[:3], [3, 2, 1], days=1)
    counted = snapshot()
    assert counted["rated"] == sorted([lost.pk, later.pk])
    assert PlayerTally.objects.get(player=players[0]).plays == 2
    assert tasks.catch_up_statistics() == 0  # nothing left for beat's catch-up
    tasks.rebuild_statistics()
    assert snapshot() == counted  # counted in the order of play, as a rebuild does


def test_ten_sessions_finished_while_the_broker_was_down_are_all_counted_by_the_next_finish_in_order(
    night, players, django_capture_on_commit_callbacks
):
    with (
        mock.patch.object(tasks.update_statistics, "delay", side_effect=ConnectionError("broker down")) as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        lost = [play(night, players[:3], [day, 10 - day, 5], days=day) for day in range(10)]
    assert delay.call_count == 10  # each finish tried, and failed
    assert statistics.pending_sessions().count() == 10

    with (
        mock.patch.object(statistics, "rebuild_group", wraps=statistics.rebuild_group) as rebuild,
        django_capture_on_commit_callbacks(execute=True),  # the broker is back
    ):
        last = play(night, players[:3], [3, 2, 1], days=10)

    rebuild.assert_not_called()  # counted one after the other, not rebuilt
    counted = snapshot()
    assert counted["rated"] == sorted(session.pk for session in [*lost, last])
    assert PlayerTally.objects.get(player=players[0]).plays == 11
    assert statistics.pending_sessions().count() == 0
    tasks.rebuild_statistics()
    assert snapshot() == counted  # in the order of play


def test_an_import_of_ten_finished_sessions_is_counted_whole_by_its_one_update(
    night, players, outsider, django_capture_on_commit_callbacks
):
    for day in range(10):
        play(night, players[:3], [day, 10 - day, 5], days=day)
    document = json.loads(json.dumps(group_document(night.group)))

    with (
        mock.patch.object(tasks.update_statistics, "delay", wraps=tasks.update_statistics.delay) as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        imported = import_group(owner=outsider, document=document)

    assert delay.call_count == 1  # one update for the whole import
    assert RatedSession.objects.filter(group=imported).count() == 10
    assert not statistics.pending_sessions().filter(group=imported).exists()
    assert sorted(PlayerTally.objects.filter(player__group=imported).values_list("plays", flat=True)) == [10, 10, 10]


def test_a_session_counted_out_of_order_rebuilds_the_group_in_the_order_of_play(night, players):
    early = play(night, players[:3], [30, 20, 10], days=0)
    late = play(night, players[:3], [10, 20, 30], days=5)
    tasks.catch_up_statistics()  # counts both, in order
    RatedSession.objects.filter(session=early).delete()  # as if only the later one had been counted
    for history in RatingHistory.objects.all():
        history.points = [point for point in history.points if point[1] != early.pk]
        history.save()
    expected_rated = sorted([early.pk, late.pk])

    assert tasks.update_statistics(early.pk) == 1
    after = snapshot()
    assert after["rated"] == expected_rated
    assert PlayerRating.objects.get(player=players[0], game="").plays == 2  # not counted twice
    tasks.rebuild_statistics()
    assert snapshot() == after


@pytest.mark.parametrize(
    "run",
    [
        pytest.param(lambda last: tasks.update_statistics(last.pk), id="update_statistics"),
        pytest.param(lambda last: tasks.refresh_tallies(last.pk), id="refresh_tallies"),
        pytest.param(lambda last: tasks.catch_up_statistics(), id="catch_up_statistics"),
        pytest.param(lambda last: tasks.rebuild_statistics(), id="rebuild_statistics"),
        pytest.param(lambda last: tasks.rebuild_tallies(), id="rebuild_tallies"),
    ],
)
def test_every_task_run_twice_leaves_the_numbers_of_one_run(night, players, run):
    """A worker killed whole has its task delivered again once the visibility timeout passes."""
    sessions = [play(night, players[:3], [day, 3, 6 - day], days=day) for day in range(4)]
    Group.objects.update(statistics_behind=True)  # the first three sessions' updates were lost
    run(sessions[-1])
    once = snapshot()
    assert len(once["rated"]) == 4
    run(sessions[-1])
    assert snapshot() == once
    tasks.rebuild_statistics()
    assert snapshot() == once


def test_the_update_of_a_deleted_session_does_nothing(db):
    assert tasks.update_statistics(123456) == 0


def test_a_session_that_is_not_finished_is_not_counted(session):
    assert tasks.update_statistics(session.pk) == 0
    assert not PlayerRating.objects.exists()


def test_the_tasks_acknowledge_late_and_retry_with_backoff_when_the_database_is_busy():
    for task in (tasks.update_statistics, tasks.catch_up_statistics, tasks.rebuild_statistics):
        assert task.acks_late is True
        assert OperationalError in task.autoretry_for
        assert task.retry_backoff is True
        assert task.max_retries


def test_beat_runs_the_nightly_rebuild_and_the_catch_up():
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"sessions.tasks.rebuild_statistics", "sessions.tasks.catch_up_statistics"} <= scheduled


def test_the_management_command_rebuilds_everything(night, players):
    session = play(night, players[:3], [10, 20, 30])
    assert not RatedSession.objects.exists()
    out = StringIO()
    call_command("rebuild_statistics", stdout=out)
    assert RatedSession.objects.filter(session=session).exists()
    assert "1 group, 1 session" in out.getvalue()


@pytest.mark.parametrize("old_name", ["refresh_tallies", "rebuild_tallies"])
def test_tasks_queued_under_the_old_tally_names_still_count(night, players, old_name):
    session = play(night, players[:3], [10, 20, 30])
    task = getattr(tasks, old_name)
    task(session.pk) if old_name == "refresh_tallies" else task()
    assert RatedSession.objects.filter(session=session).exists()


def test_a_finished_session_without_results_is_marked_counted_and_does_not_force_rebuilds(night, players):
    from sessions.models import Result

    empty = play(night, players[:3], [1, 2, 3])
    Result.objects.filter(session=empty).delete()
    play(night, players[:3], [3, 2, 1], days=1)
    assert tasks.catch_up_statistics() == 2
    assert statistics.pending_sessions().count() == 0
    with mock.patch.object(statistics, "rebuild_group") as rebuild:
        tasks.update_statistics(play(night, players[:3], [5, 2, 1], days=2).pk)
    rebuild.assert_not_called()
    tasks.rebuild_statistics()
    assert statistics.pending_sessions().count() == 0


def test_the_rebuild_leaves_a_session_finished_after_its_cutoff_to_the_catch_up(night, players):
    counted = play(night, players[:3], [10, 20, 30])
    future = play(night, players[:3], [30, 20, 10])
    future.finished_at = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)
    future.save(update_fields=["finished_at"])
    tasks.rebuild_statistics()
    assert list(RatedSession.objects.values_list("session_id", flat=True)) == [counted.pk]
    assert GameStatistics.objects.get(game="tower-of-babel").plays == 1  # the totals agree with the replay
    assert tasks.catch_up_statistics() == 1
    assert GameStatistics.objects.get(game="tower-of-babel").plays == 2
    assert PlayerTally.objects.get(player=players[0]).plays == 2


@pytest.mark.parametrize("zone", ["Europe/Rome", "America/New_York"])
def test_a_rebuild_counts_a_play_near_midnight_in_the_local_month_as_the_update_does(night, players, settings, zone):
    settings.TIME_ZONE = zone
    late = play(night, players[:3], [10, 20, 30])
    # 23:30 UTC on the last day of March: April in Rome, still March in New York
    late.finished_at = datetime.datetime(2026, 3, 31, 23, 30, tzinfo=datetime.UTC)
    late.save(update_fields=["finished_at"])
    tasks.update_statistics(late.pk)
    counted = snapshot()
    tasks.rebuild_statistics()
    assert snapshot() == counted
    expected = datetime.date(2026, 4, 1) if zone == "Europe/Rome" else datetime.date(2026, 3, 1)
    assert set(PlayerMonth.objects.values_list("month", flat=True)) == {expected}


@pytest.mark.parametrize("zone", ["Europe/Rome", "America/New_York"])
def test_the_database_dates_a_play_near_new_year_as_the_replay_does(night, players, settings, zone):
    """PostgreSQL gives a rebuild each session's local month and history moment, which the
    replay would otherwise work out itself: both must say the same."""
    settings.TIME_ZONE = zone
    late = play(night, players[:3], [10, 20, 30])
    # 23:30 UTC on New Year's Eve: 2026 in Rome, still 2025 in New York
    late.finished_at = datetime.datetime(2025, 12, 31, 23, 30, tzinfo=datetime.UTC)
    late.save(update_fields=["finished_at"])
    [match] = statistics.load_matches(group_id=night.group_id, details=False)
    expected = datetime.date(2026, 1, 1) if zone == "Europe/Rome" else datetime.date(2025, 12, 1)
    replay = Replay(tally=False)
    assert replay.month(match.played_at) == expected
    if connection.vendor == "postgresql":
        assert (match.month, match.moment) == (expected, "2025-12-31T23:30:00.000000+00:00")
    replay.add(match)
    assert {year for _player, year in replay.history} == {expected.year}
    [point] = replay.points((players[0].pk, expected.year))
    assert point[0] == "2025-12-31T23:30:00.000000+00:00"


def test_a_nightly_rebuild_mends_the_monthly_tallies_and_counted_sessions_and_leaves_the_right_rows_alone(
    night, players
):
    sessions = [play(night, players[:3], scores, days=days) for days, scores in [(0, [1, 2, 3]), (40, [3, 2, 1])]]
    for session in sessions:
        tasks.update_statistics(session.pk)
    right = snapshot()
    by_player = PlayerMonth.objects.order_by("player")
    march, april = by_player.filter(month="2026-03-01"), by_player.filter(month="2026-04-01")
    untouched = list(march.values_list("id", "plays", "wins"))
    april.filter(player=players[0]).update(plays=7, wins=7)  # wrong
    april.filter(player=players[1]).delete()  # missing
    PlayerMonth.objects.create(group=night.group, player=players[2], game="babel-on", month="2026-05-01", plays=1)
    counted_at = dict(RatedSession.objects.values_list("session_id", "rated_at"))
    RatedSession.objects.filter(session=sessions[1]).update(finished_at=BASE)  # wrong
    tasks.rebuild_statistics()
    assert snapshot() == right
    assert list(march.values_list("id", "plays", "wins")) == untouched
    assert dict(RatedSession.objects.values_list("session_id", "rated_at")) == counted_at
    assert RatedSession.objects.get(session=sessions[1]).finished_at == sessions[1].finished_at
