"""The push layer's Redis goes down and comes back (issue 41, point 6): a new socket is
refused cleanly (never a 500) so that its page falls back to fetching, the writes stand, and
once Redis is back the next move reaches every device, those whose sockets stayed open too.

A real uvicorn process whose push layer uses a redis-server of the test's own (killed and
started again on its port); the devices are ``websockets`` clients with real cookies."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from websockets.exceptions import InvalidStatus

from bench import servers as server_processes
from sessions import services
from tests.integration.conftest import Table
from tests.integration.test_push_across_processes import (
    Browser,
    csrf_token,
    logged_in,
    next_message,
    open_socket,
    run,
)
from tests.integration.test_redis_down import OwnRedis

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# How long the layer may take to find Redis again once it is back: its receiver tries again
# a second after a failure. A move within that second is missed by the open sockets, and
# caught by the pages' safety fetch (static/js/app.js, SAFETY_MS).
BACK_WITHIN = 2


@pytest.fixture
def push_redis(redis_service: None, tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed", pytrace=False)
    own = OwnRedis(tmp_path)
    own.start()
    try:
        yield own
    finally:
        if own.process is not None and own.process.poll() is None:
            own.kill()


@pytest.fixture
def server(push_redis: OwnRedis, django_db_setup: None, tmp_path: Path) -> Iterator[server_processes.Server]:
    env = {
        **os.environ,
        "DATABASE_URL": server_processes.database_url(connection.settings_dict),
        "REDIS_PUSH_URL": push_redis.url,
        "PUSH_PREFIX": settings.PUSH_PREFIX,
    }
    with server_processes.running(1, env=env, log_dir=tmp_path) as (started,):
        yield started


def test_push_refuses_new_sockets_cleanly_while_redis_is_down_and_reaches_every_device_once_it_is_back(
    server: server_processes.Server, push_redis: OwnRedis, table: Table
) -> None:
    session = table.new_session()
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    code = services.create_join_code(session=session).code
    host, phone = logged_in(table.owner), Browser()
    assert phone.request(server, "GET", f"/j/{code}/")[0] == 200
    seats = [seat.key for seat in session.seats.all()]

    def move(version: int, seat: str) -> int:
        page = host.request(server, "GET", f"/s/{session.pk}/")[1]
        form = {
            "csrfmiddlewaretoken": csrf_token(page),
            "expected_version": str(version),
            "idempotency_key": uuid.uuid4().hex,
            "seat": seat,
        }
        return host.request(server, "POST", f"/s/{session.pk}/play/first/", form)[0]

    async def refused_while_down() -> list[int]:
        """The answers to new sockets until one is refused: a socket opened in the moment
        before the layer notices that Redis is gone (101), then refused (403), never a 500."""
        answers: list[int] = []
        deadline = time.monotonic() + 10
        while not answers or (answers[-1] == 101 and time.monotonic() < deadline):
            try:
                async with open_socket(server, f"/ws/j/{code}/", phone):
                    answers.append(101)
            except InvalidStatus as refused:
                answers.append(refused.response.status_code)
            await asyncio.sleep(0.1)
        return answers

    async def scenario() -> tuple[list[int], list[object]]:
        async with (
            open_socket(server, f"/ws/sessions/{session.pk}/", host) as host_socket,
            open_socket(server, f"/ws/j/{code}/", phone) as phone_socket,
        ):
            deadline = time.monotonic() + 2
            for opened in (host_socket, phone_socket):
                assert "now" in await next_message(opened, deadline=deadline, who="a socket as it opened")
            push_redis.kill()
            answers = await refused_while_down()
            assert await asyncio.to_thread(move, 1, seats[0]) == 302  # the write stands
            push_redis.start()  # back on its port, empty
            await asyncio.sleep(BACK_WITHIN)
            assert await asyncio.to_thread(move, 2, seats[1]) == 302
            deadline = time.monotonic() + 2
            heard = [
                await next_message(host_socket, deadline=deadline, who="the host's open socket"),
                await next_message(phone_socket, deadline=deadline, who="the phone's open socket"),
            ]
            return answers, heard

    answers, heard = run(scenario)
    assert set(answers[:-1]) <= {101}
    assert answers[-1] == 403  # refused, as a socket that may not follow is: its page fetches
    assert heard == [{"session": session.pk, "version": 3}] * 2
