"""A real Celery worker process, fed through Redis, keeps the players' tallies."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from babel_companion import celery_app
from bench.servers import database_url
from sessions import health, tasks
from sessions.models import GameSession, PlayerTally
from tests.integration.conftest import Table, wait_for

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).parent / "celery"
WORKER_START_SECONDS = 30
TASK_SECONDS = 30


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    hostname: str
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def succeeded(self, task_id: str) -> bool:
        self.assert_alive()
        return f"[{task_id}] succeeded" in self.output()

    def assert_alive(self) -> None:
        if self.process.poll() is not None:
            pytest.fail(f"the Celery worker exited with {self.process.returncode}:\n{self.output()[-4000:]}")


@pytest.fixture(scope="module")
def worker(redis_service: None, django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    assert not celery_app.conf.task_always_eager, "with REDIS_URL set, tasks must go to the broker"
    celery_app.control.purge()  # earlier tests' finished sessions left tasks for other databases
    hostname = f"integration-{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
    log = tmp_path_factory.mktemp("celery") / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": os.environ["REDIS_URL"],
        "PYTHONUNBUFFERED": "1",
    }
    command = [str(CELERY), "-A", "babel_companion", "worker", "--pool=solo", "-l", "info", "-n", hostname]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=sink, stderr=subprocess.STDOUT)
    started = Worker(process=process, hostname=hostname, log=log)
    try:

        def answers() -> bool:
            started.assert_alive()
            return bool(celery_app.control.ping(destination=[hostname], timeout=0.5))

        wait_for(answers, timeout=WORKER_START_SECONDS, what="the Celery worker to answer a ping")
        yield started
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def tallies(session: GameSession) -> dict[str, tuple[int, int]]:
    """(plays, wins) per player name in the session's game."""
    rows = PlayerTally.objects.filter(game=session.game).select_related("player")
    return {row.player.name: (row.plays, row.wins) for row in rows}


def test_a_real_worker_updates_the_tallies_after_a_session_finishes(worker: Worker, table: Table) -> None:
    first = table.play({"Ada": 42, "Bruno": 42, "Chiara": 35})  # Ada and Bruno share the win

    expected = {"Ada": (1, 1), "Bruno": (1, 1), "Chiara": (1, 0)}
    wait_for(lambda: tallies(first) == expected, timeout=TASK_SECONDS, what=f"tallies {expected}")

    second = table.play({"Ada": 20, "Bruno": 31, "Chiara": 50})
    expected = {"Ada": (2, 1), "Bruno": (2, 1), "Chiara": (2, 1)}
    wait_for(lambda: tallies(second) == expected, timeout=TASK_SECONDS, what=f"tallies {expected}")
    assert "sessions.tasks.update_statistics" in worker.output()


def test_a_tally_refresh_delivered_twice_leaves_the_same_numbers(worker: Worker, table: Table) -> None:
    session = table.play({"Ada": 12, "Bruno": 30, "Chiara": 30})
    expected = {"Ada": (1, 0), "Bruno": (1, 1), "Chiara": (1, 1)}
    wait_for(lambda: tallies(session) == expected, timeout=TASK_SECONDS, what=f"tallies {expected}")
    before = sorted(PlayerTally.objects.values_list("player_id", "game", "plays", "wins", "updated_at"))

    deliveries = [tasks.refresh_tallies.delay(session.pk), tasks.refresh_tallies.delay(session.pk)]

    for delivery in deliveries:
        wait_for(partial(worker.succeeded, delivery.id), timeout=TASK_SECONDS, what=f"task {delivery.id} to succeed")
    assert tallies(session) == expected
    assert PlayerTally.objects.count() == 3
    # The repeats ran (each succeeded above) and found the session counted: not a row changed.
    assert sorted(PlayerTally.objects.values_list("player_id", "game", "plays", "wins", "updated_at")) == before


def test_a_running_worker_reports_so_the_app_is_ready(worker: Worker, transactional_db: None) -> None:
    """Issue 43, point 4: the worker's heartbeat (babel_companion.celery.Heartbeat) reaches the
    readiness check through the cache; nothing else makes its check pass with tasks sent away."""
    wait_for(lambda: health.readiness()[3].ok, timeout=WORKER_START_SECONDS, what="the worker's report")
    answer = Client().get("/health/ready")
    assert answer.status_code == 200, answer.content
    assert json.loads(answer.content)["checks"]["worker"]["detail"].startswith("reported")
