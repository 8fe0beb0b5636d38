"""The ASGI application: Django's pages and API over HTTP, and the devices' push sockets.

Run it with several worker processes (`uvicorn babel_companion.asgi:application --workers 4`);
the Redis channel layer (REDIS_URL) carries each push to the sockets of every process.
"""

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from typing import Any

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.db import close_old_connections
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix


class SynchronousChainHandler(ASGIHandler):
    """Django's ASGI handler with the whole of a request served in one thread of a pool, entered
    once: several requests at a time in each process, each as under WSGI.

    Every view of the app is synchronous. Django's handler runs a middleware that can be async as
    async, and each of Django's own (MiddlewareMixin) then hops to a worker thread and back for
    its process_request and again for its process_response, WhiteNoise (synchronous only) back
    the other way: twenty-odd thread hops a request. A phone's 304 with its ticket, 0.5 ms of
    work, took 3.8 ms over uvicorn (``bench/table_load.py``). Built synchronous, as Django builds
    it when every middleware is synchronous only, the chain and the view run in one thread.

    Django runs a synchronous chain on its one "thread-sensitive" thread, so a process served
    one request at a time: a move's POST and the fetches of every device after it queued on an
    idle CPU (issue 41). The chain runs on a pool of ``REQUEST_THREADS`` threads instead, as a
    WSGI server's threads would: no more than the database pool lends connections, so that no
    request waits for one (docs/live-table.md).

    And the request's signals run in that thread too, with the chain: ``request_started``
    before it, ``request_finished`` (the response closed, the thread's database connection back
    to the pool) once the response is made. Django's own handler gives each request a
    thread-sensitive context, which starts a thread for those signals and another to stop it,
    and hops to it three times: with a 304's 0.5 ms of work, that was 0.9 ms of a request's
    1.4 ms (``bench/asgi_overhead.py``).
    """

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        threads = ThreadPoolExecutor(max_workers=settings.REQUEST_THREADS, thread_name_prefix="request")
        self._serve_in_a_thread = sync_to_async(self._serve, thread_sensitive=False, executor=threads)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP connections, not {scope['type']}")
        await self.handle(scope, receive, send)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Django's ``handle``, its work in one thread: the request is served while its client is
        listened to, and the view's thread left to finish if the client goes."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))

        async def serve() -> HttpResponseBase:
            response: HttpResponseBase = await self._serve_in_a_thread(scope, body_file)
            with suppress(asyncio.CancelledError):  # the client went while it was sent
                await self.send_response(response, send)
            return response

        listening, serving = asyncio.create_task(self.listen_for_disconnect(receive)), asyncio.create_task(serve())
        await asyncio.wait([listening, serving], return_when=asyncio.FIRST_COMPLETED)
        for task in (listening, serving):
            if not task.done():
                task.cancel()
            try:
                await task
            except (asyncio.CancelledError, RequestAborted):
                pass
            except AssertionError:
                body_file.close()
                raise
        if not serving.cancelled() and serving.exception() is None and serving.result().streaming:
            # Its content was read on Django's thread (``send_response``): closed there.
            await sync_to_async(serving.result().close)()
        body_file.close()

    def _serve(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """The request served in this thread, its signals with it; a streamed response is closed
        once sent, the others at once (their content is made)."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response = self.get_response(request) if request is not None else error_response
        assert response is not None  # create_request gives a request or the answer to a bad one
        response._handler_class = self.__class__  # type: ignore[attr-defined]  # as Django's handler does
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if response.streaming:
            close_old_connections()  # this thread's; the content is read on Django's thread
        else:
            response.close()  # request_finished
        return response


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "babel_companion.settings")
django.setup(set_prefix=False)  # as get_asgi_application does, before the consumers are imported
django_application = SynchronousChainHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from sessions.table.consumers import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
