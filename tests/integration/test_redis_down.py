"""The cache's Redis is killed: the join pages, seats, the host's page and the calculators go
on (a new phone is refused with a 503 that says why, never a 500), and they recover when
Redis is back. A throwaway redis-server of the test's own is killed, never the shared one."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.test import Client
from rest_framework.test import APIClient

from sessions import services
from tests.integration.conftest import Table, wait_for

pytestmark = pytest.mark.integration

WONDER = "/api/v1/calculators/tower-of-babel/wonder"


class OwnRedis:
    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, cwd=self.folder, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)

        def answers() -> bool:
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False

        wait_for(answers, timeout=10, what=f"our own redis-server on port {self.port}")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)


@pytest.fixture
def own_redis(settings, tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = OwnRedis(tmp_path)
    server.start()
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
    }
    try:
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.kill()


def test_the_pages_survive_the_cache_redis_being_killed_and_recover_when_it_is_back(
    own_redis: OwnRedis, table: Table
) -> None:
    session = table.new_session()
    code = services.create_join_code(session=session).code
    host = Client()
    host.force_login(table.owner)
    joined = Client()
    assert joined.get(f"/j/{code}/").status_code == 200
    api = APIClient()
    assert api.post(WONDER, {"parts": {"a": 1}, "row": 1}, format="json").status_code == 200

    own_redis.kill()

    started = time.monotonic()
    newcomer = Client().get(f"/j/{code}/")
    assert newcomer.status_code == 503
    assert "cache does not answer" in newcomer.content.decode()
    assert Client().get("/join/", {"code": code}).status_code == 503
    assert joined.get(f"/j/{code}/").status_code == 200
    assert joined.get(f"/j/{code}/live/").status_code == 200
    ada = session.seats.all()[0].player
    assert joined.post(f"/j/{code}/seat/", {"seat": ada.pk}).status_code == 302  # choosing a seat
    assert host.get(f"/s/{session.pk}/").status_code == 200
    assert host.get(f"/s/{session.pk}/live/").status_code == 200
    calculator = api.post(WONDER, {"parts": {"a": 1}, "row": 1}, format="json")
    assert calculator.status_code == 503
    assert "cache does not answer" in calculator.content.decode()
    elapsed = time.monotonic() - started
    print(f"10 requests with the cache's Redis killed: {elapsed:.2f} s")
    assert elapsed < 10  # refused at once, not after the kernel's timeouts

    own_redis.start()  # back, empty (the counters started again)

    assert Client().get(f"/j/{code}/").status_code == 200
    assert api.post(WONDER, {"parts": {"a": 1}, "row": 1}, format="json").status_code == 200
