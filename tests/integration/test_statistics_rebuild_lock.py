"""On PostgreSQL a rebuild holds its group's statistics lock while it replays (it writes the
monthly tallies meanwhile): the other statistics writers wait for it, and so does a merge of two
players (the tallies keep no foreign key: a rebuild must not write rows for a player deleted
under it); the group's other writes do not."""

from __future__ import annotations

import threading
from collections.abc import Callable
from unittest import mock

import pytest
from django.db import OperationalError, connection, connections, transaction

from sessions import services
from sessions.models import Player, PlayerMonth
from sessions.statistics import services as statistics
from sessions.statistics.ratings import Match, Replay
from tests.integration.conftest import Table

pytestmark = pytest.mark.integration


def lock_timeout(milliseconds: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL lock_timeout = '{milliseconds}ms'")


def waiting_at_most(milliseconds: int, work: Callable[[], object]) -> None:
    """``work()`` in a transaction whose locks wait at most ``milliseconds``."""
    with transaction.atomic():
        lock_timeout(milliseconds)
        work()


class HeldRebuild:
    """A rebuild of the group in a thread of its own, held in its replay until released."""

    def __init__(self, group_id: int) -> None:
        self.group_id, self.failures = group_id, list[BaseException]()
        self.replaying, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._rebuild)

    def __enter__(self) -> HeldRebuild:
        add = Replay.add

        def held(replay: Replay, match: Match) -> None:
            self.replaying.set()
            self.release.wait(timeout=20)
            add(replay, match)

        self.patched = mock.patch.object(Replay, "add", held)
        self.patched.start()
        self.thread.start()
        assert self.replaying.wait(timeout=20), "the rebuild never replayed"
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release.set()
        self.thread.join(timeout=30)
        self.patched.stop()
        assert not self.thread.is_alive()
        assert self.failures == []

    def _rebuild(self) -> None:
        try:
            statistics.rebuild_group(group_id=self.group_id)
        except BaseException as error:
            self.failures.append(error)
        finally:
            connections.close_all()


def test_while_a_rebuild_replays_a_new_player_joins_and_the_catch_up_waits(
    postgres_service: None, table: Table
) -> None:
    table.play({"Ada": 20, "Bruno": 31, "Chiara": 50})
    group_id = table.night.group_id
    with HeldRebuild(group_id):
        with transaction.atomic():
            lock_timeout(2000)  # a FOR UPDATE lock on the group would make this fail
            dario = services.create_player(group=table.night.group, name="Dario")
        with pytest.raises(OperationalError, match="lock"):
            waiting_at_most(200, lambda: statistics.catch_up_group(group_id=group_id))
    assert Player.objects.filter(pk=dario.pk).exists()


def test_a_merge_waits_for_the_rebuild_under_way_and_leaves_no_tallies_of_the_dropped_player(
    postgres_service: None, table: Table
) -> None:
    ada, bruno, chiara = table.players
    table.play({"Ada": 20, "Bruno": 31, "Chiara": 50})
    robert = services.create_player(group=table.night.group, name="Robert")
    table.players = [ada, bruno, robert]
    table.play({"Ada": 40, "Bruno": 31, "Robert": 12})
    with HeldRebuild(table.night.group_id):  # its tallies count Robert's game, unsaid yet
        with pytest.raises(OperationalError, match="lock"):
            waiting_at_most(200, lambda: services.merge_players(keep=chiara, drop=robert))
        assert Player.objects.filter(pk=robert.pk).exists()  # the refused merge wrote nothing
    assert PlayerMonth.objects.filter(player_id=robert.pk).exists()  # the rebuild's, now said
    services.merge_players(keep=chiara, drop=robert)
    assert not Player.objects.filter(pk=robert.pk).exists()
    assert not PlayerMonth.objects.filter(player_id=robert.pk).exists()
