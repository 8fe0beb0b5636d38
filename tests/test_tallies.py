"""Plays and wins per player, computed by a Celery task after a session finishes."""

from unittest import mock

from sessions import services, tasks
from sessions.models import PlayerTally


def finish(session, places):
    payload = {"places": {seat.key: place for seat, place in zip(session.seats.all(), places, strict=True)}}
    services.append_event(
        session_id=session.pk, expected_version=session.version, type="places.record", payload=payload
    )
    services.append_event(session_id=session.pk, expected_version=session.version + 1, type="session.finish")


def tallies():
    return {(t.player.name, t.game): (t.plays, t.wins) for t in PlayerTally.objects.select_related("player")}


def test_finishing_a_session_enqueues_the_tally_task_after_commit(session, django_capture_on_commit_callbacks):
    with (
        mock.patch.object(tasks.update_statistics, "delay") as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        finish(session, [1, 1, 3])
    delay.assert_called_once_with(session.pk)


def test_the_task_counts_plays_and_shared_wins(session, eager, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        finish(session, [1, 1, 3])
    assert tallies() == {
        ("Ada", "tower-of-babel"): (1, 1),
        ("Bruno", "tower-of-babel"): (1, 1),
        ("Chiara", "tower-of-babel"): (1, 0),
    }


def test_running_the_task_twice_leaves_the_same_numbers(session):
    finish(session, [2, 1, 3])
    tasks.refresh_tallies(session.pk)
    first = tallies()
    tasks.refresh_tallies(session.pk)
    assert tallies() == first


def test_the_rebuild_recomputes_everything_from_the_results(session):
    finish(session, [2, 1, 3])
    PlayerTally.objects.all().update(plays=99, wins=99)
    tasks.rebuild_tallies()
    assert tallies()[("Bruno", "tower-of-babel")] == (1, 1)


def test_a_broker_that_is_down_does_not_fail_the_finished_game(session, django_capture_on_commit_callbacks):
    with (
        mock.patch.object(tasks.refresh_tallies, "delay", side_effect=ConnectionError("broker down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        finish(session, [1, 2, 3])
    session.refresh_from_db()
    assert session.status == "finished"
    assert session.results.count() == 3
