"""The ASGI application enters its middleware chain once a request: the chain, the view and the
request's signals run in the request's worker thread as under WSGI, not hopping from the event
loop to a thread and back at every middleware (issue 16, item 3: Django's own handler made 19
such hops for a plain page, and they cost a phone's 304 3 of its 4 milliseconds over uvicorn);
and those threads serve several requests at once (issue 41, point 1)."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any
from unittest import mock

import pytest
from asgiref import sync
from asgiref.testing import ApplicationCommunicator
from django.contrib.auth.views import LoginView
from django.core import signals
from django.test import Client

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
    # Once: the request's signals and the whole chain with the view in it, in one thread.
    assert entered == ["SynchronousChainHandler._serve"]


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


def _served(scope: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
    """The answer to a GET of ``scope`` by the ASGI application: its start, and its whole body."""

    async def request() -> tuple[dict[str, Any], bytes]:
        communicator = ApplicationCommunicator(django_application, scope)
        await communicator.send_input({"type": "http.request", "body": b""})
        start, body = await communicator.receive_output(timeout=10), b""
        while True:
            part = await communicator.receive_output(timeout=10)
            body += part.get("body", b"")
            if not part.get("more_body"):
                return start, body

    return run(request)


@pytest.mark.django_db(transaction=True)
def test_a_requests_signals_run_in_its_own_thread_so_its_database_connection_goes_back_there() -> None:
    threads: list[tuple[str, str]] = []

    def started(**_kwargs: Any) -> None:
        threads.append(("started", threading.current_thread().name))

    def finished(**_kwargs: Any) -> None:
        threads.append(("finished", threading.current_thread().name))

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        start, _body = _served(SCOPE)
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert start["status"] == 200
    assert [kind for kind, _thread in threads] == ["started", "finished"]
    assert {thread for _kind, thread in threads} == {threads[0][1]}
    assert threads[0][1].startswith("request")  # a thread of the pool, the chain's


@pytest.mark.django_db(transaction=True)
def test_a_streamed_export_is_served_whole(owner, group) -> None:
    client = Client()
    client.force_login(owner)
    path = f"/g/{group.pk}/export.json"
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    start, body = _served(
        {**SCOPE, "path": path, "raw_path": path.encode(), "headers": [(b"host", b"localhost"), (b"cookie", cookie)]}
    )
    assert start["status"] == 200
    assert json.loads(body)["group"]["name"] == group.name
