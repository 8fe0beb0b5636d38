"""A real Celery worker, fed through Redis, keeps the statistics; the player page shows them."""

from __future__ import annotations

import re
from functools import partial

import pytest
from django.test import Client
from django.urls import reverse

from sessions import tasks
from sessions.models import PlayerRating, RatedSession, RatingHistory
from tests.integration import test_celery_worker
from tests.integration.conftest import Table, wait_for
from tests.integration.test_celery_worker import TASK_SECONDS, Worker

worker = test_celery_worker.worker  # the fixture: one real worker process for the module

pytestmark = pytest.mark.integration


def counted(session_id: int) -> bool:
    return RatedSession.objects.filter(session_id=session_id).exists()


def ratings() -> list[tuple[int, str, float, float, int, int]]:
    return sorted(PlayerRating.objects.values_list("player_id", "game", "mu", "sigma", "plays", "wins"))


def test_a_worker_counts_a_finished_session_and_the_player_page_shows_it(worker: Worker, table: Table) -> None:
    client = Client()
    client.force_login(table.owner)
    chiara = table.players[2]
    url = reverse("player_statistics", args=[chiara.pk])

    first = table.play({"Ada": 20, "Bruno": 31, "Chiara": 50})
    wait_for(partial(counted, first.pk), timeout=TASK_SECONDS, what=f"session {first.pk} to be counted")
    page = client.get(url).content.decode()
    assert re.search(r'data-card="plays".*?stat-figure[^>]*>1<', page, re.S)
    assert re.search(r'data-card="wins".*?stat-figure[^>]*>1<', page, re.S)
    assert len(RatingHistory.objects.get(player=chiara).points) == 1  # the rating history the worker wrote

    second = table.play({"Ada": 60, "Bruno": 31, "Chiara": 50})
    wait_for(partial(counted, second.pk), timeout=TASK_SECONDS, what=f"session {second.pk} to be counted")
    page = client.get(url).content.decode()
    assert re.search(r'data-card="plays".*?stat-figure[^>]*>2<', page, re.S)
    assert re.search(r'data-card="longest-streak".*?stat-figure[^>]*>1<', page, re.S)
    assert len(RatingHistory.objects.get(player=chiara).points) == 2
    assert "sessions.tasks.update_statistics" in worker.output()


def test_a_statistics_update_delivered_twice_leaves_the_same_numbers(worker: Worker, table: Table) -> None:
    session = table.play({"Ada": 12, "Bruno": 30, "Chiara": 30})
    wait_for(partial(counted, session.pk), timeout=TASK_SECONDS, what=f"session {session.pk} to be counted")
    before = ratings()

    deliveries = [tasks.update_statistics.delay(session.pk), tasks.update_statistics.delay(session.pk)]

    for delivery in deliveries:
        wait_for(partial(worker.succeeded, delivery.id), timeout=TASK_SECONDS, what=f"task {delivery.id} to succeed")
    assert ratings() == before
    assert sum(p[1] == session.pk for h in RatingHistory.objects.all() for p in h.points) == 3


def histories() -> list[tuple[int, int, list[list[object]]]]:
    """Every rating history row, its numbers rounded as ``ratings`` are compared."""

    def rounded(point: list[object]) -> list[object]:
        return [round(value, 9) if isinstance(value, float) else value for value in point]

    rows = RatingHistory.objects.all()
    return sorted((h.player_id, h.year, [rounded(point) for point in h.points]) for h in rows)


def test_the_rebuild_task_on_the_worker_recomputes_the_same_numbers(worker: Worker, table: Table) -> None:
    session = table.play({"Ada": 40, "Bruno": 30, "Chiara": 20})
    wait_for(partial(counted, session.pk), timeout=TASK_SECONDS, what=f"session {session.pk} to be counted")
    before = ratings()
    history = histories()
    PlayerRating.objects.update(mu=1.0, plays=99)
    RatingHistory.objects.all().delete()

    delivery = tasks.rebuild_statistics.delay()

    wait_for(partial(worker.succeeded, delivery.id), timeout=TASK_SECONDS, what="the rebuild to succeed")
    assert [(p, g, round(m, 9), round(s, 9), n, w) for p, g, m, s, n, w in ratings()] == [
        (p, g, round(m, 9), round(s, 9), n, w) for p, g, m, s, n, w in before
    ]
    # written by COPY on PostgreSQL: the same JSON the update wrote
    assert histories() == history
