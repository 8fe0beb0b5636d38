"""A Celery worker killed whole (its main process and its pool) while a task runs: the task
goes back to the queue once the broker's visibility timeout passes, and another worker runs
it, once. The timeout is shortened through ``BROKER_VISIBILITY_TIMEOUT_SECONDS``."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
import redis
from django.db import connection, connections

from babel_companion import celery_app
from bench.servers import database_url
from sessions.models import Group, PlayerTally, RatedSession
from sessions.statistics import services as statistics
from tests.integration.conftest import Table, wait_for
from tests.integration.test_celery_worker import CELERY, REPO, WORKER_START_SECONDS

pytestmark = pytest.mark.integration

VISIBILITY_TIMEOUT = 4  # seconds, instead of the default 600
RESTORE_SWEEP = 1  # settings: a tenth of the timeout, at least 1 s


class Worker:
    """A prefork worker (one pool child) in a process group of its own, so that the whole of
    it, and only it, can be killed."""

    def __init__(self, log: Path) -> None:
        self.hostname = f"killed-{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
        self.log = log
        env = {
            **os.environ,
            "DATABASE_URL": database_url(connection.settings_dict),
            "REDIS_URL": os.environ["REDIS_URL"],
            "BROKER_VISIBILITY_TIMEOUT_SECONDS": str(VISIBILITY_TIMEOUT),
            "PYTHONUNBUFFERED": "1",
        }
        command = [str(CELERY), "-A", "babel_companion", "worker", "--pool=prefork", "--concurrency=1"]
        command += ["-l", "info", "-n", self.hostname, "--without-gossip", "--without-mingle", "--without-heartbeat"]
        with log.open("wb") as sink:
            self.process = subprocess.Popen(
                command, cwd=REPO, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
            )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_until_it_answers(self) -> None:
        def answers() -> bool:
            if self.process.poll() is not None:
                pytest.fail(f"the worker exited with {self.process.returncode}:\n{self.output()[-4000:]}")
            return bool(celery_app.control.ping(destination=[self.hostname], timeout=0.5))

        wait_for(answers, timeout=WORKER_START_SECONDS, what=f"worker {self.hostname} to answer a ping")

    def kill_whole(self) -> None:
        """SIGKILL to the main process and its pool children: nothing gets to tidy up."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


class Workers:
    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.started: list[Worker] = []

    def start(self) -> Worker:
        worker = Worker(self.logs / f"worker-{len(self.started)}.log")
        self.started.append(worker)
        worker.wait_until_it_answers()
        return worker


@pytest.fixture
def workers(redis_service: None, transactional_db: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workers]:
    """Stopped before the test database is flushed (they are set up after it)."""
    assert not celery_app.conf.task_always_eager, "with REDIS_URL set, tasks must go to the broker"
    celery_app.control.purge()
    # Messages an earlier killed worker left unacknowledged (for other test databases) would
    # come back to these workers, whose visibility timeout is short.
    redis.Redis.from_url(os.environ["REDIS_URL"]).delete("unacked", "unacked_index")
    started = Workers(tmp_path_factory.mktemp("killed-worker"))
    try:
        yield started
    finally:
        for worker in started.started:
            worker.stop()


def group_lock(table: Table) -> psycopg.Connection:
    """Another connection holding the group's row, as a long update of the group would: the
    worker's update then runs, and waits, until the lock goes."""
    config = connection.settings_dict
    holder = psycopg.connect(
        dbname=config["NAME"], user=config.get("USER") or None, host=config.get("HOST") or None,
        port=config.get("PORT") or None, password=config.get("PASSWORD") or None,
    )  # fmt: skip
    # NO KEY: the worker's FOR UPDATE waits, the inserts that refer to the group (FOR KEY SHARE) do not.
    holder.execute("SELECT id FROM babel_group WHERE id = %s FOR NO KEY UPDATE", [table.night.group_id])
    return holder


def waiting_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(  # this database's only: the server is shared
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def test_a_task_of_a_worker_killed_whole_runs_on_the_next_worker_within_the_visibility_timeout(
    workers, table: Table
) -> None:
    first = workers.start()
    holder = group_lock(table)
    try:
        session = table.play({"Ada": 30, "Bruno": 20, "Chiara": 10})  # enqueues update_statistics
        wait_for(waiting_for_a_lock, timeout=30, what="the worker's task to run (and wait for the group)")
        found = re.search(r"sessions\.tasks\.update_statistics\[([0-9a-f-]+)\] received", first.output())
        assert found, first.output()[-4000:]
        task_id = found.group(1)
        first.kill_whole()
        killed_at = time.monotonic()
    finally:
        holder.rollback()
        holder.close()
    assert not RatedSession.objects.filter(session=session).exists()  # the killed run wrote nothing

    second = workers.start()
    wait_for(
        lambda: RatedSession.objects.filter(session=session).exists(),
        timeout=VISIBILITY_TIMEOUT + RESTORE_SWEEP + 20,
        what=f"task {task_id} to run again on the next worker",
    )
    elapsed = time.monotonic() - killed_at
    print(f"counted by the next worker {elapsed:.1f} s after the kill (visibility timeout {VISIBILITY_TIMEOUT} s)")
    assert f"[{task_id}] received" in second.output(), second.output()[-4000:]  # the same message, again
    assert elapsed >= VISIBILITY_TIMEOUT - 1  # not before the timeout: it was the redelivery
    tallies = sorted(PlayerTally.objects.values_list("plays", "wins"))
    assert tallies == [(1, 0), (1, 0), (1, 1)], second.output()[-4000:]  # counted once


def test_an_update_delivered_again_while_the_first_still_runs_counts_the_sessions_once(
    redis_service: None, table: Table
) -> None:
    """What a visibility timeout shorter than a task would do: two runs at once, on PostgreSQL."""
    sessions = [table.play({"Ada": 30 - n, "Bruno": 20, "Chiara": 10 + n}) for n in range(3)]
    celery_app.control.purge()  # no worker here: the three stay pending, run by hand below
    Group.objects.update(statistics_behind=True)  # as when their own updates were lost

    def run() -> int:
        try:
            return statistics.update_statistics(session_id=sessions[-1].pk)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=2) as pool:
        counts = sorted(pool.map(lambda _n: run(), range(2)))

    assert counts == [0, 3]  # one run counted the three, the other then found them counted
    assert RatedSession.objects.count() == 3
    assert sorted(PlayerTally.objects.values_list("plays", flat=True)) == [3, 3, 3]
