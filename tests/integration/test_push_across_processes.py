"""Push across server processes: a move written through one uvicorn process reaches the
sockets held by another one, through Redis, and the other process refuses an outsider.

Two real ``uvicorn`` processes share the test database pytest-django created and the
test's Redis; the devices are ``websockets`` clients with real cookies, the move a real
form post with its CSRF token.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from typing import Any, TypeVar
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from bench import servers as server_processes
from sessions import services
from tests.integration.conftest import Table

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

PUSH_SECONDS = 2
T = TypeVar("T")


@pytest.fixture(scope="module")
def servers(
    redis_service: None, django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[server_processes.Server]]:
    """Processes A and B, each its own uvicorn, on the test database and the test's Redis."""
    # The test database, and this process's push channels: one deployment with the test.
    env = {
        **os.environ,
        "DATABASE_URL": server_processes.database_url(connection.settings_dict),
        "PUSH_PREFIX": settings.PUSH_PREFIX,
    }
    with server_processes.running(2, env=env, log_dir=tmp_path_factory.mktemp("uvicorn")) as started:
        yield started


class Browser:
    """A device's cookie jar and its plain HTTP requests (redirects are not followed)."""

    def __init__(self, cookies: dict[str, str] | None = None) -> None:
        self.cookies = dict(cookies or {})

    def request(
        self, server: server_processes.Server, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, str]:
        headers = {"Cookie": self.cookie_header()}
        body = None
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urlencode(form)
        client = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            client.request(method, path, body=body, headers=headers)
            response = client.getresponse()
            for header in response.headers.get_all("Set-Cookie") or []:
                self.cookies.update({name: morsel.value for name, morsel in SimpleCookie(header).items()})
            return response.status, response.read().decode()
        finally:
            client.close()

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())


def logged_in(user: User) -> Browser:
    """A browser holding ``user``'s session cookie (the session row is in the shared database)."""
    client = Client()
    client.force_login(user)
    return Browser({name: morsel.value for name, morsel in client.cookies.items()})


def csrf_token(page: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert found, "the page has no form with a CSRF token"
    return found.group(1)


def open_socket(server: server_processes.Server, path: str, browser: Browser) -> Any:
    """The page's push socket, as a browser on ``server``'s page opens it."""
    return connect(
        f"ws://127.0.0.1:{server.port}{path}",
        origin=Origin(server.origin),
        additional_headers={"Cookie": browser.cookie_header()},
        proxy=None,
        open_timeout=10,
    )


async def next_message(socket: ClientConnection, *, deadline: float, who: str) -> Any:
    try:
        raw = await asyncio.wait_for(socket.recv(), timeout=max(0.0, deadline - time.monotonic()))
    except TimeoutError:
        raw = None  # failed below, outside the handler, so the report is the sentence alone
    if raw is None:
        pytest.fail(f"{who} heard nothing within {PUSH_SECONDS} s of the move", pytrace=False)
    return json.loads(raw)


def run(coroutine_function: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Runs it on an event loop in a thread of its own (the browser tests leave theirs
    running in this one)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(coroutine_function())).result()


def test_a_move_written_through_one_server_process_reaches_a_device_on_another(
    servers: list[server_processes.Server], table: Table
) -> None:
    process_a, process_b = servers
    session = table.new_session()
    # Started before the sockets open: a start is also news of the night (its game may change).
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    code = services.create_join_code(session=session).code
    host, phone = logged_in(table.owner), Browser()
    assert phone.request(process_a, "GET", f"/j/{code}/")[0] == 200  # the phone joins the night
    status, page = host.request(process_a, "GET", f"/s/{session.pk}/")
    assert status == 200
    first = {
        "csrfmiddlewaretoken": csrf_token(page),
        "expected_version": "1",
        "idempotency_key": uuid.uuid4().hex,
        "seat": session.seats.all()[0].key,
    }

    async def scenario() -> list[Any]:
        async with (
            open_socket(process_b, f"/ws/sessions/{session.pk}/", host) as host_socket,
            open_socket(process_b, f"/ws/j/{code}/", phone) as phone_socket,
        ):
            deadline = time.monotonic() + PUSH_SECONDS
            for opened in (host_socket, phone_socket):  # first, what the table shows as they join
                assert "now" in await next_message(opened, deadline=deadline, who="a socket as it opened")
            status, _ = await asyncio.to_thread(host.request, process_a, "POST", f"/s/{session.pk}/play/first/", first)
            assert status == 302, "process A did not record the move"
            return [
                await next_message(host_socket, deadline=deadline, who="the host's page on process B"),
                await next_message(phone_socket, deadline=deadline, who="the phone on process B"),
            ]

    news = run(scenario)
    session.refresh_from_db()
    assert session.version == 2
    assert news == [{"session": session.pk, "version": session.version}] * 2


def test_an_outsiders_socket_to_the_other_process_is_refused(
    servers: list[server_processes.Server], table: Table
) -> None:
    _process_a, process_b = servers
    session = table.new_session()
    outsider = logged_in(User.objects.create_user("otto", password="outsider-pass-123"))

    async def attempt() -> int:
        with pytest.raises(InvalidStatus) as refused:
            async with open_socket(process_b, f"/ws/sessions/{session.pk}/", outsider):
                pass
        return refused.value.response.status_code

    assert run(attempt) == 403
