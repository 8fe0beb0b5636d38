"""The ASGI application enters its middleware chain once a request: the chain and the view run
in the request's worker thread as under WSGI, not hopping from the event loop to the thread and
back at every middleware (issue 16, item 3: Django's own handler made 19 such hops for a plain
page, and they cost a phone's 304 3 of its 4 milliseconds over uvicorn); and those threads
serve several requests at once (issue 41, point 1)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any
from unittest import mock

import pytest
from asgiref import sync
from asgiref.testing import ApplicationCommunicator
from django.contrib.auth.views import LoginView

from babel_companion.asgi import django_application
from tests.test_push import run

SCOPE = {
    "type": "http",
    "asgi": {"version": "3.0"},
    "http_version": "1.1",
    "method": "GET",
    "scheme": "http",
    "path": "/login/",
    "raw_path": b"/login/",
    "query_string": b"",
    "headers": [(b"host", b"localhost")],
    "client": ("127.0.0.1", 50000),
    "server": ("localhost", 80),
}


@pytest.mark.django_db(transaction=True)
def test_a_request_enters_its_middleware_chain_and_view_from_the_event_loop_once() -> None:
    entered: list[str] = []
    enter = sync.SyncToAsync.__call__

    def counted(self: sync.SyncToAsync, *args: Any, **kwargs: Any) -> Any:
        entered.append(getattr(self.func, "__qualname__", repr(self.func)))
        return enter(self, *args, **kwargs)

    async def request() -> dict[str, Any]:
        communicator = ApplicationCommunicator(django_application, SCOPE)
        await communicator.send_input({"type": "http.request", "body": b""})
        start = await communicator.receive_output(timeout=10)
        await communicator.receive_output(timeout=10)  # the body
        return start

    with mock.patch.object(sync.SyncToAsync, "__call__", counted):
        start = run(request)
    assert start["status"] == 200
    # The request_started signal's receivers, then the whole chain with the view in it.
    assert entered == ["Signal.asend.<locals>.sync_send", "_with_connections_returned.<locals>.serve"]


@pytest.mark.django_db(transaction=True)
def test_a_process_serves_a_second_request_while_the_first_is_still_in_its_view() -> None:
    """Issue 41, point 1: a slow request (a move's POST) no longer holds up the fetches behind
    it. The first login page stays in its view until the second has been answered."""
    second_answered, first_entered = threading.Event(), threading.Event()
    get = LoginView.get

    def held_first(self: LoginView, request: Any, *args: Any, **kwargs: Any) -> Any:
        if not first_entered.is_set():
            first_entered.set()
            assert second_answered.wait(timeout=10), "the second request waited for the first"
        return get(self, request, *args, **kwargs)

    async def answer(communicator: ApplicationCommunicator) -> int:
        start = await communicator.receive_output(timeout=15)
        await communicator.receive_output(timeout=15)  # the body
        return int(start["status"])

    async def two_requests() -> list[int]:
        first, second = (ApplicationCommunicator(django_application, SCOPE) for _ in range(2))
        await first.send_input({"type": "http.request", "body": b""})
        while not first_entered.is_set():
            await asyncio.sleep(0.01)
        await second.send_input({"type": "http.request", "body": b""})
        second_status = await answer(second)
        second_answered.set()
        return [await answer(first), second_status]

    with mock.patch.object(LoginView, "get", held_first):
        assert run(two_requests) == [200, 200]
