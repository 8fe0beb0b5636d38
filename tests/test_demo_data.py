from unittest import mock

from django.core.management import call_command
from django.http import HttpRequest

from scoring import session as core
from sessions import selectors, tasks
from sessions.games import GAMES
from sessions.models import GameSession, Group, Player, PlayerRating
from sessions.statistics.services import pending_sessions


def test_the_demo_data_holds_a_finished_session_of_every_game_and_loads_once(db):
    call_command("load_demo")
    call_command("load_demo")
    assert Group.objects.filter(name="Demo table").count() == 1
    sessions = GameSession.objects.all()
    assert {s.game for s in sessions} == set(GAMES)
    assert all(s.status == core.FINISHED and s.results.count() == s.seats.count() for s in sessions)


def test_every_demo_session_replays_to_its_stored_state(db):
    call_command("load_demo")
    for session in GameSession.objects.all():
        assert selectors.replayed_state(session) == session.state


def test_the_demo_user_can_log_in_and_see_the_group(client, db):
    call_command("load_demo")
    assert client.login(request=HttpRequest(), username="demo", password="demo-table-2026")
    assert "Demo table" in client.get("/").content.decode()


def test_the_demo_arrives_with_its_statistics_counted_though_no_task_runs(db, django_capture_on_commit_callbacks):
    with (
        mock.patch.object(tasks.update_statistics, "delay") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        call_command("load_demo")
    assert queued.called  # the finished games queued their updates, as ever
    assert not pending_sessions().exists()
    ada = Player.objects.get(group__name="Demo table", name="Ada")
    assert PlayerRating.objects.get(player=ada, game="").plays == 3
