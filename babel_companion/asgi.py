"""The ASGI application: Django's pages and API over HTTP, and the devices' push sockets.

Run it with several worker processes (`uvicorn babel_companion.asgi:application --workers 4`);
the Redis channel layer (REDIS_URL) carries each push to the sockets of every process.
"""

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse


class SynchronousChainHandler(ASGIHandler):
    """Django's ASGI handler with its middleware chain built synchronous, entered once a request,
    on a thread of a pool: several requests at a time in each process.

    Every view of the app is synchronous. Django's handler runs a middleware that can be async as
    async, and each of Django's own (MiddlewareMixin) then hops to a worker thread and back for
    its process_request and again for its process_response, WhiteNoise (synchronous only) back
    the other way: twenty-odd thread hops a request. A phone's 304 with its ticket, 0.5 ms of
    work, took 3.8 ms over uvicorn (``bench/table_load.py``). Built synchronous, as Django builds
    it when every middleware is synchronous only, the chain and the view run in the request's
    one thread. Each middleware and the view behave as under WSGI.

    Django runs a synchronous chain on its one "thread-sensitive" thread, so a process served
    one request at a time: a move's POST and the fetches of every device after it queued on an
    idle CPU (issue 41). The chain runs on a pool of ``REQUEST_THREADS`` threads instead, as a
    WSGI server's threads would: no more than the database pool lends connections, so that no
    request waits for one (docs/live-table.md). A thread's database connection goes back to the
    pool when its request ends, as Django's request signals do for the thread they run in.
    """

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain = self._middleware_chain  # type: ignore[has-type]  # set by load_middleware, untyped
        threads = ThreadPoolExecutor(max_workers=settings.REQUEST_THREADS, thread_name_prefix="request")
        serve = _with_connections_returned(chain)
        self._middleware_chain = sync_to_async(serve, thread_sensitive=False, executor=threads)


def _with_connections_returned(chain: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    def serve(request: HttpRequest) -> HttpResponse:
        close_old_connections()  # what request_started does: a broken or obsolete one is replaced
        try:
            return chain(request)
        finally:
            close_old_connections()  # as request_finished: back to the pool (CONN_MAX_AGE is 0)

    return serve


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
