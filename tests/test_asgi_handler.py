"""The ASGI application enters its middleware chain once a request: the chain and the view run
in the request's worker thread as under WSGI, not hopping from the event loop to the thread and
back at every middleware (issue 16, item 3: Django's own handler made 19 such hops for a plain
page, and they cost a phone's 304 3 of its 4 milliseconds over uvicorn)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from asgiref import sync
from asgiref.testing import ApplicationCommunicator

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
    assert entered == ["Signal.asend.<locals>.sync_send", "convert_exception_to_response.<locals>.inner"]
