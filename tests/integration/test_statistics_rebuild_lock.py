"""On PostgreSQL a rebuild holds its group's statistics lock while it replays (it writes the
monthly tallies meanwhile): the other statistics writers wait for it, the group's other writes do not."""

from __future__ import annotations

import threading
from unittest import mock

import pytest
from django.db import OperationalError, connection, connections, transaction

from sessions import services
from sessions.models import Player
from sessions.statistics import services as statistics
from sessions.statistics.ratings import Match, Replay
from tests.integration.conftest import Table

pytestmark = pytest.mark.integration


def lock_timeout(milliseconds: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL lock_timeout = '{milliseconds}ms'")


def catch_up_waiting_at_most(milliseconds: int, group_id: int) -> None:
    with transaction.atomic():
        lock_timeout(milliseconds)
        statistics.catch_up_group(group_id=group_id)


def test_while_a_rebuild_replays_a_new_player_joins_and_the_catch_up_waits(
    postgres_service: None, table: Table
) -> None:
    table.play({"Ada": 20, "Bruno": 31, "Chiara": 50})
    group_id = table.night.group_id
    replaying, release = threading.Event(), threading.Event()
    add = Replay.add
    failures: list[BaseException] = []

    def held(replay: Replay, match: Match) -> None:
        replaying.set()
        release.wait(timeout=20)
        add(replay, match)

    def rebuild() -> None:
        try:
            statistics.rebuild_group(group_id=group_id)
        except BaseException as error:
            failures.append(error)
        finally:
            connections.close_all()

    with mock.patch.object(Replay, "add", held):
        rebuilding = threading.Thread(target=rebuild)
        rebuilding.start()
        try:
            assert replaying.wait(timeout=20), "the rebuild never replayed"
            with transaction.atomic():
                lock_timeout(2000)  # a FOR UPDATE lock on the group would make this fail
                dario = services.create_player(group=table.night.group, name="Dario")
            with pytest.raises(OperationalError, match="lock"):
                catch_up_waiting_at_most(200, group_id)
        finally:
            release.set()
            rebuilding.join(timeout=30)
    assert not rebuilding.is_alive()
    assert failures == []
    assert Player.objects.filter(pk=dario.pk).exists()
