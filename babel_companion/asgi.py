"""The ASGI application: Django's pages and API over HTTP, and the devices' push sockets.

Run it with several worker processes (`uvicorn babel_companion.asgi:application --workers 4`);
the Redis channel layer (REDIS_URL) carries each push to the sockets of every process.
"""

import os

import django
from django.core.handlers.asgi import ASGIHandler


class SynchronousChainHandler(ASGIHandler):
    """Django's ASGI handler with its middleware chain built synchronous, entered once a request.

    Every view of the app is synchronous. Django's handler runs a middleware that can be async as
    async, and each of Django's own (MiddlewareMixin) then hops to a worker thread and back for
    its process_request and again for its process_response, WhiteNoise (synchronous only) back
    the other way: twenty-odd thread hops a request. A phone's 304 with its ticket, 0.5 ms of
    work, took 3.8 ms over uvicorn (``bench/table_load.py``). Built synchronous, as Django builds
    it when every middleware is synchronous only, the chain and the view run in the request's
    one thread. Each middleware and the view behave as under WSGI.
    """

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain = self._middleware_chain  # type: ignore[has-type]  # set by load_middleware, untyped
        self._middleware_chain = self.adapt_method_mode(True, chain, False)


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "babel_companion.settings")
django.setup(set_prefix=False)  # as get_asgi_application does, before the consumers are imported
django_application = SynchronousChainHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from sessions.consumers import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
